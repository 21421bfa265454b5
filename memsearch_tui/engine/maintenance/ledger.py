"""The spend ledger: one JSON line per provider call (or refused call), in the user's state folder.

Background maintenance calls the user's LLM from hooks nobody watches, so every call leaves
a line a person can sum: when, which platform and task, which provider (name and type) and
model, input and output tokens, how long, the outcome (``proposed``, ``replaced``, ``none``,
``error``, ``refused``), and a cost when ``[tui.prices."MODEL"]`` is set. Never a prompt,
an answer, a reason the model wrote, or a key: only counts, names the user configured and
our own words (``reason`` is ``budget: <limit>`` on a refusal, else empty).

Tokens come from the API's own usage fields; where a provider reports none (a ``command``
provider, opencode, openclaw, a native CLI whose JSON lacks them) they are *estimated* by
:func:`estimate_tokens` and the line says ``"estimated": true``.

The file (``$MEMSEARCH_TUI_STATE_DIR`` or the platform's user state folder, e.g.
``~/.local/state/memsearch-tui/spend.jsonl``) is append-only under a lock; past
``MAX_BYTES`` it is renamed to ``spend.jsonl.1`` (the one older generation kept) and a new
one begun, so at least the last ``MAX_BYTES`` (~8,000 calls) are always there. Reading is
bounded the same way; a line that is not a JSON object of the expected shape is skipped.
"""

from __future__ import annotations

import json
import math
import os
from dataclasses import asdict, dataclass
from datetime import datetime
from pathlib import Path
from typing import Any

STATE_ENV = "MEMSEARCH_TUI_STATE_DIR"
LEDGER_FILE = "spend.jsonl"
MAX_BYTES = 2_000_000  # one generation; the file is rotated past it (one older generation kept)
MAX_LINE = 4_096  # a longer line is not ours: skipped when read
CHARS_PER_TOKEN = 4  # the estimate: one token per 4 characters, rounded up (OpenAI's rule of thumb)
OUTCOMES = ("proposed", "replaced", "none", "error", "refused")


@dataclass(frozen=True)
class Line:
    """One ledger line (the JSON keys are these field names)."""

    ts: str  # UTC, ISO-8601 with Z
    platform: str
    task: str
    provider: str
    provider_type: str
    model: str
    input_tokens: int
    output_tokens: int
    estimated: bool
    duration_s: float
    outcome: str
    cost: float | None = None  # in the unit of [tui.prices] (the user's currency); None: no price set
    reason: str = ""  # "budget: daily_tokens" on a refusal; our words only

    @property
    def tokens(self) -> int:
        return self.input_tokens + self.output_tokens

    @property
    def when(self) -> datetime | None:
        from memsearch_tui.engine.memsearch.state import parse_time

        return parse_time(self.ts)


def estimate_tokens(text: str) -> int:
    """The documented estimate: ``ceil(characters / 4)``."""
    return math.ceil(len(text) / CHARS_PER_TOKEN)


def cost_of(prices: dict[str, Any], model: str, input_tokens: int, output_tokens: int) -> float | None:
    """``input × input_per_mtok + output × output_per_mtok`` per million tokens, or None when
    ``[tui.prices."MODEL"]`` has no price for ``model``."""
    price = prices.get(model) if model else None
    if not isinstance(price, dict):
        return None
    per_in, per_out = price.get("input_per_mtok", 0), price.get("output_per_mtok", 0)
    if not all(isinstance(p, (int, float)) and not isinstance(p, bool) for p in (per_in, per_out)):
        return None
    return round((input_tokens * float(per_in) + output_tokens * float(per_out)) / 1_000_000, 6)


def ledger_dir() -> Path:
    env = os.environ.get(STATE_ENV)
    if env:
        return Path(env).expanduser()
    from platformdirs import user_state_dir

    return Path(user_state_dir("memsearch-tui", appauthor=False))


def ledger_path() -> Path:
    return ledger_dir() / LEDGER_FILE


def append(line: Line) -> None:
    """Add ``line`` (rotating first when the file is full). Never raises: a ledger that cannot
    be written must not turn a finished task into an error (doctor reports the folder)."""
    from memsearch_tui.engine.core.locking import path_lock

    path = ledger_path()
    data = (json.dumps(asdict(line), ensure_ascii=True, separators=(",", ":")) + "\n").encode()
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        lock = path_lock(path.with_name(LEDGER_FILE + ".lock"))
        if not lock.acquire(10.0):
            return
        try:
            if path.exists() and path.stat().st_size + len(data) > MAX_BYTES:
                os.replace(path, path.with_name(LEDGER_FILE + ".1"))
            fd = os.open(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT | getattr(os, "O_NOFOLLOW", 0), 0o600)
            try:
                os.write(fd, data)
            finally:
                os.close(fd)
        finally:
            lock.release()
    except OSError:
        return


def read(since: datetime | None = None) -> list[Line]:
    """Every readable line (older generation first), optionally from ``since`` on."""
    from memsearch_tui.engine.core.safe_io import read_bounded

    path = ledger_path()
    lines: list[Line] = []
    for file in (path.with_name(LEDGER_FILE + ".1"), path):
        try:
            raw = read_bounded(file, MAX_BYTES + MAX_LINE)
        except (OSError, ValueError):
            continue
        for text in raw.decode("utf-8", "replace").splitlines():
            line = _parse(text)
            if line is not None and (since is None or (line.when is not None and line.when >= since)):
                lines.append(line)
    return lines


def _parse(text: str) -> Line | None:
    if not text or len(text) > MAX_LINE:
        return None
    try:
        data = json.loads(text)
    except ValueError:
        return None
    if not isinstance(data, dict):
        return None
    try:
        line = Line(
            ts=str(data["ts"]),
            platform=str(data["platform"]),
            task=str(data["task"]),
            provider=str(data["provider"]),
            provider_type=str(data["provider_type"]),
            model=str(data.get("model", "")),
            input_tokens=_count(data["input_tokens"]),
            output_tokens=_count(data["output_tokens"]),
            estimated=bool(data.get("estimated", False)),
            duration_s=float(data.get("duration_s", 0.0)),
            outcome=str(data["outcome"]),
            cost=float(data["cost"]) if isinstance(data.get("cost"), (int, float)) else None,
            reason=str(data.get("reason", "")),
        )
    except (KeyError, TypeError, ValueError):
        return None
    return line if line.when is not None else None


def _count(value: Any) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise ValueError("not a token count")
    return value
