"""Proposal history: each proposal with the text it is compared against, and trash previews."""

from __future__ import annotations

from pathlib import Path

from memsearch_tui.engine.curator import trash
from memsearch_tui.engine.curator.trash_preview import preview
from memsearch_tui.engine.review import proposals
from memsearch_tui.engine.review.history import history, read_note


def _make(project: Path, target: Path, content: str) -> proposals.ProjectProposal:
    return proposals.create(
        project,
        platform="claude-code",
        task="project_review",
        target=target,
        content=content,
        reason="r",
        input_digest="d",
    )


def test_history_bases(tmp_path: Path, monkeypatch) -> None:
    project = tmp_path / "p"
    target = project / ".memsearch" / "PROJECT.md"
    target.parent.mkdir(parents=True)
    target.write_text("v0\n")
    monkeypatch.setenv("MEMSEARCH_TUI_NOW", "2026-11-01T10:00:00Z")
    first = _make(project, target, "v1\n")
    proposals.accept(project, first.id, memory_root=None)  # type: ignore[arg-type]
    monkeypatch.setenv("MEMSEARCH_TUI_NOW", "2026-11-02T10:00:00Z")
    second = _make(project, target, "v2\n")
    proposals.reject(project, second.id, note="no")
    monkeypatch.setenv("MEMSEARCH_TUI_NOW", "2026-11-03T10:00:00Z")
    third = _make(project, target, "v3\n")

    items = {h.proposal.id: h for h in history(project)}
    assert [h.proposal.id for h in history(project)] == [third.id, second.id, first.id]  # newest first
    assert (items[second.id].base_text, items[second.id].base_label) == ("v1\n", f"accepted {first.id}")
    assert (items[third.id].base_text, items[third.id].base_label) == ("v1\n", "file now")  # pending: the file
    assert items[first.id].base_label == "file now"
    assert read_note(target) == "v1\n" and read_note(tmp_path / "missing.md") is None


def test_trash_preview_reads_without_restoring(store) -> None:
    store.add("snippets", "Find large files", "find . -size +50M\n", tags=["shell"])
    trash.trash(store, "snippets/find-large-files", reason="dotfiles")
    item = trash.list_trash(store.root)[0]
    p = preview(item)
    assert p.meta["title"] == "Find large files" and "find . -size +50M" in p.body and not p.problem
    assert Path(item.path).exists()
    Path(item.path).unlink()
    assert "No such file" in preview(item).problem
