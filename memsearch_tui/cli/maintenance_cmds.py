"""Maintenance commands: ``proposals …``, ``maintenance status|run|enable|disable``, ``doctor``."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import TYPE_CHECKING

import typer

from memsearch_tui.cli.envelope import envelope, say
from memsearch_tui.cli.output import JsonOpt, emit, handles_errors, settings
from memsearch_tui.engine.api.proposals import proposal_flag, shown_target
from memsearch_tui.engine.api.serialise import to_json
from memsearch_tui.engine.api.text import plural, redact_clip

if TYPE_CHECKING:
    from memsearch_tui.engine.api import Proposal, ProposalReview
    from memsearch_tui.engine.api.maintenance import Maintenance, SpendReport
    from memsearch_tui.engine.api.records import Config

TaskArg = typer.Argument(..., help="project_review, user_profile, memory_to_skill or all.")
PlatformOpt = typer.Option(None, "--platform", help="claude-code, codex, opencode, openclaw …")


def _checked_set(value: list[str] | None) -> list[str] | None:
    """A bad ``--set`` is a usage error (exit 2), like any other bad option."""
    from memsearch_tui.engine.api.config import check_overrides
    from memsearch_tui.engine.api.errors import MemsearchError

    try:
        check_overrides(value)
    except MemsearchError as exc:
        raise typer.BadParameter(exc.message) from None
    return value


SetOpt = typer.Option(
    None,
    "--set",
    metavar="KEY=VALUE",
    callback=_checked_set,
    help="Override a config value for this run; repeatable.",
)


def register(app: typer.Typer) -> None:
    """Add the proposals, maintenance and doctor commands to the root app."""
    _register_proposals(app)
    _register_maintenance(app)
    _register_doctor(app)


# -- proposals -------------------------------------------------------------------------
def _register_proposals(app: typer.Typer) -> None:
    sub = typer.Typer(help="Review automated rewrites: list, show, diff, accept, reject.", no_args_is_help=True)
    app.add_typer(sub, name="proposals")

    @sub.command("list")
    @handles_errors
    def list_cmd(
        ctx: typer.Context,
        all_: bool = typer.Option(False, "--all", help="Include decided ones."),
        json_out: bool = JsonOpt,
    ) -> None:
        """Pending proposals (newest first)."""
        listing = settings(ctx).memory().proposals.listing(None if all_ else "pending")
        lines = [_row(p) for p in listing.proposals]
        lines += [f"skipped {u.path}: unreadable proposal file ({u.reason})" for u in listing.unreadable]
        emit(ctx, listing, "\n".join(lines) or "no pending proposals", json_flag=json_out)

    @sub.command("show")
    @handles_errors
    def show(ctx: typer.Context, pid: str = typer.Argument(..., metavar="ID"), json_out: bool = JsonOpt) -> None:
        """A proposal's details and full new text (a rewrite), or in full what accept writes (a store change)."""
        proposals = settings(ctx).memory().proposals
        if proposals.origin(pid) == "store":  # an agent's remember/revise/forget, a lifecycle/split plan
            r = proposals.review(pid)
            emit(ctx, {"proposal": r}, _review_text(r), json_flag=json_out)
            return
        p = proposals.get(pid)
        changed = "  (changed since the proposal)" if p.target_changed else ""
        head = [
            f"id:       {p.id}",
            f"status:   {p.status}",
            f"task:     {p.author}.{p.task}" if p.origin == "project" else f"kind:     {p.kind}",
            f"target:   {shown_target(p)}{changed}",  # from ~ (or as its file wrote it), as the app says it
            *(["{}: {}".format(*proposal_flag(p))] if p.tampered else []),
            f"created:  {p.created}",
            f"reason:   {p.reason}",
            "",
        ]
        body = p.content if p.content is not None else "\n".join(p.changes)
        emit(ctx, {"proposal": p}, "\n".join(head) + body, json_flag=json_out)

    @sub.command("diff")
    @handles_errors
    def diff(ctx: typer.Context, pid: str = typer.Argument(..., metavar="ID"), json_out: bool = JsonOpt) -> None:
        """Unified diff from the target as it is now to the proposed text."""
        proposals = settings(ctx).memory().proposals
        if proposals.origin(pid) == "store":
            r = proposals.review(pid)
            text = "".join(r.diff) or "\n".join(r.moves) or "no difference"
            emit(ctx, {"id": r.proposal.id, "target_changed": False, "diff": list(r.diff)}, text, json_flag=json_out)
            return
        d = proposals.diff(pid)
        note = "warning: the target changed since this proposal was made\n" if d.target_changed else ""
        emit(ctx, d, note + ("".join(d.diff) if d.diff else "no difference"), json_flag=json_out)

    @sub.command("accept")
    @handles_errors
    def accept(
        ctx: typer.Context,
        pid: str = typer.Argument(..., metavar="ID"),
        edit: bool = typer.Option(False, "--edit", help="Edit the proposed text in $EDITOR first."),
        force: bool = typer.Option(False, "--force", help="Accept even if the target changed since."),
        json_out: bool = JsonOpt,
    ) -> None:
        """Carry out a proposal (atomic; `memsearch-tui undo` reverts it)."""
        proposals = settings(ctx).memory().proposals
        content = None
        if edit and proposals.origin(pid) == "project":
            import subprocess

            content = proposals.edited(pid, subprocess.call)
        done = proposals.accept(pid, content=content, force=force)
        where = f"wrote {done.target}" if done.origin == "project" else done.summary
        emit(ctx, {"proposal": done}, f"accepted {done.id}: {where}", json_flag=json_out)

    @sub.command("reject")
    @handles_errors
    def reject(
        ctx: typer.Context,
        pid: str = typer.Argument(..., metavar="ID"),
        note: str = typer.Option("", "--note", help="Why (kept with the proposal)."),
        json_out: bool = JsonOpt,
    ) -> None:
        """Reject; the same input will not be proposed again."""
        done = settings(ctx).memory().proposals.reject(pid, note=note)
        emit(ctx, {"proposal": done}, f"rejected {done.id}", json_flag=json_out)


def _review_text(r: ProposalReview) -> str:
    """``proposals show`` of a store proposal: its head, each changed field, the whole new text."""
    p = r.proposal
    head = [f"id:       {p.id}", f"status:   {p.status}", f"kind:     {p.kind}", f"target:   {p.target}"]
    head += [f"author:   {p.author}"] * bool(p.author) + [f"created:  {p.created}", f"reason:   {p.reason}"]
    head += [f"{field}: {now or '—'} → {new or '—'}" for field, now, new in r.fields]
    head += [f"note:     {r.note}"] * bool(r.note)
    return "\n".join(head + ["", *r.moves]) + ("\n" + r.after if r.after else "")


def _row(p: Proposal) -> str:
    """One line of ``proposals list``: id, status, what it changes, flags, the reason."""
    pending = p.status == "pending"
    what = f"{p.author}.{p.task} → " + ("[{}] {}".format(*proposal_flag(p)) if p.tampered else Path(p.target).name)
    if p.origin == "store":
        what = p.summary
    flags = ("  [target changed]" if p.target_changed and pending else "") + (
        "  [stale]" if p.stale and pending else ""
    )
    return f"{p.id}  {p.status:<10} {what}{flags}  {redact_clip(p.reason, 60)}"  # masked, then cut


# -- maintenance -----------------------------------------------------------------------
def _register_maintenance(app: typer.Typer) -> None:
    sub = typer.Typer(help="memsearch-compatible maintenance of PROJECT.md and USER.md.", no_args_is_help=True)
    app.add_typer(sub, name="maintenance")

    @sub.command("status")
    @handles_errors
    def status_cmd(
        ctx: typer.Context,
        platform: list[str] | None = PlatformOpt,
        assign: list[str] | None = SetOpt,
        json_out: bool = JsonOpt,
    ) -> None:
        """Every task: enabled, provider, last action, last success/error, due or why not."""
        s = settings(ctx)
        maintenance = s.memory().maintenance
        config = maintenance.config(assign)
        as_json = json_out or s.json  # the text shows no digest: a disabled task's is not made (nor its days read)
        rows = maintenance.status(config, platform, disabled_digests=as_json)
        lines = [f"config: {m}" for m in config.problems.values()]
        lines += [f"config: {m}" for m in config.warnings]
        for r in rows:
            state = "due" if r.due else r.reason
            if r.blocked:
                state += f" but cannot run: {r.blocked}"
            when = r.last_failed_at if r.last_action == "error" else r.last_success_at or r.last_checked_at
            last = f"last {r.last_action} {when}".rstrip() if r.last_action else "never run"
            pending = f"; {plural(len(r.pending_proposals), 'pending proposal')}" if r.pending_proposals else ""
            lines.append(
                f"{r.platform}.{r.task}: {'enabled' if r.enabled else 'disabled'}, provider {r.provider}, "
                f"{last}; {state}{' [locked]' if r.locked else ''}{pending}"
            )
            if r.prompt:
                lines.append(f"    prompt: {r.prompt}")
            if r.memsearch_differs:
                lines.append(f"    settings: {r.memsearch_differs}")
            if r.last_action == "error":
                lines.append(f"    error at {r.last_failed_at}: {redact_clip(r.last_error, 200)}")
        use = maintenance.budget_use(config)
        lines += [f"budget: {u.text}" for u in use]
        cfg = {"problems": config.problems, "ignored": config.warnings, "trust": config.trust}
        data = {"tasks": [r.to_dict() for r in rows], "config": cfg, "budget": to_json(use)}
        emit(ctx, data, "\n".join(lines), json_flag=json_out)

    @sub.command("run")
    @handles_errors
    def run_cmd(
        ctx: typer.Context,
        task: str = typer.Option("all", "--task", help="project_review, user_profile, memory_to_skill, all."),
        platform: list[str] | None = PlatformOpt,
        force: bool = typer.Option(False, "--force", help="Run even when not due."),
        dry_run: bool = typer.Option(
            False, "--dry-run", help="Print each due task's estimated tokens and the budget left; call nothing."
        ),
        assign: list[str] | None = SetOpt,
        json_out: bool = JsonOpt,
    ) -> None:
        """Run due tasks now (all configured platforms unless --platform); exit 1 when a
        budget refused a call (nothing was sent for it)."""
        from memsearch_tui.cli.run_due import summarize

        s = settings(ctx)
        maintenance = s.memory().maintenance
        config = maintenance.config(assign)
        if dry_run:
            _dry_run(ctx, maintenance, config, task, platform, force, json_out)
            return
        results = maintenance.run(config, task=task, platforms=platform, force=force)
        refused = [r for r in results if r.result == "refused"]
        if not refused:
            emit(ctx, {"tasks": results}, summarize(to_json(results), reasons=True), json_flag=json_out)
            return
        message = "; ".join(f"{r.platform}.{r.task} not run: {r.reason}" for r in refused)
        if json_out or s.json:
            print(envelope(False, {"tasks": to_json(results)}, {"code": "budget", "message": message}))
        else:
            say(summarize(to_json(results), reasons=True))
            say(f"error: {message}", sys.stderr)
        raise typer.Exit(1)

    @sub.command("spend")
    @handles_errors
    def spend_cmd(
        ctx: typer.Context,
        since: str = typer.Option("", "--since", metavar="DATE", help="From this UTC date (default: this month)."),
        by: str = typer.Option("task", "--by", help="Group by task, provider, model or day."),
        assign: list[str] | None = SetOpt,
        json_out: bool = JsonOpt,
    ) -> None:
        """What background LLM calls used (tokens, cost, refusals) and the budget left."""
        maintenance = settings(ctx).memory().maintenance
        report = maintenance.spend(maintenance.config(assign), since=since, by=by)
        emit(ctx, report, spend_text(report), json_flag=json_out)

    def _set(
        ctx: typer.Context, task: str, platform: str | None, project_file: bool, json_out: bool, **values: object
    ) -> None:
        done = settings(ctx).memory().maintenance.set_task(task, platform, project_file=project_file, **values)
        text = "\n".join(f"{done.file}: [plugins.{done.platform}.{t}] {v}" for t, v in done.tasks.items())
        emit(ctx, done, text, json_flag=json_out)

    @sub.command("enable")
    @handles_errors
    def enable(
        ctx: typer.Context,
        task: str = TaskArg,
        platform: str | None = PlatformOpt,
        provider: str | None = typer.Option(None, "--provider", help="A \\[llm.providers] name or native."),
        interval: float | None = typer.Option(None, "--interval", help="min_interval_hours."),
        model: str | None = typer.Option(None, "--model", help="Model for this task."),
        project_file: bool = typer.Option(
            False, "--project-file", help="Edit <project>/.memsearch.toml, not ~/.memsearch/config.toml."
        ),
        json_out: bool = JsonOpt,
    ) -> None:
        """Enable a task (edits the TOML in place, keeping comments)."""
        _set(
            ctx, task, platform, project_file, json_out, enabled=True, provider=provider, interval=interval, model=model
        )

    @sub.command("disable")
    @handles_errors
    def disable(
        ctx: typer.Context,
        task: str = TaskArg,
        platform: str | None = PlatformOpt,
        project_file: bool = typer.Option(
            False, "--project-file", help="Edit <project>/.memsearch.toml, not ~/.memsearch/config.toml."
        ),
        json_out: bool = JsonOpt,
    ) -> None:
        """Disable a task (edits the TOML in place, keeping comments)."""
        _set(ctx, task, platform, project_file, json_out, enabled=False)


# -- doctor ----------------------------------------------------------------------------
def _dry_run(
    ctx: typer.Context,
    maintenance: Maintenance,
    config: Config,
    task: str,
    platform: list[str] | None,
    force: bool,
    json_out: bool,
) -> None:
    """``maintenance run --dry-run``: each due task's estimate and the budget left; no call."""
    rows = maintenance.estimate(config, task=task, platforms=platform, force=force)
    use = maintenance.budget_use(config)
    lines = [
        f"{r.platform}.{r.task}: ~{r.input_tokens:,} in + ~{r.output_tokens:,} out tokens"
        + (f", ~{r.cost:.4f}" if r.cost is not None else "")
        + f" via {r.provider} {r.model}".rstrip()
        + (f"; would be refused: {r.refused}" if r.refused else "")
        for r in rows
    ] or ["nothing is due"]
    lines += [f"budget: {u.text}" for u in use] or ["budget: none set ([tui.budget] in ~/.memsearch/config.toml)"]
    emit(ctx, {"estimates": rows, "budget": use}, "\n".join(lines), json_flag=json_out)


def spend_text(report: SpendReport) -> str:
    """``maintenance spend``'s table: one row per group, the total, then the budget."""
    head = f"{report.by:<24} {'calls':>6} {'refused':>7} {'in tokens':>11} {'out tokens':>11} {'cost':>10}"
    lines = [f"since {report.since} (ledger {report.ledger})", head]
    for r in (*report.rows, report.total):
        cost = f"{r.cost:.4f}" if r.cost is not None else "-"
        est = " ~" if r.estimated else ""
        lines.append(
            f"{r.key[:24]:<24} {r.calls:>6} {r.refused:>7} {r.input_tokens:>11,} {r.output_tokens:>11,} {cost:>10}{est}"
        )
    if report.refusals:
        lines.append("refused (no request sent): " + ", ".join(f"{n} × {why}" for why, n in report.refusals))
    lines += [f"budget: {u.text}" for u in report.budget] or ["budget: none set"]
    if any(r.estimated for r in report.rows):
        lines.append("~ some tokens are estimated (1 token per 4 characters): the provider reported none")
    return "\n".join(lines)


def _register_doctor(app: typer.Typer) -> None:
    @app.command("doctor")
    @handles_errors
    def doctor_cmd(
        ctx: typer.Context,
        fix: bool = typer.Option(False, "--fix", help="Remove stale task locks."),
        json_out: bool = JsonOpt,
    ) -> None:
        """One report on config, state, locks, journals, proposals, store and vector index
        (exit 1 when a check fails; warnings alone exit 0)."""
        s = settings(ctx)
        report = s.memory().maintenance.doctor(fix=fix)
        marks = {"ok": "ok  ", "warn": "warn", "problem": "FAIL", "not-checked": "--  "}
        lines = [f"removed stale lock {p}" for p in report.removed_locks]
        for c in report.checks:
            lines.append(f"[{marks.get(c.status, c.status)}] {c.area}: {c.message}")
            if c.fix and c.status != "ok":
                lines.append(f"       fix: {c.fix}")
        from memsearch_tui.engine.api import to_json

        problems = report.problems
        data = to_json(report)
        if not problems:
            emit(ctx, data, "\n".join([*lines, "no problems"]), json_flag=json_out)
            return
        # Like `index check`: the whole report still printed (data in the envelope), ok false, exit 1.
        message = f"{plural(problems, 'check')} failed; each [FAIL] line names its fix"
        if json_out or s.json:
            print(envelope(False, data, {"code": "doctor_problems", "message": message}))
        else:
            say("\n".join(lines))
            say(f"error: {message}", sys.stderr)
        raise typer.Exit(1)
