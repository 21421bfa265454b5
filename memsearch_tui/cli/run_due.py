"""``memsearch-tui --run-due``: the hook entry point (filled in by the maintenance issue).

Parsed with argparse, not Typer, so a hook that finds nothing due stays fast.
"""

from __future__ import annotations


def main(args: list[str]) -> int:
    return 0
