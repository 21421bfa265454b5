"""Budgets for background LLM work: checked before every provider call, metered after it.

``[tui.budget]`` in the user's config: ``daily_tokens``, ``monthly_tokens``, ``daily_cost``,
``monthly_cost`` (cost in the unit of ``[tui.prices]``), and ``max_tokens_per_run`` for any
one task run (``[tui.budget.<task>] max_tokens_per_run`` for one task). A project's
``.memsearch.toml`` may lower them, never raise them (``config.load_config``). Days and
months are UTC, by :mod:`engine.core.clock` (``MEMSEARCH_TUI_NOW`` in tests).

Before a call :class:`Meter` estimates the request (the prompt by the ledger's rule, plus
``EXPECTED_OUTPUT_TOKENS``); when today's or this month's use plus the estimate would pass a
limit, no request is sent: :class:`BudgetRefused` names the limit, what was spent and how
to raise it, and a ``refused`` line goes to the ledger. After a call the ledger gets the
tokens the provider reported (or the estimate, marked ``estimated``).

A bad value in ``[tui.budget]`` fails closed: every call is refused until it is fixed.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any

from memsearch_tui.engine.core import clock
from memsearch_tui.engine.core.errors import Refused
from memsearch_tui.engine.maintenance import ledger

if TYPE_CHECKING:
    from memsearch_tui.engine.maintenance.providers import Call, Runner
    from memsearch_tui.engine.memsearch.config import Config, ProviderSettings

LIMITS = ("daily_tokens", "monthly_tokens", "daily_cost", "monthly_cost")
EXPECTED_OUTPUT_TOKENS = 2_000  # a rewritten PROJECT.md / USER.md; the estimate's answer part
WARN_AT = 0.8  # doctor warns from 80 % of a limit
# refusal lines kept per task and UTC day: a hook refused on every agent stop must not
# rotate the month's real calls (what the monthly limits are summed from) out of the ledger
MAX_REFUSALS_PER_DAY = 24


class BudgetRefused(Refused):
    """A call was not made: it would pass a budget."""

    code = "budget"

    def __init__(self, message: str, limit: str) -> None:
        super().__init__(message)
        self.limit = limit


@dataclass(frozen=True)
class Use:
    """One limit against what was used in its period."""

    limit: str  # daily_tokens …
    allowed: float
    used: float

    @property
    def left(self) -> float:
        return max(0.0, self.allowed - self.used)

    @property
    def share(self) -> float:
        return self.used / self.allowed if self.allowed else 1.0

    def describe(self) -> str:
        """``daily_tokens: 8,500 of 10,000 tokens used today (85 %), 1,500 tokens left``."""
        period = "today" if self.limit.startswith("daily") else "this month"
        return (
            f"{self.limit}: {_fmt(self.limit, self.used).removesuffix(' tokens')} of "
            f"{_fmt(self.limit, self.allowed)} used {period} "
            f"({self.share:.0%}), {_fmt(self.limit, self.left)} left"
        )


def limits(config: Config) -> dict[str, float]:
    """The configured limits (a missing one is no limit)."""
    table = config.tui.get("budget")
    table = table if isinstance(table, dict) else {}
    return {k: float(table[k]) for k in LIMITS if _number(table.get(k))}


def max_per_run(config: Config, task: str) -> float | None:
    """``[tui.budget.<task>] max_tokens_per_run``, else ``[tui.budget] max_tokens_per_run``."""
    table = config.tui.get("budget")
    table = table if isinstance(table, dict) else {}
    own = table.get(task)
    for value in (own.get("max_tokens_per_run") if isinstance(own, dict) else None, table.get("max_tokens_per_run")):
        if isinstance(value, (int, float)) and not isinstance(value, bool):
            return float(value)
    return None


def prices(config: Config) -> dict[str, Any]:
    table = config.tui.get("prices")
    return table if isinstance(table, dict) else {}


def _number(value: Any) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def period_starts(now: datetime | None = None) -> tuple[datetime, datetime]:
    """(start of today, start of this month), UTC."""
    now = (now or clock.now()).astimezone(UTC)
    day = now.replace(hour=0, minute=0, second=0, microsecond=0)
    return day, day.replace(day=1)


def usage(config: Config, lines: list[ledger.Line] | None = None) -> list[Use]:
    """Each configured limit against today's or this month's use."""
    day, month = period_starts()
    lines = ledger.read(month) if lines is None else lines
    out = []
    for name, allowed in limits(config).items():
        start = day if name.startswith("daily") else month
        rows = [ln for ln in lines if (ln.when or start) >= start]
        used = sum(ln.tokens for ln in rows) if name.endswith("tokens") else sum(ln.cost or 0.0 for ln in rows)
        out.append(Use(name, allowed, used))
    return out


def estimate(
    prompt: str, task: str = "", provider: str = "", lines: list[ledger.Line] | None = None
) -> tuple[int, int]:
    """(input, output) tokens a request is expected to use: the prompt and system prompt by
    the ledger's rule and ``EXPECTED_OUTPUT_TOKENS``, or what the last call of the same task
    and provider in ``lines`` really used when that was more (tool rounds, a longer answer):
    so a limit holds even when the rule guesses low."""
    from memsearch_tui.engine.maintenance.providers import SYSTEM_PROMPT

    ins, outs = ledger.estimate_tokens(SYSTEM_PROMPT + prompt), EXPECTED_OUTPUT_TOKENS
    made = [ln for ln in lines or [] if ln.task == task and ln.provider == provider and ln.outcome != "refused"]
    if made:
        ins, outs = max(ins, made[-1].input_tokens), max(outs, made[-1].output_tokens)
    return ins, outs


def check(
    config: Config, task: str, model: str, input_tokens: int, output_tokens: int, lines: list[ledger.Line] | None = None
) -> None:
    """Raise :class:`BudgetRefused` when a request of this size would pass a limit
    (``lines``: this month's ledger, read here when not given)."""
    where = str(config.home_file or "~/.memsearch/config.toml")
    bad = config.problem("tui", "budget") or config.problem("tui", "prices")
    if bad:
        raise BudgetRefused(f"budget: [tui.budget] is unusable, so no LLM call is made ({bad})", "config")
    tokens = input_tokens + output_tokens
    cap = max_per_run(config, task)
    if cap is not None and tokens > cap:
        raise BudgetRefused(
            f"budget: {task} would use ~{tokens:,} tokens, over max_tokens_per_run {cap:,.0f}; "
            f"raise [tui.budget] max_tokens_per_run in {where}",
            "max_tokens_per_run",
        )
    cost = ledger.cost_of(prices(config), model, input_tokens, output_tokens)
    for use in usage(config, lines):
        # no price for this model: its cost counts as 0 (a cost limit already passed still refuses)
        more = tokens if use.limit.endswith("tokens") else cost or 0.0
        if use.used + more > use.allowed:
            period = "today" if use.limit.startswith("daily") else "this month"
            raise BudgetRefused(
                f"budget: {use.limit} {_fmt(use.limit, use.allowed)} would be passed "
                f"(spent {_fmt(use.limit, use.used)} {period}, this run ~{_fmt(use.limit, more)}); "
                f"raise [tui.budget] {use.limit} in {where} or wait for the next "
                f"{'day' if use.limit.startswith('daily') else 'month'} (UTC)",
                use.limit,
            )


def _fmt(limit: str, value: float) -> str:
    return f"{value:,.0f} tokens" if limit.endswith("tokens") else f"{value:,.4f}"


class Meter:
    """The provider runner of one task run, with the budget check before each call and the
    ledger line after it (:meth:`close`, once the run's outcome is known)."""

    def __init__(self, config: Config, platform: str, task: str, runner: Runner | None) -> None:
        self.config, self.platform, self.task = config, platform, task
        self.runner = runner
        self.pending: list[dict[str, Any]] = []

    def ask(self, provider: ProviderSettings, call: Call, prompt: str) -> str:
        from memsearch_tui.engine.maintenance import providers

        model = call.model or providers.DEFAULT_MODELS.get(provider.type, "")
        lines = ledger.read(period_starts()[1])
        est_in, est_out = estimate(prompt, self.task, provider.name, lines)
        base = {"provider": provider.name, "provider_type": provider.type, "model": model}
        try:
            check(self.config, self.task, model, est_in, est_out, lines)
        except BudgetRefused as exc:
            day = period_starts()[0]
            today = [ln for ln in lines if ln.outcome == "refused" and ln.task == self.task and (ln.when or day) > day]
            if sum(ln.platform == self.platform for ln in today) < MAX_REFUSALS_PER_DAY:
                self._write(base, 0, 0, False, 0.0, "refused", reason=f"budget: {exc.limit}")
            raise
        started = time.monotonic()
        answer = ""
        try:
            answer = (self.runner or providers.ask)(provider, call, prompt)
            return answer
        finally:
            used = call.usage
            known = used.reported
            self.pending.append(
                {
                    **base,
                    "input_tokens": used.input_tokens if known else estimate(prompt)[0],
                    "output_tokens": used.output_tokens if known else ledger.estimate_tokens(answer),
                    "estimated": not known,
                    "duration_s": round(time.monotonic() - started, 3),
                }
            )

    def close(self, result: str) -> None:
        """Write the line of each call made, with the run's outcome."""
        outcome = result if result in ledger.OUTCOMES else "error" if result == "error" else "none"
        for p in self.pending:
            self._write(
                {k: p[k] for k in ("provider", "provider_type", "model")},
                p["input_tokens"],
                p["output_tokens"],
                p["estimated"],
                p["duration_s"],
                outcome,
            )
        self.pending = []

    def _write(
        self,
        base: dict[str, str],
        input_tokens: int,
        output_tokens: int,
        estimated: bool,
        duration: float,
        outcome: str,
        reason: str = "",
    ) -> None:
        ledger.append(
            ledger.Line(
                ts=clock.iso_z(),
                platform=self.platform,
                task=self.task,
                input_tokens=input_tokens,
                output_tokens=output_tokens,
                estimated=estimated,
                duration_s=duration,
                outcome=outcome,
                cost=ledger.cost_of(prices(self.config), base["model"], input_tokens, output_tokens),
                reason=reason,
                **base,
            )
        )
