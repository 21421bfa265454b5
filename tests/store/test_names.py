"""Issue 19: category and entry names that would not show as they are (ESC sequences,
other controls, bidi overrides and isolates, zero-width characters) or could not be files
on Windows (``con``, ``aux``, ``nul``, ``com1`` …, with an extension too) are refused by the
one name check, before anything is written; a title that slugs to such a name gets a
safe file name instead."""

from __future__ import annotations

from pathlib import Path

import pytest

from memsearch_tui.engine.core.errors import InvalidInput, Refused
from memsearch_tui.engine.store.store import Store
from tests.conftest import tree_bytes

UNSHOWABLE = {
    "ESC sequence": "notes\x1b[2J\x1b[31m",
    "bell": "notes\x07",
    "DEL": "no\x7ftes",
    "C1 control": "notes\x9b31m",
    "right-to-left override": "notes\u202edm.exe",
    "left-to-right embedding": "\u202anotes",
    "first-strong isolate": "a\u2068b",
    "pop directional isolate": "ab\u2069",
    "zero-width space": "no\u200btes",
    "line separator": "a\u2028b",
}
DEVICES = ["con", "CON", "aux", "nul", "prn", "com1", "LPT9", "notes/aux", "con.txt", "nul.md.bak", "com\u00b9"]


def _state(store: Store) -> tuple[dict[str, bytes], list[str]]:
    return tree_bytes(store.root), sorted(p.name for p in store.root.iterdir())


@pytest.mark.parametrize("name", sorted(UNSHOWABLE))
def test_a_category_with_an_unshowable_character_is_refused(store: Store, name: str) -> None:
    category = UNSHOWABLE[name]
    before = _state(store)
    with pytest.raises(Refused) as info:
        store.add(category, "A note", "some text")
    assert info.value.code == "unsafe_name"
    assert f"U+{ord(next(c for c in category if not c.isalnum())):04X}" in info.value.message
    assert "\x1b" not in info.value.message and "\u202e" not in info.value.message  # shown escaped
    assert _state(store) == before  # no folder, no INDEX.md row


@pytest.mark.parametrize("category", DEVICES)
def test_a_windows_device_name_is_refused_as_a_category(store: Store, category: str) -> None:
    before = _state(store)
    with pytest.raises(Refused, match="device name on Windows") as info:
        store.add(category, "A note", "some text")
    assert info.value.code == "unsafe_name"
    assert _state(store) == before


@pytest.mark.parametrize("category", ["notes.", "notes /x", "console", "com10", "auxiliary", "nullable"])
def test_names_near_a_device_name(store: Store, category: str) -> None:
    if category.endswith(".") or " /" in category:
        with pytest.raises(Refused, match="ends in a dot or a space"):
            store.add(category, "A note", "some text")
    else:
        assert store.add(category, "A note", "some text").id == f"{category}/a-note"


@pytest.mark.parametrize("title", ["CON", "aux", "Nul", "com1", "LPT3"])
def test_a_title_that_slugs_to_a_device_name_gets_a_safe_file_name(store: Store, title: str) -> None:
    entry = store.add("notes", title, f"about {title}")
    assert entry.id == f"notes/{title.lower()}-entry"
    assert entry.path is not None and entry.path.name == f"{title.lower()}-entry.md"


@pytest.mark.parametrize("title", ["Hi \x1b]0;owned\x07 there", "price \u202e01$", "a\u2066b\u2069"])
def test_a_title_with_a_control_or_bidi_character_is_refused(store: Store, title: str) -> None:
    before = _state(store)
    with pytest.raises(InvalidInput, match="invisible or control character"):
        store.add("notes", title, "some text")
    assert _state(store) == before


def test_joiners_that_words_and_emoji_need_stay_allowed(store: Store) -> None:
    assert store.add("notes", "family \U0001f468\u200d\U0001f469\u200d\U0001f467", "emoji").title.startswith("family")
    assert store.add("notes", "\u0645\u06cc\u200c\u062e\u0648\u0627\u0647\u0645", "persian").id.startswith("notes/")


def test_the_cli_and_the_agents_face_get_the_same_refusal(cli, tmp_path: Path) -> None:
    cli("init")
    res = cli("add", "x\x1b[31m", "T", "--body", "b", "--json")
    assert res.code == 1 and res.json["error"]["code"] == "unsafe_name"
    res = cli("add", "aux", "T", "--body", "b", "--json")
    assert res.code == 1 and res.json["error"]["code"] == "unsafe_name"
    assert not (tmp_path / "memory" / "aux").exists()
    assert "aux" not in (tmp_path / "memory" / "INDEX.md").read_text(encoding="utf-8")
