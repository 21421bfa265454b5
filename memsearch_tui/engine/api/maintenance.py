"""``mem.maintenance``: memsearch-compatible upkeep of PROJECT.md/USER.md, and ``doctor``.

Task status, runs and their settings (``maintenance enable|disable`` edits the TOML in
place, keeping comments), and the one health report over config, state, locks, journals,
proposals, store and vector index.
"""

from __future__ import annotations

from collections import Counter
from datetime import date, datetime, time, timedelta
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeAlias

from memsearch_tui.engine.api.types import TaskRun
from memsearch_tui.engine.core.errors import InvalidInput
from memsearch_tui.engine.core.record import record

if TYPE_CHECKING:
    from memsearch_tui.engine.api.memory import Memory
    from memsearch_tui.engine.maintenance.doctor import Check
    from memsearch_tui.engine.maintenance.run import TaskStatus
    from memsearch_tui.engine.maintenance.spend import Estimate as SpendEstimate  # frozen; faces name it from here
    from memsearch_tui.engine.maintenance.spend import Group as SpendRow  # one group of `maintenance spend`
    from memsearch_tui.engine.memsearch.config import Config


#: the spend records, named for the faces from here; imported when first named (``__getattr__``):
#: the maintenance package is ~12 ms of imports the app's first frame (its keymap read
#: through ``config``) does not need
_SPEND_NAMES = {"SpendEstimate": "Estimate", "SpendRow": "Group"}


def __getattr__(name: str) -> Any:
    if name in _SPEND_NAMES:
        from memsearch_tui.engine.maintenance import spend

        return getattr(spend, _SPEND_NAMES[name])
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


TomlValue: TypeAlias = str | int | float | bool | date | datetime | time | list["TomlValue"] | dict[str, "TomlValue"]


@record
class TaskSetting:
    """What ``maintenance enable|disable`` wrote: the file, the platform and each task's new table."""

    file: str
    platform: str
    tasks: dict[str, dict[str, TomlValue]]


@record
class DoctorReport:
    checks: tuple[Check, ...]
    problems: int  # checks that failed (warnings alone are not problems)
    removed_locks: tuple[str, ...]


@record
class BudgetUse:
    """One ``[tui.budget]`` limit against its period's use."""

    limit: str  # daily_tokens, monthly_tokens, daily_cost, monthly_cost
    allowed: float
    used: float
    left: float
    text: str  # "daily_tokens: 8,500 of 10,000 tokens used today (85 %), 1,500 tokens left"


@record
class SpendReport:
    """``maintenance spend``: rows grouped ``by``, their total, the budget and what is left."""

    since: str
    by: str
    rows: tuple[SpendRow, ...]
    total: SpendRow
    budget: tuple[BudgetUse, ...]
    days: tuple[tuple[str, int, int], ...]  # (UTC day, tokens, refusals) for the last 30 days
    refusals: tuple[tuple[str, int], ...]  # (reason, count) of the refused calls since ``since``
    ledger: str  # the file read


class Maintenance:
    """The maintenance tasks of one project, as ``mem.maintenance``."""

    def __init__(self, mem: Memory) -> None:
        self.mem = mem

    def config(self, assignments: list[str] | None = None) -> Config:
        """The project's memsearch config with ``KEY=VALUE`` overrides for this run."""
        from memsearch_tui.engine.memsearch.config import load_config, parse_assignments

        return load_config(self.mem.project, overrides=parse_assignments(assignments))

    def status(
        self,
        config: Config,
        platforms: list[str] | None = None,
        *,
        disabled_digests: bool = True,
        check_input: bool = True,
    ) -> list[TaskStatus]:
        """Every task: enabled, provider, last action, last success/error, due or why not.

        ``disabled_digests`` False: a disabled task's ``input_digest`` is "" rather than
        computed (a face that shows no digest, the Overview: its folder's files are then
        not even stat-ed when no task is enabled, 10,000 stats at 10,000 journal days).
        ``check_input`` False: no digest even for an enabled task (its ``reason`` is then
        ``UNCHECKED``, ``due`` False): a first draw that a second call completes."""
        from memsearch_tui.engine.maintenance import status

        return status(
            self.mem.project, config, platforms=platforms or None,
            disabled_digests=disabled_digests, check_input=check_input,
        )  # fmt: skip

    def run(
        self, config: Config, *, task: str = "all", platforms: list[str] | None = None, force: bool = False
    ) -> list[TaskRun]:
        """Run due tasks now (``all``: memory_to_skill only when enabled); one row per task."""
        from memsearch_tui.engine.maintenance import run_tasks

        tasks = None if task == "all" else tasks_named(task)
        with self.mem.acting():
            results = run_tasks(
                self.mem.project, config, platforms=platforms or None, tasks=tasks, force=force,
                memory_root=self.mem.root,
            )  # fmt: skip
        return [TaskRun(**r.to_dict()) for r in results]

    def spend(self, config: Config, *, since: str = "", by: str = "task") -> SpendReport:
        """The ledger's calls since ``since`` (a date; default: this month) grouped by task,
        provider, model or day, with the budget and what is left today and this month."""
        from memsearch_tui.engine.maintenance import budget, ledger, spend

        if by not in spend.GROUPS:
            raise InvalidInput(f"--by {by!r}: use one of {', '.join(spend.GROUPS)}")
        try:
            start = spend.parse_since(since) if since else budget.period_starts()[1]
        except ValueError as exc:
            raise InvalidInput(str(exc)) from None
        month = budget.period_starts()[1]
        lines = ledger.read(min(start, month))
        chosen = [ln for ln in lines if ln.when is not None and ln.when >= start]
        total = spend.total("total", chosen)
        return SpendReport(
            since=start.isoformat().replace("+00:00", "Z"),
            by=by,
            rows=tuple(spend.group(chosen, by)),
            total=total,
            budget=self.budget_use(config, [ln for ln in lines if ln.when is not None and ln.when >= month]),
            days=tuple(spend.daily_series(ledger.read(budget.period_starts()[0] - timedelta(days=29)))),
            ledger=str(ledger.ledger_path()),
            refusals=tuple(sorted(Counter(ln.reason for ln in chosen if ln.outcome == "refused").items())),
        )

    def budget_use(self, config: Config, lines: list[Any] | None = None) -> tuple[BudgetUse, ...]:
        """Each configured limit against today's or this month's use (empty: no budget set)."""
        from memsearch_tui.engine.maintenance import budget

        return tuple(BudgetUse(u.limit, u.allowed, u.used, u.left, u.describe()) for u in budget.usage(config, lines))

    def estimate(
        self, config: Config, *, task: str = "all", platforms: list[str] | None = None, force: bool = False
    ) -> tuple[SpendEstimate, ...]:
        """The request each due task would send now, and whether the budget allows it; no call."""
        from memsearch_tui.engine.maintenance.spend import estimate_due

        tasks = None if task == "all" else tasks_named(task)
        return tuple(estimate_due(self.mem.project, config, platforms=platforms or None, tasks=tasks, force=force))

    def set_task(self, task: str, platform: str | None, *, project_file: bool = False, **values: object) -> TaskSetting:
        """Enable/disable a task or change its provider, interval or model, in
        ``~/.memsearch/config.toml`` (or the project's ``.memsearch.toml``)."""
        from memsearch_tui.engine.memsearch.config import (
            KNOWN_PLATFORMS,
            home_config_path,
            load_config,
            project_config_path,
        )
        from memsearch_tui.engine.memsearch.toml_edit import set_task

        config = load_config(self.mem.project)
        plats = config.platforms()
        if platform is None:
            if len(plats) != 1:
                raise InvalidInput(f"name the platform with --platform ({', '.join(plats or KNOWN_PLATFORMS)})")
            platform = plats[0]
        provider = values.get("provider")
        if project_file and (provider or values.get("model")) and "is trusted" not in config.trust:
            raise InvalidInput(
                "a project file may not choose a provider or model (it would be ignored); "
                "drop --project-file to set them in ~/.memsearch/config.toml"
            )
        if provider and provider != "native" and provider not in config.providers():
            raise InvalidInput(
                f"unknown provider {provider!r}: add [llm.providers.{provider}] first "
                f"(known: {', '.join(['native', *config.providers()])})"
            )
        path = project_config_path(self.mem.project) if project_file else home_config_path()
        changed = {t: set_task(path, platform, t, **values) for t in tasks_named(task)}  # type: ignore[arg-type]
        return TaskSetting(str(path), platform, changed)

    def output_files(self, config: Config) -> dict[str, Path]:
        """Each task's output file (the first platform's that names one), as ``status``
        names them, without digesting any input (``maintenance.run.output_files``)."""
        from memsearch_tui.engine.maintenance.run import output_files

        return output_files(self.mem.project, config)

    def enabled_in(self, platform: str, task: str) -> tuple[Path | None, bool]:
        """(the config file whose ``enabled`` is in effect for the task, is it the project's
        ``.memsearch.toml``?) — (None, False) for the default. A face says where a task was
        turned off, and offers the command that edits that file (the project file wins)."""
        from memsearch_tui.engine.memsearch.config import project_config_path, set_in

        where = set_in(self.mem.project, ("plugins", platform, task, "enabled"))
        return where, where is not None and where == project_config_path(self.mem.project)

    def store_checks(self) -> dict[str, str]:
        """When the hook last ran each store check: {"lifecycle": iso, "split": iso} (read-only)."""
        from memsearch_tui.engine.upkeep.store_upkeep import last_checks

        return last_checks(self.mem.root)

    def doctor(self, *, fix: bool = False) -> DoctorReport:
        """One report on config, state, locks, journals, proposals, store and vector index
        (``fix``: remove stale task locks first)."""
        from memsearch_tui.engine.maintenance.doctor import PROBLEM, doctor, fix_stale_locks

        removed = fix_stale_locks(self.mem.project) if fix else []
        checks = doctor(self.mem.project, self.mem.root)
        return DoctorReport(tuple(checks), sum(c.status == PROBLEM for c in checks), tuple(removed))


def tasks_named(task: str) -> list[str]:
    """The tasks ``task`` names: one of them, or ``all``."""
    from memsearch_tui.engine.memsearch.config import ALL_TASKS

    if task == "all":
        return list(ALL_TASKS)
    if task not in ALL_TASKS:
        raise InvalidInput(f"unknown task {task!r}; use {', '.join(ALL_TASKS)} or all")
    return [task]
