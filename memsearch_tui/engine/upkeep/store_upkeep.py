"""The store's share of a hook: weekly lifecycle review, daily split check, and the hygiene
pass every ``hygiene_every_days`` (config.md; 0, the default, never), handed to a detached
process (``python -m memsearch_tui.engine.hygiene.run``) since it reads every memory.

Both only create proposals (``<root>/.memsearch-tui/proposals/``): automatic archiving can
misjudge, so a person accepts them in the TUI or with ``store-proposals accept``. The
state of when each last ran lives in ``<root>/.memsearch-tui/upkeep.json``.
"""

from __future__ import annotations

import json
from datetime import datetime, timedelta
from pathlib import Path
from typing import TYPE_CHECKING, Any

from memsearch_tui.engine.core import clock
from memsearch_tui.engine.core.atomic import atomic_write_text
from memsearch_tui.engine.core.paths import CONFIG, INDEX
from memsearch_tui.engine.core.safe_io import load_json
from memsearch_tui.engine.core.state_files import STATE_DIR, UPKEEP
from memsearch_tui.engine.core.text import plural

if TYPE_CHECKING:
    from memsearch_tui.engine.store.store import Store

# The store, lifecycle and proposal modules load only when a check is due: this module
# runs on every agent hook, where "not due" must cost almost nothing.

UPKEEP_FILE = UPKEEP
REVIEW_EVERY = timedelta(days=7)
SPLIT_CHECK_EVERY = timedelta(days=1)


def _state(root: Path) -> tuple[Path, dict[str, Any]]:
    path = Path(root) / STATE_DIR / UPKEEP_FILE
    try:
        state = load_json(path, 1_000_000)  # regular file, capped, never a hang or RecursionError
        return path, state if isinstance(state, dict) else {}
    except (OSError, ValueError):
        return path, {}


def _due(state: dict[str, Any], key: str, every: timedelta) -> bool:
    last = state.get(key)
    if not last:
        return True
    try:
        return clock.now() - datetime.fromisoformat(last.replace("Z", "+00:00")) >= every
    except ValueError:
        return True


def upkeep(memory_root: Path, project: Path) -> list[dict[str, Any]]:
    """Weekly lifecycle review and daily split check for ``--run-due``; never raises.

    Both only create proposals (``<root>/.memsearch-tui/proposals/``): automatic archiving
    can misjudge, so a person accepts them in the TUI or with ``store-proposals accept``.
    """
    root = Path(memory_root)
    rows: list[dict[str, Any]] = []
    if not (root / INDEX).is_file():
        return [
            _row("lifecycle", "skip", f"no memory store at {root}"),
            _row("split", "skip", f"no memory store at {root}"),
        ]
    state_path, state = _state(root)
    before = dict(state)
    for task, every, fn in (
        ("lifecycle", REVIEW_EVERY, _upkeep_lifecycle),
        ("split", SPLIT_CHECK_EVERY, _upkeep_split),
    ):
        if not _due(state, f"{task}_last", every):
            rows.append(
                _row(task, "skip", f"checked {state[f'{task}_last']}; next check after {plural(every.days, 'day')}")
            )
            continue
        try:
            from memsearch_tui.engine.store.store import Store  # due: now pay for the store

            rows.append(fn(Store(root)))
            state[f"{task}_last"] = clock.iso_z()
        except Exception as exc:  # a hook must never crash the agent's session
            rows.append(_row(task, "error", f"{type(exc).__name__}: {exc}"))
    row = _hygiene(root, project, state)
    if row is not None:
        rows.append(row)
    if state != before:  # a run with nothing due writes nothing (the hook's fast path relies on it)
        try:
            atomic_write_text(state_path, json.dumps(state, indent=2))
        except OSError:
            pass
    return rows


def _hygiene(root: Path, project: Path, state: dict[str, Any]) -> dict[str, Any] | None:
    """Hand the hygiene pass to a background process when enabled and due; no row when off.

    Off is remembered with config.md's mtime, so the hook parses config.md again only when
    the file changes (enabling it takes effect at the next hook) or a week passed."""
    config = root / CONFIG
    try:
        stamp = str(config.stat().st_mtime_ns)
    except OSError:
        stamp = "none"
    if state.get("hygiene_off") == stamp and not _due(state, "hygiene_checked", REVIEW_EVERY):
        return None
    try:
        from memsearch_tui.engine.store.config import load_store_config  # due or config.md changed: now pay for YAML

        every = load_store_config(root).hygiene_every_days
    except Exception as exc:  # a hook never crashes the agent's session
        return _row("hygiene", "error", f"{type(exc).__name__}: {exc}")
    if every <= 0:
        state.update(hygiene_off=stamp, hygiene_checked=clock.iso_z())
        return None
    state.pop("hygiene_off", None)
    if not _due(state, "hygiene_last", timedelta(days=every)):
        return _row("hygiene", "skip", f"ran {state['hygiene_last']}; next after {plural(every, 'day')}")
    try:
        pid = spawn_hygiene(root, project)
    except OSError as exc:
        return _row("hygiene", "error", f"cannot start the hygiene pass: {exc.strerror}")
    state["hygiene_last"] = clock.iso_z()
    return _row("hygiene", "queued", f"hygiene pass handed to background process {pid}; fixes become proposals")


def spawn_hygiene(root: Path, project: Path) -> int:
    """Start the hygiene pass detached (:func:`.background.detached`)."""
    import sys

    from memsearch_tui.engine.upkeep.background import detached

    return detached([sys.executable, "-m", "memsearch_tui.engine.hygiene.run", str(root), str(project)], project)


def _row(task: str, result: str, reason: str) -> dict[str, Any]:
    return {"platform": "store", "task": task, "result": result, "reason": reason}


def _upkeep_lifecycle(store: Store) -> dict[str, Any]:
    from memsearch_tui.engine.curator import lifecycle
    from memsearch_tui.engine.review import store_proposals as sp

    moves = lifecycle.plan(store)
    if not moves:
        return _row("lifecycle", "none", "nothing due for archive, expiry, trash or purge")
    prop = sp.propose_lifecycle(store.root, moves)
    return _row("lifecycle", "proposed", f"{plural(len(moves), 'move')} waiting for review: proposal {prop['id']}")


def _upkeep_split(store: Store) -> dict[str, Any]:
    from memsearch_tui.engine.curator import split
    from memsearch_tui.engine.review import store_proposals as sp

    made = []
    for category, _count in split.over_threshold(store):
        made.append(sp.propose_split(store, category)["id"])
    if not made:
        return _row("split", "none", "no category over split_threshold")
    return _row("split", "proposed", f"{plural(len(made), 'split proposal')} waiting for review: {', '.join(made)}")


def last_checks(memory_root: Path) -> dict[str, str]:
    """When the hook last ran each store check: {"lifecycle": iso, "split": iso} (read-only)."""
    _, state = _state(Path(memory_root))
    out = {task: str(state[f"{task}_last"]) for task in ("lifecycle", "split") if state.get(f"{task}_last")}
    hygiene = max(str(state.get("hygiene_last") or ""), str(state.get("hygiene_checked") or ""))  # ISO: sorts by time
    if hygiene:
        out["hygiene"] = hygiene
    return out
