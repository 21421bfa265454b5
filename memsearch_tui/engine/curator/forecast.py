"""What the lifecycle will do over the next days: archive, expire, trash, purge, and when.

``lifecycle.plan`` answers "what is due today"; this answers "what becomes due within
``days``" with the same rules and thresholds, so the Overview pane can warn before an
entry moves. Read-only.

It is one query over the catalog's lifecycle facts (``engine/store/catalog``: dates and
references per entry, kept in step with the files by stat), with the read dates recorded
beside the store joined in: no entry file is read, so a 100k-entry store answers in a
fraction of a second and the caller holds a few numbers, never a row per entry. The
Markdown files stay the source: ``fresh`` re-checks the catalog against them first (a file
changed by hand or by a sync is re-read); ``fresh=False`` answers from the catalog as last
saved (a first frame).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import date, timedelta
from typing import Any

from memsearch_tui.engine.core import clock
from memsearch_tui.engine.store.catalog import Catalog
from memsearch_tui.engine.store.config import load_store_config
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


# The rules of ``lifecycle.plan``, looking ahead. ``last``: the later of updated and the read
# dates (the file's own ``accessed`` and the one recorded beside the store); ``since`` adds
# the day it was archived. An entry filed under archived/ is never archived again; an
# archived entry still named by a live one (related, a link) is never trashed. Each move's
# ``base`` day plus its shift (``_SHIFT``) is the day it falls due; the query compares the
# ISO days with cut-offs worked out once (a date() per row was half of the query at 100k).
_DUE = """
WITH e AS (
  SELECT c.id, c.status, coalesce(c.expires, '') AS expires,
         instr('/' || c.id, '/archived/') > 0 AS filed,
         max(c.updated, coalesce(c.accessed, ''), coalesce(r.day, '')) AS last,
         max(c.updated, coalesce(c.accessed, ''), coalesce(r.day, ''), coalesce(c.archived, '')) AS since
  FROM entries c LEFT JOIN temp.read_days r ON r.id = c.id
  WHERE c.error = ''
),
referenced AS (
  SELECT DISTINCT j.value AS id FROM entries c, json_each(c.refs) j
  WHERE c.error = '' AND c.status != 'archived' AND c.refs != '[]' AND j.value != c.id
),
due AS (
  SELECT 'archive' AS action, id, last AS base FROM e
   WHERE status IN ('active', 'expired') AND NOT filed AND last != '' AND last <= :archive_by
  UNION ALL
  SELECT 'expire', id, expires FROM e
   WHERE status = 'active' AND NOT filed AND expires != '' AND expires <= :expire_by
     AND NOT (last != '' AND last <= :archive_by)
  UNION ALL
  SELECT 'trash', id, since FROM e
   WHERE status = 'archived' AND since != '' AND since <= :trash_by AND id NOT IN (SELECT id FROM referenced)
)
"""
_NOW = "CASE action WHEN 'archive' THEN :archive_now WHEN 'expire' THEN :expire_now ELSE :trash_now END"


def _shifts(store: Store) -> dict[str, int]:
    """Days from a move's base day to the day it falls due, per action."""
    cfg = load_store_config(store.root)
    return {"archive": cfg.archive_after_days, "expire": 1, "trash": cfg.forget_after_days}


def _due_rows(cat: Catalog, store: Store, today: date, days: int, query: str) -> list[tuple[Any, ...]]:
    """Run ``query`` (selecting from ``due``) on ``cat`` with the store's thresholds."""
    from memsearch_tui.engine.store.access import last_read  # sqlite3: not on the hook's import path

    db = cat.db
    db.execute("CREATE TEMP TABLE IF NOT EXISTS read_days (id TEXT PRIMARY KEY, day TEXT)")
    db.execute("DELETE FROM temp.read_days")
    db.executemany("INSERT INTO temp.read_days VALUES (?, ?)", last_read(store.root).items())
    horizon = today + timedelta(days=days)
    params: dict[str, str] = {}
    for action, shift in _shifts(store).items():
        params[f"{action}_by"] = (horizon - timedelta(days=shift)).isoformat()
        params[f"{action}_now"] = (today - timedelta(days=shift)).isoformat()
    return db.execute(_DUE + query, params).fetchall()


def _open(store: Store, fresh: bool) -> Catalog | None:
    """The catalog to ask: re-checked (``fresh``), or as last saved (None: never filled). A
    catalog that cannot be written lives in this process's memory only, so "as last saved"
    would be whatever old file it started from, forever: it is re-checked then too."""
    if fresh:
        return store.catalog()
    cat = Catalog(store.root)
    if cat.populated() and not cat.degraded:
        return cat
    if cat.degraded:
        return cat.refresh()
    cat.close()
    return None


def _purges(store: Store, today: date, horizon: date) -> list[Due]:
    from memsearch_tui.engine.store.trash_index import list_trash

    out = []
    for t in list_trash(store.root):
        on = today + timedelta(days=t.days_left)
        if on <= horizon:
            out.append(Due("purge", t.key, on))
    return out


def forecast(store: Store, days: int = 30) -> Forecast:
    """Every move that is due now or becomes due within ``days`` days, soonest first."""
    store.require()
    today = clock.today()
    cat = store.catalog()
    try:
        rows = _due_rows(cat, store, today, days, "SELECT action, id, base FROM due")
    finally:
        cat.close()
    shift = _shifts(store)
    out = Forecast(days, today, [Due(a, i, date.fromisoformat(b) + timedelta(days=shift[a])) for a, i, b in rows])
    out.items += _purges(store, today, today + timedelta(days=days))
    out.items.sort(key=lambda d: (d.on, d.action, d.id))
    return out


def due_summary(store: Store, days: int = 30, *, fresh: bool = True) -> dict[str, Any] | None:
    """:func:`summary` of :func:`forecast`, counted by the query itself (the rows never
    reach Python). ``fresh=False``: from the catalog as last saved, None when there is none."""
    store.require()
    today = clock.today()
    cat = _open(store, fresh)
    if cat is None:
        return None
    try:
        # base is a fixed-width ISO day: the smallest base || id is the soonest, then by id
        rows = _due_rows(
            cat,
            store,
            today,
            days,
            f"SELECT action, sum(base <= {_NOW}), count(*), min(base || id) FROM due GROUP BY action",
        )
    finally:
        cat.close()
    out: dict[str, Any] = {"today": today.isoformat(), "days": days, "counts": {}, "first": {}}
    shift = _shifts(store)
    found = {
        a: (int(now), int(n), first[10:], (date.fromisoformat(first[:10]) + timedelta(days=shift[a])).isoformat())
        for a, now, n, first in rows
    }
    purges = sorted(_purges(store, today, today + timedelta(days=days)), key=lambda d: (d.on, d.id))
    if purges:
        found["purge"] = (sum(d.on <= today for d in purges), len(purges), purges[0].id, purges[0].on.isoformat())
    for action in ACTIONS:
        now, n, first_id, first_on = found.get(action, (0, 0, "", ""))
        out["counts"][action] = [now, n]
        if n:
            out["first"][action] = [first_id, first_on]
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
