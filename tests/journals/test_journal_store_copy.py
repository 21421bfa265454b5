"""Issue 38, item 1: a journal operation names a file outside the memory root (the
project's day) besides the store's own trash. A moved store keeps undoing it: the day is
the same file whichever copy undoes it; only paths under a root the store was at before
(an old record's absolute paths) are refused, and the day is never among those named."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

from tests.journals.conftest import DAY, JOURNAL


def _forget(cli) -> None:
    r = cli("--json", "journal", "forget", DAY, "--session", "s1", "--turn", "t1", "--reason", "wrong")
    assert r.code == 0, r.out + r.err


def _move(tmp_path: Path) -> tuple[Path, Path]:
    root, moved = tmp_path / "memory", tmp_path / "moved"
    subprocess.run(["mv", str(root), str(moved)], check=True)
    return root, moved


def test_a_journal_forget_undoes_in_a_moved_store(cli, proj, day_path, tmp_path) -> None:
    _forget(cli)
    root, moved = _move(tmp_path)
    r = cli("undo", root=moved)
    assert r.code == 0, r.err
    assert day_path.read_text(encoding="utf-8") == JOURNAL  # the project's day is back
    assert not root.exists()  # nothing recreated where the store was


def test_an_old_journal_record_names_only_the_old_store_paths(cli, proj, day_path, tmp_path) -> None:
    _forget(cli)
    root = tmp_path / "memory"
    for p in (root / ".memsearch-tui" / "oplog").glob("*.json"):  # as logs were written before
        data = json.loads(p.read_text(encoding="utf-8"))
        for f in data["files"]:
            f["path"] = str(root.absolute() / f["path"])  # an absolute path stays as it is
        p.write_text(json.dumps(data), encoding="utf-8")
    forgotten = day_path.read_bytes()
    root, moved = _move(tmp_path)
    r = cli("undo", root=moved)
    assert r.code == 1 and "outside this store" in r.err
    assert str(root / ".trash") in r.err and str(day_path) not in r.err
    assert day_path.read_bytes() == forgotten and not root.exists()
