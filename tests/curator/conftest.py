"""Helpers for the curator tests: a store whose entries were written on chosen days."""

from __future__ import annotations

import pytest

NOW = "2026-11-30T12:00:00Z"


@pytest.fixture
def at(monkeypatch: pytest.MonkeyPatch):
    """``at("2026-01-01")`` moves the engine's clock to that day (noon UTC)."""

    def move(day: str) -> None:
        monkeypatch.setenv("MEMSEARCH_TUI_NOW", f"{day}T12:00:00Z")

    return move
