"""``memsearch-tui --run-due``: the hook entry point.

Parsed with argparse, not Typer, so a hook that finds nothing due stays fast (no Typer,
no rich, no SDK, no torch, no pymilvus on that path — a test checks ``sys.modules``).

Plain mode prints one summary line (or the ``--json`` envelope) on stdout. Hook mode
(``--hook claude-code|codex``) is for hosts that are strict about hook I/O:

* the host's JSON payload is read from stdin only when one is piped and arrives promptly
  (``cwd`` picks the project, ``session_id`` is noted); a terminal or an idle pipe is never
  waited on; a malformed payload is noted on stderr and ignored;
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
"""

from __future__ import annotations

import argparse
import json
import os
import select
import sys
from pathlib import Path
from typing import Any

HOOK_STDOUT = {"claude-code": b"", "codex": b'{"continue":true}\n'}
PAYLOAD_WAIT_S = 0.3
MAX_PAYLOAD = 1_000_000


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
    p.add_argument("--task", action="append", choices=["project_review", "user_profile"], help="Only this task.")
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


def main(args: list[str]) -> int:
    hook = _peek_hook(args)
    out = sys.stdout.buffer
    try:
        opts = build_parser().parse_args(args)
    except UsageError as exc:
        return _usage(str(exc), args, hook)
    except SystemExit as exc:  # --help
        return int(exc.code or 0)
    try:
        code, report, summary = _run(opts)
    finally:
        if hook:
            out.write(HOOK_STDOUT[hook])
            out.flush()
    print(_safe(report, summary, as_json=opts.json), file=sys.stderr if hook else sys.stdout)
    return 0 if hook else code


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


def _peek_hook(args: list[str]) -> str | None:
    for i, a in enumerate(args):
        if a == "--hook" and i + 1 < len(args) and args[i + 1] in HOOK_STDOUT:
            return args[i + 1]
        if a.startswith("--hook=") and a.split("=", 1)[1] in HOOK_STDOUT:
            return a.split("=", 1)[1]
    return None


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


def _run(opts: argparse.Namespace) -> tuple[int, dict[str, Any], str]:
    """(exit code, envelope, summary line)."""
    from memsearch_tui.cli.envelope import expected_error
    from memsearch_tui.engine.core.errors import MemsearchError

    if os.environ.get("MEMSEARCH_TUI_IN_MAINTENANCE"):  # our own native provider's host hook
        return (
            0,
            _envelope([], note="inside a maintenance run; skipped"),
            "memsearch-tui: inside a maintenance run; skipped",
        )
    payload = _read_payload() if opts.hook else {}
    try:
        project, memory_root, platforms = _targets(opts, payload)
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
    except (MemsearchError, OSError) as exc:  # OSError: a config that is a FIFO or a symlink loop
        code, message = expected_error(exc) or ("io", str(exc))
        env: dict[str, Any] = {"ok": False, "data": None, "error": {"code": code, "message": message}}
        return 1, env, f"memsearch-tui --run-due: error: {message}"
    rows += _upkeep(memory_root, project, detach=bool(opts.hook and not opts.foreground))
    env = _envelope(rows)
    if isinstance(payload.get("session_id"), str):
        env["data"]["session_id"] = payload["session_id"]
    return 0, env, summarize(rows)


def _targets(opts: argparse.Namespace, payload: dict[str, Any]) -> tuple[Path, Path, list[str] | None]:
    from memsearch_tui.engine.memsearch.project import default_memory_root, find_project

    if opts.project:
        project = opts.project.expanduser().absolute()
    elif isinstance(payload.get("cwd"), str) and Path(payload["cwd"]).is_dir():
        project = find_project(Path(payload["cwd"]))
    else:
        project = find_project()
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


def summarize(rows: list[dict[str, Any]]) -> str:
    """One line: every row that did something, counts for the rest; store upkeep last."""
    tasks = [r for r in rows if r.get("platform") != "store"]
    upkeep = [r for r in rows if r.get("platform") == "store"]
    line = "memsearch-tui: " + (_part(tasks) if tasks else "no maintenance tasks configured")
    return line + (f"; upkeep: {_part(upkeep)}" if upkeep else "")


def _part(rows: list[dict[str, Any]]) -> str:
    shown = []
    quiet: dict[str, int] = {}
    for r in rows:
        if r.get("result") in ("skip", "disabled"):
            quiet[r["result"]] = quiet.get(r["result"], 0) + 1
            continue
        extra = f" {r['proposal_id']}" if r.get("proposal_id") else ""
        reason = (
            f" ({_masked(str(r['reason']))[:80]})" if r.get("reason") and r.get("result") in ("error", "locked") else ""
        )
        shown.append(f"{r.get('platform')}.{r.get('task')} {r.get('result')}{extra}{reason}")
    shown += [f"{n} {k}" for k, n in sorted(quiet.items())]
    return ", ".join(shown)


def _masked(text: str) -> str:
    """Secrets masked *before* a reason is cut (a cut secret would slip past the redactor)."""
    from memsearch_tui.engine.core.secrets import redact  # only for error rows

    return redact(text)


def _read_payload() -> dict[str, Any]:
    """The host's JSON payload if one is piped and arrives promptly; {} otherwise."""
    stdin = sys.stdin
    try:
        if stdin is None or stdin.isatty():
            return {}
        fd = stdin.fileno()
    except (OSError, ValueError):
        return {}
    chunks: list[bytes] = []
    size = 0
    while size < MAX_PAYLOAD:
        try:
            ready, _, _ = select.select([fd], [], [], PAYLOAD_WAIT_S)
        except (OSError, ValueError):
            break
        if not ready:
            break
        chunk = os.read(fd, 65536)
        if not chunk:
            break
        chunks.append(chunk)
        size += len(chunk)
    raw = b"".join(chunks).strip()
    if not raw:
        return {}
    try:
        data = json.loads(raw)
    except (ValueError, UnicodeDecodeError) as exc:
        from memsearch_tui.engine.core.terminal import printable

        print(printable(f"memsearch-tui: ignoring malformed hook payload on stdin ({exc})"), file=sys.stderr)
        return {}
    if not isinstance(data, dict):
        print("memsearch-tui: ignoring hook payload that is not a JSON object", file=sys.stderr)
        return {}
    return data
