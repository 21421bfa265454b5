"""Store and index upkeep that ``memsearch-tui --run-due`` runs after the maintenance tasks.

Each step decides for itself whether it is due and must be cheap when it is not: the
weekly lifecycle review and split check of the store, then keeping the search index in
step with the files. A failing step is reported as a row with result "error" and never
stops the next one (a hook must not fail because of upkeep).
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

Row = dict[str, Any]


def _store_steps(memory_root: Path, project: Path) -> list[Row]:
    from memsearch_tui.engine.upkeep.store_upkeep import upkeep

    return upkeep(memory_root, project)


def _vector_step(memory_root: Path, project: Path) -> list[Row]:
    from memsearch_tui.engine.search import upkeep

    return [upkeep(memory_root, project)]


def _purge_step(memory_root: Path, project: Path) -> list[Row]:
    """Search copies a purge could not scrub at once (the TUI held Milvus): one stat when none."""
    from memsearch_tui.engine.core.paths import STATE_DIR
    from memsearch_tui.engine.core.sqlite_scrub import PURGE_PENDING

    if not (Path(memory_root) / STATE_DIR / PURGE_PENDING).exists():
        return []
    from memsearch_tui.engine.upkeep.purge import finish_purge

    left = finish_purge(memory_root, project)
    result, reason = (
        ("error", "; ".join(left)[:500]) if left else ("replaced", "purged text scrubbed from search copies")
    )
    return [{"platform": "store", "task": "purge", "result": result, "reason": reason}]


STEPS: list[tuple[str, str, Callable[[Path, Path], list[Row]]]] = [
    ("store", "lifecycle", _store_steps),
    ("store", "vectors", _vector_step),
    ("store", "purge", _purge_step),
]


def run_upkeep(memory_root: Path, project: Path) -> list[Row]:
    """Run every upkeep step; one row per step (or per sub-task a step reports)."""
    rows: list[Row] = []
    for platform, task, step in STEPS:
        try:
            rows += step(Path(memory_root), Path(project))
        except Exception as exc:
            rows.append(
                {"platform": platform, "task": task, "result": "error", "reason": f"{type(exc).__name__}: {exc}"[:500]}
            )
    return rows
