"""A store entry: one Markdown file with the three-tier frontmatter.

Known keys are validated and exposed as typed properties; every other key, and the body,
are kept untouched so files written by other tools round-trip.
"""

from __future__ import annotations

from dataclasses import field
from datetime import date, datetime
from pathlib import Path
from typing import Any

from memsearch_tui.engine.core import frontmatter_io as fmio
from memsearch_tui.engine.core.errors import EntryTooLarge, InvalidInput
from memsearch_tui.engine.core.record import record
from memsearch_tui.engine.core.safe_io import MAX_ENTRY_BYTES, read_capped

STATUSES = ("active", "archived", "expired")
KNOWN_KEYS = ("title", "status", "created", "updated", "version", "tags", "importance", "related", "expires")


def as_date(value: Any, key: str, where: str) -> date | None:
    """Accept a YAML date, a datetime or an ISO string; None stays None."""
    if value is None or value == "":
        return None
    if isinstance(value, datetime):
        return value.date()
    if isinstance(value, date):
        return value
    if isinstance(value, str):
        try:
            return date.fromisoformat(value.strip()[:10])
        except ValueError:
            pass
    raise InvalidInput(f"{where}: '{key}' must be a date (YYYY-MM-DD), got {value!r}", path=where)


def as_str_list(value: Any, key: str, where: str) -> list[str]:
    """A list of strings; a single string or a comma-separated string is accepted too."""
    if value is None:
        return []
    if isinstance(value, str):
        return [t.strip() for t in value.split(",") if t.strip()]
    if isinstance(value, list) and all(isinstance(t, (str, int, float)) for t in value):
        return [str(t) for t in value]
    raise InvalidInput(f"{where}: '{key}' must be a list of strings, got {value!r}", path=where)


@record(frozen=False)
class Entry:
    """An entry file in memory: ``id`` is its path under the root without ``.md``."""

    id: str
    doc: fmio.ParsedFile = field(default_factory=fmio.ParsedFile)
    path: Path | None = None

    # -- typed views of the known keys ---------------------------------------------
    @property
    def meta(self) -> dict[str, Any]:
        return self.doc.meta

    @property
    def body(self) -> str:
        return self.doc.body

    @property
    def where(self) -> str:
        return str(self.path) if self.path else self.id

    @property
    def title(self) -> str:
        value = self.meta.get("title")
        return str(value) if value not in (None, "") else self.id.rsplit("/", 1)[-1]

    @property
    def status(self) -> str:
        return str(self.meta.get("status") or "active")

    @property
    def created(self) -> date | None:
        return as_date(self.meta.get("created"), "created", self.where)

    @property
    def updated(self) -> date | None:
        return as_date(self.meta.get("updated"), "updated", self.where) or self.created

    @property
    def version(self) -> int:
        return int(self.meta.get("version") or 1)

    @property
    def tags(self) -> list[str]:
        return as_str_list(self.meta.get("tags"), "tags", self.where)

    @property
    def related(self) -> list[str]:
        return as_str_list(self.meta.get("related"), "related", self.where)

    @property
    def importance(self) -> float | None:
        value = self.meta.get("importance")
        return None if value is None else float(value)

    @property
    def expires(self) -> date | None:
        return as_date(self.meta.get("expires"), "expires", self.where)

    @property
    def category(self) -> str:
        """The category folder; an archived entry belongs to the category above ``archived/``."""
        parts = self.id.split("/")[:-1]
        if parts and parts[-1] == "archived":
            parts = parts[:-1]
        return "/".join(parts)

    def validate(self) -> None:
        """Check every known key's type and range; raise InvalidInput naming file and key."""
        w = self.where
        if not self.doc.has_frontmatter:
            raise InvalidInput(f"{w}: no frontmatter (an entry starts with a '---' YAML block)", path=w)
        title = self.meta.get("title")
        if title is not None and not isinstance(title, (str, int, float)):
            raise InvalidInput(f"{w}: 'title' must be text, got {title!r}", path=w)
        if self.status not in STATUSES:
            raise InvalidInput(f"{w}: 'status' must be one of {', '.join(STATUSES)}, got {self.status!r}", path=w)
        for key in ("created", "updated", "expires"):
            as_date(self.meta.get(key), key, w)
        for key in ("tags", "related"):
            as_str_list(self.meta.get(key), key, w)
        version = self.meta.get("version")
        if version is not None and (not isinstance(version, int) or isinstance(version, bool) or version < 1):
            raise InvalidInput(f"{w}: 'version' must be a whole number ≥ 1, got {version!r}", path=w)
        imp = self.meta.get("importance")
        if imp is not None and (isinstance(imp, bool) or not isinstance(imp, (int, float)) or not 0 <= imp <= 1):
            raise InvalidInput(f"{w}: 'importance' must be a number from 0 to 1, got {imp!r}", path=w)

    def to_bytes(self) -> bytes:
        return fmio.dump(self.doc)

    def summary(self) -> dict[str, Any]:
        """A JSON-ready view for ``--json`` output and the TUI."""
        return {
            "id": self.id,
            "title": self.title,
            "status": self.status,
            "category": self.category,
            "created": _iso(self.created),
            "updated": _iso(self.updated),
            "version": self.version,
            "tags": self.tags,
            "importance": self.importance,
            "related": self.related,
            "expires": _iso(self.expires),
        }


def _iso(d: date | None) -> str | None:
    return d.isoformat() if d else None


def check_raw_size(where: str, size: int) -> None:
    """Refuse an oversized file before any YAML or Markdown parsing is spent on it."""
    if size > MAX_ENTRY_BYTES:
        raise EntryTooLarge(
            f"{where}: {size / 1e6:.1f} MB; an entry file holds {MAX_ENTRY_BYTES / 1e6:.2f} MB at most",
            code="too_large",
            path=where,
        )


def load_entry(entry_id: str, path: Path) -> Entry:
    """Read and validate one entry file."""
    return entry_from_bytes(entry_id, path, read_capped(path))  # regular files only, size-capped


def entry_from_bytes(entry_id: str, path: Path, data: bytes) -> Entry:
    """Parse and validate the bytes of an entry file (as read from ``path``)."""
    where = str(path)
    if not data.strip():
        raise InvalidInput(f"{where}: empty file", path=where)
    entry = Entry(entry_id, fmio.parse(data, where), path)
    entry.validate()
    return entry


def new_meta(
    title: str, today: date, *, tags: list[str], importance: float | None, expires: date | None, related: list[str]
) -> dict[str, Any]:
    """Frontmatter of a new entry, keys in the documented order."""
    meta: dict[str, Any] = {"title": title, "status": "active", "created": today, "updated": today, "version": 1}
    meta["tags"] = list(tags)
    if importance is not None:
        meta["importance"] = importance
    meta["related"] = list(related)
    if expires is not None:
        meta["expires"] = expires
    return meta
