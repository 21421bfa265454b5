"""Where a command line goes, decided from its words alone (no imports: every run pays for this).

One rule for every path: the command is the first word that is not a global option or the
value of one. ``--run-due`` is the hook only when it stands among the global options before
any command word, so ``search -s grep -- --run-due`` searches for the text "--run-due".
"""

from __future__ import annotations

# Global options that take a value (Typer's root and the hook's parser).
GLOBAL_VALUE_OPTIONS = frozenset({"--memory-root", "--project"})
HOOK_VALUE_OPTIONS = frozenset({"--hook", "--platform", "--task", "--set"})
_VALUE_OPTIONS = GLOBAL_VALUE_OPTIONS | HOOK_VALUE_OPTIONS


def command_at(args: list[str]) -> int | None:
    """Index of the command word, or None when the line has only options (or ``--`` first)."""
    skip = False
    for i, arg in enumerate(args):
        if skip:
            skip = False
        elif arg == "--":
            return None
        elif arg in _VALUE_OPTIONS:
            skip = True
        elif not arg.startswith("-"):
            return i
    return None


def command_word(args: list[str]) -> str | None:
    """The command a line names (``search``, ``trash`` …), or None for the bare app or help."""
    at = command_at(args)
    return None if at is None else args[at]


def is_hook(args: list[str]) -> bool:
    """True for ``memsearch-tui [globals] --run-due …``: the flag precedes every command word."""
    at = command_at(args)
    head = args if at is None else args[:at]
    if "--" in head:
        head = head[: head.index("--")]
    return "--run-due" in head


def wants_version(args: list[str]) -> bool:
    """``memsearch-tui --version`` (or ``-V``) among the global options, before any command."""
    at = command_at(args)
    head = args if at is None else args[:at]
    if "--" in head:
        head = head[: head.index("--")]
    return "--version" in head or "-V" in head
