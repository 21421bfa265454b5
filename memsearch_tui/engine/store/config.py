"""The memory root's own settings: ``config.md`` (YAML frontmatter of ``key: value`` lines).

Lifecycle and split thresholds live with the store rather than in a project's TOML, so
every tool that opens the store (CLI, TUI, hooks of any project) applies the same rules.
A missing file or key falls back to the documented default; a wrong type is refused with
the file and key named.
"""

from __future__ import annotations

from dataclasses import fields
from pathlib import Path

from memsearch_tui.engine.core import frontmatter_io as fmio
from memsearch_tui.engine.core.errors import InvalidInput
from memsearch_tui.engine.core.paths import CONFIG
from memsearch_tui.engine.core.record import record
from memsearch_tui.engine.core.safe_io import read_capped


@record
class StoreConfig:
    """Thresholds in days (and entries for ``split_threshold``); ``hygiene_every_days``: how
    often the hook runs the hygiene pass in the background (0, the default: never)."""

    archive_after_days: int = 90
    forget_after_days: int = 180
    trash_retention_days: int = 30
    split_threshold: int = 100
    hygiene_every_days: int = 0

    def as_dict(self) -> dict[str, int]:
        return {f.name: getattr(self, f.name) for f in fields(self)}


def default_config_text() -> str:
    """The ``config.md`` that ``init`` writes: every setting at its default, documented."""
    lines = "".join(f"{f.name}: {f.default}\n" for f in fields(StoreConfig))
    return (
        "---\n# memsearch-tui store settings (key: value). Used by the lifecycle, split and hygiene commands.\n"
        + lines
        + "---\n"
    )


def load_store_config(root: Path) -> StoreConfig:
    """Read ``<root>/config.md``; defaults for anything missing."""
    path = Path(root) / CONFIG
    try:
        data = read_capped(path, 1_000_000)
    except FileNotFoundError:
        return StoreConfig()
    meta = fmio.parse(data, str(path)).meta
    values: dict[str, int] = {}
    for f in fields(StoreConfig):
        if f.name not in meta or meta[f.name] is None:
            continue
        value = meta[f.name]
        if isinstance(value, bool) or not isinstance(value, int) or value < 0:
            raise InvalidInput(f"{path}: '{f.name}' must be a whole number ≥ 0, got {value!r}", path=str(path))
        values[f.name] = value
    return StoreConfig(**values)
