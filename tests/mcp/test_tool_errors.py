"""Issue 38: a tool that hits a full disk or an index database it cannot write answers
with the described error (code and message), never the SDK's bare "Error executing tool"."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest
from mcp.server.mcpserver.exceptions import ToolError

from memsearch_tui.engine.api import Memory
from memsearch_tui.engine.store.store import Store
from memsearch_tui.mcp.tools import run


def _memory(tmp_path: Path) -> Memory:
    store = Store(tmp_path / "memory")
    store.init()
    (tmp_path / "project" / ".git").mkdir(parents=True)
    return Memory(store.root, tmp_path / "project", writes="direct", agent=True)


def test_an_index_database_failure_is_a_described_tool_error(tmp_path: Path) -> None:
    def full(_m: Memory) -> None:  # what SQLite raises on a full disk, from any index write
        raise sqlite3.OperationalError("database or disk is full")

    with pytest.raises(ToolError, match=r"^io: an index database: database or disk is full"):
        run(_memory(tmp_path), None, {}, full)


def test_a_bug_is_still_raised_as_it_is(tmp_path: Path) -> None:
    def bug(_m: Memory) -> None:
        raise KeyError("x")

    with pytest.raises(KeyError):
        run(_memory(tmp_path), None, {}, bug)
