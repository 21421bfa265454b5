"""The engine's idea of 'now', overridable for reproducible tests, demos and snapshots.

Set ``MEMSEARCH_TUI_NOW`` to an ISO-8601 datetime (``2026-11-30T12:00:00Z``) to freeze it.
"""

from __future__ import annotations

import os
from datetime import UTC, date, datetime

NOW_ENV = "MEMSEARCH_TUI_NOW"


def now() -> datetime:
    """Timezone-aware UTC now (or the frozen value)."""
    frozen = os.environ.get(NOW_ENV)
    if frozen:
        value = datetime.fromisoformat(frozen.replace("Z", "+00:00"))
        return value if value.tzinfo else value.replace(tzinfo=UTC)
    return datetime.now(UTC)


def today() -> date:
    return now().date()


def local_today() -> date:
    """Today where the person lives (the machine's time zone, ``TZ``): the date journals
    are named by. In UTC+8 the UTC date is still yesterday until 08:00, so a journal's day
    compared with :func:`today` looked a day ahead ("future")."""
    return now().astimezone().date()


def iso_z(value: datetime | None = None) -> str:
    """UTC ISO-8601 with a 'Z', seconds precision (memsearch's state-file format)."""
    return (value or now()).astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


def real_date(day: str) -> bool:
    """``YYYY-MM-DD`` that is a date of the calendar: ``2026-02-30`` has the shape and is not."""
    try:
        date.fromisoformat(day)
    except ValueError:
        return False
    return True
