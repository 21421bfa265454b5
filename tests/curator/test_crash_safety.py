"""SIGKILL before every disk change inside archive, trash, restore, split, merge and undo.

A forked child runs one operation and SIGKILLs itself just before its first, then its
second, ... change of the disk (a rename, link, unlink, mkdir or rmdir), each time from the
same store, until the operation finishes; after each kill the parent repairs like ``index
check --fix`` (plus the trash index) and checks: every index is consistent and the multiset
of entry bodies, live and trashed, is exactly what it was. Between two such calls the disk
does not change by name, so this reaches every state a kill can leave, where kills at
random moments (204 of them, ~100 s) reached most by chance.
"""

from __future__ import annotations

import os
import random
import shutil
import signal
import sys
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from memsearch_tui.engine.core import locking
from memsearch_tui.engine.core.errors import MemsearchError
from memsearch_tui.engine.curator import lifecycle, split, trash
from memsearch_tui.engine.history import undo
from memsearch_tui.engine.store import trash_index
from memsearch_tui.engine.store.store import Store
from tests.curator.curator_helpers import bodies

OPS = {"a": "archive", "t": "trash", "r": "restore", "s": "split", "m": "merge", "u": "undo"}
pytestmark = pytest.mark.skipif(not hasattr(os, "fork"), reason="needs os.fork (POSIX)")


WORDS = [
    "alpha",
    "bravo",
    "charlie",
    "delta",
    "echo",
    "foxtrot",
    "golf",
    "hotel",
    "india",
    "juliet",
    "kilo",
    "lima",
    "mike",
    "november",
    "oscar",
    "papa",
    "quebec",
    "romeo",
    "sierra",
    "tango",
]


def _seed(store: Store) -> None:
    for i in range(6):  # two categories, tags, related links: what each op touches; more entries only repeat steps
        words = " ".join(WORDS[(i * 7 + k) % len(WORDS)] for k in range(6))
        cat = "work" if i % 2 else "home"
        related = [f"home/item-{i - 1}"] if i % 2 and i > 1 else []
        store.add(
            cat,
            f"Item {i}",
            f"Item {i} remembers {words}.\n",
            tags=["even" if i % 2 == 0 else "odd", f"t{i % 3}"],
            related=related,
        )
    # Undoing the seeding adds would remove entries on purpose; only the ops under test are undoable.
    shutil.rmtree(store.root / ".memsearch-tui" / "oplog")


def _one_op(store: Store, rng: random.Random, code: str) -> None:
    live = [s for s in store.catalog().entries.values() if not s.error]
    if code == "a":
        active = [s.id for s in live if s.status == "active"]
        if active:
            lifecycle.archive(store, rng.choice(active))
    elif code == "t":
        if live:
            trash.trash(store, rng.choice(live).id, "crash test")
    elif code == "r":
        items = trash.list_trash(store.root)
        if items:
            trash.restore(store, rng.choice(items).key)
    elif code == "s":
        cat = rng.choice(["home", "work"])
        if (store.root / cat).is_dir():
            split.apply(store, cat, rng.choice(["tag", "status"]))
    elif code == "m":
        split_up = sorted({s.category.split("/")[0] for s in live if "/" in s.category})
        if split_up:
            split.merge(store, rng.choice(split_up))
    elif code == "u":
        undo.undo_last(store.root)


#: The ops in the order they run, each from the store the one before left: every op, the undo
#: of a merge (many moves back, paired by body) and of a trash (one move back).
PLAN = "atrsmutu"

#: The calls that change what is on disk by name (a file's bytes only reach a store path by
#: one of them: every store write goes to a temp file first). A kill between two of them
#: leaves the same disk whatever moment it came, so a kill before each one (and the finished
#: op) is every state a SIGKILL can leave; a kill inside a temp file's write leaves a temp file.
STEPS = ("mkdir", "rmdir", "link", "unlink", "remove", "rename", "replace")


def _plan_code(store: Store, want: str) -> str:
    """The planned op when it has work to do, else the op that gives it some."""
    live = [s for s in store.catalog().entries.values() if not s.error]
    has_subs = any(s.category not in ("home", "work") for s in live)
    in_trash = bool(trash.list_trash(store.root))
    if want == "a" and not any(s.status == "active" for s in live):
        return "r" if in_trash else "t"
    if want == "t" and not live:
        return "r"
    if want == "r" and not in_trash:
        return "t"
    if want == "s" and has_subs:
        return "m"
    if want == "m" and not has_subs:
        return "s"
    return want


def _die_before_step(step: int) -> None:
    """In the child: SIGKILL ourselves just before the ``step``-th (from 0) call of STEPS
    that changes the disk (a ``mkdir`` of a folder already there changes nothing)."""
    seen = iter(range(1 << 30))
    for name in STEPS:
        real = getattr(os, name)

        def hooked(*args: Any, _real: Any = real, _mkdir: bool = name == "mkdir", **kwargs: Any) -> Any:
            unchanged = _mkdir and "dir_fd" not in kwargs and os.path.isdir(args[0])
            if not unchanged and next(seen) == step:
                os.kill(os.getpid(), signal.SIGKILL)
            return _real(*args, **kwargs)

        setattr(os, name, hooked)


def _child(root: Path, wfd: int, seed: int, code: str, step: int) -> None:
    """Run one op, killed just before its ``step``-th disk change; ``.`` when it finished first."""
    locking._LOCKS.clear()  # a lock object inherited across fork is the parent's; a new process has none
    _die_before_step(step)
    try:
        _one_op(Store(root), random.Random(seed), code)
    except MemsearchError:
        pass
    except BaseException:  # anything else is a bug: tell the parent
        os.write(wfd, b"!")
        raise
    os.write(wfd, b".")


def _run_killed_at(root: Path, seed: int, code: str, step: int) -> bool:
    """Fork the op killed before its ``step``-th disk change; whether it finished instead."""
    rfd, wfd = os.pipe()
    pid = os.fork()
    if pid == 0:  # child: never return into pytest
        try:
            os.close(rfd)
            _child(root, wfd, seed, code, step)
        finally:
            os._exit(0)
    os.close(wfd)
    os.waitpid(pid, 0)
    seen = b""
    while chunk := os.read(rfd, 4096):
        seen += chunk
    os.close(rfd)
    assert b"!" not in seen, f"{OPS[code]} failed with an unexpected error (not a kill)"
    return seen == b"."


def _repair_and_check(store: Store, expected: list[str]) -> None:
    store.rebuild_index()
    trash_index.rebuild_trash_index(store.root)
    assert store.check_index() == []
    assert trash_index.check_trash_index(store.root) == []
    assert bodies(store.root) == expected


@pytest.mark.slow
def test_sigkill_before_any_disk_change_of_any_op_never_loses_or_duplicates_an_entry(tmp_path: Path) -> None:
    """Each planned op runs again from the same store, killed before its first, second, …
    disk change until it finishes: every state a kill inside it can leave is repaired and
    checked (a random moment found them by chance: 204 kills, ~100 s)."""
    store = Store(tmp_path / "memory")
    store.init()
    _seed(store)
    expected = bodies(store.root)
    kept = tmp_path / "before-op"
    kills: Counter[str] = Counter()
    sys.stdout.flush()
    sys.stderr.flush()
    for n, want in enumerate(PLAN):
        code = _plan_code(store, want)
        shutil.copytree(store.root, kept, symlinks=True)
        step = 0
        while not _run_killed_at(store.root, n, code, step):  # killed: repair and check, then from the start again
            _repair_and_check(store, expected)
            kills[OPS[code]] += 1
            step += 1
            assert step < 500, f"{OPS[code]} never finished"
            shutil.rmtree(store.root)
            shutil.copytree(kept, store.root, symlinks=True)
        _repair_and_check(store, expected)  # the finished op is the next one's store
        shutil.rmtree(kept)
    assert set(kills) == set(OPS.values()), kills  # every op was killed at each of its steps
    assert all(kills[o] >= 3 for o in OPS.values()), kills
