"""Versions of the hosts' memory files, kept in our data folder so a person can review
what an agent changed: ``diff`` since the last review, ``seen``, ``history``, ``purge``.

Only a file :func:`~.places.candidates` finds may be recorded (a path a person types is
matched against that list, so ``diff /etc/passwd`` is refused), read by the same bounded
rule as ``ls``. Content-addressed: ``objects/<sha256>`` holds each distinct content once;
``files/<sha256 of the path>.json`` lists a file's versions (time, size, lines) and the one
last marked seen. Bounded: at most :data:`KEEP_PER_FILE` versions a file (the seen one is
kept) and :data:`KEEP_TOTAL_BYTES` of contents in all (the oldest versions that are neither
a file's newest nor its seen one go first). Every write is atomic, under one lock.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
import os
import shutil
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from memsearch_tui.engine.agent_memory import places
from memsearch_tui.engine.agent_memory.measure import count_lines, read
from memsearch_tui.engine.agent_memory.places import Candidate
from memsearch_tui.engine.agent_memory.records import (
    AgentMemoryDiff,
    AgentMemoryFile,
    AgentMemoryListing,
    AgentMemoryVersion,
)
from memsearch_tui.engine.core.atomic import atomic_write_bytes
from memsearch_tui.engine.core.clock import iso_z
from memsearch_tui.engine.core.errors import InvalidInput, LockTimeout, NotFound
from memsearch_tui.engine.core.locking import path_lock
from memsearch_tui.engine.core.safe_io import read_capped
from memsearch_tui.engine.core.secrets import redact
from memsearch_tui.engine.core.text import unified_diff

KEEP_PER_FILE = 20
KEEP_TOTAL_BYTES = 50_000_000
INDEX_BYTES = 1_000_000
DIFF_BYTES = 1_000_000  # ls counts unreviewed lines only for files up to this size (difflib is not linear)
FOLDER = "agent-memory"


def folder() -> Path:
    """``<data dir>/agent-memory``: where the versions are kept."""
    from memsearch_tui.engine.search.settings import data_home  # platformdirs only when versions are used

    return data_home() / FOLDER


def find(project: Path, path: str | Path) -> Candidate:
    """The agent-memory file ``path`` names, or NotFound when it is none of them."""
    wanted = os.path.abspath(os.path.expanduser(os.fspath(path)))
    found, *_ = places.candidates(project)
    for c in found:
        if c.problem is None and os.path.abspath(c.path) == wanted:
            return c
    raise NotFound(f"{path}: not an agent-memory file of this project (see `agent-memory ls`)", path=str(path))


@contextmanager
def _locked() -> Iterator[Path]:
    base = folder()
    base.mkdir(parents=True, exist_ok=True)
    lock = path_lock(base / "lock")
    if not lock.acquire(10.0):
        raise LockTimeout(f"{base / 'lock'}: another memsearch-tui process is recording versions; try again")
    try:
        yield base
    finally:
        lock.release()


def _index_path(base: Path, path: str) -> Path:
    return base / "files" / (hashlib.sha256(path.encode("utf-8", "surrogateescape")).hexdigest()[:32] + ".json")


def _load(base: Path, path: str) -> dict[str, Any]:
    where = _index_path(base, path)
    try:
        data = json.loads(read_capped(where, INDEX_BYTES, seconds=5.0))
    except FileNotFoundError:
        return {"path": path, "versions": [], "seen": None}
    except ValueError as exc:
        raise InvalidInput(f"{where}: not a version list ({exc}); remove it or run `agent-memory purge`") from None
    if not isinstance(data, dict) or not isinstance(data.get("versions"), list):
        raise InvalidInput(f"{where}: not a version list; remove it or run `agent-memory purge`")
    return data


def _save(base: Path, index: dict[str, Any]) -> None:
    atomic_write_bytes(_index_path(base, index["path"]), json.dumps(index, indent=1).encode())


def _object(base: Path, sha: str) -> bytes:
    try:
        return read_capped(base / "objects" / sha, 2 * KEEP_TOTAL_BYTES, seconds=5.0)
    except FileNotFoundError:
        raise NotFound(f"version {sha[:12]} is no longer kept") from None


def _record(base: Path, c: Candidate, session: str | None = None) -> tuple[dict[str, Any], str, bytes]:
    """Keep the file's current content as a version when it is new; its index and sha.
    ``session``: the host session that changed it (from a hook payload), kept with it."""
    data, _ = read(c)
    sha = hashlib.sha256(data).hexdigest()
    index = _load(base, str(c.path))
    versions = index["versions"]
    if not versions or versions[-1]["sha"] != sha:
        obj = base / "objects" / sha
        if not obj.exists():
            atomic_write_bytes(obj, data)
        row = {"sha": sha, "time": iso_z(), "bytes": len(data), "lines": count_lines(data.decode())}
        versions.append({**row, "session": session} if session else row)
        while len(versions) > KEEP_PER_FILE:
            drop = next(i for i, v in enumerate(versions) if v["sha"] != index.get("seen"))
            del versions[drop]
        _save(base, index)
        _bound_total(base)
    return index, sha, data


def _bound_total(base: Path) -> None:
    """Drop the oldest versions (never a file's newest or seen one) while the kept
    contents exceed KEEP_TOTAL_BYTES, then the contents no version names."""
    loaded = (_load_file(p) for p in sorted((base / "files").glob("*.json")))
    indexes: list[dict[str, Any]] = [i for i in loaded if i is not None]

    def total() -> int:
        shas = {v["sha"]: v["bytes"] for i in indexes for v in i["versions"]}
        return sum(shas.values())

    spare = sorted(
        (
            (v["time"], n, v["sha"])
            for n, i in enumerate(indexes)
            for v in i["versions"][:-1]
            if v["sha"] != i.get("seen")
        ),
    )
    changed: set[int] = set()
    while spare and total() > KEEP_TOTAL_BYTES:
        _, n, sha = spare.pop(0)
        indexes[n]["versions"] = [v for v in indexes[n]["versions"] if v["sha"] != sha]
        changed.add(n)
    for n in changed:
        _save(base, indexes[n])
    named = {v["sha"] for i in indexes for v in i["versions"]}
    for obj in (base / "objects").iterdir():
        if obj.name not in named:
            obj.unlink(missing_ok=True)


def _load_file(path: Path) -> dict[str, Any] | None:
    try:
        data = json.loads(read_capped(path, INDEX_BYTES, seconds=5.0))
    except (OSError, ValueError):
        return None
    return data if isinstance(data, dict) and isinstance(data.get("versions"), list) else None


def _version(index: dict[str, Any], ref: str) -> dict[str, Any]:
    hits = [v for v in index["versions"] if v["sha"].startswith(ref.lower())] if len(ref) >= 4 else []
    if len(hits) != 1:
        raise NotFound(f"{index['path']}: no kept version {ref!r} (see `agent-memory history`)")
    hit: dict[str, Any] = hits[0]
    return hit


def changes(old: str, new: str) -> tuple[int, int, list[str]]:
    """(lines added, lines removed, the unified diff) from ``old`` to ``new``."""
    lines = unified_diff(old, new, "seen", "now", n=3)
    added = sum(1 for x in lines if x.startswith("+") and not x.startswith("+++"))
    removed = sum(1 for x in lines if x.startswith("-") and not x.startswith("---"))
    return added, removed, lines


def with_unreviewed(found: AgentMemoryListing) -> AgentMemoryListing:
    """``found`` with each file's lines added / removed since it was last marked seen
    (read only: nothing is recorded by ``ls``)."""
    base = folder()
    if not (base / "files").is_dir():
        return found
    return dataclasses.replace(found, files=tuple(_unreviewed(base, f) for f in found.files))


def _unreviewed(base: Path, f: AgentMemoryFile) -> AgentMemoryFile:
    index = _load_file(_index_path(base, f.path))
    seen = None if index is None else index.get("seen")
    if not isinstance(seen, str) or f.bytes > DIFF_BYTES:
        return f
    try:
        old = _object(base, seen)
        # ls proved where it resolves lies inside the host's folder; a link swapped in since is refused
        new = read_capped(os.path.realpath(f.path), DIFF_BYTES, seconds=5.0, follow=False)
        added, removed, _ = changes(old.decode(), new.decode())
    except (OSError, ValueError, NotFound, InvalidInput):  # changed since ls read it, or gone: no count
        return f
    return dataclasses.replace(f, unreviewed_added=added, unreviewed_removed=removed)


def diff(project: Path, path: str | Path, since: str | None = None) -> AgentMemoryDiff:
    """What changed in ``path`` since the version last marked seen (or ``since``); the
    current content is recorded first. Never seen: all of it is new. Secrets masked."""
    c = find(project, path)
    with _locked() as base:
        index, sha, data = _record(base, c)
        base_sha: str | None = _version(index, since)["sha"] if since else index.get("seen")
        old = b"" if base_sha is None else _object(base, base_sha)
    added, removed, lines = changes(old.decode(), data.decode())
    since_v = None if base_sha is None else base_sha[:12]
    return AgentMemoryDiff(str(c.path), since_v, sha[:12], added, removed, redact("".join(lines)))


def seen(project: Path, paths: list[str] | None) -> tuple[AgentMemoryVersion, ...]:
    """Mark the current content of ``paths`` (None: every readable agent-memory file) reviewed."""
    if paths is None:
        found, *_ = places.candidates(project)
        chosen = [c for c in found if c.problem is None]
    else:
        chosen = [find(project, p) for p in paths]
    done = []
    with _locked() as base:
        for c in chosen:
            try:
                index, sha, _ = _record(base, c)
            except InvalidInput:
                if paths is not None:
                    raise
                continue  # --all: a file ls skips is skipped here too
            index["seen"] = sha
            _save(base, index)
            done.append(_row(index, index["versions"][-1]))
    return tuple(done)


def history(project: Path, path: str | Path) -> tuple[AgentMemoryVersion, ...]:
    """The kept versions of ``path``, oldest first (the current content recorded first)."""
    c = find(project, path)
    with _locked() as base:
        index, _, _ = _record(base, c)
    return tuple(_row(index, v) for v in index["versions"])


def _row(index: dict[str, Any], v: dict[str, Any]) -> AgentMemoryVersion:
    session = v.get("session")
    return AgentMemoryVersion(
        index["path"],
        v["sha"][:12],
        v["time"],
        v["bytes"],
        v["lines"],
        v["sha"] == index.get("seen"),
        session if isinstance(session, str) else None,
    )


def purge() -> int:
    """Delete every kept version (the folder goes); how many contents were kept."""
    base = folder()
    if not base.exists():
        return 0
    with _locked():
        count = sum(1 for _ in (base / "objects").iterdir()) if (base / "objects").exists() else 0
        for name in ("objects", "files"):
            shutil.rmtree(base / name, ignore_errors=True)
        (base / "stats.json").unlink(missing_ok=True)  # the hook's stat notes: the next hook records afresh
    return count


def keep(c: Candidate) -> tuple[str, bytes]:
    """Record ``c``'s current content as a version (before a proposal changes it); its
    sha256 and bytes."""
    with _locked() as base:
        _, sha, data = _record(base, c)
    return sha, data


def record_all(found: list[Candidate], session: str | None) -> list[str]:
    """Record each of ``found`` as it is now, with ``session``; the paths recorded (a file
    that cannot be read is left for ``ls`` to name)."""
    done = []
    with _locked() as base:
        for c in found:
            try:
                _record(base, c, session)
            except (InvalidInput, NotFound):
                continue
            done.append(str(c.path))
    return done


def content(project: Path, path: str | Path, ref: str) -> tuple[Candidate, str, bytes]:
    """The file ``path`` names, and the full sha256 and bytes of its kept version ``ref``."""
    c = find(project, path)
    with _locked() as base:
        index, _, _ = _record(base, c)
        sha = str(_version(index, ref)["sha"])
        return c, sha, _object(base, sha)


def text_of(project: Path, path: str | Path, version: str | None = None) -> str:
    """The text of ``path`` now (read by the rule ``ls`` reads by), or of its kept ``version``."""
    if version is not None:
        return content(project, path, version)[2].decode("utf-8")
    return read(find(project, path))[1]
