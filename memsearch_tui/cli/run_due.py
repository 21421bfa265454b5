"""``memsearch-tui --run-due``: the hook entry point.

Parsed with argparse, not Typer, so a hook that finds nothing due stays fast (no Typer,
no rich, no SDK, no torch, no pymilvus on that path — a test checks ``sys.modules``).

Plain mode prints one summary line (or the ``--json`` envelope) on stdout. Hook mode
(``--hook claude-code|codex``) is for hosts that are strict about hook I/O:

* the host's JSON payload is read from stdin once, by :mod:`.hook_fast`, only when one is
  piped, within a size cap and one overall deadline (``cwd`` picks the project,
  ``session_id`` is noted); a terminal, an idle or a trickling pipe is never waited on; a
  malformed, oversized or too deeply nested payload is noted on stderr and ignored;
* stdout carries only bytes the host accepts for Stop/SessionEnd: nothing for Claude Code
  (empty stdout + exit 0 is "no opinion"; JSON there could block the stop), and
  ``{"continue":true}`` for Codex, whose Stop hook rejects plain text and, in some
  versions, an empty object (memsearch #592);
* the human summary (or the ``--json`` envelope) goes to stderr;
* exit code is 0, or 1 for a usage error — never 2, because exit 2 from a Stop hook tells
  both hosts to keep the agent running with our stderr as its next instruction;
* when a task is due, the work is handed to a detached process (hosts kill slow
  SessionEnd hooks) unless ``--foreground``; so is vector upkeep when files changed (one
  coalesced runner, see ``engine.upkeep.background``): a hook never waits for embeddings.

A call whose inputs did not change since a quiet run is answered by :mod:`.hook_fast`
before this module is imported; a quiet run here records that answer (``_remember``).
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from pathlib import Path
from typing import Any

from memsearch_tui.cli.hook_fast import HOOK_STDOUT, Prelude, peek_hook
from memsearch_tui.engine.upkeep import fast_path


class UsageError(Exception):
    pass


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> None:  # type: ignore[override]
        raise UsageError(message)


def build_parser() -> argparse.ArgumentParser:
    p = _Parser(
        prog="memsearch-tui --run-due",
        add_help=True,
        description="Run due maintenance tasks, then store upkeep (for agent hooks).",
    )
    p.add_argument("--run-due", action="store_true", help=argparse.SUPPRESS)
    p.add_argument("--platform", action="append", help="Only this platform (repeatable); default: all configured.")
    p.add_argument(
        "--task", action="append", choices=["project_review", "user_profile", "memory_to_skill"], help="Only this task."
    )
    p.add_argument("--force", action="store_true", help="Run even when not due.")
    p.add_argument("--json", action="store_true", help="Print one JSON object {ok, data, error}.")
    p.add_argument("--hook", choices=sorted(HOOK_STDOUT), help="Speak the host's hook protocol.")
    p.add_argument("--foreground", action="store_true", help="With --hook: run due tasks inline, not detached.")
    p.add_argument(
        "--set",
        action="append",
        metavar="KEY=VALUE",
        dest="assign",
        help="Override a config value for this run (e.g. tui.review=false); repeatable.",
    )
    p.add_argument("--project", type=Path, help="Project whose .memsearch/ to use (default: git root of cwd).")
    p.add_argument("--memory-root", type=Path, help="The three-tier store (default ~/memory).")
    return p


def main(args: list[str], prelude: Prelude | None = None) -> int:
    """``prelude``: what :func:`.hook_fast.first_step` read (the payload); read here if None."""
    hook = peek_hook(args)
    out = sys.stdout.buffer
    try:
        opts = build_parser().parse_args(args)
        if opts.assign:  # a bad --set is a usage error too (config code loads only when one is given)
            _check_set(opts.assign)
    except UsageError as exc:
        return _usage(str(exc), args, hook)
    except SystemExit as exc:  # --help
        return int(exc.code or 0)
    if prelude is None:
        prelude = Prelude(0.0, _read_payload() if hook else {}, None)
    context: list[Any] = []
    try:
        code, report, summary = _run(opts, prelude.payload, context)
    finally:
        if hook:
            out.write(HOOK_STDOUT[hook])
            out.flush()
    text = _safe(report, summary, as_json=opts.json)
    print(text, file=sys.stderr if hook else sys.stdout)
    if prelude.key is not None:
        _remember(prelude.key, prelude.started, report, context, (code, "out", text))
    return 0 if hook else code


def _remember(
    key: str, started: float, report: dict[str, Any], context: list[Any], answer: tuple[int, str, str]
) -> None:
    """Record a quiet run's answer for the next call (:mod:`engine.upkeep.fast_path`);
    forget any older one when this run did something, warned, or could not be watched."""
    from memsearch_tui.engine.core.notices import any_reported

    if not _did_nothing(report) or len(context) != 1 or any_reported():
        fast_path.forget(key)
        return
    from memsearch_tui.engine.upkeep.hook_inputs import watch_list

    project, memory_root, config, opts, start = context[0]
    try:
        watch, until = watch_list(project, memory_root, config, platforms=opts.platform, tasks=opts.task, start=start)
        watch += _agent_memory_watch(project)
    except Exception:  # a record is an optimisation: never fail the hook for it
        fast_path.forget(key)
        return
    fast_path.write_record(key, watch, until, started, answer)


def _agent_memory(project: Path, payload: dict[str, Any]) -> None:
    """A version of each host memory file that changed since the last hook, with the
    payload's session (engine/agent_memory/hook.py); an optimisation's failure never
    fails the hook."""
    try:
        from memsearch_tui.engine.agent_memory.hook import record

        record(project, payload.get("session_id"))
    except Exception:  # a version not kept now is kept by the next hook or `agent-memory diff`
        pass


def _agent_memory_watch(project: Path) -> list[bytes]:
    """The host memory files and folders, for the fast-path record: a change there takes
    the full path, which records it."""
    from memsearch_tui.engine.agent_memory.hook import watched

    return [fast_path.FILE + os.fsencode(str(p)) for p in watched(project)]


def _did_nothing(report: dict[str, Any]) -> bool:
    """Every task skipped or disabled, every upkeep step "skip" or "none" (a task's "none"
    means a model was asked: that run did something)."""
    rows = (report.get("data") or {}).get("tasks") or []
    return bool(report.get("ok")) and all(
        r.get("result") in ("skip", "disabled") or (r.get("result") == "none" and r.get("platform") == "store")
        for r in rows
    )


def _safe(report: dict[str, Any], summary: str, *, as_json: bool) -> str:
    """What is printed: escaped always; redacted unless nothing ran (the no-op path stays
    free of the secret scanner's import, and its text holds only our own words)."""
    rows = (report.get("data") or {}).get("tasks") or []
    quiet = report.get("ok") and all(r.get("result") in ("skip", "disabled") for r in rows)
    if quiet:
        from memsearch_tui.engine.core.terminal import printable

        return json.dumps(report, ensure_ascii=True) if as_json else printable(summary)
    from memsearch_tui.cli.envelope import dumps
    from memsearch_tui.engine.core.terminal import shown

    return dumps(report) if as_json else shown(summary)


def _check_set(items: list[str]) -> None:
    from memsearch_tui.engine.core.errors import MemsearchError
    from memsearch_tui.engine.memsearch.config import check_assignments

    try:
        check_assignments(items)
    except MemsearchError as exc:
        raise UsageError(exc.message) from None


def _usage(message: str, args: list[str], hook: str | None) -> int:
    if hook:
        sys.stdout.buffer.write(HOOK_STDOUT[hook])
        sys.stdout.flush()
    from memsearch_tui.cli.envelope import envelope
    from memsearch_tui.engine.core.terminal import shown

    if "--json" in args:
        print(envelope(False, None, {"code": "usage", "message": message}), file=sys.stderr if hook else sys.stdout)
    else:
        print(shown(f"memsearch-tui --run-due: error: {message}"), file=sys.stderr)
    return 1 if hook else 2


def _run(opts: argparse.Namespace, payload: dict[str, Any], context: list[Any]) -> tuple[int, dict[str, Any], str]:
    """(exit code, envelope, summary line); ``context`` gets what a fast-path record needs."""
    from memsearch_tui.cli.envelope import expected_error
    from memsearch_tui.engine.core.errors import MemsearchError

    if os.environ.get("MEMSEARCH_TUI_IN_MAINTENANCE"):  # our own native provider's host hook
        return (
            0,
            _envelope([], note="inside a maintenance run; skipped"),
            "memsearch-tui: inside a maintenance run; skipped",
        )
    try:
        project, memory_root, platforms = _targets(opts, payload)
        _agent_memory(project, payload)
        from memsearch_tui.engine.memsearch.config import load_config, parse_assignments

        config = load_config(project, overrides=parse_assignments(opts.assign))
        if opts.hook and not opts.foreground and _anything_due(project, config, platforms, opts):
            pid = _detach(opts, project, memory_root, platforms)
            return (
                0,
                _envelope([], note=f"due tasks handed to background process {pid}"),
                (f"memsearch-tui: due maintenance running in background (pid {pid})"),
            )
        rows = _run_tasks(project, config, platforms, memory_root, opts)
        context.append((project, memory_root, config, opts, None if opts.project else _start(payload)))
    except (MemsearchError, OSError) as exc:  # OSError: a config that is a FIFO or a symlink loop
        code, message = expected_error(exc) or ("io", str(exc))
        env: dict[str, Any] = {"ok": False, "data": None, "error": {"code": code, "message": message}}
        return 1, env, f"memsearch-tui --run-due: error: {message}"
    rows += _upkeep(memory_root, project, detach=bool(opts.hook and not opts.foreground))
    env = _envelope(rows)
    if isinstance(payload.get("session_id"), str):
        env["data"]["session_id"] = payload["session_id"]
    return 0, env, summarize(rows)


def _start(payload: dict[str, Any]) -> Path:
    """The folder the project is looked for from: the payload's ``cwd``, else the working one."""
    cwd = payload.get("cwd")
    return Path(cwd) if isinstance(cwd, str) and Path(cwd).is_dir() else Path.cwd()


def _targets(opts: argparse.Namespace, payload: dict[str, Any]) -> tuple[Path, Path, list[str] | None]:
    from memsearch_tui.engine.memsearch.project import default_memory_root, find_project

    project = opts.project.expanduser().absolute() if opts.project else find_project(_start(payload))
    memory_root = (opts.memory_root or default_memory_root()).expanduser().absolute()
    platforms = opts.platform or ([opts.hook] if opts.hook else None)
    return project, memory_root, platforms


def _run_tasks(
    project: Path, config: Any, platforms: list[str] | None, memory_root: Path, opts: argparse.Namespace
) -> list[dict[str, Any]]:
    from memsearch_tui.engine.maintenance import run_tasks

    results = run_tasks(
        project, config, platforms=platforms, tasks=opts.task, force=opts.force, memory_root=memory_root
    )
    return [r.to_dict() for r in results]


def _anything_due(project: Path, config: Any, platforms: list[str] | None, opts: argparse.Namespace) -> bool:
    from memsearch_tui.engine.maintenance import due_tasks

    return bool(due_tasks(project, config, platforms=platforms, tasks=opts.task, force=opts.force))


def _detach(opts: argparse.Namespace, project: Path, memory_root: Path, platforms: list[str] | None) -> int:
    """Start the same run without ``--hook`` in its own session, output discarded."""
    import subprocess

    argv = ["--run-due", "--project", str(project), "--memory-root", str(memory_root)]
    for p in platforms or []:
        argv += ["--platform", p]
    for t in opts.task or []:
        argv += ["--task", t]
    argv += ["--force"] if opts.force else []
    for a in opts.assign or []:
        argv += ["--set", a]
    code = f"import sys; from memsearch_tui.cli.run_due import main; sys.exit(main({argv!r}))"
    proc = subprocess.Popen(
        [sys.executable, "-c", code],
        stdin=subprocess.DEVNULL,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        start_new_session=True,
        cwd=str(project),
    )
    return proc.pid


def _upkeep(memory_root: Path, project: Path, *, detach: bool = False) -> list[dict[str, Any]]:
    """Store upkeep; absent or failing upkeep never fails the hook.

    ``detach`` (hook mode without ``--foreground``): work that needs the embedding model
    goes to one coalesced background runner, so the hook never waits for embeddings.
    """
    try:
        from memsearch_tui.engine.upkeep.hook import run_upkeep
    except ImportError:
        return []
    try:
        return list(run_upkeep(memory_root, project, detach=detach))
    except Exception as exc:
        message = getattr(exc, "message", None) or f"{type(exc).__name__}: {exc}"
        return [{"platform": "store", "task": "upkeep", "result": "error", "reason": message}]


def _envelope(rows: list[dict[str, Any]], note: str = "") -> dict[str, Any]:
    data: dict[str, Any] = {"tasks": rows}
    if note:
        data["note"] = note
    return {"ok": True, "data": data, "error": None}


def summarize(rows: list[dict[str, Any]], *, reasons: bool = False) -> str:
    """One line: every row that did something, counts for the rest; store upkeep last.
    ``reasons`` (``maintenance run``, asked for by a person): skips listed, and every row
    with its reason (why "none", why skipped); the hook's line stays short."""
    tasks = [r for r in rows if r.get("platform") != "store"]
    upkeep = [r for r in rows if r.get("platform") == "store"]
    line = "memsearch-tui: " + (_part(tasks, reasons) if tasks else "no maintenance tasks configured")
    return line + (f"; upkeep: {_part(upkeep, reasons)}" if upkeep else "")


def _part(rows: list[dict[str, Any]], reasons: bool = False) -> str:
    shown = []
    quiet: dict[str, int] = {}
    said = ("error", "locked", "refused", "none", "skip") if reasons else ("error", "locked", "refused")
    for r in rows:
        if r.get("result") == "disabled" or (r.get("result") == "skip" and not reasons):
            quiet[r["result"]] = quiet.get(r["result"], 0) + 1
            continue
        extra = f" {r['proposal_id']}" if r.get("proposal_id") else ""
        limit = 200 if reasons else (160 if r.get("result") == "refused" else 80)
        reason = f" ({_masked(str(r['reason']), limit)})" if r.get("reason") and r.get("result") in said else ""
        shown.append(f"{r.get('platform')}.{r.get('task')} {r.get('result')}{extra}{reason}")
    shown += [f"{n} {k}" for k, n in sorted(quiet.items())]
    return ", ".join(shown)


def _masked(text: str, limit: int) -> str:
    """Secrets masked *before* a reason is cut (a cut secret would slip past the redactor),
    and the cut never inside a mask."""
    from memsearch_tui.engine.core.secrets import redact_clip  # only for error rows

    return redact_clip(text, limit)


def _read_payload() -> dict[str, Any]:
    """The host's payload when :mod:`.hook_fast` did not read it (``main`` called directly)."""
    payload, note = fast_path.read_payload(sys.stdin)
    if note:
        print(note, file=sys.stderr)
    return payload
