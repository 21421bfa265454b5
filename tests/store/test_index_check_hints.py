"""`index check` and `doctor` promise `--fix` only for what it repairs (QA on issue #12).

A FIFO, a symlink loop, broken frontmatter or a non-UTF-8 name cannot be repaired by
rewriting the indexes, so their hint says what to do by hand; `--fix` is named only for
drift it really repairs, and a `--fix` run with nothing to rewrite rewrites nothing.
"""

from __future__ import annotations

import json
from pathlib import Path

from memsearch_tui.engine.store.index_problems import FIX_COMMAND, fix_hint, repairable
from memsearch_tui.engine.store.store import Store
from tests.store.test_integrity_disk import hostile, no_traceback, run  # noqa: F401  (fixture)

FIX_PROMISE = "`index check --fix` repairs"


def _by_file(problems: list[dict]) -> dict[str, dict]:
    return {p["file"]: p for p in problems}


def test_hand_fix_problems_get_hand_fix_hints(hostile: Store) -> None:  # noqa: F811
    proc = run(hostile.root, "index", "check")
    no_traceback(proc)
    out, err = proc.stdout.decode(), proc.stderr.decode()
    assert proc.returncode == 1
    assert FIX_PROMISE not in err and "index check --fix" not in out  # nothing here is repaired by --fix
    assert "needs a hand fix" in err
    assert f"fix: remove {hostile.root / 'p' / 'pipe.md'}" in out
    assert f"fix: remove the symlink loop {hostile.root / 'p' / 'loop.md'}" in out
    assert f"fix: fix the frontmatter of {hostile.root / 'p' / 'big-int.md'}" in out
    assert "fix: rename" in out  # the non-UTF-8 names
    data = json.loads(run(hostile.root, "index", "check", "--json").stdout)
    hints = {p["file"]: p["fix"] for p in data["data"]["problems"]}
    assert hints and FIX_COMMAND not in hints.values()
    assert FIX_PROMISE not in data["error"]["message"]


def test_fix_with_only_hand_fixes_rewrites_nothing(hostile: Store) -> None:  # noqa: F811
    proc = run(hostile.root, "index", "check", "--fix")
    no_traceback(proc)
    assert proc.returncode == 1
    assert b"fixed: rewrote" not in proc.stdout  # it had nothing to repair: it says no repair
    assert b"need a hand fix" in proc.stderr


def test_fix_is_promised_for_the_drift_it_repairs(hostile: Store) -> None:  # noqa: F811
    index = hostile.root / "p" / "INDEX.md"
    index.write_text(index.read_text(encoding="utf-8") + "| Ghost | active | 2026-01-01 | ghost.md |\n")
    proc = run(hostile.root, "index", "check", "--json")
    data = json.loads(proc.stdout)
    orphan = next(p for p in data["data"]["problems"] if p["kind"] == "orphan_row")
    assert orphan["fix"] == FIX_COMMAND
    assert "`index check --fix` repairs 1, the other" in data["error"]["message"]
    fixed = run(hostile.root, "index", "check", "--fix")
    assert b"fixed: rewrote 1 index file\n" in fixed.stdout  # one file, said in the singular
    assert "ghost.md" not in index.read_text(encoding="utf-8")


def test_a_store_with_drift_only_is_told_fix_repairs_it(store: Store) -> None:
    store.add("p", "Good", "a good note about deploys\n")
    (store.root / "p" / "INDEX.md").unlink()
    proc = run(store.root, "index", "check")
    assert proc.returncode == 1 and b"`index check --fix` repairs the indexes" in proc.stderr
    assert run(store.root, "index", "check", "--fix").returncode == 0


def test_fix_hint_rules(tmp_path: Path) -> None:
    folder = {
        "kind": "malformed",
        "file": "p/INDEX.md",
        "message": "is a folder, not an index file: rename or remove it",
    }
    assert not repairable(folder) and "rename or remove the folder" in fix_hint(folder)
    bad_table = {"kind": "malformed", "file": "p/INDEX.md", "message": "line 9: expected 4 cells, found 2"}
    assert repairable(bad_table) and fix_hint(bad_table) == FIX_COMMAND
    outside = {"kind": "outside_category", "file": "x.md", "message": "entry file directly in the root"}
    assert fix_hint(outside, tmp_path) == f"move {tmp_path / 'x.md'} into a category folder, then run {FIX_COMMAND}"
    dangling = {"kind": "unreadable_file", "file": "p/d.md", "message": "dangling symlink; not read"}
    assert fix_hint(dangling).startswith("remove the link p/d.md")
    big = {
        "kind": "invalid_entry",
        "file": "p/b.md",
        "message": "/x/p/b.md: 2,000,000 bytes, over the 1,064,000-byte limit",
    }
    assert fix_hint(big).startswith("shorten or split p/b.md")
