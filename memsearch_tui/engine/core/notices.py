"""Where warnings found while loading config go, once each per process.

The CLI points this at stderr (``memsearch-tui: config: …``); the TUI leaves it unset and
shows the same messages in a pane. Kept import-free so the hook and literal-search paths
can set it without loading anything.
"""

from __future__ import annotations

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (this module stays import-free)
if TYPE_CHECKING:
    from collections.abc import Callable

_reporter: Callable[[str], None] | None = None
_reported: set[str] = set()


def set_reporter(report: Callable[[str], None] | None) -> None:
    """``report(message)`` is called once for each new message; ``None`` turns it off."""
    global _reporter
    _reporter = report


def report(messages: list[str]) -> None:
    if _reporter is None:
        return
    for message in messages:
        if message not in _reported:
            _reported.add(message)
            _reporter(message)


def any_reported() -> bool:
    """True once a message went to the reporter in this process (the hook records no
    fast-path answer then: the warning must be printed on every call, not once)."""
    return bool(_reported)
