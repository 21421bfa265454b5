"""The one $EDITOR round trip the CLI and the TUI share: never overwrites a change it did not see."""

from __future__ import annotations

import stat
import subprocess
import sys
from pathlib import Path

import pytest

from memsearch_tui.engine.core.errors import Conflict, InvalidInput
from memsearch_tui.engine.store.editor import edit_in_editor, keep_unsaved
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
    monkeypatch.setenv("MEMSEARCH_TUI_DATA_DIR", str(tmp_path / "data"))
    with pytest.raises(Conflict) as err:
        edit_in_editor(store, e.id, run)
    assert e.path.read_text() == agent  # theirs stays
    kept = Path(err.value.message.rsplit("kept in ", 1)[1])
    assert "my edit" in kept.read_text()  # mine is not lost
    assert_kept_privately(kept, tmp_path, "deploy.md")


def assert_kept_privately(kept: Path, tmp_path: Path, name: str) -> None:
    """In the data folder's ``unsaved/`` (not /tmp, which a reboot may empty), 0600 in a
    0700 folder, named by the day and time and the file it was an edit of."""
    assert kept.parent == tmp_path / "data" / "unsaved", kept
    assert kept.name == f"2026-11-30-120000-{name}", kept.name
    assert stat.S_IMODE(kept.stat().st_mode) == 0o600 and stat.S_IMODE(kept.parent.stat().st_mode) == 0o700


def test_two_edits_kept_in_the_same_second_are_both_kept(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("MEMSEARCH_TUI_DATA_DIR", str(tmp_path / "data"))
    (tmp_path / "data" / "unsaved").mkdir(parents=True, mode=0o755)  # made wider by someone: narrowed
    first, second = keep_unsaved("第一稿\n".encode(), "笔记 a/b.md"), keep_unsaved(b"second\n", "b.md")
    assert first.name == "2026-11-30-120000-b.md" and second.name == "2026-11-30-120000-b-2.md"
    assert first.read_text(encoding="utf-8") == "第一稿\n" and second.read_bytes() == b"second\n"
    assert_kept_privately(second, tmp_path, "b-2.md")
    assert keep_unsaved(b"x", "部署 笔记.md").name == "2026-11-30-120000-部署-笔记.md"  # a name a person reads


def test_failing_editor_saves_nothing(store: Store, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    e = store.add("notes", "Deploy", "Roll back with the previous tag.\n")
    before = e.path.read_bytes()
    _editor(tmp_path, monkeypatch, "path.write_text('garbage'); sys.exit(3)")
    monkeypatch.setenv("MEMSEARCH_TUI_DATA_DIR", str(tmp_path / "data"))
    with pytest.raises(InvalidInput, match="exited with status 3") as err:
        edit_in_editor(store, e.id, subprocess.call)
    assert e.path.read_bytes() == before
    kept = Path(err.value.message.rsplit("what it wrote is kept in ", 1)[1])  # it wrote, then failed: kept
    assert kept.read_text() == "garbage"
    assert_kept_privately(kept, tmp_path, "deploy.md")
    _editor(tmp_path, monkeypatch, "sys.exit(1)")  # :cq with nothing written: nothing to keep
    with pytest.raises(InvalidInput, match="exited with status 1; nothing saved$"):
        edit_in_editor(store, e.id, subprocess.call)
    assert [p.name for p in (tmp_path / "data" / "unsaved").iterdir()] == [kept.name]
