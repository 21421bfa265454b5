"""Our three-way merge of two devices' stores: files in, files out, never a conflict marker.

git carries the files; it never merges their text. Given the common ancestor's files, this
device's and the other's (each ``path → bytes``, INDEX.md files left out: they are rebuilt
from the entries afterwards), and the renames git detected on each side, ``merge`` decides
every path:

* changed on one side only → that side's bytes; the same change on both → once;
* a rename or move on either side is followed: the other side's edit lands at the new path;
* deleted on one side, edited on the other → the edit is kept (and said);
* an entry changed on both → a conflict kept the way the store keeps one
  (:mod:`.entry_conflict`): the newer text is current, the other a version;
* ``config.md`` changed on both → merged key by key (this device wins a key both changed);
* a version file (``.versions/<id>/vN.md``) added on both → both kept, the other's renumbered;
* any other file changed on both → this device's stays, the other's is kept beside it.

Pure: no I/O, so the property tests can drive it with thousands of generated trees.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from datetime import date
from pathlib import PurePosixPath

from memsearch_tui.engine.core.paths import CONFIG, INDEX, TRASH, VERSIONS
from memsearch_tui.engine.sync import entry_conflict

Files = dict[str, bytes]
_VERSION = re.compile(r"^v(\d+)\.md$")


@dataclass
class Merged:
    """The merged files (INDEX.md excluded) and what a person should hear about."""

    files: Files = field(default_factory=dict)
    notes: list[str] = field(default_factory=list)
    conflicts: list[str] = field(default_factory=list)  # entry ids kept as sync conflicts
    kept_edits: list[str] = field(default_factory=list)  # paths deleted on one side, edited on the other


@dataclass(frozen=True)
class Sides:
    """Who is who in the notes: this device and the other one."""

    here: str
    there: str
    today: date


def is_index(path: str) -> bool:
    """INDEX.md files are derived: never merged as text, rebuilt after the merge."""
    return PurePosixPath(path).name == INDEX


def is_entry(path: str) -> bool:
    """An entry file: ``*.md`` under a category, not an INDEX.md, config.md or a dot folder."""
    p = PurePosixPath(path)
    if p.suffix != ".md" or p.name == INDEX or path == CONFIG:
        return False
    return not any(part.startswith(".") for part in p.parts)


def merge(
    base: Files, ours: Files, theirs: Files, ours_renames: dict[str, str], theirs_renames: dict[str, str], sides: Sides
) -> Merged:
    """Every path decided (see the module doc); ``*_renames``: old path → new path."""
    out = Merged()
    ours_renames, theirs_renames = _same_kind(ours_renames), _same_kind(theirs_renames)
    pending: list[tuple[str, bytes | None, bytes, bytes]] = []  # entries changed on both: decided last
    seen_ours: set[str] = set()
    seen_theirs: set[str] = set()
    for p in sorted(base):
        o_path, t_path = ours_renames.get(p, p), theirs_renames.get(p, p)
        seen_ours.add(o_path)
        seen_theirs.add(t_path)
        dest = o_path if o_path != p else t_path
        if o_path != p and t_path != p and o_path != t_path:
            out.notes.append(f"{p} was moved on both devices; kept at {o_path} (this device's place)")
        _decide(out, pending, dest, base[p], ours.get(o_path), theirs.get(t_path), sides)
    for p in sorted(set(ours) - seen_ours):
        if p in theirs and p not in seen_theirs:
            seen_theirs.add(p)
            _decide(out, pending, p, None, ours[p], theirs[p], sides)
        elif p in out.files and out.files[p] != ours[p]:  # a rename on their side landed here
            _decide(out, pending, p, None, ours[p], out.files.pop(p), sides)
        else:
            out.files[p] = ours[p]
    for p in sorted(set(theirs) - seen_theirs):
        if p in out.files and out.files[p] != theirs[p]:
            _decide(out, pending, p, None, out.files.pop(p), theirs[p], sides)
        else:
            out.files[p] = theirs[p]
    for path, b, o, t in pending:
        _entry_conflict(out, path, b, o, t, sides)
    _carry_versions(out, ours_renames, theirs_renames)
    return out


def _kind(path: str) -> str:
    return "index" if is_index(path) else "entry" if is_entry(path) else "version" if _is_version(path) else "file"


def _same_kind(renames: dict[str, str]) -> dict[str, str]:
    """Renames git detected between files of one kind only: an entry deleted while a
    similar version file was added is a delete and an add, never a move of the entry
    into ``.versions/`` (which would put that version's text where the entry was)."""
    return {old: new for old, new in renames.items() if _kind(old) == _kind(new)}


def _carry_versions(out: Merged, *renames: dict[str, str]) -> None:
    """Versions follow their entry: a version file the other device kept under an entry's
    old id (``.versions/<old>/vN.md``) moves to the id the entry was moved, archived or
    renamed to on either side (renumbered if that number is taken by other bytes)."""
    for ren in renames:
        for old, new in sorted(ren.items()):
            if not (is_entry(old) and is_entry(new)) or old in out.files or new not in out.files:
                continue
            src, dst = f"{VERSIONS}/{old[:-3]}/", f"{VERSIONS}/{new[:-3]}/"
            for p in sorted(q for q in out.files if q.startswith(src) and _VERSION.match(q[len(src) :])):
                data = out.files.pop(p)
                target = dst + p[len(src) :]
                if out.files.get(target, data) != data:
                    target = _free_version(target, out.files, data)
                    out.notes.append(f"{p}: moved with its entry to {new[:-3]}, renumbered as {target}")
                out.files[target] = data


def _decide(
    out: Merged,
    pending: list[tuple[str, bytes | None, bytes, bytes]],
    path: str,
    b: bytes | None,
    o: bytes | None,
    t: bytes | None,
    sides: Sides,
) -> None:
    if o == t or t == b:
        result = o
    elif o == b:
        result = t
    elif o is None or t is None:
        result = o if t is None else t
        gone_on = sides.there if t is None else sides.here
        out.kept_edits.append(path)
        out.notes.append(f"{path}: deleted on {gone_on}, edited on the other device; the edit is kept")
    elif is_index(path):
        result = o  # rebuilt from the merged entries; this device's descriptions stay
    elif is_entry(path):
        pending.append((path, b, o, t))
        return
    elif path == CONFIG:
        result = entry_conflict.merge_config(b, o, t)
        out.notes.append(f"{CONFIG}: changed on both devices; merged key by key ({sides.here} wins a key both changed)")
    elif _is_version(path):
        out.files[path] = o
        out.files[_free_version(path, out.files, t)] = t
        out.notes.append(f"{path}: both devices kept a version under this number; {sides.there}'s renumbered")
        return
    else:
        out.files[path] = o
        out.files[_beside(path, sides.there, out.files)] = t
        out.notes.append(f"{path}: changed on both devices; {sides.there}'s copy kept beside it")
        return
    if result is not None:
        out.files[path] = result
    else:
        out.files.pop(path, None)


def _entry_conflict(out: Merged, path: str, b: bytes | None, o: bytes, t: bytes, sides: Sides) -> None:
    entry_id = path[:-3]
    taken = _versions_of(entry_id, out.files)
    decided = entry_conflict.resolve(entry_id, b, o, t, taken, sides.here, sides.there, sides.today)
    out.files[path] = decided.current
    for vpath, data in decided.versions.items():
        out.files[vpath] = data
    if decided.conflict:
        out.conflicts.append(entry_id)
    out.notes.append(decided.note)


def _is_version(path: str) -> bool:
    parts = PurePosixPath(path).parts
    return len(parts) >= 3 and parts[0] == VERSIONS and bool(_VERSION.match(parts[-1]))


def _versions_of(entry_id: str, files: Files) -> set[int]:
    prefix = f"{VERSIONS}/{entry_id}/"
    out = set()
    for p in files:
        if p.startswith(prefix) and "/" not in p[len(prefix) :] and (m := _VERSION.match(p[len(prefix) :])):
            out.add(int(m.group(1)))
    return out


def _free_version(path: str, files: Files, data: bytes) -> str:
    folder = str(PurePosixPath(path).parent)
    taken = {
        int(m.group(1))
        for p in files
        if str(PurePosixPath(p).parent) == folder and (m := _VERSION.match(PurePosixPath(p).name))
    }
    n = max(taken | {0}) + 1
    return f"{folder}/v{n}.md"


def _beside(path: str, device: str, files: Files) -> str:
    p = PurePosixPath(path)
    stem = f"{p.stem} (from {device})"
    candidate = str(p.with_name(stem + p.suffix))
    n = 2
    while candidate in files:
        candidate = str(p.with_name(f"{stem} {n}{p.suffix}"))
        n += 1
    return candidate


def synced(path: str) -> bool:
    """Whether a path takes part in sync at all (the trash and state folders never do)."""
    first = PurePosixPath(path).parts[0] if path else ""
    return first not in {TRASH, ".memsearch-tui", ".git"}
