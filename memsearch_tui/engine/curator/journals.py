"""Curate memsearch journals: forget a turn (or session, or day), redact text, restore.

A wrong or sensitive journal turn used to be removable only by hand. Here the removed
text goes to the store's trash (``.trash/<today>/journal/<project>/<day>-<HHMM>.md``)
with its day/session/turn anchors and where it stood, the day file is rewritten
atomically, and both happen in one history transaction, so ``memsearch-tui undo`` puts
everything back and ``journal restore`` (or ``trash restore``) re-inserts the text later.

Only the selected lines change: every other byte of the day file — unknown anchors,
notes written by hand, CRLF line ends — stays as it was, so the file remains a valid
memsearch journal. Re-indexing and marking proposals stale happen a layer up
(:mod:`memsearch_tui.engine.api.journal_curation`): the curator does not import search.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from memsearch_tui.engine.core import clock
from memsearch_tui.engine.core import frontmatter_io as fmio
from memsearch_tui.engine.core.errors import Conflict, InvalidInput, NotFound, Refused
from memsearch_tui.engine.core.paths import check_memory_root, inside, rmdir_up
from memsearch_tui.engine.curator import journal_forgotten as forgotten
from memsearch_tui.engine.history.changes import read_bytes_or_none
from memsearch_tui.engine.history.txn import transaction
from memsearch_tui.engine.memsearch.journal import Day, Session, Turn, parse_journal
from memsearch_tui.engine.memsearch.project import memsearch_dir
from memsearch_tui.engine.store.store import check_expected
from memsearch_tui.engine.store.trash_index import trash_root, write_trash_index

MAX_JOURNAL_BYTES = 8 * 1024 * 1024  # a day file bigger than this is not a hook's journal
MAX_PATTERN_CHARS = 500
MAX_REASON_CHARS = 500
REDACTED = "[redacted]"
JOURNAL_KEYS = ("journal_file", "journal_line", "journal_after", "journal_prev", "journal_sha256")
_DAY = re.compile(r"^\d{4}-\d{2}-\d{2}$")


@dataclass(frozen=True)
class Span:
    """The lines of one selection (1-based, inclusive) and what they are."""

    start: int
    end: int
    session: str  # the session's heading time, "" for a whole day
    session_id: str  # from the anchors, "" when none
    turn: str  # the turn's heading time, "" for a session or a day
    turn_id: str
    anchor: str  # the turn's anchor comment as written (kept in the trash)

    def as_dict(self) -> dict[str, Any]:
        return {
            "lines": [self.start, self.end],
            "session": self.session,
            "session_id": self.session_id,
            "turn": self.turn,
            "turn_id": self.turn_id,
            "anchor": self.anchor,
        }


# -- finding the day and the selection ----------------------------------------------------
def journal_dir(project: Path) -> Path:
    return memsearch_dir(Path(project)) / "memory"


def day_file(project: Path, day: str) -> Path:
    """``YYYY-MM-DD`` (or a file name / path inside the project's journal folder) → its file."""
    folder = journal_dir(project).absolute()
    raw = (day or "").strip()
    if _DAY.match(raw):
        path = folder / f"{raw}.md"
    else:
        path = Path(raw).expanduser()
        path = path if path.is_absolute() else folder / path
    if not inside(folder, path) or path.suffix != ".md":
        raise InvalidInput(f"{day!r}: name a day (YYYY-MM-DD) or a .md file in {folder}")
    if not path.is_file():
        raise NotFound(f"no journal {path}")
    return path


def _read(path: Path) -> bytes:
    """The day file's bytes: bounded in size, and valid UTF-8 (a rewrite must not turn
    undecodable bytes elsewhere in the file into U+FFFD)."""
    data = path.read_bytes()
    if len(data) > MAX_JOURNAL_BYTES:
        raise Refused(f"{path}: {len(data)} bytes is more than a journal holds ({MAX_JOURNAL_BYTES}); edit it by hand")
    try:
        data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise Refused(f"{path}: not valid UTF-8 at byte {exc.start}; fix that by hand first") from None
    return data


def _session_id(session: Session) -> str:
    for a in [*session.anchors, *(t.anchor for t in session.turns if t.anchor)]:
        if a and a.session_id:
            return a.session_id
    return ""


def _turn_matches(turn: Turn, want: str) -> bool:
    return want in (turn.time, (turn.anchor.fields.get("turn", "") if turn.anchor else ""))


def _session_matches(session: Session, want: str) -> bool:
    ids = {a.session_id for a in [*session.anchors, *(t.anchor for t in session.turns if t.anchor)] if a}
    return want == session.time or want in ids


def select(day: Day, session: str | None = None, turn: str | None = None) -> Span:
    """The one span ``--session``/``--turn`` name in ``day`` (the whole day with neither).

    A session matches its heading time or a session id in its anchors; a turn its
    heading time or the ``turn:`` of its anchor. More than one match is refused with the
    candidates listed, so a forget never takes more than the person meant.
    """
    if not session and not turn:
        return Span(1, day.line_count, "", "", "", "", "")
    sessions = [s for s in day.sessions if not session or _session_matches(s, session)]
    if not sessions:
        raise NotFound(f"{day.path.name}: no session {session!r} (sessions: {_list(day.sessions)})")
    by_id = bool(session) and all(s.time != session for s in sessions)  # an anchor id: only its turns
    if not turn:
        if len(sessions) > 1:
            raise InvalidInput(f"{day.path.name}: --session {session!r} matches {_list(sessions)}; be more specific")
        s = sessions[0]
        if by_id and any(_turn_session(s, t) != session for t in s.turns):
            return _turns_of(day, s, str(session))
        return Span(s.line, s.end_line, s.time, _session_id(s), "", "", "")
    found = [
        (s, t)
        for s in sessions
        for t in s.turns
        if _turn_matches(t, turn) and (not by_id or _turn_session(s, t) == session)
    ]
    if not found:
        where = f" in session {session}" if session else ""
        turns = ", ".join(t.time for s in sessions for t in s.turns) or "none"
        raise NotFound(f"{day.path.name}: no turn {turn!r}{where} (turns: {turns})")
    if len(found) > 1:
        both = ", ".join(f"session {s.time} turn {t.time}" for s, t in found)
        raise InvalidInput(f"{day.path.name}: --turn {turn!r} matches {both}; add --session")
    s, t = found[0]
    anchor = t.anchor
    return Span(
        t.line,
        t.end_line,
        s.time,
        (anchor.session_id if anchor else "") or _session_id(s),
        t.time,
        anchor.fields.get("turn", "") if anchor else "",
        anchor.raw if anchor else "",
    )


def _turn_session(session: Session, turn: Turn) -> str:
    """The session id a turn belongs to: its anchor's, else its heading's anchors'."""
    if turn.anchor and turn.anchor.session_id:
        return turn.anchor.session_id
    return next((a.session_id for a in session.anchors if a.session_id), "")


def _turns_of(day: Day, session: Session, sid: str) -> Span:
    """The turns of anchor session ``sid`` under a heading shared with other sessions: one
    contiguous run of turns, else refused (a forget never takes another session's turn)."""
    picked = [i for i, t in enumerate(session.turns) if _turn_session(session, t) == sid]
    if not picked:
        raise NotFound(f"{day.path.name}: no turn of session {sid!r} under heading {session.time}")
    if picked != list(range(picked[0], picked[-1] + 1)):
        times = ", ".join(session.turns[i].time for i in picked)
        raise InvalidInput(
            f"{day.path.name}: the turns of session {sid!r} ({times}) are interleaved with other sessions' under "
            f"heading {session.time}; forget them one at a time with --turn"
        )
    first, last = session.turns[picked[0]], session.turns[picked[-1]]
    return Span(first.line, last.end_line, session.time, sid, "", "", "")


def _list(sessions: list[Session]) -> str:
    return ", ".join(s.time + (f" ({sid})" if (sid := _session_id(s)) else "") for s in sessions) or "none"


# -- forgetting and redacting ---------------------------------------------------------------
def _checked_reason(reason: str) -> str:
    reason = " ".join((reason or "").split())
    if not reason:
        raise InvalidInput("give a --reason: the trash keeps it with the removed text")
    return reason[:MAX_REASON_CHARS]


def forget(
    memory_root: Path,
    project: Path,
    day: str,
    *,
    session: str | None = None,
    turn: str | None = None,
    reason: str,
    expected: bytes | None = None,
) -> dict[str, Any]:
    """Move the selected turn/session/day out of the journal into the trash (undoable).

    ``expected``: the day file as the user saw it; a change made since is refused."""
    reason = _checked_reason(reason)
    path = day_file(project, day)
    return _change(memory_root, project, path, session, turn, reason, "forget", lambda text: "", expected)


def redact(
    memory_root: Path,
    project: Path,
    day: str,
    *,
    pattern: str,
    session: str | None = None,
    turn: str | None = None,
    reason: str,
    regex: bool = False,
    expected: bytes | None = None,
) -> dict[str, Any]:
    """Replace ``pattern`` (literal, or a regex with ``regex``) by ``[redacted]`` in the
    selection; the original lines go to the trash (undoable, restorable). ``expected``:
    the day file as the user saw it; a change made since is refused."""
    reason = _checked_reason(reason)
    if not pattern or len(pattern) > MAX_PATTERN_CHARS:
        raise InvalidInput(f"--pattern must be 1–{MAX_PATTERN_CHARS} characters")
    rx = _compile_pattern(pattern, regex=regex)
    if rx.search("") is not None:
        raise InvalidInput(f"--pattern {pattern!r} matches the empty string; it would redact nothing useful")
    path = day_file(project, day)

    def redacted(text: str) -> str:
        out = str(rx.sub(REDACTED, text))
        if out == text:
            raise NotFound(f"{path.name}: {pattern!r} does not occur in the selection")
        return out

    return _change(memory_root, project, path, session, turn, reason, "redact", redacted, expected)


def _compile_pattern(pattern: str, *, regex: bool) -> Any:  # an re2 pattern (re2 is untyped)
    """``pattern`` as an RE2 regex: linear-time matching whatever the pattern, so a
    pathological ``--regex`` cannot hang the command on a big journal."""
    import re2  # only when redacting

    opts = re2.Options()
    opts.log_errors = False
    try:
        return re2.compile(pattern if regex else re2.escape(pattern), opts)
    except re2.error as exc:
        detail = exc.args[0].decode("utf-8", "replace") if exc.args and isinstance(exc.args[0], bytes) else str(exc)
        raise InvalidInput(
            f"--pattern {pattern!r}: not a regular expression ({detail}; RE2 syntax: no back-references or look-around)"
        ) from None


def _change(
    memory_root: Path,
    project: Path,
    path: Path,
    session: str | None,
    turn: str | None,
    reason: str,
    kind: str,
    replace: Callable[[str], str],
    expected: bytes | None = None,
) -> dict[str, Any]:
    """Select, replace the selection by ``replace(old)``, trash the old text: one transaction."""
    root = Path(memory_root)
    check_memory_root(root)  # the trash and the undo log live there: never an agent's folder
    label = f"{path.stem}" + (f" session {session}" if session else "") + (f" turn {turn}" if turn else "")
    with transaction(root, f"journal-{kind}", f"journal {kind} {label}: {reason}") as txn:
        data = _read(path)
        if expected is not None and data != expected:  # a turn appended since the user looked
            raise Conflict(f"{path}: changed on disk since you saw it; nothing written", path=str(path))
        text = data.decode("utf-8")
        span = select(parse_journal(text, path), session, turn)
        lines = text.splitlines(keepends=True)
        old = "".join(lines[span.start - 1 : span.end])
        new = replace(old)
        new_text = "".join(lines[: span.start - 1]) + new + "".join(lines[span.end :])
        trashed = _trash_file(root, project, path, span, kind)
        meta = _trash_meta(project, path, span, kind, reason, new, lines)
        txn.write(trashed, fmio.dump(fmio.ParsedFile(meta, old.replace("\r\n", "\n"))))
        gone = forgotten.removed_turns(text, new_text, span.start, span.end)  # kept after a purge: no text
        if kind == "forget" and span.session_id and not span.turn:  # a session forgotten whole
            gone.append({"session_id": span.session_id, "turn_id": "", "text": "", "whole": "session"})
        forgotten.remember(txn, root, project, path.stem, _key(root, trashed), gone)
        if read_bytes_or_none(path) != data:  # a hook appended meanwhile: start again, lose nothing
            raise Conflict(f"{path} changed while it was being edited; try again")
        if kind == "forget" and not session and not turn:
            txn.delete(path)
        else:
            txn.write(path, new_text.encode("utf-8"))
        write_trash_index(root, txn)
    key = _key(root, trashed)
    return {
        "action": kind,
        "day": path.stem,
        "file": str(path),
        "removed": span.as_dict(),
        "reason": reason,
        "trash_key": key,
        "trash_file": str(trashed),
        "file_deleted": not path.exists(),
    }


def _key(root: Path, trashed: Path) -> str:
    """A trash item's key: its path under the trash, without ``.md``."""
    return trashed.absolute().relative_to(trash_root(root).absolute()).as_posix()[:-3]


def _trash_file(root: Path, project: Path, path: Path, span: Span, kind: str) -> Path:
    proj = re.sub(r"[^A-Za-z0-9_.-]+", "_", Path(project).resolve().name or "project")[:40]
    stem = path.stem + (f"-{span.turn.replace(':', '')}" if span.turn else "")
    stem += f"-session-{span.session.replace(':', '')}" if span.session and not span.turn else ""
    stem += "-redacted" if kind == "redact" else ""
    base = trash_root(root) / clock.today().isoformat() / "journal" / proj
    dest, n = base / f"{stem}.md", 2
    while dest.exists():
        dest, n = base / f"{stem}~{n}.md", n + 1
    return dest


def _trash_meta(
    project: Path, path: Path, span: Span, kind: str, reason: str, after: str, lines: list[str]
) -> dict[str, Any]:
    where = " · ".join(x for x in (path.stem, span.session and f"Session {span.session}", span.turn) if x)
    old = "".join(lines[span.start - 1 : span.end])
    return {
        "title": f"Journal {where} ({'redacted' if kind == 'redact' else 'forgotten'})",
        "trashed": clock.today(),
        "trashed_from": f"journal/{path.stem}",
        "trash_reason": reason,
        "journal_action": kind,
        "journal_project": str(Path(project).resolve()),
        "journal_file": str(path.absolute()),
        "journal_day": path.stem,
        "journal_session": span.session,
        "journal_session_id": span.session_id,
        "journal_turn": span.turn,
        "journal_turn_id": span.turn_id,
        "journal_anchor": span.anchor,
        "journal_line": span.start,
        "journal_prev": lines[span.start - 2].rstrip("\r\n") if span.start >= 2 else "",
        "journal_after": after.replace("\r\n", "\n"),
        "journal_crlf": "\r\n" in old,
        "journal_sha256": hashlib.sha256(old.encode("utf-8")).hexdigest(),
    }


# -- restoring ------------------------------------------------------------------------------
def is_journal_item(meta: dict[str, Any]) -> bool:
    """Whether a trashed file holds journal text (restored into its day, not the store)."""
    return isinstance(meta, dict) and bool(meta.get("journal_file")) and "journal_line" in meta


def find_journal_item(memory_root: Path, ref: str) -> Path:
    """A trashed journal excerpt by its trash key (``2026-12-01/journal/proj/2026-11-28-0905``)."""
    ref = (ref or "").strip().removesuffix(".md").removeprefix(".trash/")
    base = trash_root(Path(memory_root)).absolute()
    path = base / f"{ref}.md"
    if not ref or not inside(base, path) or not path.is_file():
        raise NotFound(f"nothing in {base} for {ref!r} (see `memsearch-tui trash list`)")
    return path


def restore(memory_root: Path, ref: str) -> dict[str, Any]:
    """Put a forgotten or redacted excerpt back where it was (logged, undoable)."""
    root = Path(memory_root)
    check_memory_root(root)
    item = find_journal_item(root, ref)
    doc = fmio.parse(item.read_bytes(), str(item))
    return restore_item(root, item, doc)


def restore_item(root: Path, item: Path, doc: fmio.ParsedFile, *, expected: bytes | None = None) -> dict[str, Any]:
    """:func:`restore` of an already parsed trash file (``trash restore`` delegates here);
    ``expected``: the trash file as the user saw it (``Store.check_expected``)."""
    meta = doc.meta
    if not is_journal_item(meta):
        raise InvalidInput(f"{item}: not a trashed journal excerpt")
    target = Path(str(meta["journal_file"]))
    project = Path(str(meta.get("journal_project") or ""))
    folder = journal_dir(project).absolute() if str(project) else None
    if folder is None or not inside(folder, target) or target.suffix != ".md":
        raise Refused(f"{item}: journal_file {target} is not a journal of {project}; restore it by hand")
    crlf = bool(meta.get("journal_crlf"))
    body = doc.body.replace("\n", "\r\n") if crlf else doc.body
    after = str(meta.get("journal_after") or "")
    after = after.replace("\n", "\r\n") if crlf else after
    with transaction(root, "journal-restore", f"restore journal {meta.get('journal_day', '')} from trash") as txn:
        check_expected(item, expected, "deciding to restore it")
        current = read_bytes_or_none(target)
        text = "" if current is None else _read(target).decode("utf-8")
        new_text, how = _reinsert(text, body, after, int(meta.get("journal_line") or 1), str(meta.get("journal_prev")))
        txn.write(target, new_text.encode("utf-8"))
        txn.delete(item)
        forgotten.drop(txn, root, _key(root, item))  # the turn is back: a copy may hold it again
        rmdir_up(item.parent, trash_root(root))
        write_trash_index(root, txn)
    return {
        "restored": str(target),
        "original_id": str(meta.get("trashed_from") or f"journal/{target.stem}"),
        "from": item.absolute().relative_to(trash_root(root).absolute()).as_posix()[:-3],
        "day": target.stem,
        "placed": how,
        "renamed": False,
        "related_dropped": [],
    }


def _reinsert(text: str, body: str, after: str, line: int, prev: str) -> tuple[str, str]:
    """``text`` with ``after`` (what replaced the excerpt; "" for a forget) turned back into
    ``body``: at the recorded line if the file still agrees there, else after the recorded
    previous line if it occurs once, else (a forget) at the end of the day."""
    lines = text.splitlines(keepends=True)
    at = line - 1

    def fits(i: int) -> bool:
        if not 0 <= i <= len(lines):
            return False
        rest = "".join(lines[i:])
        before_ok = (i == 0 and not prev) or (i > 0 and lines[i - 1].rstrip("\r\n") == prev)
        return before_ok and rest.startswith(after)

    if fits(at):
        i, how = at, "where it was"
    else:
        spots = [i for i in range(len(lines) + 1) if fits(i)]
        if len(spots) == 1:
            i, how = spots[0], "after the line that preceded it"
        elif not after:
            i, how = len(lines), "at the end of the day (its place has changed since)"
            if lines and not lines[-1].endswith("\n"):
                lines[-1] += "\n"
        else:
            raise Conflict("cannot find the redacted text in the journal any more; restore it by hand from the trash")
    head, tail = "".join(lines[:i]), "".join(lines[i:])[len(after) :]
    return head + body + tail, how
