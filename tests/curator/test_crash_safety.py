"""SIGKILL at random moments inside archive, trash, restore, split, merge and undo.

A forked child runs those operations in a loop on a small store (each op announces itself
on a pipe before it starts), the parent kills it after a random delay with SIGKILL, then
repairs like ``index check --fix`` (plus the trash index) and checks: every index is
consistent and the multiset of entry bodies, live and trashed, is exactly what it was.
Forking keeps each round at a few milliseconds, so 200+ kills fit in the suite.
"""

from __future__ import annotations

import os
import random
import select
import shutil
import signal
import sys
import time
from collections import Counter
from pathlib import Path

import pytest

from memsearch_tui.engine.core import locking
from memsearch_tui.engine.core.errors import MemsearchError
from memsearch_tui.engine.curator import lifecycle, split, trash
from memsearch_tui.engine.history import undo
from memsearch_tui.engine.store import trash_index
from memsearch_tui.engine.store.store import Store
from tests.curator.curator_helpers import bodies

OPS = {"a": "archive", "t": "trash", "r": "restore", "s": "split", "m": "merge", "u": "undo"}
MIN_PER_OP = 34  # 6 × 34 = 204 kills at least
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
    for i in range(14):
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
        cat = rng.choice(["home", "work"])
        if (store.root / cat).is_dir():
            split.merge(store, cat)
    elif code == "u":
        undo.undo_last(store.root)


def _next_code(store: Store, rng: random.Random, focus: str) -> str:
    """The focus op when it has work to do, else the op that gives it some."""
    live = [s for s in store.catalog().entries.values() if not s.error]
    has_subs = any(s.category not in ("home", "work") for s in live)
    in_trash = bool(trash.list_trash(store.root))
    if focus == "a" and not any(s.status == "active" for s in live):
        return "r" if in_trash else "t"
    if focus == "t" and not live:
        return "r"
    if focus == "r" and not in_trash:
        return "t"
    if focus in ("s", "m") and not live:
        return "r" if in_trash else "u"  # nothing to split or merge until entries come back
    if focus == "s" and has_subs:
        return "m"
    if focus == "m" and not has_subs:
        return "s"
    if focus == "u" and rng.random() < 0.5:
        return rng.choice("atrsm")
    if rng.random() < 0.15:  # keep the store moving between shapes
        return rng.choice("atrsmu")
    return focus


def _child(root: Path, wfd: int, seed: int, focus: str) -> None:
    """Run operations forever, announcing each one; the parent kills us."""
    locking._LOCKS.clear()  # a lock object inherited across fork is the parent's; a new process has none
    rng = random.Random(seed)
    store = Store(root)
    while True:
        code = _next_code(store, rng, focus)
        os.write(wfd, code.encode())
        try:
            _one_op(store, rng, code)
        except MemsearchError:
            pass
        except BaseException:  # anything else is a bug: tell the parent
            os.write(wfd, b"!")
            raise


def _kill_one(root: Path, rng: random.Random, focus: str) -> str:
    """Fork, let the child work for a random moment, SIGKILL it; the op it was in."""
    rfd, wfd = os.pipe()
    pid = os.fork()
    if pid == 0:  # child: never return into pytest
        try:
            os.close(rfd)
            _child(root, wfd, rng.randrange(1 << 30), focus)
        finally:
            os._exit(0)
    os.close(wfd)
    first = b""
    deadline = time.monotonic() + 2
    while focus.encode() not in first and time.monotonic() < deadline:  # wait for the focus op to start
        if select.select([rfd], [], [], 0.5)[0]:
            first += os.read(rfd, 1)
    time.sleep(rng.uniform(0.0, 0.04))
    os.kill(pid, signal.SIGKILL)
    os.waitpid(pid, 0)
    seen = first
    while chunk := os.read(rfd, 4096):
        seen += chunk
    os.close(rfd)
    assert b"!" not in seen, "an operation failed with an unexpected error (not a kill)"
    return OPS[seen.decode()[-1]]


def _repair_and_check(store: Store, expected: list[str]) -> None:
    store.rebuild_index()
    trash_index.rebuild_trash_index(store.root)
    assert store.check_index() == []
    assert trash_index.check_trash_index(store.root) == []
    assert bodies(store.root) == expected


@pytest.mark.slow
def test_sigkill_never_loses_or_duplicates_an_entry(tmp_path: Path) -> None:
    store = Store(tmp_path / "memory")
    store.init()
    _seed(store)
    expected = bodies(store.root)
    rng = random.Random(20261130)
    kills: Counter[str] = Counter()
    sys.stdout.flush()
    sys.stderr.flush()
    while min(kills[o] for o in OPS.values()) < MIN_PER_OP and sum(kills.values()) < 1000:
        focus = min(OPS, key=lambda c: kills[OPS[c]])  # the op killed least so far
        kills[_kill_one(store.root, rng, focus)] += 1
        _repair_and_check(store, expected)
    assert sum(kills.values()) >= 200
    assert all(kills[o] >= MIN_PER_OP for o in OPS.values()), kills
