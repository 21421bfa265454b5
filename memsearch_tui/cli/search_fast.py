"""``search --strategy grep`` without Typer: a literal search that is faster than ``grep -ri``.

People type keyword searches by hand and scripts run them in loops. Through Typer a search
first pays for click, typer and the search modules (~100 ms) before it looks at a file;
here it starts the store's change scan (:mod:`..engine.search.change_scan`) at once and
imports only the literal search.

This path takes exactly the command lines it understands — global ``--memory-root``,
``--project`` and ``--json``, then ``search QUERY -s grep`` with ``-k/--top``,
``-c/--category``, ``--source`` and ``--json`` — and returns None for anything else (help,
``--batch``, another strategy, an unknown option, a bad value), which then goes through
Typer, so usage messages stay Typer's. ``tests/search/test_cli_fast.py`` checks that both
paths print the same for the same command line.
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path


class _Unsure(Exception):
    """The command line is not one this path handles: leave it to Typer."""


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> None:  # type: ignore[override]
        raise _Unsure(message)


def _globals_parser() -> _Parser:
    p = _Parser(add_help=False, allow_abbrev=False)
    p.add_argument("--memory-root")
    p.add_argument("--project")
    p.add_argument("--json", action="store_true")
    return p


def _search_parser() -> _Parser:
    p = _Parser(add_help=False, allow_abbrev=False)
    p.add_argument("query")
    p.add_argument("--strategy", "-s", default="auto")
    p.add_argument("-k", "--top", type=int, default=10, dest="k")
    p.add_argument("--category", "-c")
    p.add_argument("--source", default="all")
    p.add_argument("--json", action="store_true")
    return p


def parse(args: list[str]) -> argparse.Namespace | None:
    """Options of a literal search, or None when Typer should handle this command line."""
    if "--" in args or "-h" in args or "--help" in args or "search" not in args:
        return None
    at = _command_at(args)
    if at is None or args[at] != "search":
        return None
    try:
        head = _globals_parser().parse_args(args[:at])
        opts = _search_parser().parse_args(args[at + 1 :])
    except _Unsure:
        return None
    if opts.strategy != "grep" or not 1 <= opts.k <= 1000 or not opts.query.strip():
        return None
    opts.json = opts.json or head.json
    opts.memory_root, opts.project = head.memory_root, head.project
    return opts


def _command_at(args: list[str]) -> int | None:
    """Index of the first word that is not a global option or its value."""
    skip = False
    for i, arg in enumerate(args):
        if skip:
            skip = False
        elif arg in ("--memory-root", "--project"):
            skip = True
        elif not arg.startswith("-"):
            return i
    return None


def main(args: list[str]) -> int | None:
    """Run a literal search and return the exit code; None: not ours, use Typer."""
    opts = parse(args)
    if opts is None:
        return None
    from ..engine.project import default_memory_root, find_project
    from ..engine.search.change_scan import ChangeScan

    root = (Path(opts.memory_root) if opts.memory_root else default_memory_root()).expanduser().absolute()
    scan = ChangeScan(root) if os.path.isdir(root) else None
    project = Path(opts.project).expanduser().absolute() if opts.project else find_project()
    return _run(opts, root, project, scan)


def _run(opts: argparse.Namespace, root: Path, project: Path, scan: object) -> int:
    from ..engine.search.grep import literal_search
    from .envelope import envelope, expected_error

    try:
        res = literal_search(root, project, opts.query, opts.k, opts.category, opts.source, scan)  # type: ignore[arg-type]
    except Exception as exc:  # noqa: BLE001 - only expected failures are turned into messages
        known = expected_error(exc)
        if known is None:
            raise
        code, message = known
        if opts.json:
            print(envelope(False, None, {"code": code, "message": message}))
        else:
            print(f"error: {message}", file=sys.stderr)
        return 1
    if opts.json:
        print(envelope(True, res.as_dict()))
    else:
        from .search_text import search_text

        print(search_text(res))
    return 0
