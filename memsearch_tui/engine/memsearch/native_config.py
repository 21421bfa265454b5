"""The config as memsearch 0.4.23 itself reads it (``memsearch/config.py``), for the keys it knows.

memsearch layers defaults → ``~/.memsearch/config.toml`` → ``<project>/.memsearch.toml``,
and takes from the project file only seven low-risk indexing keys
(:data:`PROJECT_KEYS`); everything else there — ``[plugins.*]``, ``[llm]``, ``[prompts]``,
``[milvus] uri/token`` — it ignores. We need its view wherever we act on *its* files:
which Milvus collection holds its chunks (to scrub a forgotten turn from it) and how it
chunks a file (to know which chunks its next ``index`` would delete), and to say in
``status``/``doctor`` where our reading of the same file differs from its.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from memsearch_tui.engine.core.errors import InvalidInput
from memsearch_tui.engine.memsearch.config import _parse, home_config_path, project_config_path
from memsearch_tui.engine.memsearch.trust import MEMSEARCH_PROJECT_KEYS

#: memsearch's ``_PROJECT_CONFIG_ALLOWED_PATHS``: all it reads from a project's file.
PROJECT_KEYS = MEMSEARCH_PROJECT_KEYS
DEFAULT_URI = "~/.memsearch/milvus.db"
DEFAULT_COLLECTION = "memsearch_chunks"


@dataclass(frozen=True)
class NativeIndex:
    """Where memsearch keeps a project's chunks and how it cuts them.

    ``collection_from``: the file whose ``[milvus] collection`` decided (or ``"default"``)."""

    uri: str
    token: str
    collection: str
    max_chunk_size: int
    overlap_lines: int
    collection_from: str = "default"

    @property
    def is_lite(self) -> bool:
        return not self.uri.startswith(("http", "tcp", "unix:"))  # memsearch's own test

    @property
    def lite_path(self) -> Path:
        return Path(self.uri).expanduser()


def project_layer(project: Path) -> dict[str, Any]:
    """The keys of ``<project>/.memsearch.toml`` memsearch honours (``_filter_project_config``)."""
    path = project_config_path(project)
    parsed = _parse(path)
    out: dict[str, Any] = {}
    for section, key in PROJECT_KEYS:
        table = parsed[0].get(section) if parsed else None
        if isinstance(table, dict) and key in table:
            out.setdefault(section, {})[key] = table[key]
    return out


def native_index(project: Path | None, *, home: Path | None = None) -> NativeIndex:
    """memsearch's ``resolve_config()`` run in ``project``, reduced to its index settings."""
    home_path = home_config_path(home)
    parsed = _parse(home_path)
    user = parsed[0] if parsed else {}
    proj = project_layer(project) if project is not None else {}
    milvus = {**_table(user, "milvus"), **_table(proj, "milvus")}
    chunking = {**_table(user, "chunking"), **_table(proj, "chunking")}
    collection_from = "default"
    if "collection" in _table(proj, "milvus"):
        collection_from = str(project_config_path(project)) if project is not None else ""
    elif "collection" in _table(user, "milvus"):
        collection_from = str(home_path)
    token = _value(milvus, "token", "", str, home_path)
    if token.startswith("env:"):
        token = os.environ.get(token[4:], "")
    return NativeIndex(
        uri=_value(milvus, "uri", DEFAULT_URI, str, home_path),
        token=token,
        collection=_value(milvus, "collection", DEFAULT_COLLECTION, str, home_path),
        max_chunk_size=_value(chunking, "max_chunk_size", 1500, int, home_path),
        overlap_lines=_value(chunking, "overlap_lines", 2, int, home_path),
        collection_from=collection_from,
    )


def _table(data: dict[str, Any], name: str) -> dict[str, Any]:
    table = data.get(name)
    return table if isinstance(table, dict) else {}


def _value(table: dict[str, Any], key: str, default: Any, kind: type, where: Path) -> Any:
    value = table.get(key, default)
    if kind is int and isinstance(value, str) and value.strip().isdigit():
        value = int(value)  # memsearch's `config set` writes ints it read as strings
    if not isinstance(value, kind) or isinstance(value, bool):
        raise InvalidInput(f"{key} must be a {kind.__name__} for memsearch (in {where} or the project file)")
    return value
