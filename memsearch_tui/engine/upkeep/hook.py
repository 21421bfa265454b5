"""Store and index upkeep that ``memsearch-tui --run-due`` runs after the maintenance tasks.

Each step decides for itself whether it is due and must be cheap when it is not: the
weekly lifecycle review and split check of the store, then keeping the search index in
step with the files. A failing step is reported as a row with result "error" and never
stops the next one (a hook must not fail because of upkeep).

With ``detach`` (hook mode), the vector step never does its work inline: when files
changed it hands the pass to one coalesced background runner (:mod:`.background`) and
reports ``queued``, so a hook returns in the time a stat check takes, whatever changed.
When a face holds the project's warm index (the app, the MCP server: ``engine.api.warm_share``),
the pass is handed to it instead, over its socket (an answer within 0.5 s, or the runner
as before): it already holds Milvus Lite and the model, so the pass does not wait behind it.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # the hook path stays light: background loads only when a step runs
    from memsearch_tui.engine.upkeep.background import Row


def _store_steps(memory_root: Path, project: Path, detach: bool) -> list[Row]:
    from memsearch_tui.engine.upkeep.store_upkeep import upkeep

    return upkeep(memory_root, project)


def _vector_step(memory_root: Path, project: Path, detach: bool) -> list[Row]:
    if not detach:
        from memsearch_tui.engine.search import upkeep

        return [upkeep(memory_root, project)]
    from memsearch_tui.engine.search.upkeep import pending_work

    row, state_dir = pending_work(memory_root, project)
    if row is not None:
        return [row]
    if state_dir is None:  # never: pending_work pairs a missing state dir with an error row
        return []
    from memsearch_tui.engine.search.owner_wire import notify_upkeep, owner_key

    owner = notify_upkeep(state_dir, owner_key(project))  # a face holding the warm index does it
    if owner is not None:
        reason = f"files changed; handed to the warm index's owner (pid {owner})"
        return [{"platform": "store", "task": "vectors", "result": "queued", "reason": reason}]
    from memsearch_tui.engine.upkeep.background import request

    how, pid = request(state_dir, memory_root, project)
    reason = (
        f"files changed; handed to background process {pid}"
        if how == "spawned"
        else f"files changed; merged into the running background upkeep{f' (pid {pid})' if pid else ''}"
    )
    return [{"platform": "store", "task": "vectors", "result": "queued", "reason": reason}]


def _purge_step(memory_root: Path, project: Path, detach: bool) -> list[Row]:
    """Search copies a purge could not scrub at once (the TUI held Milvus): one stat when none."""
    from memsearch_tui.engine.core.state_files import PURGE_PENDING, STATE_DIR

    if not (Path(memory_root) / STATE_DIR / PURGE_PENDING).exists():
        return []
    from memsearch_tui.engine.search.purge import finish_purge

    left = finish_purge(memory_root, project)
    result, reason = (
        ("error", "; ".join(left)[:500]) if left else ("replaced", "purged text scrubbed from search copies")
    )
    return [{"platform": "store", "task": "purge", "result": result, "reason": reason}]


STEPS: list[tuple[str, str, Callable[[Path, Path, bool], list[Row]]]] = [
    ("store", "lifecycle", _store_steps),
    ("store", "vectors", _vector_step),
    ("store", "purge", _purge_step),
]


def run_upkeep(memory_root: Path, project: Path, *, detach: bool = False) -> list[Row]:
    """Run every upkeep step; one row per step (or per sub-task a step reports)."""
    rows: list[Row] = []
    for platform, task, step in STEPS:
        try:
            rows += step(Path(memory_root), Path(project), detach)
        except Exception as exc:
            rows.append(
                {"platform": platform, "task": task, "result": "error", "reason": f"{type(exc).__name__}: {exc}"[:500]}
            )
    return rows
