"""memsearch daily journals (``.memsearch/memory/YYYY-MM-DD.md``) as days, sessions, turns.

The files are written by agent hooks and edited by hand, so the parser never rejects a
file: a line it does not understand is kept in the nearest container's ``other`` list with
its line number, an anchor comment it does not recognise is kept with ``agent="unknown"``,
and bullets before the first turn belong to the session (or the day). Line numbers are
1-based so the TUI can jump to them and search can cite them.
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass, field
from pathlib import Path

from memsearch_tui.engine.core.contained import escape_reason, read_inside
from memsearch_tui.engine.core.safe_io import unusable_reason
from memsearch_tui.engine.memsearch.project import roots_for
from memsearch_tui.engine.memsearch.sync_copies import copy_of

_DAY_NAME = re.compile(r"^(\d{4}-\d{2}-\d{2})")
_DAY_HEADING = re.compile(r"^#\s+(\d{4}-\d{2}-\d{2})\b")
# ``## Session HH:MM`` from the hooks; ``## Memory Compact HH:MM`` is what ``memsearch
# compact`` appends (its own section: a summary must not become part of the last turn).
_SESSION = re.compile(r"^##\s+(Session|Memory\s+Compact)\s+(\d{1,2}:\d{2}(?::\d{2})?)\b\s*(.*)$", re.IGNORECASE)
_TURN = re.compile(r"^###\s+(\d{1,2}:\d{2}(?::\d{2})?)\b\s*(.*)$")
_ANCHOR = re.compile(r"^\s*<!--\s*(.*?)\s*-->\s*$")
_ANCHOR_FIELD = re.compile(r"(?:^|\s)([a-z][a-z_]+):(.*?)(?=\s+[a-z][a-z_]+:|$)")
_BULLET = re.compile(r"^\s{0,3}[-*+]\s+(.*)$")


@dataclass
class Anchor:
    """An ``<!-- key:value … -->`` comment linking a turn back to the agent's transcript."""

    line: int
    raw: str
    fields: dict[str, str]
    agent: str  # claude-code | codex | session-transcript | session-db | unknown

    @property
    def session_id(self) -> str:
        return self.fields.get("session", "")

    @property
    def source(self) -> str:
        """Path of the transcript, rollout or db the turn came from, if any."""
        for key in ("transcript", "rollout", "db"):
            if key in self.fields:
                return self.fields[key]
        return ""


@dataclass
class Turn:
    """``### HH:MM``: one agent turn, usually an anchor and 2–10 bullets."""

    time: str
    line: int
    title: str = ""
    anchor: Anchor | None = None
    bullets: list[str] = field(default_factory=list)
    other: list[tuple[int, str]] = field(default_factory=list)
    end_line: int = 0

    @property
    def text(self) -> str:
        return "\n".join(self.bullets)


@dataclass
class Session:
    """``## Session HH:MM``: the turns of one agent session on that day."""

    time: str
    line: int
    title: str = ""
    turns: list[Turn] = field(default_factory=list)
    anchors: list[Anchor] = field(default_factory=list)
    bullets: list[str] = field(default_factory=list)
    other: list[tuple[int, str]] = field(default_factory=list)
    end_line: int = 0


@dataclass
class Day:
    """One journal file."""

    path: Path
    date: str  # YYYY-MM-DD from the file name, else from the ``# YYYY-MM-DD`` heading, else ""
    heading_line: int = 0
    sessions: list[Session] = field(default_factory=list)
    anchors: list[Anchor] = field(default_factory=list)
    bullets: list[str] = field(default_factory=list)
    other: list[tuple[int, str]] = field(default_factory=list)
    line_count: int = 0

    @property
    def turns(self) -> list[Turn]:
        return [t for s in self.sessions for t in s.turns]


def parse_anchor(text: str, line: int = 0) -> Anchor | None:
    """An ``<!-- … -->`` comment as an Anchor, or None when ``text`` is not a comment."""
    match = _ANCHOR.match(text)
    if not match:
        return None
    body = match.group(1)
    fields = {k: v.strip() for k, v in _ANCHOR_FIELD.findall(body)}
    return Anchor(line=line, raw=text.strip(), fields=fields, agent=_agent_of(fields))


def _agent_of(fields: dict[str, str]) -> str:
    if "session" not in fields:
        return "unknown"
    if "rollout" in fields:
        return "codex"
    if "db" in fields:
        return "session-db"
    if "transcript" in fields:
        return "claude-code" if "turn" in fields else "session-transcript"
    return "unknown"


def parse_journal(text: str, path: Path) -> Day:
    """Parse one journal's text; never raises on content."""
    name_date = _DAY_NAME.match(Path(path).name)
    day = Day(path=Path(path), date=name_date.group(1) if name_date else "")
    session: Session | None = None
    turn: Turn | None = None
    lines = text.splitlines()
    day.line_count = len(lines)
    for number, line in enumerate(lines, 1):
        if m := _DAY_HEADING.match(line):
            day.heading_line = day.heading_line or number
            day.date = day.date or m.group(1)
            continue
        if m := _SESSION.match(line):
            _close(session, turn, number - 1)
            title = m.group(3).strip() or ("" if m.group(1).lower() == "session" else "Memory Compact")
            session, turn = Session(time=m.group(2), line=number, title=title), None
            day.sessions.append(session)
            continue
        if m := _TURN.match(line):
            if turn is not None:
                turn.end_line = number - 1
            if session is None:  # a turn before any session heading: give it an implicit one
                session = Session(time=m.group(1), line=number, title="(no session heading)")
                day.sessions.append(session)
            turn = Turn(time=m.group(1), line=number, title=m.group(2).strip())
            session.turns.append(turn)
            continue
        holder = turn or session or day
        if anchor := parse_anchor(line, number):
            if isinstance(holder, Turn) and holder.anchor is None:
                holder.anchor = anchor
            elif isinstance(holder, Turn):
                holder.other.append((number, line))
            else:
                holder.anchors.append(anchor)
            continue
        if m := _BULLET.match(line):
            holder.bullets.append(m.group(1).rstrip())
            continue
        if line.strip() and line[:1].isspace() and holder.bullets:  # wrapped bullet
            holder.bullets[-1] += " " + line.strip()
            continue
        if line.strip():
            holder.other.append((number, line))
    _close(session, turn, len(lines))
    return day


def _close(session: Session | None, turn: Turn | None, end: int) -> None:
    if turn is not None:
        turn.end_line = end
    if session is not None:
        session.end_line = end


def load_journal(path: Path) -> Day:
    """Read and parse one file (invalid UTF-8 bytes become U+FFFD, as memsearch reads them)."""
    return read_journal(path)[0]


def read_journal(path: Path) -> tuple[Day, bytes]:
    """``load_journal`` and the bytes it parsed: what a face passes back as ``expected=``
    when the user forgets or redacts what it showed.

    Read through the containment rule (``contained.read_inside``): a day file linking out
    of its project, a FIFO or a day over ``READ_LIMIT`` is refused, naming the file.
    """
    data = read_inside(roots_for(Path(path)), path)
    return parse_journal(data.decode("utf-8", errors="replace"), Path(path)), data


#: files and folders one journal listing looks at: 10,000 days a year for 20 years is 73,000;
#: past it the walk stops and ``skipped_journal_files`` says so (a hostile or runaway folder
#: must not hold the app, the hook's search or ``doctor`` for minutes)
MAX_LISTED = 250_000


def journal_files(memory_dir: Path, since: str = "") -> list[Path]:
    """All ``*.md`` under ``memory_dir``, newest day first (undated files last, by name).

    Only what ``contained`` allows: nothing when the folder itself links out of its
    project, no file linking out, no FIFO, socket or device (``skipped_journal_files``
    names them for ``doctor``).

    ``since`` (``YYYY-MM-DD``): only the dated files of that day or later, the same ones in
    the same order as the whole list's head (the Overview's chart of 56 days: a ``Path``
    is made for those only, not for 10,000 days' files, ~0.1 s at 10,000 days).
    """
    files, _ = _journal_listing(Path(memory_dir))
    # A sync tool's conflicted copy of a day is not a day of its own (``journal conflicts``).
    names = {p.rpartition(os.sep)[2] for p in files}
    dated: list[tuple[str, str]] = []
    undated: list[Path] = []
    for p in files:
        name = p.rpartition(os.sep)[2]
        if since and name[:10] < since:  # not a day of the window (nor, dated, a copy of one)
            continue
        if copy_of(name, names) is None:
            if _DAY_NAME.match(name):
                dated.append((name, p))
            elif not since:
                undated.append(Path(p))
    dated.sort(reverse=True)
    return [Path(p) for _name, p in dated] + sorted(undated)


def skipped_journal_files(memory_dir: Path) -> list[str]:
    """Why each file (or the folder) under ``memory_dir`` is not read, one message each."""
    return _journal_listing(Path(memory_dir))[1]


def _journal_listing(root: Path) -> tuple[list[str], list[str]]:
    """The readable ``*.md`` under ``root`` as plain strings, and why each other one is not.

    ``os.scandir`` (the store walker's way, ``store.walk``): a regular file is known from
    its directory entry, so only a symlink, a FIFO or a device costs a ``stat``; pathlib's
    ``rglob`` with ``is_symlink``/``is_file`` paid two calls and three Path objects a day
    (~0.5 s per 10,000 days under load, on every Journal pane load). The rule is rglob's:
    every folder is entered, hidden ones too, a symlinked folder never.
    """
    if not root.is_dir():
        return [], []
    roots = roots_for(root)
    reason = escape_reason(roots, root)
    if reason is not None:
        return [], [reason]
    files: list[str] = []
    skipped: list[str] = []
    stack, seen = [str(root)], 0
    while stack:
        try:
            it = os.scandir(stack.pop())
        except OSError:  # unreadable or gone since it was listed: as rglob, nothing from it
            continue
        with it:
            for de in it:
                seen += 1
                if seen > MAX_LISTED:
                    skipped.append(f"{root}: over {MAX_LISTED:,} files and folders; the rest not listed")
                    stack.clear()
                    break
                if de.is_dir(follow_symlinks=False):
                    stack.append(de.path)
                elif not de.name.endswith(".md"):
                    continue
                elif (
                    de.is_file(follow_symlinks=False) or (why := _unlisted(roots, de.path, de.is_symlink())) is None
                ):  # the common case: from the entry, no call
                    files.append(de.path)
                elif not os.path.isdir(de.path):  # a link to a folder named *.md: not a file, no note
                    skipped.append(why)
    return files, sorted(skipped)


def _unlisted(roots: tuple[str, ...], path: str, link: bool) -> str | None:
    """Why the ``*.md`` at ``path`` (a symlink, a FIFO, a device) is not read, or None."""
    why = escape_reason(roots, path) if link else None
    return why or (
        None if os.path.isfile(path) else f"{path}: {unusable_reason(path) or 'not a regular file; not read'}"
    )


def load_journals(memory_dir: Path) -> list[Day]:
    """Every journal under ``memory_dir``, newest first."""
    return [load_journal(p) for p in journal_files(memory_dir)]
