"""When a task is due, exactly as memsearch decides it (so both runners agree)."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from memsearch_tui.engine.core import clock
from memsearch_tui.engine.memsearch.config import SkillTaskSettings, TaskSettings
from memsearch_tui.engine.memsearch.state import parse_time
from memsearch_tui.engine.memsearch.trust import resolve_task_path

__all__ = ["is_due", "resolve_task_path"]  # resolve_task_path lives with the trust rules now


def is_due(
    task: TaskSettings | SkillTaskSettings,
    entry: dict[str, Any],
    digest: str,
    *,
    force: bool = False,
    now: datetime | None = None,
) -> tuple[bool, str]:
    """``(due, reason)``. Order matters and is memsearch's: force, unchanged input,
    never succeeded, interval, due. Disabled tasks are handled by the caller."""
    if force:
        return True, "forced"
    if entry.get("last_input_digest") == digest:
        return False, "input unchanged"
    last = entry.get("last_success_at")
    if not last:
        return True, "never run"
    last_dt = parse_time(last)
    if last_dt is None:
        return True, "invalid state timestamp"
    age_h = ((now or clock.now()) - last_dt).total_seconds() / 3600
    if age_h < max(0.0, task.min_interval_hours):
        return False, f"not due for {_hours(task.min_interval_hours)}h (last success {age_h:.1f}h ago)"
    return True, "due"


def _hours(value: float) -> str:
    return str(int(value)) if float(value).is_integer() else str(value)
