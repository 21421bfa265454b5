"""The hook's first step, before argparse and before the engine: read the stdin payload once,
then answer from the record of the last quiet run when none of its inputs changed.

This module (with ``cli/run_due.py``) reaches past ``engine.api``, to one module,
``engine.upkeep.fast_path``: going through the api would import the engine the fast path
exists to skip (~100 ms on every agent turn; benchmarks/README.md, "Session 5: hook").
What the record holds and when it is trusted: ``engine/upkeep/fast_path.py``.
"""

from __future__ import annotations

import os
import sys
import time

from memsearch_tui.engine.upkeep import fast_path

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing
if TYPE_CHECKING:
    from typing import Any

HOOK_STDOUT = {"claude-code": b"", "codex": b'{"continue":true}\n'}
# Never answered from a record: --json carries reasons that age ("last success 3.2 h ago"),
# --force always runs, help is help; a nested maintenance run skips on its own.
NOT_RECORDED = frozenset({"--json", "--force", "--help", "-h"})
IN_MAINTENANCE_ENV = "MEMSEARCH_TUI_IN_MAINTENANCE"


class Prelude:
    """What the first step learnt, handed to the full path so nothing is read twice."""

    def __init__(self, started: float, payload: dict[str, Any], key: str | None) -> None:
        self.started = started  # before any input was read: the record's racy-write check
        self.payload = payload
        self.key = key  # None: this call is never answered from (nor recorded into) a record


def peek_hook(args: list[str]) -> str | None:
    """The ``--hook`` host named on the line, if it is one we speak."""
    for i, a in enumerate(args):
        if a == "--hook" and i + 1 < len(args) and args[i + 1] in HOOK_STDOUT:
            return args[i + 1]
        if a.startswith("--hook=") and a.split("=", 1)[1] in HOOK_STDOUT:
            return a.split("=", 1)[1]
    return None


def _never_recorded(args: list[str]) -> bool:
    """Any of :data:`NOT_RECORDED`, abbreviations included (argparse takes ``--js`` for ``--json``)."""
    for arg in args:
        name = arg.split("=", 1)[0]
        if name in NOT_RECORDED or (len(name) > 2 and any(o.startswith(name) for o in NOT_RECORDED if o[:2] == "--")):
            return True
    return False


def first_step(args: list[str]) -> tuple[int | None, Prelude]:
    """``(exit code when answered from the record, else None; the prelude)``."""
    started = time.time()
    hook = peek_hook(args)
    payload: dict[str, Any] = {}
    if hook:
        payload, note = fast_path.read_payload(sys.stdin)
        if note:
            print(note, file=sys.stderr)
    key = None
    if not _never_recorded(args) and not os.environ.get(IN_MAINTENANCE_ENV):
        cwd = payload.get("cwd")
        try:
            key = fast_path.key_of(args, cwd if isinstance(cwd, str) else "")
        except OSError:  # the working folder is gone
            key = None
    prelude = Prelude(started, payload, key)
    answer = fast_path.cached_answer(key) if key else None
    if answer is None:
        return None, prelude
    code, stream, text = answer
    if hook:
        sys.stdout.buffer.write(HOOK_STDOUT[hook])
        sys.stdout.flush()
    print(text, file=sys.stderr if hook or stream == "err" else sys.stdout)
    return (0 if hook else code), prelude
