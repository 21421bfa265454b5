"""What the lifecycle will do over the next days: archive, expire, trash, purge, and when.

``lifecycle.plan`` answers "what is due today"; this answers "what becomes due within
``days``" with the same rules and thresholds, so the Overview pane can warn before an
entry moves. Read-only.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import date, timedelta
from pathlib import Path
from typing import Any

from memsearch_tui.engine.core import clock
from memsearch_tui.engine.core.paths import ARCHIVED
from memsearch_tui.engine.store.config import load_store_config
from memsearch_tui.engine.store.links import scan
from memsearch_tui.engine.store.store import Store

ACTIONS = ("archive", "expire", "trash", "purge")


@dataclass
class Due:
    action: str
    id: str
    on: date  # the day it becomes due (today or earlier: due now)


@dataclass
class Forecast:
    days: int
    today: date
    items: list[Due] = field(default_factory=list)

    def count(self, action: str, *, now_only: bool = False) -> int:
        return sum(1 for d in self.items if d.action == action and (not now_only or d.on <= self.today))


def _day(value: str) -> date | None:
    try:
        return date.fromisoformat(value) if value else None
    except ValueError:
        return None


def _latest(*values: str) -> date | None:
    days = [d for d in map(_day, values) if d]
    return max(days) if days else None


def forecast(store: Store, days: int = 30) -> Forecast:
    """Every move that is due now or becomes due within ``days`` days, soonest first."""
    from memsearch_tui.engine.store.trash_index import list_trash

    store.require()
    cfg = load_store_config(store.root)
    today = clock.today()
    horizon = today + timedelta(days=days)
    infos = scan(store)
    referenced: set[str] = set()
    for i in infos.values():
        if i.status != "archived":
            referenced.update(r for r in i.related + i.links if r != i.id)
    out = Forecast(days, today)
    for i in infos.values():
        if i.status in ("active", "expired") and ARCHIVED not in i.id.split("/")[:-1]:
            last = _latest(i.updated, i.accessed)
            archive_on = last + timedelta(days=cfg.archive_after_days) if last else None
            expires = _day(i.expires)
            if archive_on and archive_on <= horizon:
                out.items.append(Due("archive", i.id, archive_on))
            elif i.status == "active" and expires and expires + timedelta(days=1) <= horizon:
                out.items.append(Due("expire", i.id, expires + timedelta(days=1)))
        elif i.status == "archived" and i.id not in referenced:
            since = _latest(i.archived, i.updated, i.accessed)
            if since and since + timedelta(days=cfg.forget_after_days) <= horizon:
                out.items.append(Due("trash", i.id, since + timedelta(days=cfg.forget_after_days)))
    for t in list_trash(store.root):
        on = today + timedelta(days=t.days_left)
        if on <= horizon:
            out.items.append(Due("purge", t.key, on))
    out.items.sort(key=lambda d: (d.on, d.action, d.id))
    return out


def summary(f: Forecast) -> dict[str, Any]:
    """Counts per action (due now, within the horizon) and the first entry of each: what an
    overview shows, small whatever the store's size."""
    out: dict[str, Any] = {"today": f.today.isoformat(), "days": f.days, "counts": {}, "first": {}}
    for action in ACTIONS:
        out["counts"][action] = [f.count(action, now_only=True), f.count(action)]
        first = next((d for d in f.items if d.action == action), None)
        if first is not None:
            out["first"][action] = [first.id, first.on.isoformat()]
    return out


def main(argv: list[str] | None = None) -> int:
    """``python -m memsearch_tui.engine.curator.forecast ROOT [DAYS]``: the summary as JSON.

    The TUI runs it in a child process: reading a 100k-entry store's lifecycle facts peaks
    near 200 MB, which the app's own process then never has to hold.
    """
    import json
    import sys

    from memsearch_tui.engine.core.errors import MemsearchError

    args = list(sys.argv[1:] if argv is None else argv)
    try:
        data = summary(forecast(Store(Path(args[0])), int(args[1]) if len(args) > 1 else 30))
    except (MemsearchError, IndexError, ValueError) as exc:
        print(json.dumps({"error": str(exc)}))
        return 1
    print(json.dumps(data))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
