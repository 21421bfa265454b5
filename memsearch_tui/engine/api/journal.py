"""``mem.journal``: memsearch's daily journals — read a day, forget or redact a turn, restore it.

Curation goes through :mod:`.journal_curation`: the removed text goes to the trash with
its anchors, the day file is rewritten in one logged transaction (``undo`` reverts it),
proposals built from the day are marked stale and the search indexes follow.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import TYPE_CHECKING, Any

from memsearch_tui.engine.api import limits
from memsearch_tui.engine.api.entries import DAY_REF
from memsearch_tui.engine.api.trash import ExcerptRestored, IndexRefresh, MemsearchScrub
from memsearch_tui.engine.core.errors import NotFound
from memsearch_tui.engine.core.record import record

if TYPE_CHECKING:
    from collections.abc import Iterable
    from datetime import date

    from memsearch_tui.engine.api.memory import Memory
    from memsearch_tui.engine.memsearch.journal import Day, Session
    from memsearch_tui.engine.memsearch.transcript import Transcript

Raw = dict[str, Any]  # what journal_curation reports, read into records here


@record
class JournalTurn:
    time: str
    title: str
    line: int
    end_line: int
    bullets: tuple[str, ...]
    session_id: str = ""
    agent: str = ""
    turn_id: str = ""  # the anchor's turn id: what ``journal forget --turn`` also takes


@record
class JournalSession:
    time: str
    title: str
    line: int
    end_line: int
    session_ids: tuple[str, ...]
    turns: tuple[JournalTurn, ...]


@record
class JournalDay:
    """One day's journal (``day``), optionally narrowed to one session; ``days``: all days."""

    date: str
    path: str
    sessions: tuple[JournalSession, ...]
    days: tuple[str, ...]


@record
class ListedDay:
    """One journal day of ``journal list``: ``future`` when it is dated after today (a skewed
    clock or a hand-made name: listed first as the newest day, as the Journal pane tags it)."""

    day: str
    path: str
    future: bool


@record
class JournalDays:
    """The journal days, newest first, and the day they were judged by (``future``)."""

    today: str
    days: tuple[ListedDay, ...]


@record
class JournalCopy:
    """A conflicted copy a file-sync tool left beside a journal day (``journal conflicts``)."""

    name: str
    day: str
    tool: str
    path: str
    day_exists: bool


@record
class MergeProposals:
    """The merge proposals waiting after ``journal conflicts --merge``, and the days that failed."""

    proposals: tuple[str, ...]
    problems: tuple[str, ...]
    notes: tuple[str, ...] = ()  # per day: turns kept beside a clashing anchor, turns left out


@record
class JournalSpan:
    """The lines of a day a forget or redact took out (1-based, inclusive) and where they were."""

    lines: tuple[int, int]
    session: str
    session_id: str
    turn: str
    turn_id: str
    anchor: str


@record
class JournalChange:
    """What ``journal forget|redact`` did: the text to the trash (``trash_key`` restores it),
    proposals built from it marked stale, the search indexes refreshed (``index``,
    ``memsearch_index``: each index's own report)."""

    action: str  # forget | redact
    day: str
    file: str
    removed: JournalSpan
    reason: str
    trash_key: str
    trash_file: str
    file_deleted: bool
    stale_proposals: tuple[str, ...]
    index: IndexRefresh
    memsearch_index: MemsearchScrub


class Journal:
    """The project's daily journals, as ``mem.journal``."""

    def __init__(self, mem: Memory) -> None:
        self.mem = mem

    def days(self) -> tuple[str, ...]:
        """The journal days there are, newest first (the first-run screen counts them)."""
        return tuple(f.stem for f in self.files())

    def files(self) -> tuple[Path, ...]:
        """The journal day files, newest first (only files the containment rule allows)."""
        from memsearch_tui.engine.memsearch.journal import journal_files

        return tuple(journal_files(self.mem.memsearch_dir / "memory"))

    def listing(self) -> JournalDays:
        """Every journal day, newest first, each marked when dated after :meth:`today`."""
        today = self.today()
        days = tuple(ListedDay(f.stem, str(f), dated_after(f.stem, today)) for f in self.files())
        return JournalDays(today, days)

    def today(self) -> str:
        """Today by the engine's clock (``MEMSEARCH_TUI_NOW`` in tests) in the local time
        zone, as journals are named, YYYY-MM-DD: a day file dated after it came from a
        skewed clock or a hand-made name (the Overview's chart stops at today; the Journal
        pane marks it)."""
        from memsearch_tui.engine.core.clock import local_today

        return local_today().isoformat()

    def recent_files(self, days: int) -> tuple[Path, ...]:
        """The dated day files of the last ``days`` days up to today (and any dated later),
        newest first: the head of ``files()``, what ``activity`` counts, listed without a
        ``Path`` for each older day (the Overview's chart at 10,000 days)."""
        from memsearch_tui.engine.memsearch.activity import first_day
        from memsearch_tui.engine.memsearch.journal import journal_files

        return tuple(journal_files(self.mem.memsearch_dir / "memory", first_day(days).isoformat()))

    def read(self, path: Path) -> tuple[Day, bytes]:
        """One day file parsed whole (sessions, turns, anchors, every bullet kept) and the
        bytes it was parsed from: a face passes them back as ``forget|redact(expected=)``."""
        from memsearch_tui.engine.memsearch.journal import read_journal

        return read_journal(path)

    def activity(self, days: int, files: Iterable[Path] | None = None) -> dict[date, int]:
        """Turns per day over the last ``days`` days up to today (0 for a quiet day);
        ``files``: the day files as ``files()`` listed them (not listed again)."""
        from memsearch_tui.engine.memsearch.activity import activity

        return activity(self.mem.memsearch_dir / "memory", days, files)

    def transcript(self, path: Path) -> Transcript:
        """The agent transcript a turn's anchor names (bounded; OSError if unreadable)."""
        from memsearch_tui.engine.memsearch.transcript import load_transcript

        return load_transcript(path)

    def day(self, day: str | None = None, session: str | None = None) -> JournalDay:
        """One day's sessions and turns (the newest day by default), optionally one session.

        ``day``: YYYY-MM-DD (or its prefix), or a file name in ``.memsearch/memory/``."""
        from memsearch_tui.engine.memsearch.journal import journal_files, load_journal

        folder = self.mem.memsearch_dir / "memory"
        files = journal_files(folder)
        days = tuple(f.stem for f in files)
        if not files:
            raise NotFound(f"no journals in {folder}")
        if day:
            limits.text("day", day, 200)
            m = DAY_REF.match(day.strip())
            wanted = m.group(1) if m else day.strip().removesuffix(".md")
            chosen = next((f for f in files if f.stem == wanted or f.stem.startswith(wanted)), None)
            if chosen is None:
                raise NotFound(f"no journal for {day!r}; days: {', '.join(days[:10])}")
        else:
            chosen = files[0]
        parsed = load_journal(chosen)
        sessions = tuple(_session(s) for s in parsed.sessions)
        if session:
            sessions = tuple(s for s in sessions if session in (s.time, *s.session_ids))
            if not sessions:
                raise NotFound(f"no session {session!r} in {chosen.name}")
        return JournalDay(parsed.date or chosen.stem, str(chosen), sessions, days)

    def forget(
        self, day: str, *, session: str | None = None, turn: str | None = None, reason: str,
        expected: bytes | None = None,
    ) -> JournalChange:  # fmt: skip
        """A turn (or a session, or the whole day) to the trash; undoable."""
        from memsearch_tui.engine.api import journal_curation

        self.mem.require_writable("journal forget")
        with self.mem.acting():
            return change(
                journal_curation.forget(
                    self.mem.root, self.mem.project, day, session=session, turn=turn, reason=reason, expected=expected
                )
            )

    def redact(
        self, day: str, *, pattern: str, regex: bool = False, session: str | None = None, turn: str | None = None,
        reason: str, expected: bytes | None = None,
    ) -> JournalChange:  # fmt: skip
        """``pattern`` becomes [redacted] in a turn, session or day; the original goes to the trash."""
        from memsearch_tui.engine.api import journal_curation

        self.mem.require_writable("journal redact")
        with self.mem.acting():
            return change(
                journal_curation.redact(
                    self.mem.root, self.mem.project, day, pattern=pattern, regex=regex, session=session, turn=turn,
                    reason=reason, expected=expected,
                )
            )  # fmt: skip

    def restore(self, key: str) -> ExcerptRestored:
        """Forgotten or redacted journal text back where it was."""
        from memsearch_tui.engine.api import journal_curation

        self.mem.require_writable("journal restore")
        with self.mem.acting():
            r = journal_curation.restore(self.mem.root, self.mem.project, key)
        return ExcerptRestored(
            r["restored"], r["original_id"], r["from"], r["day"], r["placed"], r["renamed"],
            tuple(r["related_dropped"]), _refresh(r["index"]), _scrub(r["memsearch_index"]),
        )  # fmt: skip

    def copies(self) -> tuple[JournalCopy, ...]:
        """Conflicted copies that file-sync tools left beside a day (never indexed as days)."""
        from memsearch_tui.engine.curator.day_copies import list_copies

        return tuple(
            JournalCopy(c.path.name, c.day, c.tool, str(c.path), c.day_path.exists())
            for c in list_copies(self.mem.project)
        )

    def propose_merges(self) -> MergeProposals:
        """One reviewable proposal per day with copies: every distinct turn once, in time order."""
        from memsearch_tui.engine.review.day_merge import propose

        self.mem.require_writable("journal conflicts --merge")
        made, problems = propose(self.mem.project, self.mem.root)
        notes = tuple(
            f"{Path(p.target).stem}: {note}" for p in made for note in p.reason.split("; ")[1:]
        )  # the first clause is the summary; the rest say what a person must know
        return MergeProposals(tuple(p.id for p in made), tuple(problems), notes)


_DATED = re.compile(r"[0-9]{4}-[0-9]{2}-[0-9]{2}")


def dated_after(stem: str, today: str) -> bool:
    """Is the day file named ``stem`` dated after ``today`` (YYYY-MM-DD; "" before any is
    known)? The one rule of every face's ``future`` tag: an undated name never is."""
    return bool(today) and _DATED.fullmatch(stem) is not None and stem > today


def _session(s: Session) -> JournalSession:
    turns = tuple(
        JournalTurn(
            t.time,
            t.title,
            t.line,
            t.end_line,
            tuple(t.bullets),
            t.anchor.session_id if t.anchor else "",
            t.anchor.agent if t.anchor else "",
            str(t.anchor.fields.get("turn", "")) if t.anchor else "",
        )
        for t in s.turns
    )
    ids = tuple(dict.fromkeys(a.session_id for a in s.anchors if a.session_id))
    ids = tuple(dict.fromkeys([*ids, *(t.session_id for t in turns if t.session_id)]))
    return JournalSession(s.time, s.title, s.line, s.end_line, ids, turns)


def change(out: Raw) -> JournalChange:
    """What :mod:`.journal_curation` reports about a forget or redact, as a JournalChange."""
    r = out["removed"]
    span = JournalSpan(
        (int(r["lines"][0]), int(r["lines"][1])), r["session"], r["session_id"], r["turn"], r["turn_id"], r["anchor"]
    )
    return JournalChange(
        out["action"], out["day"], out["file"], span, out["reason"], out["trash_key"], out["trash_file"],
        bool(out["file_deleted"]), tuple(out["stale_proposals"]), _refresh(out["index"]),
        _scrub(out["memsearch_index"]),
    )  # fmt: skip


def _refresh(d: Raw) -> IndexRefresh:
    return IndexRefresh(d["keyword"], d["vectors"], d.get("error", ""))


def _scrub(d: Raw) -> MemsearchScrub:
    """memsearch's index report as a record (its ``moved`` list as a tuple)."""
    return MemsearchScrub(**{**d, "moved": tuple(d.get("moved", ()))})
