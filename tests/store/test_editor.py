"""The one $EDITOR round trip the CLI and the TUI share: never overwrites a change it did not see."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from memsearch_tui.engine.core.errors import Conflict, InvalidInput
from memsearch_tui.engine.store.editor import edit_in_editor
from memsearch_tui.engine.store.store import Store


def _editor(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, code: str) -> None:
    """$EDITOR is a small Python program that runs ``code`` with ``path`` bound to the file."""
    script = tmp_path / "editor.py"
    script.write_text(f"import sys, pathlib\npath = pathlib.Path(sys.argv[1])\n{code}\n")
    monkeypatch.setenv("EDITOR", f"{sys.executable} {script}")
    monkeypatch.delenv("VISUAL", raising=False)


def test_saved_edit_replaces_the_entry(store: Store, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    e = store.add("notes", "Deploy", "Roll back with the previous tag.\n")
    _editor(tmp_path, monkeypatch, "path.write_text(path.read_text().replace('previous tag', 'last good tag'))")
    result = edit_in_editor(store, e.id, subprocess.call)
    assert result.changed and "last good tag" in store.get(e.id).body


def test_unchanged_file_is_not_rewritten(store: Store, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    e = store.add("notes", "Deploy", "Roll back with the previous tag.\n")
    before = e.path.read_bytes()
    mtime = e.path.stat().st_mtime_ns
    _editor(tmp_path, monkeypatch, "pass")
    assert edit_in_editor(store, e.id, subprocess.call).changed is False
    assert e.path.read_bytes() == before and e.path.stat().st_mtime_ns == mtime


def test_change_made_while_editing_is_kept_and_the_edit_too(
    store: Store, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    e = store.add("notes", "Deploy", "Roll back with the previous tag.\n")
    agent = e.path.read_text().replace("previous tag", "tag the agent wrote")

    def run(cmd: list[str]) -> int:
        e.path.write_text(agent)  # an agent writes while the editor is open
        return subprocess.call(cmd)

    _editor(tmp_path, monkeypatch, "path.write_text(path.read_text().replace('previous tag', 'my edit'))")
    with pytest.raises(Conflict) as err:
        edit_in_editor(store, e.id, run)
    assert e.path.read_text() == agent  # theirs stays
    kept = Path(err.value.message.rsplit("kept in ", 1)[1])
    assert "my edit" in kept.read_text()  # mine is not lost
    kept.unlink()


def test_failing_editor_saves_nothing(store: Store, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    e = store.add("notes", "Deploy", "Roll back with the previous tag.\n")
    before = e.path.read_bytes()
    _editor(tmp_path, monkeypatch, "path.write_text('garbage'); sys.exit(3)")
    with pytest.raises(InvalidInput, match="exited with status 3"):
        edit_in_editor(store, e.id, subprocess.call)
    assert e.path.read_bytes() == before
