"""Curator commands: lifecycle, archive, trash, versions/diff/conflicts, split/merge, import, undo.

Thin wrappers over the API's nouns: ``mem.lifecycle``, ``mem.trash``, ``mem.versions``,
``mem.layout`` (split, merge, import), ``mem.proposals`` and ``mem.history``.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

import typer

from memsearch_tui.cli.envelope import say
from memsearch_tui.cli.output import JsonOpt, emit, handles_errors, settings
from memsearch_tui.cli.progress import bar
from memsearch_tui.engine.api import CopyRestored
from memsearch_tui.engine.api.errors import InvalidInput, Refused
from memsearch_tui.engine.api.text import plural

if TYPE_CHECKING:
    from memsearch_tui.engine.api import HistoryItem, Memory, MoveOutcome
    from memsearch_tui.engine.api.types import Move


def _mem(ctx: typer.Context) -> Memory:
    """The API for this command line (engine modules load on first use of a noun)."""
    return settings(ctx).memory()


def _what(item: HistoryItem) -> str:
    """An operation's summary with who made it, as logged: ``add notes/x [by mcp:claude]``."""
    return f"{item.summary} [by {item.by}]" if item.by else item.summary


def _state(item: HistoryItem) -> str:
    """``undo --list``'s marker: what redo would bring back, or what is undone."""
    if item.redoable:
        return "(undone · redo) "
    if item.undone:
        return "(undone) "
    return "(not undoable) " if item.purged else ""


def _moves_text(moves: Sequence[Move | MoveOutcome]) -> str:
    """One line per move: a planned ``Move`` or an applied one."""
    return "\n".join(f"{m.action:8} {m.id}  — {m.reason}" for m in moves) or "nothing due"


def register(app: typer.Typer) -> None:
    """Add the curator commands to the root app."""
    _lifecycle(app)
    _trash(app)
    _versions(app)
    _split(app)

    @app.command("import")
    @handles_errors
    def import_cmd(
        ctx: typer.Context,
        path: Path = typer.Argument(..., help="MEMORY.md, CLAUDE.md or a folder of .md"),
        category: str = typer.Option("imported", "--category", help="Category for the new entries."),
        json_out: bool = JsonOpt,
    ) -> None:
        """Import an agent's own memory, one way (the source is only read; repeats are skipped)."""
        with bar("importing", json_mode=json_out or settings(ctx).json) as report:
            r = _mem(ctx).layout.import_path(path, category, progress=report)
        lines = [f"imported {i}" for i in r.imported] + [f"skipped {s.title!r}: {s.reason}" for s in r.skipped]
        lines.append(f"{len(r.imported)} imported, {len(r.skipped)} skipped")
        emit(ctx, r, "\n".join(lines), json_flag=json_out)

    @app.command("undo")
    @handles_errors
    def undo_cmd(
        ctx: typer.Context,
        list_: bool = typer.Option(False, "--list", help="Show the operation log."),
        limit: int = typer.Option(20, "--limit", help="Rows for --list (0: all)."),
        json_out: bool = JsonOpt,
    ) -> None:
        """Revert the newest logged operation byte-exactly (refused if its files changed since)."""
        if list_:
            ops = _mem(ctx).history.list(limit or None)
            text = "\n".join(f"{r.seq:>5}  {r.at}  {r.kind:10} {_state(r)}{_what(r)}" for r in ops)
            emit(ctx, {"operations": ops}, text or "the operation log is empty", json_flag=json_out)
            return
        item = _mem(ctx).history.undo()  # no store needed: a proposal accept is logged too
        emit(
            ctx,
            {"undone": item},
            f"undone: {_what(item)} ({plural(len(item.files), 'file')} restored) · `redo` puts it back",
            json_flag=json_out,
        )

    @app.command("redo")
    @handles_errors
    def redo_cmd(ctx: typer.Context, json_out: bool = JsonOpt) -> None:
        """Re-apply the most recently undone operation (refused after a newer change)."""
        item = _mem(ctx).history.redo()
        emit(
            ctx,
            {"redone": item},
            f"redone: {_what(item)} ({plural(len(item.files), 'file')})",
            json_flag=json_out,
        )

    @app.command("archive")
    @handles_errors
    def archive_cmd(
        ctx: typer.Context, entry_id: str = typer.Argument(..., metavar="ID"), json_out: bool = JsonOpt
    ) -> None:
        """Move an entry to its category's archived/ folder now."""
        r = _mem(ctx).lifecycle.archive(entry_id)
        emit(ctx, r, f"archived {r.archived} → {r.to}", json_flag=json_out)

    @app.command("merge")
    @handles_errors
    def merge_cmd(ctx: typer.Context, category: str = typer.Argument(...), json_out: bool = JsonOpt) -> None:
        """Undo a split: move every entry of CATEGORY's subcategories back into it."""
        r = _mem(ctx).layout.merge(category)
        emit(ctx, r, f"merged {plural(r.moved, 'entry', 'entries')} into {r.category}", json_flag=json_out)


def _lifecycle(app: typer.Typer) -> None:
    sub = typer.Typer(help="Archive → trash → purge by the thresholds in the store's config.md.")
    app.add_typer(sub, name="lifecycle")

    @sub.command("plan")
    @handles_errors
    def plan_cmd(ctx: typer.Context, json_out: bool = JsonOpt) -> None:
        """List every due move (archive, expire, trash, purge) with its reason; changes nothing."""
        moves = _mem(ctx).lifecycle.plan()
        emit(ctx, {"moves": moves, "count": len(moves)}, _moves_text(moves), json_flag=json_out)

    @sub.command("apply")
    @handles_errors
    def apply_cmd(
        ctx: typer.Context,
        now: bool = typer.Option(False, "--now", help="Apply at once even when \\[tui] review = true."),
        json_out: bool = JsonOpt,
    ) -> None:
        """Carry out the plan: as a proposal when \\[tui] review = true (the default), else at once."""
        mem = _mem(ctx)
        with bar("applying", json_mode=json_out or settings(ctx).json) as report:
            out = mem.lifecycle.apply(review=False if now else None, progress=report)
        if out.proposal is not None:
            p = out.proposal
            emit(
                ctx,
                out,
                f"proposal {p.id}: {p.summary}\n"
                f"review it with `memsearch-tui lifecycle show {p.id}`, then accept or reject it",
                json_flag=json_out,
            )
            return
        text = _moves_text(list(out.applied)) + f"\n{len(out.applied)} applied" if out.applied else "nothing due"
        emit(ctx, out, text, json_flag=json_out)

    @sub.command("proposals")
    @handles_errors
    def list_cmd(
        ctx: typer.Context,
        all_: bool = typer.Option(False, "--all", help="Also accepted/rejected ones."),
        json_out: bool = JsonOpt,
    ) -> None:
        """Lifecycle and split proposals waiting for review."""
        rows = [p for p in _mem(ctx).proposals.list(None if all_ else "pending") if p.origin == "store"]
        text = "\n".join(f"{p.id}  {p.status:8} {p.summary}" for p in rows)
        emit(ctx, {"proposals": rows}, text or "no proposals", json_flag=json_out)

    @sub.command("show")
    @handles_errors
    def show_cmd(
        ctx: typer.Context, pid: str = typer.Argument(..., metavar="PROPOSAL"), json_out: bool = JsonOpt
    ) -> None:
        """Show one proposal: why, and every move."""
        p = _mem(ctx).proposals.get(pid)
        body = "\n".join(p.changes) or "nothing to change"
        if p.content is not None:  # an agent's remember/revise: what would be written
            body += f"\n\nProposed text:\n{p.content}"
        emit(ctx, {"proposal": p}, f"{p.id} ({p.status}): {p.summary}\n{p.reason}\n\n{body}", json_flag=json_out)

    @sub.command("accept")
    @handles_errors
    def accept_cmd(
        ctx: typer.Context, pid: str = typer.Argument(..., metavar="PROPOSAL"), json_out: bool = JsonOpt
    ) -> None:
        """Carry out a proposal (logged: `memsearch-tui undo` reverts it)."""
        done = _mem(ctx).proposals.accept(pid)  # a lifecycle plan may purge: the API scrubs at once
        emit(ctx, {"proposal": done}, f"accepted {pid}", json_flag=json_out)

    @sub.command("reject")
    @handles_errors
    def reject_cmd(
        ctx: typer.Context,
        pid: str = typer.Argument(..., metavar="PROPOSAL"),
        note: str = typer.Option("", "--note", help="Why (kept with the proposal)."),
        json_out: bool = JsonOpt,
    ) -> None:
        """Drop a proposal; nothing changes in the store."""
        done = _mem(ctx).proposals.reject(pid, note=note)
        emit(ctx, {"proposal": done}, f"rejected {pid}", json_flag=json_out)


def _trash(app: typer.Typer) -> None:
    @app.command("trash")
    @handles_errors
    def trash_cmd(
        ctx: typer.Context,
        what: str = typer.Argument(..., metavar="ID|list|restore|purge", help="An entry id to trash, or an action."),
        target: str | None = typer.Argument(None, metavar="[ID]", help="For restore: the trashed entry."),
        reason: str = typer.Option("", "--reason", help="Why (kept in .trash/INDEX.md)."),
        older_than: int | None = typer.Option(None, "--older-than", help="purge: trashed at least DAYS ago."),
        all_: bool = typer.Option(False, "--all", help="purge: everything in the trash."),
        yes: bool = typer.Option(False, "--yes", help="purge: really delete (irreversible)."),
        json_out: bool = JsonOpt,
    ) -> None:
        """`trash ID [--reason]`, `trash list`, `trash restore ID`, `trash purge [--older-than D] [--all] --yes`."""
        trash = _mem(ctx).trash
        if what == "list":
            items = trash.list()
            text = "\n".join(
                f"{i.trashed}  {i.key}  {i.title!r}  purge in {plural(i.days_left, 'day')}"
                + (f"  — {i.reason}" if i.reason else "")
                for i in items
            )
            emit(ctx, {"items": items, "count": len(items)}, text or "the trash is empty", json_flag=json_out)
        elif what == "restore":
            if not target:
                raise InvalidInput("which entry? `trash restore ID` (see `trash list`)")
            r = trash.restore(target)
            came = r.restored if isinstance(r, CopyRestored) else f"{r.original_id} as {r.restored}"
            emit(ctx, r, f"restored {came}", json_flag=json_out)
        elif what == "purge":
            candidates = trash.purge_candidates(older_than=older_than, everything=all_)
            if not candidates:
                emit(ctx, {"purged": []}, "nothing to purge", json_flag=json_out)
                return
            if not yes:
                listing = "\n".join(f"would purge {i.key} ({i.title!r}, trashed {i.trashed})" for i in candidates)
                if not (json_out or settings(ctx).json):
                    say(listing)
            gone = trash.purge(candidates, yes=yes)
            emit(ctx, gone, "\n".join(f"purged {k}" for k in gone.purged), json_flag=json_out)
        else:
            if target is not None:
                raise InvalidInput(f"unexpected argument {target!r}: `trash ID [--reason TEXT]`")
            out = trash.put(what, reason)
            warn = f"\nnote: still named in related of {', '.join(out.referenced_by)}" if out.referenced_by else ""
            emit(
                ctx,
                out,
                f"trashed {out.trash_key} (restore with `memsearch-tui trash restore {out.trash_key}`){warn}",
                json_flag=json_out,
            )


def _versions(app: typer.Typer) -> None:
    @app.command("versions")
    @handles_errors
    def versions_cmd(
        ctx: typer.Context,
        entry_id: str = typer.Argument(..., metavar="ID"),
        restore: int | None = typer.Option(
            None, "--restore", metavar="N", help="Make version N current (as a new version)."
        ),
        json_out: bool = JsonOpt,
    ) -> None:
        """List an entry's versions, or restore one."""
        versions = _mem(ctx).versions
        if restore is not None:
            r = versions.restore(entry_id, restore)
            emit(ctx, r, r.message, json_flag=json_out)
            return
        rows = versions.list(entry_id)
        text = "\n".join(
            f"v{r.version}{'*' if r.current else ' '} {r.date or '-':10}  {r.summary}"
            + ("" if r.kept else "  (not kept)")
            for r in rows
        )
        emit(ctx, {"id": entry_id, "versions": rows}, text, json_flag=json_out)

    @app.command("diff")
    @handles_errors
    def diff_cmd(
        ctx: typer.Context,
        entry_id: str = typer.Argument(..., metavar="ID"),
        a: int | None = typer.Argument(None, metavar="[A]"),
        b: int | None = typer.Argument(None, metavar="[B]"),
        json_out: bool = JsonOpt,
    ) -> None:
        """Unified diff between two versions of an entry (default: the last two)."""
        r = _mem(ctx).versions.diff(entry_id, a, b)
        emit(ctx, r, r.unified.rstrip("\n") or f"v{r.a} and v{r.b} are the same", json_flag=json_out)

    @app.command("conflicts")
    @handles_errors
    def conflicts_cmd(
        ctx: typer.Context,
        action: str | None = typer.Argument(None, metavar="[confirm]"),
        entry_id: str | None = typer.Argument(None, metavar="[ID]"),
        json_out: bool = JsonOpt,
    ) -> None:
        """Entries whose latest change was a detected conflict; `conflicts confirm ID` settles one."""
        versions = _mem(ctx).versions
        if action is None:
            rows = versions.conflicts()
            text = "\n".join(f"{r.detected}  {r.id}  v{r.version} (v{r.previous} kept)  {r.title!r}" for r in rows)
            emit(ctx, {"conflicts": rows, "count": len(rows)}, text or "no open conflicts", json_flag=json_out)
        elif action == "confirm" and entry_id:
            r = versions.confirm(entry_id)
            emit(ctx, r, f"confirmed {r.confirmed}: v{r.version} stands", json_flag=json_out)
        else:
            raise InvalidInput("usage: `conflicts` or `conflicts confirm ID`")


def _split(app: typer.Typer) -> None:
    sub = typer.Typer(help="Split a large category into subcategories (`merge` undoes it).")
    app.add_typer(sub, name="split")
    by_opt = typer.Option(None, "--by", help="status, year, month or tag (default: years, else months, else tag).")

    @sub.command("plan")
    @handles_errors
    def plan_cmd(
        ctx: typer.Context, category: str = typer.Argument(...), by: str | None = by_opt, json_out: bool = JsonOpt
    ) -> None:
        """Propose subcategories for CATEGORY; changes nothing."""
        p = _mem(ctx).layout.split_plan(category, by)
        head = f"{p.category}: {plural(p.entries, 'entry', 'entries')} (split_threshold {p.threshold}), by {p.by}"
        text = "\n".join([head] + [f"  {g}/  {plural(n, 'entry', 'entries')}" for g, n in p.groups.items()])
        emit(ctx, p, text, json_flag=json_out)

    @sub.command("apply")
    @handles_errors
    def apply_cmd(
        ctx: typer.Context, category: str = typer.Argument(...), by: str | None = by_opt, json_out: bool = JsonOpt
    ) -> None:
        """Move CATEGORY's entries into the planned subcategories (links and related ids follow)."""
        with bar("moving", json_mode=json_out or settings(ctx).json) as report:
            r = _mem(ctx).layout.split(category, by, progress=report)
        if not r.moved:
            raise Refused(f"nothing to move in {category}", code="empty")
        emit(
            ctx,
            r,
            f"moved {plural(r.moved, 'entry', 'entries')} of {r.category} into "
            f"{plural(len(r.groups), 'subcategory', 'subcategories')}",
            json_flag=json_out,
        )
