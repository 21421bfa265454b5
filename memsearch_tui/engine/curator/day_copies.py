"""A journal day and the conflicted copies a sync tool left beside it, merged turn by turn.

``merge_day`` reads the day and each copy with the one journal parser and writes one day:
every distinct turn exactly once (the same turn is recognised by its time and text, or by
its anchor's session and turn ids when its text is the same too), sessions kept as sessions,
everything in time order, the day's own heading and preamble first. The text of every turn
is copied as written. Two things are said, not decided silently:

* a copy's turn with the anchor of a turn already there but other text is kept beside it
  (``clashes``): neither text is lost, the person sees both in the diff;
* a copy's turn that was forgotten or redacted since the copy was made (the trash's journal
  records for that day: the anchor, or the removed text; and, after the trash is purged,
  the record of forgotten turns, :mod:`.journal_forgotten`: the anchor, or a hash of the
  text) is left out (``left_out``): a sync copy must not bring it back.

The day and the copies are read through the containment rule (``contained.read_inside``):
a day or copy that links out of the project, a FIFO or a device is refused, naming it.

``accept`` writes the merged day atomically and moves each copy into the store's trash in
the same logged transaction: ``undo`` restores both files byte for byte, and ``trash
restore`` puts a copy back under its own name.
"""

from __future__ import annotations

import hashlib
import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from memsearch_tui.engine.core import clock
from memsearch_tui.engine.core import frontmatter_io as fmio
from memsearch_tui.engine.core.contained import read_inside
from memsearch_tui.engine.core.errors import Conflict, MemsearchError, Refused
from memsearch_tui.engine.core.paths import check_memory_root
from memsearch_tui.engine.core.safe_io import read_capped
from memsearch_tui.engine.core.text import normalise
from memsearch_tui.engine.curator import journal_forgotten as forgotten
from memsearch_tui.engine.history.changes import read_bytes_or_none
from memsearch_tui.engine.history.txn import transaction
from memsearch_tui.engine.memsearch.journal import Session, Turn, parse_journal
from memsearch_tui.engine.memsearch.project import memsearch_dir, roots_for
from memsearch_tui.engine.memsearch.sync_copies import copy_of
from memsearch_tui.engine.store.trash_index import trash_files, trash_root, write_trash_index

MAX_DAY_BYTES = 8 * 1024 * 1024  # as journal curation: a bigger day is not a hook's journal
COPY_KEY = "journal_copy_file"  # a trashed copy's own path: restored as a file, not re-inserted


@dataclass(frozen=True)
class DayCopy:
    """One conflicted copy: where it is, the day it copies, and the tool that made it."""

    path: Path
    day: str
    tool: str
    day_path: Path


def memory_dir(project: Path) -> Path:
    return memsearch_dir(Path(project)) / "memory"


def list_copies(project: Path) -> list[DayCopy]:
    """Every conflicted copy in the project's journal folder (regular files only), by day."""
    folder = memory_dir(project)
    try:
        names = {e.name for e in os.scandir(folder) if e.is_file(follow_symlinks=False)}
    except (FileNotFoundError, NotADirectoryError, PermissionError):
        return []
    out = [DayCopy(folder / n, c.day, c.tool, folder / f"{c.day}.md") for n in names if (c := copy_of(n, names))]
    return sorted(out, key=lambda c: (c.day, c.path.name))


def read_bounded(path: Path) -> bytes:
    """A day or copy's bytes, read only when it is a regular file inside its project
    (Refused / InvalidInput naming it otherwise: a link out, a FIFO, a device, too big)."""
    return read_inside(roots_for(path), path, MAX_DAY_BYTES)


def read_day(path: Path) -> str:
    """The day's text ("" when there is no file: the copies make the day)."""
    if not os.path.lexists(path):
        return ""
    return read_bounded(path).decode("utf-8", "replace")


# -- what the trash says was removed from a day ------------------------------------------
@dataclass
class Removed:
    """Turns forgotten or redacted from one day, from the trash's journal records."""

    anchors: set[tuple[str, str]]  # (session id, turn id)
    sessions: set[str]  # session ids forgotten whole
    texts: list[str]  # the removed text, normalised
    hashes: set[str] = field(default_factory=set)  # fingerprints of removed turns' text (the record)

    def covers(self, session_id: str, turn_id: str, text: str) -> bool:
        if turn_id and (session_id, turn_id) in self.anchors or session_id and session_id in self.sessions:
            return True
        if text and forgotten.fingerprint(text) in self.hashes:
            return True
        return bool(text) and any(text in removed for removed in self.texts)


def removed_from(memory_root: Path | None, project: Path, day: str) -> Removed:
    """What was forgotten or redacted from ``day`` in ``project``: the trash's records of
    ``memory_root``, and its record of forgotten turns that outlives a purge
    (:mod:`.journal_forgotten`; nothing without a root)."""
    out = Removed(set(), set(), [])
    if memory_root is None:
        return out
    want = str(Path(project).resolve())
    for row in forgotten.read(Path(memory_root)):
        if row.get("project") != want or row.get("day") != day:
            continue
        sid, tid = row.get("session_id", ""), row.get("turn_id", "")
        if row.get("whole") == "session" and sid:
            out.sessions.add(sid)
        elif tid:
            out.anchors.add((sid, tid))
        if row.get("text"):
            out.hashes.add(row["text"])
    for path in trash_files(Path(memory_root)):
        try:
            doc = fmio.parse(read_capped(path), str(path))
        except (MemsearchError, OSError):
            continue
        meta = doc.meta if isinstance(doc.meta, dict) else {}
        if meta.get("journal_day") != day or meta.get("journal_project") != want or "journal_line" not in meta:
            continue
        sid, tid = str(meta.get("journal_session_id") or ""), str(meta.get("journal_turn_id") or "")
        if tid:
            out.anchors.add((sid, tid))
        elif sid and not meta.get("journal_turn"):
            out.sessions.add(sid)
        out.texts.append(normalise(doc.body))
    return out


# -- merging ---------------------------------------------------------------------------
@dataclass
class _Session:
    key: tuple[str, str]
    head: list[str]
    turns: list[tuple[str, list[str]]]  # (time, lines)


@dataclass(frozen=True)
class MergedDay:
    """The merged day, and what a person must be told about it (``"HH:MM (session:turn)"``)."""

    text: str
    clashes: tuple[str, ...] = ()  # a copy's turn kept beside a turn with its anchor but other text
    left_out: tuple[str, ...] = ()  # a copy's turn forgotten or redacted since: not brought back


def merged_day(day_text: str, copies: list[str], day: str) -> str:
    """The day with every distinct turn of ``copies`` merged in (see the module doc)."""
    return merge_day(day_text, copies, day).text


def merge_day(day_text: str, copies: list[str], day: str, removed: Removed | None = None) -> MergedDay:
    """``merged_day`` with its clashes and left-out turns (``removed``: :func:`removed_from`)."""
    preamble, sessions = _read(day_text, day)
    seen: set[tuple[str, ...]] = set()
    clashes: list[str] = []
    left_out: list[str] = []
    for s in sessions:
        for t in s.turns:
            seen.update(_keys(s.key, t[1]))
    for text in copies:
        other_pre, other = _read(text, day)
        if not preamble and other_pre:
            preamble = other_pre
        for s in other:
            into = next((x for x in sessions if x.key == s.key), None)
            if into is None:
                into = _Session(s.key, s.head, [])
                sessions.append(into)
            for t in s.turns:
                keys = _keys(s.key, t[1])
                said = _said(s.key, t, keys)
                text_key = next(k for k in keys if k[0] == "text")
                if text_key in seen:
                    continue  # the same turn, already there
                if removed is not None and removed.covers(*_ids(s.key, keys), text_key[2]):
                    left_out.append(said)
                    continue
                if keys & seen:
                    clashes.append(said)
                into.turns.append(t)
                seen.update(keys)
    sessions.sort(key=lambda s: _clock(s.key[0]))
    blocks = ["\n".join(preamble).rstrip()] if any(ln.strip() for ln in preamble) else []
    for s in sessions:
        s.turns.sort(key=lambda t: _clock(t[0]))
        part = [_trimmed(s.head)] + [_trimmed(lines) for _, lines in s.turns]
        blocks.append("\n\n".join(p for p in part if p))
    return MergedDay("\n\n".join(blocks) + "\n", tuple(dict.fromkeys(clashes)), tuple(dict.fromkeys(left_out)))


def _ids(session: tuple[str, str], keys: set[tuple[str, ...]]) -> tuple[str, str]:
    """(session id, turn id) of a turn's anchor ("" when it has none)."""
    anchor = next((k for k in keys if k[0] == "anchor"), None)
    return (anchor[1], anchor[2]) if anchor else (session[1], "")


def _said(session: tuple[str, str], turn: tuple[str, list[str]], keys: set[tuple[str, ...]]) -> str:
    sid, tid = _ids(session, keys)
    return f"{turn[0]} ({sid}:{tid})" if tid else f"{turn[0]} (session {session[0]})"


def remerge(memory_root: Path, project: Path, day_path: Path, copies: dict[str, str]) -> MergedDay:
    """The merge of the day and its copies as they are now (each copy still the digest it
    was proposed with: Conflict otherwise), with the trash's records as they are now."""
    folder = memory_dir(project)
    texts = []
    for name, want in copies.items():
        path = folder / name
        data = read_bounded(path) if os.path.lexists(path) else None
        if data is None or digest(data) != want:
            raise Conflict(f"{path}: changed or gone since the merge was proposed; nothing written", path=str(path))
        texts.append(data.decode("utf-8", "replace"))
    day = Path(day_path).name.removesuffix(".md")
    return merge_day(read_day(Path(day_path)), texts, day, removed_from(memory_root, project, day))


def _read(text: str, day: str) -> tuple[list[str], list[_Session]]:
    parsed = parse_journal(text, Path(f"{day}.md"))
    lines = text.splitlines()
    if not parsed.sessions:
        return lines, []
    preamble = lines[: parsed.sessions[0].line - 1]
    out = []
    for s in parsed.sessions:
        head_end = s.turns[0].line - 1 if s.turns else s.end_line
        turns = [(t.time, lines[t.line - 1 : t.end_line]) for t in s.turns]
        out.append(_Session((s.time, _session_id(s)), lines[s.line - 1 : head_end], turns))
    return preamble, out


def _session_id(s: Session) -> str:
    for a in [*s.anchors, *(t.anchor for t in s.turns if t.anchor)]:
        if a.session_id:
            return a.session_id
    return ""


def _keys(session: tuple[str, str], lines: list[str]) -> set[tuple[str, ...]]:
    """How a turn is recognised again: its anchor's ids, and its time with its text."""
    turn: Turn = parse_journal("\n".join(["## Session 00:00", *lines]), Path("x.md")).sessions[0].turns[0]
    keys: set[tuple[str, ...]] = {("text", turn.time, forgotten.turn_text(turn, lines))}
    if turn.anchor is not None:
        tid = turn.anchor.fields.get("turn", "")
        keys.add(("anchor", turn.anchor.session_id or session[1], tid) if tid else ("raw", turn.anchor.raw))
    return keys


def _clock(hhmm: str) -> tuple[int, ...]:
    return tuple(int(p) for p in hhmm.split(":") if p.isdigit())


def _trimmed(lines: list[str]) -> str:
    return "\n".join(lines).strip("\n").rstrip()


def digest(data: bytes) -> str:
    return "sha256:" + hashlib.sha256(data).hexdigest()


# -- accepting -------------------------------------------------------------------------
def accept(
    memory_root: Path,
    project: Path,
    day_path: Path,
    text: str,
    copies: dict[str, str],
    *,
    summary: str,
    extra_writes: list[tuple[Path, str]] | None = None,
) -> list[Path]:
    """Write the merged day and trash the copies (name → digest when proposed) in one
    logged transaction; Conflict (nothing written) when a copy changed since."""
    root = Path(memory_root)
    check_memory_root(root)
    folder = memory_dir(project)
    trashed = []
    with transaction(root, "journal-merge", summary) as txn:
        for name, want in copies.items():
            path = folder / name
            data = read_bytes_or_none(path)
            if data is None or digest(data) != want:
                raise Conflict(f"{path}: changed or gone since the merge was proposed; nothing written", path=str(path))
            dest = _trash_path(root, project, name)
            meta = _trash_meta(project, path, data)
            txn.write(dest, fmio.dump(fmio.ParsedFile(meta, data.decode("utf-8", "replace").replace("\r\n", "\n"))))
            txn.delete(path)
            trashed.append(dest)
        txn.write(Path(day_path).absolute(), text)
        for path, body in extra_writes or []:
            txn.write(path.absolute(), body)
        write_trash_index(root, txn)
    return trashed


def _trash_path(root: Path, project: Path, name: str) -> Path:
    proj = "".join(c if c.isalnum() or c in "_.-" else "_" for c in Path(project).resolve().name or "project")[:40]
    base = trash_root(root) / clock.today().isoformat() / "journal" / proj
    stem = "".join(c if c.isalnum() or c in "_.-" else "_" for c in name.removesuffix(".md"))[:100]
    dest, n = base / f"{stem}.md", 2
    while dest.exists():
        dest, n = base / f"{stem}~{n}.md", n + 1
    return dest


def _trash_meta(project: Path, path: Path, data: bytes) -> dict[str, Any]:
    found = copy_of(path.name, {f"{path.name[:10]}.md"})
    return {
        "title": f"Journal {path.name} (conflicted copy, merged)",
        "trashed": clock.today(),
        "trashed_from": f"journal/{path.name}",
        "trash_reason": f"merged into {path.name[:10]}.md" + (f" ({found.tool} copy)" if found else ""),
        COPY_KEY: str(path.absolute()),
        "journal_project": str(Path(project).resolve()),
        "journal_copy_crlf": b"\r\n" in data,
    }


def restore_copy(root: Path, item: Path, doc: fmio.ParsedFile) -> dict[str, Any]:
    """``trash restore`` of a merged copy: the file back under its own name (logged)."""
    target = Path(str(doc.meta[COPY_KEY]))
    project = Path(str(doc.meta.get("journal_project") or ""))
    day = f"{target.name[:10]}.md"
    if not project.is_absolute() or target.parent != memory_dir(project) or copy_of(target.name, {day}) is None:
        raise Refused(
            f"{item}: names {target} as its place, which is not a journal copy's; not restored", code="unsafe_path"
        )
    if target.exists():
        raise Conflict(f"{target} exists again; move it away first, nothing restored", path=str(target))
    body = doc.body.replace("\n", "\r\n") if doc.meta.get("journal_copy_crlf") else doc.body
    with transaction(root, "trash-restore", f"restore {target.name} from the trash") as txn:
        txn.write(target, body)
        txn.delete(item)
        write_trash_index(root, txn)
    return {"restored": str(target), "journal": True}
