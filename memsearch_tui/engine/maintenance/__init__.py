"""memsearch-compatible maintenance: due tasks that keep PROJECT.md / USER.md current.

Public API (used by the CLI, ``--run-due`` and the TUI's Maintenance pane)::

    from memsearch_tui.engine.memsearch.config import load_config
    from memsearch_tui.engine.maintenance import run_tasks, status

    cfg = load_config(project)
    rows = status(project, cfg)                     # list[TaskStatus]
    results = run_tasks(project, cfg, force=True)   # list[TaskResult]

Submodules: ``state`` (state file, digest), ``due``, ``locks``, ``prompts``, ``answer``,
``sandbox`` (read-only tool), ``providers``, ``run``. Importing this package is cheap:
no SDK, no torch, no pymilvus.
"""

from memsearch_tui.engine.maintenance.run import RESULTS, TaskResult, TaskStatus, due_tasks, run_one, run_tasks, status

__all__ = ["RESULTS", "TaskResult", "TaskStatus", "due_tasks", "run_one", "run_tasks", "status"]
