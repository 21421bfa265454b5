"""Command-line face of the engine: ``memsearch-tui`` and its subcommands.

``main`` keeps two paths light: ``--run-due`` (the hook) and ``search --strategy grep``
(a literal search meant to beat ``grep -ri``) are dispatched before Typer (and the rich
help machinery it pulls in) is imported.
"""

from __future__ import annotations

import os
import sys

from memsearch_tui.cli.argv import command_word, is_hook, wants_version


def main(argv: list[str] | None = None) -> None:
    """Console-script entry point."""
    args = list(sys.argv[1:] if argv is None else argv)
    _report_config_on_stderr()
    bad = _undecodable(args)
    if bad is not None:
        _exit_now(_usage_error(args, f"argument '{bad}' is not valid UTF-8; arguments must be UTF-8 text"))
    if command_word(args) == "search":  # a one-shot search's process set-up, before pathlib loads
        from memsearch_tui.cli.search_fast import early

        early(args)
    loop = _looping_path(args)
    if loop is not None:
        _exit_now(_usage_error(args, f"{loop}: symlink loop; not a usable folder"))
    os.environ.setdefault("MEMSEARCH_TUI_FACE", "hook" if is_hook(args) else "cli")  # history/txn.FACE_ENV
    # gRPC's C core logs to fd 2: a Milvus Lite connection idle while a long `vectors index`
    # embeds printed "Got goaway … too_many_pings" (an I and an E line) into the command's
    # output. Its errors still reach the engine as exceptions; a level the user set stands.
    os.environ.setdefault("GRPC_VERBOSITY", "NONE")
    if wants_version(args):
        from memsearch_tui import __version__

        print(f"memsearch-tui {__version__}")
        _exit_now(0)
    try:
        if is_hook(args):
            from memsearch_tui.cli.hook_fast import first_step

            rc, prelude = first_step(args)  # nothing changed since a quiet run: answered, no engine import
            if rc is not None:
                _exit_now(rc)
            from memsearch_tui.cli.run_due import main as run_due_main

            raise SystemExit(run_due_main(args, prelude))
        if command_word(args) == "search":
            from memsearch_tui.cli.search_fast import main as search_fast_main

            rc = search_fast_main(args, exits=True)
            if rc is not None:
                _exit_now(rc)
        from memsearch_tui.cli.app import run

        raise SystemExit(run(args))
    except BrokenPipeError:  # `| head`: the reader left early; exit 1 quietly, as Click does
        _exit_now(1)
    except KeyboardInterrupt:  # Ctrl-C: one line and the shell's 128 + SIGINT, never a traceback
        print("memsearch-tui: interrupted", file=sys.stderr)
        raise SystemExit(130) from None  # what a shell reports for a command ended by SIGINT


def _report_config_on_stderr() -> None:
    """Ignored project-config keys and disabled sections go to stderr, once per message."""
    from memsearch_tui.engine.api.notices import set_reporter

    def report(message: str) -> None:
        clean = "".join(c if c.isprintable() else repr(c)[1:-1] for c in message)
        print(f"memsearch-tui: config: {clean}", file=sys.stderr)

    set_reporter(report)


def _undecodable(args: list[str]) -> str | None:
    """The first argument that is not valid UTF-8 (Python hands such bytes over as lone
    surrogates, which no file name, id or JSON output can carry), shown with ``\\xNN``: at
    most ARG_SHOWN characters each side of its first bad byte (a 128 KB argument was echoed whole)."""
    for arg in args:
        try:
            arg.encode("utf-8")
        except UnicodeEncodeError as exc:
            start, end = max(0, exc.start - ARG_SHOWN), exc.start + ARG_SHOWN
            part = arg[start:end].encode("utf-8", "surrogateescape").decode("utf-8", "backslashreplace")
            return ("…" if start else "") + part + ("…" if end < len(arg) else "")
    return None


ARG_SHOWN = 40  # characters of a bad argument shown either side of its first undecodable byte


PATH_OPTIONS = ("--project", "--memory-root")


def _looping_path(args: list[str]) -> str | None:
    """The value of a folder option that cannot be resolved (a symlink loop): every layer
    below resolves these paths, so it is refused here, once, as a usage error."""
    from pathlib import Path

    for i, arg in enumerate(args):
        name, eq, value = arg.partition("=")
        if name not in PATH_OPTIONS:
            continue
        if not eq:
            if i + 1 >= len(args):
                continue
            value = args[i + 1]
        try:
            Path(value).expanduser().resolve()
        except (RuntimeError, OSError):  # RuntimeError: a symlink loop (Python < 3.13)
            return value
    return None


def _usage_error(args: list[str], message: str) -> int:
    """Exit 2 for an argument no command can use, as an envelope under ``--json`` (a hook: exit 1,
    since exit 2 from a Stop hook means "block the stop")."""
    if "--run-due" in args:  # the hook's own rules: its host's stdout, exit 1 under a hook
        from memsearch_tui.cli.hook_fast import peek_hook
        from memsearch_tui.cli.run_due import _usage

        return _usage(message, args, peek_hook(args))
    if "--json" in args:
        from memsearch_tui.cli.envelope import envelope

        print(envelope(False, None, {"code": "usage", "message": message}))
    else:
        print(f"Error: {message}", file=sys.stderr)
    return 2


def _exit_now(rc: int) -> None:
    """Flush and leave without the interpreter's teardown (~5 ms of a literal search that
    races grep): the search has closed its database; nothing else is open."""
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except BrokenPipeError:
            pass
    os._exit(rc)
