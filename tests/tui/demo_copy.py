"""A copy of a seeded demo that is what seeding at the copy's folder gives (seeding takes
~1.2 s, a copy ~0.1-0.2 s): the TUI fixtures seed once per worker and copy per test."""

from __future__ import annotations

import os
import shutil
import sqlite3
from pathlib import Path


def copy_demo(template: Path, dest: Path) -> tuple[Path, Path]:
    """A copy of the seeded demo that is what seeding at ``dest`` gives (checked file by file
    against a fresh seed when this was written; only timestamps and transaction ids differ):

    - the absolute paths in its files (the op log, the maintenance state, the journal's
      transcript links) point into the copy, each file keeping its mtime;
    - the proposals' input digest (over the journal files, which hold those paths) is the
      copy's journals' digest, as the seeding would have computed it;
    - the stat marks of 'the file I last saw' (the catalog's and the link scan's mtime, size,
      ctime; an INDEX.md's inode) are carried over where they held for the template, so the
      store starts as warm as a fresh seed instead of re-reading everything;
    - the op log's kept copies (``BLOBS``, 323 of the demo's 539 files) are hard links to
      the template's, not copies: the engine only makes a blob (temp file, then rename) or
      unlinks it, never writes one in place, and a blob holds no path; a test that damages
      a blob must replace it, not write into it (``blobs_intact`` checks the template's at
      the end of the session). Making 539 files was most of a copy's CPU."""
    from memsearch_tui.engine.memsearch.state import input_digest
    from memsearch_tui.engine.store.walk import walk_entry_paths

    blobs = template / BLOBS
    shutil.copytree(template, dest, symlinks=True, ignore=lambda d, names: ["blobs"] if Path(d) == blobs.parent else [])
    (dest / BLOBS).mkdir()
    for blob in blobs.iterdir():
        os.link(blob, dest / BLOBS / blob.name)
    swaps = [(os.fsencode(template), os.fsencode(dest))]
    for path in dest.rglob("*"):
        if path.is_file() and not path.is_symlink() and path.parent != dest / BLOBS:
            _swap_bytes(path, swaps)
    journals = Path(".memsearch", "memory")
    swaps = [
        (input_digest(template / "project" / journals).encode(), input_digest(dest / "project" / journals).encode())
    ]
    for path in (dest / "project" / ".memsearch" / "proposals").glob("*.json"):
        _swap_bytes(path, swaps)
    before = {i: st for i, _, st in walk_entry_paths(template / "memory")}
    after = {i: st for i, _, st in walk_entry_paths(dest / "memory")}
    _carry_catalog(template / "memory", dest / "memory", before, after)
    triple = "[{0.st_mtime_ns},{0.st_size},{0.st_ctime_ns}]".format
    swaps = [(triple(before[i]).encode(), triple(after[i]).encode()) for i in before if i in after]
    _swap_bytes(dest / "memory" / ".memsearch-tui" / "lifecycle-scan.json", swaps)
    return dest / "memory", dest / "project"


#: the op log's content-addressed kept copies, below the demo folder
BLOBS = Path("memory", ".memsearch-tui", "blobs")


def blobs_intact(template: Path) -> list[str]:
    """The template's blobs whose bytes no longer hash to their name (a test wrote into a
    linked one): empty while every copy's blobs are what the seeding made."""
    import hashlib

    return [b.name for b in (template / BLOBS).iterdir() if hashlib.sha256(b.read_bytes()).hexdigest() != b.name]


def _swap_bytes(path: Path, swaps: list[tuple[bytes, bytes]]) -> None:
    if not path.is_file():
        return
    data = path.read_bytes()
    new = data
    for old, now in swaps:
        new = new.replace(old, now)
    if new != data:
        st = path.stat()
        path.write_bytes(new)
        os.utime(path, ns=(st.st_atime_ns, st.st_mtime_ns))


def _carry_catalog(was: Path, now: Path, before: dict[str, os.stat_result], after: dict[str, os.stat_result]) -> None:
    from memsearch_tui.engine.store.catalog import fingerprint

    db = sqlite3.connect(now / ".memsearch-tui" / "catalog.sqlite3")
    try:
        with db:
            rows = db.execute("SELECT id, mtime_ns, size, ctime_ns FROM entries").fetchall()
            for entry_id, mtime, size, ctime in rows:
                b, a = before.get(entry_id), after.get(entry_id)
                if (
                    b is not None
                    and a is not None
                    and (mtime, size, ctime) == (b.st_mtime_ns, b.st_size, b.st_ctime_ns)
                ):
                    db.execute("UPDATE entries SET ctime_ns = ? WHERE id = ?", (a.st_ctime_ns, entry_id))
            for category, mark in db.execute("SELECT category, fingerprint FROM indexes").fetchall():
                rel = [*category.split("/"), "INDEX.md"] if category else ["INDEX.md"]
                try:
                    b_st, a_st = was.joinpath(*rel).stat(), now.joinpath(*rel).stat()
                except OSError:
                    continue
                if mark == fingerprint(b_st):
                    db.execute("UPDATE indexes SET fingerprint = ? WHERE category = ?", (fingerprint(a_st), category))
    finally:
        db.close()
