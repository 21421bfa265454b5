"""``journal list|show|forget|redact|restore|conflicts``: curate memsearch's daily journals.

The API does the work (``mem.journal``): the removed text goes to the trash with its anchors, the day file is rewritten atomically in
one logged transaction (``memsearch-tui undo`` reverts it), proposals built from it are
marked stale and the search indexes are refreshed.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import typer

from memsearch_tui.cli.output import JsonOpt, emit, handles_errors, settings
from memsearch_tui.engine.api.text import plural, redact_clip

if TYPE_CHECKING:
    from memsearch_tui.engine.api.types import JournalChange

SessionOpt = typer.Option(None, "--session", "-S", help="Session: its heading time (09:00) or session id.")
TurnOpt = typer.Option(None, "--turn", "-T", help="Turn: its heading time (09:05) or turn id from the anchor.")
ReasonOpt = typer.Option(..., "--reason", "-r", help="Why (kept in the trash with the text).")
FUTURE = "  future"  # the Journal pane's tag of a day dated after today
DayArg = typer.Argument(..., metavar="DAY", help="YYYY-MM-DD, or a file name in .memsearch/memory/.")


def register(app: typer.Typer) -> None:
    """Add the ``journal`` group to the root app."""
    sub = typer.Typer(help="Curate the daily journals: forget or redact a turn, restore it.", no_args_is_help=True)
    app.add_typer(sub, name="journal")

    @sub.command("list")
    @handles_errors
    def list_days(ctx: typer.Context, json_out: bool = JsonOpt) -> None:
        """The journal days, newest first; a day dated after today is tagged `future`."""
        mem = settings(ctx).memory()
        listing = mem.journal.listing()
        lines = [f"{d.day}{FUTURE if d.future else ''}" for d in listing.days]
        ahead = sum(d.future for d in listing.days)
        if ahead:
            lines.append(
                f"({plural(ahead, 'day')} dated after today, {listing.today}: a skewed clock or a hand-made name)"
            )
        emit(ctx, listing, "\n".join(lines) or f"no journals in {mem.memsearch_dir / 'memory'}", json_flag=json_out)

    @sub.command("show")
    @handles_errors
    def show(ctx: typer.Context, day: str = DayArg, json_out: bool = JsonOpt) -> None:
        """A day's sessions and turns with the ids --session/--turn accept."""
        d = settings(ctx).memory().journal.day(day)
        lines = [d.path]
        for s in d.sessions:
            lines.append(f"  Session {s.time}  (line {s.line})")
            for t in s.turns:
                ids = " ".join(f"{k}:{v}" for k, v in (("session_id", t.session_id), ("turn_id", t.turn_id)) if v)
                first = redact_clip(t.bullets[0], 70) if t.bullets else ""  # masked, then cut
                lines.append(f"    {t.time}  L{t.line}-{t.end_line}  {ids}  {first}")
        emit(ctx, d, "\n".join(lines), json_flag=json_out)

    @sub.command("forget")
    @handles_errors
    def forget(
        ctx: typer.Context,
        day: str = DayArg,
        session: str | None = SessionOpt,
        turn: str | None = TurnOpt,
        reason: str = ReasonOpt,
        json_out: bool = JsonOpt,
    ) -> None:
        """Move a turn (or a session, or the whole day) to the trash; undoable."""
        out = settings(ctx).memory().journal.forget(day, session=session, turn=turn, reason=reason)
        emit(ctx, out, _text(out), json_flag=json_out)

    @sub.command("redact")
    @handles_errors
    def redact(
        ctx: typer.Context,
        day: str = DayArg,
        pattern: str = typer.Option(..., "--pattern", "-p", help="Text to replace by \\[redacted]."),
        regex: bool = typer.Option(False, "--regex", help="Read --pattern as a regular expression."),
        session: str | None = SessionOpt,
        turn: str | None = TurnOpt,
        reason: str = ReasonOpt,
        json_out: bool = JsonOpt,
    ) -> None:
        """Replace a pattern by \\[redacted] in a turn, session or day; the original goes to the trash."""
        out = (
            settings(ctx)
            .memory()
            .journal.redact(day, pattern=pattern, regex=regex, session=session, turn=turn, reason=reason)
        )
        emit(ctx, out, _text(out), json_flag=json_out)

    @sub.command("restore")
    @handles_errors
    def restore(
        ctx: typer.Context,
        key: str = typer.Argument(..., metavar="KEY", help="The trash key `journal forget` printed."),
        json_out: bool = JsonOpt,
    ) -> None:
        """Put forgotten or redacted journal text back where it was."""
        out = settings(ctx).memory().journal.restore(key)
        emit(ctx, out, f"restored into {out.restored} ({out.placed})", json_flag=json_out)

    @sub.command("conflicts")
    @handles_errors
    def conflicts(
        ctx: typer.Context,
        merge: bool = typer.Option(
            False, "--merge", help="Propose one merged day per conflict (review with `proposals`)."
        ),
        json_out: bool = JsonOpt,
    ) -> None:
        """Conflicted copies that sync tools (Dropbox, Syncthing, OneDrive, iCloud, …) left beside a day."""
        from memsearch_tui.engine.api import Memory
        from memsearch_tui.engine.api.serialise import to_json

        s = settings(ctx)
        mem = Memory(s.memory_root, s.project)
        copies = mem.journal.copies()
        lines = [f"{c.day}  {c.name}  ({c.tool})" for c in copies] or ["no conflicted copies of journal days"]
        data: dict[str, Any] = {"copies": to_json(copies)}
        if merge and copies:
            made = mem.journal.propose_merges()
            data["merge"] = to_json(made)
            lines += [
                f"proposed: {pid}  (`memsearch-tui proposals diff {pid}`, then accept or reject)"
                for pid in made.proposals
            ]
            lines += [f"note: {note}" for note in made.notes]
            lines += [f"not proposed: {why}" for why in made.problems]
        emit(ctx, data, "\n".join(lines), json_flag=json_out)


def _text(out: JournalChange) -> str:
    r = out.removed
    what = " ".join(x for x in (out.day, r.session and f"session {r.session}", r.turn) if x)
    verb = "forgot" if out.action == "forget" else "redacted"
    lines = [
        f"{verb} {what} (lines {r.lines[0]}-{r.lines[1]} of {out.file})",
        f"trash: {out.trash_key}  (`memsearch-tui journal restore {out.trash_key}` or `memsearch-tui undo`)",
    ]
    if out.stale_proposals:
        lines.append(f"marked stale: {', '.join(out.stale_proposals)}")
    idx = out.index
    why = f" ({idx.error}; the next search or `vectors index` catches up)" if idx.error else ""
    lines.append(f"index: keyword {idx.keyword}; vectors {idx.vectors}{why}")
    theirs = out.memsearch_index
    if theirs.deleted:
        lines.append(f"memsearch's index: {plural(theirs.deleted, 'stale chunk')} deleted")
    if theirs.warning:
        lines.append(f"warning: {theirs.warning}")
    return "\n".join(lines)
