"""Maintenance commands: ``proposals …``, ``maintenance status|run|enable|disable``, ``doctor``."""

from __future__ import annotations

import sys
from pathlib import Path

import typer

from memsearch_tui.cli.envelope import envelope, say
from memsearch_tui.cli.output import JsonOpt, emit, handles_errors, settings
from memsearch_tui.engine.core.errors import InvalidInput
from memsearch_tui.engine.core.text import plural
from memsearch_tui.engine.memsearch.config import (
    ALL_TASKS,
    KNOWN_PLATFORMS,
    home_config_path,
    load_config,
    parse_assignments,
    project_config_path,
)
from memsearch_tui.engine.review import proposals as props

TaskArg = typer.Argument(..., help="project_review, user_profile, memory_to_skill or all.")
PlatformOpt = typer.Option(None, "--platform", help="claude-code, codex, opencode, openclaw …")


def _checked_set(value: list[str] | None) -> list[str] | None:
    """A bad ``--set`` is a usage error (exit 2), like any other bad option."""
    from memsearch_tui.engine.core.errors import MemsearchError
    from memsearch_tui.engine.memsearch.config import check_assignments

    try:
        check_assignments(value)
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
        project = settings(ctx).project
        broken: list[tuple[Path, str]] = []
        items = [p for p in props.list_all(project, broken) if all_ or p.status == props.PENDING]
        rows = [p.summary(project) for p in items]
        lines = [
            f"{p['id']}  {p['status']:<10} {p['platform']}.{p['task']} → "
            + (f"[TAMPERED] {p['tampered']}" if p["tampered"] else Path(p["target"]).name)
            + f"{'  [target changed]' if p['target_changed'] and p['status'] == 'pending' else ''}"
            + f"{'  [stale]' if p['extra'].get('stale') and p['status'] == 'pending' else ''}  {p['reason'][:60]}"
            for p in rows
        ]
        store_rows = [
            to_json(p) for p in _api(settings(ctx)).proposals(None if all_ else "pending") if p.origin == "store"
        ]
        lines += [f"{p['id']}  {p['status']:<10} {p['summary']}  {p['reason'][:60]}" for p in store_rows]
        unreadable = [{"path": str(path), "reason": why} for path, why in broken]
        lines += [f"skipped {u['path']}: unreadable proposal file ({u['reason']})" for u in unreadable]
        emit(
            ctx,
            {"proposals": rows, "store_proposals": store_rows, "unreadable": unreadable},
            "\n".join(lines) or "no pending proposals",
            json_flag=json_out,
        )

    @sub.command("show")
    @handles_errors
    def show(ctx: typer.Context, pid: str = typer.Argument(..., metavar="ID"), json_out: bool = JsonOpt) -> None:
        """A proposal's details and full new text."""
        if _store_side(settings(ctx), pid):  # an agent's remember/revise/forget, a lifecycle/split plan
            r = _api(settings(ctx)).proposals.review(pid)
            emit(ctx, {"proposal": to_json(r)}, _review_text(r), json_flag=json_out)
            return
        p = props.get(settings(ctx).project, pid)
        head = [
            f"id:       {p.id}",
            f"status:   {p.status}",
            f"task:     {p.platform}.{p.task}",
            f"target:   {p.target}{'  (changed since the proposal)' if props.target_changed(p) else ''}",
            *([f"TAMPERED: {p.tampered}"] if p.tampered else []),
            f"created:  {p.created}",
            f"reason:   {p.reason}",
            "",
        ]
        emit(
            ctx,
            {"proposal": {**p.summary(settings(ctx).project), "content": p.content}},
            "\n".join(head) + p.content,
            json_flag=json_out,
        )

    @sub.command("diff")
    @handles_errors
    def diff(ctx: typer.Context, pid: str = typer.Argument(..., metavar="ID"), json_out: bool = JsonOpt) -> None:
        """Unified diff from the target as it is now to the proposed text."""
        if _store_side(settings(ctx), pid):
            r = _api(settings(ctx)).proposals.review(pid)
            text = "".join(r.diff) or "\n".join(r.moves) or "no difference"
            emit(ctx, {"id": r.proposal.id, "target_changed": False, "diff": list(r.diff)}, text, json_flag=json_out)
            return
        project = settings(ctx).project
        p = props.get(project, pid)
        lines = props.diff(project, p.id)
        changed = props.target_changed(p)
        note = f"warning: {p.target} changed since this proposal was made\n" if changed else ""
        emit(
            ctx,
            {"id": p.id, "target_changed": changed, "diff": lines},
            note + ("".join(lines) if lines else "no difference"),
            json_flag=json_out,
        )

    @sub.command("accept")
    @handles_errors
    def accept(
        ctx: typer.Context,
        pid: str = typer.Argument(..., metavar="ID"),
        edit: bool = typer.Option(False, "--edit", help="Edit the proposed text in $EDITOR first."),
        force: bool = typer.Option(False, "--force", help="Accept even if the target changed since."),
        json_out: bool = JsonOpt,
    ) -> None:
        """Replace the target with the proposed text (atomic; `memsearch-tui undo` reverts it)."""
        s = settings(ctx)
        if _store_side(s, pid):  # an agent's remember/revise/forget, or a lifecycle/split plan
            done_s = _api(s).accept_proposal(pid)
            emit(ctx, {"proposal": to_json(done_s)}, f"accepted {done_s.id}: {done_s.summary}", json_flag=json_out)
            return
        p = props.get(s.project, pid)
        content = None
        if edit:
            import subprocess

            from memsearch_tui.engine.store.editor import edit_bytes

            content = edit_bytes(p.content.encode("utf-8"), Path(p.target).name, subprocess.call).decode("utf-8")
        done = props.accept(s.project, p.id, memory_root=s.memory_root, content=content, force=force)
        emit(ctx, {"proposal": done.summary()}, f"accepted {done.id}: wrote {done.target}", json_flag=json_out)

    @sub.command("reject")
    @handles_errors
    def reject(
        ctx: typer.Context,
        pid: str = typer.Argument(..., metavar="ID"),
        note: str = typer.Option("", "--note", help="Why (kept with the proposal)."),
        json_out: bool = JsonOpt,
    ) -> None:
        """Reject; the same input will not be proposed again."""
        if _store_side(settings(ctx), pid):
            done_s = _api(settings(ctx)).reject_proposal(pid)
            emit(ctx, {"proposal": to_json(done_s)}, f"rejected {done_s.id}", json_flag=json_out)
            return
        done = props.reject(settings(ctx).project, pid, note=note, memory_root=settings(ctx).memory_root)
        emit(ctx, {"proposal": done.summary()}, f"rejected {done.id}", json_flag=json_out)


def _review_text(r) -> str:
    """``proposals show`` of a store proposal: its head, each changed field, the whole new text."""
    p = r.proposal
    head = [f"id:       {p.id}", f"status:   {p.status}", f"kind:     {p.kind}", f"target:   {p.target}"]
    head += [f"author:   {p.author}"] * bool(p.author) + [f"created:  {p.created}", f"reason:   {p.reason}"]
    head += [f"{field}: {now or '—'} → {new or '—'}" for field, now, new in r.fields]
    head += [f"note:     {r.note}"] * bool(r.note)
    return "\n".join(head + ["", *r.moves]) + ("\n" + r.after if r.after else "")


def _api(s):
    """The engine API as the person at the terminal (direct writes)."""
    from memsearch_tui.engine.api import Memory

    return Memory(s.memory_root, s.project)


def _store_side(s, pid: str) -> bool:
    """Whether ``pid`` names a store proposal (agent writes, lifecycle, split)."""
    return _api(s).proposal_origin(pid) == "store"


def to_json(obj):
    from memsearch_tui.engine.api import to_json as _to_json

    return _to_json(obj)


# -- maintenance -----------------------------------------------------------------------
def _tasks(task: str) -> list[str]:
    if task == "all":
        return list(ALL_TASKS)
    if task not in ALL_TASKS:
        raise InvalidInput(f"unknown task {task!r}; use {', '.join(ALL_TASKS)} or all")
    return [task]


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
        from memsearch_tui.engine.maintenance import status

        project = settings(ctx).project
        config = load_config(project, overrides=parse_assignments(assign))
        rows = status(project, config, platforms=platform or None)
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
                lines.append(f"    error at {r.last_failed_at}: {r.last_error[:200]}")
        cfg = {"problems": config.problems, "ignored": config.warnings, "trust": config.trust}
        emit(ctx, {"tasks": [r.to_dict() for r in rows], "config": cfg}, "\n".join(lines), json_flag=json_out)

    @sub.command("run")
    @handles_errors
    def run_cmd(
        ctx: typer.Context,
        task: str = typer.Option("all", "--task", help="project_review, user_profile, memory_to_skill, all."),
        platform: list[str] | None = PlatformOpt,
        force: bool = typer.Option(False, "--force", help="Run even when not due."),
        assign: list[str] | None = SetOpt,
        json_out: bool = JsonOpt,
    ) -> None:
        """Run due tasks now (all configured platforms unless --platform)."""
        from memsearch_tui.cli.run_due import summarize
        from memsearch_tui.engine.maintenance import run_tasks

        s = settings(ctx)
        config = load_config(s.project, overrides=parse_assignments(assign))
        results = [
            r.to_dict()
            for r in run_tasks(
                s.project,
                config,
                platforms=platform or None,
                tasks=None if task == "all" else _tasks(task),  # all: memory_to_skill only when enabled
                force=force,
                memory_root=s.memory_root,
            )
        ]
        emit(ctx, {"tasks": results}, summarize(results), json_flag=json_out)

    def _set(
        ctx: typer.Context, task: str, platform: str | None, project_file: bool, json_out: bool, **values: object
    ) -> None:
        from memsearch_tui.engine.memsearch.toml_edit import set_task

        s = settings(ctx)
        config = load_config(s.project)
        plats = config.platforms()
        if platform is None:
            if len(plats) != 1:
                raise InvalidInput(f"name the platform with --platform ({', '.join(plats or KNOWN_PLATFORMS)})")
            platform = plats[0]
        provider = values.get("provider")
        if project_file and (provider or values.get("model")) and "is trusted" not in config.trust:
            raise InvalidInput(
                "a project file may not choose a provider or model (it would be ignored); "
                "drop --project-file to set them in ~/.memsearch/config.toml"
            )
        if provider and provider != "native" and provider not in config.providers():
            raise InvalidInput(
                f"unknown provider {provider!r}: add [llm.providers.{provider}] first "
                f"(known: {', '.join(['native', *config.providers()])})"
            )
        path = project_config_path(s.project) if project_file else home_config_path()
        changed = {t: set_task(path, platform, t, **values) for t in _tasks(task)}  # type: ignore[arg-type]
        text = "\n".join(f"{path}: [plugins.{platform}.{t}] {v}" for t, v in changed.items())
        emit(ctx, {"file": str(path), "platform": platform, "tasks": changed}, text, json_flag=json_out)

    @sub.command("enable")
    @handles_errors
    def enable(
        ctx: typer.Context,
        task: str = TaskArg,
        platform: str | None = PlatformOpt,
        provider: str | None = typer.Option(None, "--provider", help="A [llm.providers] name or native."),
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
        from memsearch_tui.engine.maintenance.doctor import PROBLEM, doctor, fix_stale_locks

        s = settings(ctx)
        removed = fix_stale_locks(s.project) if fix else []
        checks = doctor(s.project, s.memory_root)
        marks = {"ok": "ok  ", "warn": "warn", "problem": "FAIL", "not-checked": "--  "}
        lines = [f"removed stale lock {p}" for p in removed]
        for c in checks:
            lines.append(f"[{marks.get(c.status, c.status)}] {c.area}: {c.message}")
            if c.fix and c.status != "ok":
                lines.append(f"       fix: {c.fix}")
        problems = sum(c.status == PROBLEM for c in checks)
        data = {"checks": [c.to_dict() for c in checks], "problems": problems, "removed_locks": removed}
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
