"""This device's commit, built by our code: what stays local never enters it.

``git add -A`` obeys ``.gitignore``, and in a synced store that file is one the remote
writes: it can negate our rules, or be a link. So the tree to commit is built here from a
walk of the store that leaves out, by our own rule and nothing else:

* the trash (``.trash/``), the state folder (undo log and blobs, catalog, ``sync.json``) and
  ``.git``; temp files of an interrupted atomic write;
* a symbolic link, anything not a regular file, a name the remote rule refuses
  (:func:`guard.entry_reason`), a file over the blob bound, the second of two names a
  Mac or Windows device would make one file (:func:`guard.clashes`);
* a new or changed file in which the secret rules find a credential: left out (its last
  committed bytes stay) and named, with how to fix it.

Blobs are written with ``hash-object --no-filters`` (no clean filter runs), and the tree
with ``update-index --index-info`` from the ids we computed, so a file changed between our
read and git's is caught (its id differs) and waits for the next sync.
"""

from __future__ import annotations

import hashlib
import os
import stat
from dataclasses import dataclass, field
from pathlib import Path

from memsearch_tui.engine.core.atomic import is_temp_name
from memsearch_tui.engine.core.paths import TRASH
from memsearch_tui.engine.core.secrets import find_secret
from memsearch_tui.engine.core.state_files import STATE_DIR
from memsearch_tui.engine.sync import guard
from memsearch_tui.engine.sync.git import MAX_BLOB, Git

LOCAL = frozenset({TRASH, STATE_DIR, ".git"})  # top-level folders that never leave the machine


@dataclass
class Snapshot:
    """What the next commit holds: path → blob id, the bytes of the blobs git lacks, and
    every file left out, with why."""

    files: dict[str, str] = field(default_factory=dict)
    new: dict[str, bytes] = field(default_factory=dict)
    left_out: list[str] = field(default_factory=list)
    held: set[str] = field(default_factory=set)  # paths whose bytes here differ from the commit
    head: dict[str, str] = field(default_factory=dict)  # the last commit's files


def blob_id(data: bytes) -> str:
    """git's id of a blob holding ``data``."""
    return hashlib.sha1(b"blob %d\0" % len(data) + data, usedforsecurity=False).hexdigest()


def read_file(path: str | Path) -> bytes | None:
    """A regular file's bytes, never through a link (None if it is not a plain file now)."""
    got = _read(path)
    return None if got is None else got[1]


def _read(path: str | Path) -> tuple[tuple[int, ...], bytes] | None:
    """(what identifies this state of the file, its bytes), read through no link."""
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK)
    except OSError:
        return None
    try:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode) or st.st_size > MAX_BLOB:
            return None
        chunks, left = [], st.st_size + 1
        while left > 0 and (chunk := os.read(fd, min(left, 1 << 20))):
            chunks.append(chunk)
            left -= len(chunk)
        return _key(st), b"".join(chunks)
    except OSError:
        return None
    finally:
        os.close(fd)


def _key(st: os.stat_result) -> tuple[int, ...]:
    return (st.st_ino, st.st_size, st.st_mtime_ns, st.st_ctime_ns)


# path → (stat key, blob id) of files this process has read: one sync walks the store
# several times (markers, commit, re-commit after the fetch, after the merge); a file whose
# inode, size, mtime and ctime are unchanged is not read again.
_SEEN: dict[str, tuple[tuple[int, ...], str]] = {}


def walk(root: Path) -> tuple[dict[str, tuple[int, ...]], list[str]]:
    """Every plain file that may be sent (relative path → its stat key), and what was left
    out (why). ``os.scandir``: one ``lstat`` per file, no Path objects (a 10k-entry store)."""
    keep: dict[str, tuple[int, ...]] = {}
    left: list[str] = []
    todo = [""]
    while todo:
        rel_dir = todo.pop()
        try:
            with os.scandir(os.path.join(root, rel_dir) if rel_dir else root) as it:
                items = sorted(it, key=lambda d: d.name)
        except OSError:
            continue
        for d in items:
            rel = f"{rel_dir}/{d.name}" if rel_dir else d.name
            try:
                st = d.stat(follow_symlinks=False)
            except OSError:
                continue
            if stat.S_ISDIR(st.st_mode):
                if rel_dir or d.name not in LOCAL:
                    why = guard.entry_reason(rel + "/x")
                    if why is None:
                        todo.append(rel)
                    else:
                        left.append(f"{rel}/: not synced: {why}")
                continue
            if is_temp_name(d.name):
                continue
            why = guard.entry_reason(rel)
            if why is None and stat.S_ISLNK(st.st_mode):
                why = "a symbolic link"
            elif why is None and not stat.S_ISREG(st.st_mode):
                why = "not a regular file"
            elif why is None and st.st_size > MAX_BLOB:
                why = f"over the {MAX_BLOB:,}-byte bound"
            if why is None:
                keep[rel] = _key(st)
            else:
                left.append(f"{rel}: not synced: {why}")
    return dict(sorted(keep.items())), left


def snapshot(root: Path, head: dict[str, str]) -> Snapshot:
    """What to commit, given the last commit's files (``head``: path → blob id)."""
    out = Snapshot(head=head)
    paths, out.left_out = walk(root)
    for rel, why in guard.clashes(paths):  # two spellings the other device may make one file
        del paths[rel]
        out.left_out.append(f"{rel}: not synced: {why}; rename one of them")
        if rel in head:
            out.files[rel] = head[rel]
    base = os.fspath(root)
    for rel, key in paths.items():
        path = os.path.join(base, rel)
        seen = _SEEN.get(path)
        if seen is not None and seen[0] == key and head.get(rel) == seen[1]:
            out.files[rel] = seen[1]
            continue
        got = _read(path)
        if got is None:
            continue
        key, data = got
        sha = blob_id(data)
        _SEEN[path] = (key, sha)
        if head.get(rel) == sha:
            out.files[rel] = sha
            continue
        out.files[rel] = sha
        out.new[rel] = data
    _hold_secrets(out)
    return out


def _hold_secrets(out: Snapshot) -> None:
    """Leave out (and name) every new or changed file the secret rules flag. One scan of
    them all joined first: a first sync of a big store is one pass when none holds one."""
    texts = {rel: data.decode("utf-8", "replace") for rel, data in out.new.items()}
    if not texts or find_secret("\n\n".join(texts.values())) is None:
        return
    for rel, text in texts.items():
        kind = find_secret(text)
        if kind is None:
            continue
        out.left_out.append(
            f"{rel}: not synced: it looks like it holds a secret ({kind}); memory must not hold credentials. "
            "Remove it (`memsearch-tui edit ID`, or your editor), then sync again"
        )
        out.held.add(rel)
        del out.new[rel]
        if rel in out.head:
            out.files[rel] = out.head[rel]
        else:
            del out.files[rel]


def write_tree(g: Git, snap: Snapshot) -> str:
    """Blobs written, the index set to exactly ``snap.files``; the tree's id."""
    if snap.new:
        order = sorted(snap.new)
        paths = ("\n".join(order) + "\n").encode("utf-8", "surrogateescape")
        got = g.run("hash-object", "-w", "--no-filters", "--stdin-paths", input=paths).stdout.decode().split()
        for rel, sha in zip(order, got, strict=False):
            if sha != snap.files[rel]:  # changed after we read it: it goes with the next sync
                snap.held.add(rel)
                if rel in snap.head:
                    snap.files[rel] = snap.head[rel]
                else:
                    snap.files.pop(rel)
    g.run("read-tree", "--empty")
    records = b"".join(
        f"100644 {sha}\t{rel}".encode("utf-8", "surrogateescape") + b"\0" for rel, sha in sorted(snap.files.items())
    )
    g.run("update-index", "-z", "--index-info", input=records)
    return g.out("write-tree")
