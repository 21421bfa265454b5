"""What background LLM work cost: ledger totals grouped for ``maintenance spend``, the app's
30-day chart, and the dry run's estimate of each due task (no call made)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, datetime, timedelta
from pathlib import Path
from typing import TYPE_CHECKING

from memsearch_tui.engine.core import clock
from memsearch_tui.engine.maintenance import budget, ledger

if TYPE_CHECKING:
    from memsearch_tui.engine.memsearch.config import Config

GROUPS = ("task", "provider", "model", "day")


@dataclass(frozen=True)
class Group:
    """One row of a grouped total."""

    key: str
    calls: int  # lines with a call made (refusals excluded)
    refused: int
    input_tokens: int
    output_tokens: int
    estimated: int  # calls whose tokens are estimated
    cost: float | None  # None when no line of the group had a price


def group(lines: list[ledger.Line], by: str) -> list[Group]:
    """Totals per task, provider, model or UTC day (``by``), in key order."""
    buckets: dict[str, list[ledger.Line]] = {}
    for ln in lines:
        buckets.setdefault(_key(ln, by), []).append(ln)
    return [total(key, rows) for key, rows in sorted(buckets.items())]


def _key(ln: ledger.Line, by: str) -> str:
    if by == "day":
        return ln.ts[:10]
    if by == "provider":
        return f"{ln.provider} ({ln.provider_type})"
    return ln.model or "(default)" if by == "model" else ln.task


def total(key: str, rows: list[ledger.Line]) -> Group:
    made = [r for r in rows if r.outcome != "refused"]
    costs = [r.cost for r in made if r.cost is not None]
    return Group(
        key=key,
        calls=len(made),
        refused=len(rows) - len(made),
        input_tokens=sum(r.input_tokens for r in made),
        output_tokens=sum(r.output_tokens for r in made),
        estimated=sum(r.estimated for r in made),
        cost=round(sum(costs), 6) if costs else None,
    )


def daily_series(lines: list[ledger.Line], days: int = 30, today: date | None = None) -> list[tuple[str, int, int]]:
    """(day, tokens, refusals) for each of the last ``days`` UTC days, oldest first, zeros included."""
    today = today or clock.today()
    by_day = {g.key: g for g in group(lines, "day")}
    out = []
    for back in range(days - 1, -1, -1):
        day = (today - timedelta(days=back)).isoformat()
        g = by_day.get(day)
        out.append((day, g.input_tokens + g.output_tokens if g else 0, g.refused if g else 0))
    return out


def parse_since(value: str) -> datetime:
    """``--since YYYY-MM-DD`` (UTC midnight) or a full ISO time; ValueError otherwise."""
    from memsearch_tui.engine.memsearch.state import parse_time

    found = parse_time(value if "T" in value else f"{value}T00:00:00Z") if value else None
    if found is None:
        raise ValueError(f"--since {value!r}: expected a date like 2026-11-01")
    return found


@dataclass(frozen=True)
class Estimate:
    """What one due task's next call is expected to use."""

    platform: str
    task: str
    provider: str
    model: str
    input_tokens: int
    output_tokens: int
    cost: float | None
    refused: str  # the budget's refusal, "" when it would be sent


def estimate_due(
    project: Path, config: Config, *, platforms: list[str] | None, tasks: list[str] | None, force: bool
) -> list[Estimate]:
    """The request each due task would send now, and whether the budget lets it (no call)."""
    from memsearch_tui.engine.maintenance import providers
    from memsearch_tui.engine.maintenance.run import due_tasks

    out = []
    for platform, name in due_tasks(project, config, platforms=platforms, tasks=tasks, force=force):
        from memsearch_tui.engine.maintenance.run import task_settings

        task = task_settings(config, platform, name)
        provider = config.provider(task.provider)
        model = task.model or provider.model or providers.DEFAULT_MODELS.get(provider.type, "")
        lines = ledger.read(budget.period_starts()[1])
        ins, outs = budget.estimate(_prompt(project, config, task), name, provider.name, lines)
        try:
            budget.check(config, name, model, ins, outs, lines)
            refused = ""
        except budget.BudgetRefused as exc:
            refused = exc.message
        cost = ledger.cost_of(budget.prices(config), model, ins, outs)
        out.append(Estimate(platform, name, provider.name, model, ins, outs, cost, refused))
    return out


def _prompt(project: Path, config: Config, task: object) -> str:
    """The prompt the run would build (the same builders as the run)."""
    from memsearch_tui.engine.maintenance.prompts import build_prompt, task_text
    from memsearch_tui.engine.maintenance.run import task_paths
    from memsearch_tui.engine.maintenance.skills import build_skill_prompt
    from memsearch_tui.engine.memsearch.config import SkillTaskSettings, TaskSettings, prompt_source
    from memsearch_tui.engine.memsearch.state import input_digest

    assert isinstance(task, (TaskSettings, SkillTaskSettings))
    paths = task_paths(project, task)
    template = task_text(task.task, config.prompt_override(task.task), prompt_source(config))
    if isinstance(task, SkillTaskSettings):
        return build_skill_prompt(template, task, project, paths.input_dir)
    return build_prompt(
        template=template,
        platform=task.platform,
        task=task.task,
        project=project,
        input_dir=paths.input_dir,
        output_file=paths.output_file,
        digest=input_digest(paths.input_dir),
    )
