"""The demo ships a transcript its journal anchors point at, and a proposal history; idempotent."""

from __future__ import annotations

import os
from pathlib import Path

from memsearch_tui.demo import seed
from memsearch_tui.engine.memsearch.journal import journal_files, load_journal
from memsearch_tui.engine.memsearch.transcript import load_transcript
from memsearch_tui.engine.review import proposals


def _snapshot(base: Path) -> dict[str, bytes]:
    return {
        str(p.relative_to(base)): p.read_bytes()
        for p in base.rglob("*")
        if p.is_file() and ".memsearch-tui" not in p.parts
    }


def test_demo_transcript_and_history(tmp_path: Path, monkeypatch) -> None:
    monkeypatch.setenv("HOME", str(tmp_path))
    monkeypatch.setattr(os, "fsync", lambda fd: None)
    root, project, notes = seed(tmp_path / "demo")
    assert not notes
    anchors = [
        t.anchor
        for p in journal_files(project / ".memsearch" / "memory")
        for t in load_journal(p).turns
        if t.anchor and "transcripts/" in t.anchor.source
    ]
    assert [a.fields["turn"] for a in anchors] == ["1", "2"]
    assert anchors[0].source.startswith("~/demo/transcripts/")  # home-relative, readable
    t = load_transcript(Path(anchors[0].source).expanduser())
    assert {m.role for m in t.messages} == {"user", "assistant", "tool"} and t.skipped == 0
    assert t.messages[t.index_of("2")].text.startswith("So what do we do")
    assert sorted(p.status for p in proposals.list_all(project)) == ["accepted", "pending", "rejected"]

    before = _snapshot(tmp_path / "demo")
    seed(tmp_path / "demo")
    assert _snapshot(tmp_path / "demo") == before  # a second run adds and changes nothing
