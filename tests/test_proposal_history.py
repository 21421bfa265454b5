"""Proposal history: each proposal with the text it is compared against, and trash previews."""

from __future__ import annotations

import json
import os
import threading
from pathlib import Path

import pytest

from memsearch_tui.engine.curator import trash
from memsearch_tui.engine.curator.trash_preview import preview
from memsearch_tui.engine.review import proposals
from memsearch_tui.engine.review.history import NEVER_READ, history, read_note


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


SECRET = "export TOKEN=ghp_" + "A1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q7r8"


def _retarget(project: Path, pid: str, target: Path) -> None:
    """Point proposal ``pid``'s target at ``target``, as a file a cloned repository ships could."""
    path = proposals.proposals_dir(project) / f"{pid}.json"
    data = json.loads(path.read_text(encoding="utf-8"))
    path.write_text(json.dumps(data | {"target": str(target)}), encoding="utf-8")


@pytest.mark.parametrize("name", ["diary.md", "秘密 日记.md"])
def test_a_tampered_proposals_target_is_never_read(tmp_path: Path, monkeypatch, name: str) -> None:
    """A proposal naming a file outside its task's output (``~/.aws/credentials``) gets no
    base: the history read that file and the Notes pane showed it, secrets in clear."""
    project = tmp_path / "p"
    target = project / ".memsearch" / "PROJECT.md"
    target.parent.mkdir(parents=True)
    target.write_text("v0\n")
    victim = tmp_path / name
    victim.write_text(f"MY PRIVATE DIARY LINE\n{SECRET}\n", encoding="utf-8")
    monkeypatch.setenv("MEMSEARCH_TUI_NOW", "2026-11-01T10:00:00Z")
    evil = _make(project, target, "# ABS CONTENT\n")
    _retarget(project, evil.id, victim)
    monkeypatch.setenv("MEMSEARCH_TUI_NOW", "2026-11-02T10:00:00Z")
    genuine = _make(project, target, "v1\n")

    items = {h.proposal.id: h for h in history(project)}
    assert items[evil.id].proposal.tampered and (items[evil.id].base_text, items[evil.id].base_label) == (
        "",
        NEVER_READ,
    )
    assert (items[genuine.id].base_text, items[genuine.id].base_label) == ("v0\n", "file now")
    assert all("ghp_" not in h.base_text and "DIARY" not in h.base_text for h in items.values())


def _unblock(fifo: Path) -> None:
    """Open ``fifo`` for writing and close it: a reader blocked on it (the bug) gets EOF."""
    try:
        os.close(os.open(fifo, os.O_WRONLY | os.O_NONBLOCK))
    except OSError:  # no reader waiting: nothing was blocked
        pass


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs on this platform")
@pytest.mark.parametrize("name", ["PROJECT.md", "项目.md"])
def test_a_fifo_note_is_not_read_and_never_blocks(tmp_path: Path, name: str) -> None:
    """A FIFO named like a note: ``read_note`` says None at once (it blocked in ``open``
    forever, and the app's exit waited on the Notes worker)."""
    fifo = tmp_path / name
    os.mkfifo(fifo)
    got: list[str | None] = []
    reader = threading.Thread(target=lambda: got.append(read_note(fifo)), daemon=True)
    reader.start()
    reader.join(10)
    blocked = reader.is_alive()
    _unblock(fifo)
    reader.join(10)
    assert not blocked and got == [None]
    folder = tmp_path / "dir.md"
    folder.mkdir()
    assert read_note(folder) is None  # a folder is no note either


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs on this platform")
def test_a_fifo_note_is_a_base_that_says_it_was_not_read(tmp_path: Path) -> None:
    """A pending proposal for a PROJECT.md that is a FIFO: compared with nothing, and the
    base says why (6e86c88: "file now", as if the file were empty), never blocking."""
    project = tmp_path / "项目"
    target = project / ".memsearch" / "PROJECT.md"
    target.parent.mkdir(parents=True)
    target.write_text("# 项目\n", encoding="utf-8")
    made = _make(project, target, "# 项目\n- 新的\n")  # (made for a FIFO, ``create`` itself blocks: left)
    target.unlink()
    os.mkfifo(target)
    items: list[object] = []
    reader = threading.Thread(target=lambda: items.extend(history(project)), daemon=True)
    reader.start()
    reader.join(30)
    assert not reader.is_alive(), "the history blocked on a FIFO"
    [item] = items
    assert (item.proposal.id, item.base_text, item.base_label) == (  # type: ignore[attr-defined]
        made.id,
        "",
        "file now: not a regular file: not read",
    )
