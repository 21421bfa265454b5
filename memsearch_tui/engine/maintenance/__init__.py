"""memsearch-compatible maintenance: due tasks that keep PROJECT.md / USER.md current, and doctor.

Faces reach it through ``engine.api`` (``mem.maintenance.status|run|set_task|doctor``); the
``--run-due`` hook (``engine.upkeep``) calls it directly::

    from memsearch_tui.engine.memsearch.config import load_config
    from memsearch_tui.engine.maintenance import run_tasks, status

    cfg = load_config(project)
    rows = status(project, cfg)                     # list[TaskStatus]
    results = run_tasks(project, cfg, force=True)   # list[TaskResult]

Submodules: ``due``, ``locks``, ``prompts``, ``answer``, ``sandbox`` (read-only tool),
``providers``, ``provider_check``, ``skills`` (memory_to_skill), ``run``, ``doctor``. The
state file is :mod:`memsearch_tui.engine.memsearch.state`. Importing this package is cheap:
no SDK, no torch, no pymilvus.
"""

from memsearch_tui.engine.maintenance.run import RESULTS, TaskResult, TaskStatus, due_tasks, run_one, run_tasks, status

__all__ = ["RESULTS", "TaskResult", "TaskStatus", "due_tasks", "run_one", "run_tasks", "status"]
