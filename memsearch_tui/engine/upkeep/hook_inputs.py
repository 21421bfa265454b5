"""What a quiet ``--run-due`` depended on: the watch list and deadline of its fast-path record.

Built after the full path answered, from the config it loaded, by the same functions the
full path used to decide (task locations, search settings, store upkeep times), so the
list follows the rules instead of restating them. :mod:`.fast_path` only stats what this
returns; see its docstring for why and how.
"""

from __future__ import annotations

import os
from datetime import timedelta
from pathlib import Path
from typing import TYPE_CHECKING

from memsearch_tui.engine.upkeep.fast_path import FILE, STORE, TREE

if TYPE_CHECKING:
    from memsearch_tui.engine.memsearch.config import Config

FOREVER = float("inf")


def watch_list(
    project: Path,
    memory_root: Path,
    config: Config,
    *,
    platforms: list[str] | None,
    tasks: list[str] | None,
    start: Path | None,
) -> tuple[list[bytes], float]:
    """``(watch list, valid until)`` of a run that found nothing due.

    ``start`` is the folder the project was found from (None when ``--project`` named it).
    """
    from memsearch_tui.engine.memsearch.project import memsearch_dir

    mem = memsearch_dir(project)
    watch: list[tuple[bytes, Path]] = [(FILE, p) for p in (config.home_file, config.project_file) if p is not None]
    watch.append((TREE, mem))  # state file, journals, PROJECT.md / USER.md and their shapes
    watch += [(FILE, folder) for folder in _search_path(start, project)]
    task_watch, until = _tasks(project, config, platforms, tasks)
    store_watch, store_until = _store(memory_root, project)
    items = [*watch, *task_watch, *store_watch]
    seen: set[bytes] = set()
    out: list[bytes] = []
    for kind, path in items:
        item = kind + os.fsencode(str(Path(path).absolute()))
        if item not in seen:
            seen.add(item)
            out.append(item)
    return out, min(until, store_until)


def _search_path(start: Path | None, project: Path) -> list[Path]:
    """The folders ``find_project`` looked at: from ``start`` up to the git root it found
    (every ancestor when it found none: a ``.git`` made in any of them moves the project)."""
    if start is None:
        return []
    here = Path(start).resolve()
    folders = [here, *here.parents]
    project = Path(project)
    if project in folders and (project / ".git").exists():
        return folders[: folders.index(project) + 1]
    return folders


def _tasks(
    project: Path, config: Config, platforms: list[str] | None, tasks: list[str] | None
) -> tuple[list[tuple[bytes, Path]], float]:
    """Each selected task's input folder and output file, and when its interval next runs out."""
    from memsearch_tui.engine.core import clock
    from memsearch_tui.engine.core.errors import Refused
    from memsearch_tui.engine.maintenance.run import default_tasks, select_platforms, task_paths, task_settings
    from memsearch_tui.engine.memsearch.state import load_state, parse_time

    watch: list[tuple[bytes, Path]] = []
    until = FOREVER
    project = Path(project).resolve()
    now = clock.now()
    for platform in select_platforms(config, platforms):
        for name in tasks or default_tasks(config, platform):
            task = task_settings(config, platform, name)
            if task.problem or not task.enabled:
                continue
            try:
                paths = task_paths(project, task)
            except Refused:
                continue
            watch += [(TREE, paths.input_dir), (FILE, paths.output_file), (FILE, paths.mem)]
            state, _ = load_state(paths.mem)
            last = parse_time(state.get(f"{platform}.{name}", {}).get("last_success_at"))
            if last is None:
                continue
            ends = last + timedelta(hours=max(0.0, task.min_interval_hours))
            if ends > now:  # once the interval has run out, time changes nothing more
                until = min(until, ends.timestamp())
    return watch, until


def _store(memory_root: Path, project: Path) -> tuple[list[tuple[bytes, Path]], float]:
    """The store's share: INDEX.md, upkeep times, pending purges, the vector index's state."""
    from memsearch_tui.engine.core.state_files import PURGE_PENDING, UPKEEP, state_file
    from memsearch_tui.engine.memsearch.state import parse_time
    from memsearch_tui.engine.search.settings import load_settings
    from memsearch_tui.engine.upkeep.store_upkeep import REVIEW_EVERY, SPLIT_CHECK_EVERY, last_checks

    root = Path(memory_root)
    watch: list[tuple[bytes, Path]] = [
        (FILE, root),
        (FILE, root / "INDEX.md"),
        (FILE, state_file(root, UPKEEP)),
        (FILE, state_file(root, PURGE_PENDING)),
        (FILE, root / "config.md"),  # hygiene_every_days: enabling it is work for the next hook
    ]
    until = FOREVER
    every = {"lifecycle": REVIEW_EVERY, "split": SPLIT_CHECK_EVERY, "hygiene": REVIEW_EVERY}
    for task, when in last_checks(root).items():
        last = parse_time(when)
        until = min(until, (last + every[task]).timestamp() if last else 0.0)  # unreadable: ask every time
    s = load_settings(root, project, auto_model=False)  # the state folder only: no language sample
    manifest = s.manifest_path
    # Not the state folder itself: opening the manifest (SQLite WAL) makes and removes files in it.
    watch += [(FILE, manifest), (FILE, manifest.with_name(manifest.name + "-wal"))]
    if manifest.exists():  # a vector index: any file of the store or journal may be work
        watch.append((STORE, root))
    return watch, until
