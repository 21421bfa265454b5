"""A hand edit (``$EDITOR``, the TUI's edit-here, ``memsearch-tui edit``) is a change: the
entry's ``updated:`` becomes today, unless the edit set ``updated:`` itself."""

from __future__ import annotations

from datetime import date

import pytest

from memsearch_tui.engine.core import clock
from memsearch_tui.engine.store.store import Store


@pytest.fixture
def dated(store: Store, monkeypatch: pytest.MonkeyPatch) -> tuple[Store, str]:
    monkeypatch.setenv("MEMSEARCH_TUI_NOW", "2026-01-05T09:00:00Z")
    entry = store.add("notes", "Editor setup", "Neovim with LSP.")
    monkeypatch.setenv("MEMSEARCH_TUI_NOW", "2026-02-10T09:00:00Z")
    return store, entry.id


def test_an_edit_dates_the_entry_today(dated: tuple[Store, str]) -> None:
    store, entry_id = dated
    path = store.get(entry_id).path
    assert path is not None
    before = path.read_bytes()
    assert store.get(entry_id).updated == date(2026, 1, 5)
    store.replace_raw(entry_id, before.replace(b"Neovim", b"Helix"), expected=before)
    after = store.get(entry_id)
    assert after.updated == clock.today() == date(2026, 2, 10)
    assert "Helix" in after.body


def test_an_edit_that_sets_updated_itself_keeps_it(dated: tuple[Store, str]) -> None:
    store, entry_id = dated
    path = store.get(entry_id).path
    assert path is not None
    before = path.read_bytes()
    edited = before.replace(b"updated: 2026-01-05", b"updated: 2026-01-20").replace(b"Neovim", b"Helix")
    assert edited != before.replace(b"Neovim", b"Helix")
    store.replace_raw(entry_id, edited, expected=before)
    assert store.get(entry_id).updated == date(2026, 1, 20)
