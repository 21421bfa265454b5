"""Change task settings in a config file in place, keeping the user's comments and layout.

``tomlkit`` round-trips TOML byte-for-byte outside the keys we touch. The edited text is
validated with the same rules as ``load_config`` before it is written (atomically), so a
bad edit leaves the file as it was.

memsearch reads a platform as ``claude-code`` or ``claude_code``. An edit goes into the
form the file already uses (every form holding the task, when a file has both), so a
``[plugins.claude_code.project_review]`` table is changed in place instead of getting a
second ``[plugins.claude-code.project_review]`` that the two tools would merge differently.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from memsearch_tui.engine.core.atomic import atomic_write_through_links
from memsearch_tui.engine.core.errors import InvalidInput
from memsearch_tui.engine.memsearch.config import ALL_TASKS, _validate


def set_task(
    path: Path,
    platform: str,
    task: str,
    *,
    enabled: bool | None = None,
    provider: str | None = None,
    interval: float | None = None,
    model: str | None = None,
) -> dict[str, Any]:
    """Set keys of ``[plugins.<platform>.<task>]`` in ``path``; returns the table's new values."""
    import tomlkit
    from tomlkit.exceptions import TOMLKitError

    if task not in ALL_TASKS:
        raise InvalidInput(f"unknown task {task!r}; tasks are {', '.join(ALL_TASKS)}")
    if interval is not None and interval < 0:
        raise InvalidInput("--interval must be 0 or more hours")
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        text = ""
    try:
        doc = tomlkit.parse(text)
    except TOMLKitError as exc:
        raise InvalidInput(f"{path}: invalid TOML: {exc}") from None
    tables = [_ensure_table(doc, ["plugins", key, task], path) for key in platform_keys(doc, platform, task)]
    for table in tables:
        for key, value in (
            ("enabled", enabled),
            ("provider", provider),
            ("min_interval_hours", interval),
            ("model", model),
        ):
            if value is not None:
                table[key] = int(value) if key == "min_interval_hours" and float(value).is_integer() else value
    table = tables[-1]  # the one a reader merging in file order ends up with
    new_text = tomlkit.dumps(doc)
    import tomllib

    _validate(tomllib.loads(new_text), path, new_text)
    atomic_write_through_links(path, new_text)
    return {k: v for k, v in table.unwrap().items()}


def platform_keys(doc: Any, platform: str, task: str) -> list[str]:
    """The ``[plugins.<key>]`` names to edit for ``platform``: the spellings already in the
    file that hold ``task``, else the first spelling in the file, else ``platform``."""
    forms = [platform, platform.replace("-", "_"), platform.replace("_", "-")]
    plugins: Any = (doc.get("plugins") if hasattr(doc, "get") else None) or {}
    present = [k for k in plugins if k in forms]
    holding = [k for k in present if isinstance(plugins[k], dict) and task in plugins[k]]
    return holding or present[:1] or [platform]


def _ensure_table(doc: Any, keys: list[str], path: Path) -> Any:
    import tomlkit

    node = doc
    for depth, key in enumerate(keys):
        if key not in node:
            last = depth == len(keys) - 1
            node[key] = tomlkit.table(is_super_table=not last)
        node = node[key]
        if not isinstance(node, dict):
            raise InvalidInput(f"{path}: {'.'.join(keys[: depth + 1])} is not a table")
    return node
