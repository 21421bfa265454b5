"""Entries: frontmatter round-trip, validation, slugs, nested categories."""

from __future__ import annotations

from datetime import date
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from memsearch_tui.engine.core import frontmatter_io as fmio
from memsearch_tui.engine.core.errors import InvalidInput, Refused
from memsearch_tui.engine.core.paths import slugify
from memsearch_tui.engine.store.entry import Entry, load_entry
from memsearch_tui.engine.store.store import Change, Store


def test_add_writes_documented_frontmatter(store: Store) -> None:
    entry = store.add("projects/web", "Alpha launch", "We ship on Friday.", tags=["release"], importance=0.7)
    text = (store.root / "projects/web/alpha-launch.md").read_text(encoding="utf-8")
    assert entry.id == "projects/web/alpha-launch"
    assert text.startswith(
        "---\ntitle: Alpha launch\nstatus: active\ncreated: 2026-11-30\nupdated: 2026-11-30\nversion: 1\n"
    )
    assert "importance: 0.7" in text and text.endswith("---\nWe ship on Friday.\n")
    assert store.get(entry.id).tags == ["release"]


def test_unknown_keys_and_body_round_trip_through_update(store: Store) -> None:
    path = store.root / "notes" / "hand.md"
    path.parent.mkdir()
    original = "---\ntitle: Hand written\nstatus: active\nowner: alice\nx-custom:\n  nested: [1, 2]\n---\n\n  indented first line\n\n\n"
    path.write_text(original, encoding="utf-8")
    store.update("notes/hand", Change(tags=["a"]))
    entry = store.get("notes/hand")
    assert entry.meta["owner"] == "alice" and entry.meta["x-custom"] == {"nested": [1, 2]}
    assert entry.body == "\n  indented first line\n\n\n"


def test_cjk_titles_keep_their_characters(store: Store) -> None:
    assert slugify("用户偏好") == "用户偏好"
    assert slugify("Ünïcode & Spaces — ok?") == "ünïcode-spaces-ok"
    entry = store.add("偏好", "用户偏好", "喜欢简洁的代码风格。")
    assert (store.root / "偏好" / "用户偏好.md").is_file() and entry.id == "偏好/用户偏好"


def test_taken_slug_gets_numbered_suffix(store: Store) -> None:
    a = store.add("a", "Deploy notes", "first body about the deploy pipeline and its flags")
    b = store.add("a", "Deploy: notes!", "second, entirely different text on cache keys")
    c = store.add("a", "deploy  notes?", "third text: rollback happens with the previous tag")
    assert [a.id, b.id, c.id] == ["a/deploy-notes", "a/deploy-notes-2", "a/deploy-notes-3"]


def test_categories_nest_to_any_depth(store: Store) -> None:
    store.add("a/b/c/d/e", "Deep", "deep body")
    assert store.categories() == ["a", "a/b", "a/b/c", "a/b/c/d", "a/b/c/d/e"]
    root_index = (store.root / "INDEX.md").read_text(encoding="utf-8")
    assert "| [a](a/INDEX.md) |  | 1 | 2026-11-30 |" in root_index
    assert "[e](e/INDEX.md)" in (store.root / "a/b/c/d/INDEX.md").read_text(encoding="utf-8")


@pytest.mark.parametrize(
    "meta, problem",
    [
        ("status: gone", "'status' must be one of"),
        ("importance: 3", "'importance' must be a number from 0 to 1"),
        ("version: zero", "'version' must be a whole number"),
        ("updated: someday", "'updated' must be a date"),
        ("tags: {a: 1}", "'tags' must be a list of strings"),
    ],
)
def test_invalid_known_fields_are_named(tmp_path: Path, meta: str, problem: str) -> None:
    path = tmp_path / "e.md"
    path.write_text(f"---\ntitle: T\n{meta}\n---\nbody\n", encoding="utf-8")
    with pytest.raises(InvalidInput, match=problem) as info:
        load_entry("e", path)
    assert str(path) in info.value.message


def test_update_changes_fields_and_date(store: Store, monkeypatch: pytest.MonkeyPatch) -> None:
    entry = store.add("p", "Title", "body one")
    monkeypatch.setenv("MEMSEARCH_TUI_NOW", "2026-12-05T08:00:00Z")
    new = store.update(entry.id, Change(title="New title", body="body two", importance=0.2, expires=date(2027, 1, 1)))
    assert (new.title, new.body, new.importance, new.expires, new.updated, new.created) == (
        "New title",
        "body two\n",
        0.2,
        date(2027, 1, 1),
        date(2026, 12, 5),
        date(2026, 11, 30),
    )
    assert "| New title | active | 2026-12-05 | [title.md](title.md) |" in (store.root / "p/INDEX.md").read_text(
        "utf-8"
    )


def test_refuses_reserved_and_agent_file_ids(store: Store) -> None:
    for bad in ("p/INDEX", "p/MEMORY", "config", ".trash/x", "p/../../x", "/etc/passwd"):
        with pytest.raises(Refused):
            store.path_of(bad)


# -- property tests -------------------------------------------------------------------
text = st.text(st.characters(blacklist_categories=("Cs",), blacklist_characters="\r\x00"), max_size=80)
scalars = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-(10**6), 10**6),
    text,
    st.dates(min_value=date(1990, 1, 1), max_value=date(2100, 1, 1)),
)
values = st.recursive(
    scalars,
    lambda c: st.lists(c, max_size=3) | st.dictionaries(st.text(min_size=1, max_size=8), c, max_size=3),
    max_leaves=6,
)
metas = st.dictionaries(st.text(min_size=1, max_size=12), values, max_size=6)


@settings(max_examples=150, deadline=None)
@given(meta=metas, body=text, bom=st.booleans(), crlf=st.booleans())
def test_frontmatter_round_trips(meta: dict, body: str, bom: bool, crlf: bool) -> None:
    doc = fmio.ParsedFile(meta, body, has_frontmatter=True, bom=bom, crlf=crlf and "\n" in body)
    again = fmio.parse(fmio.dump(doc), "prop.md")
    assert again.meta == meta
    assert again.body == body
    assert fmio.body_of(fmio.dump(doc), "prop.md") == body  # the duplicate check's YAML-free read
    assert fmio.dump(again) == fmio.dump(doc)


def test_entry_summary_is_json_ready(store: Store) -> None:
    e = store.add("x", "T", "b", related=["x/other"])
    assert Entry(e.id, e.doc, e.path).summary()["related"] == ["x/other"]


# The YAML-free writer of plain frontmatter must write exactly what the YAML dumper writes.
_near_plain = st.one_of(
    st.from_regex(r"[A-Za-z用][a-zA-Z0-9 ._/-]{0,12}", fullmatch=True),
    st.text(st.sampled_from("abcXYZ019_-./ :#'\"用户é\t"), min_size=0, max_size=12),
    st.sampled_from(
        [
            "yes",
            "No",
            "NULL",
            "null",
            "on",
            "Off",
            "TRUE",
            "y",
            "n",
            "~",
            "-a",
            "a:b",
            "a #b",
            "a: b",
            "a  b",
            "a ",
            " a",
            "1.5",
            "2026-01-01",
            "0x1f",
            ".inf",
            "用户偏好",
            "e.g.",
            "a/b-c_d",
        ]
    ),
)
_plain_values = st.one_of(
    _near_plain,
    st.integers(-(10**9), 10**9),
    st.booleans(),
    st.none(),
    st.dates(min_value=date(1990, 1, 1), max_value=date(2100, 1, 1)),
    st.lists(_near_plain, max_size=4),
)
_plain_metas = st.dictionaries(
    st.one_of(
        st.sampled_from(["title", "status", "tags", "related", "version", "x_y"]),
        st.sampled_from(["on", "no", "Key", "a b"]),
        _near_plain,
    ),
    _plain_values,
    max_size=5,
)


@settings(max_examples=400, deadline=None)
@given(meta=_plain_metas)
def test_plain_frontmatter_export_equals_the_yaml_dumper(meta: dict) -> None:
    plain = fmio._plain_export(meta)
    if plain is not None:
        assert plain == fmio.yaml_handler().export(meta)


def test_store_made_frontmatter_takes_the_plain_writer() -> None:
    from memsearch_tui.engine.store.entry import new_meta

    meta = new_meta(
        "Deploy notes for web-2",
        date(2026, 11, 30),
        tags=["deploy", "web"],
        importance=None,
        expires=date(2027, 1, 1),
        related=["projects/web/alpha"],
    )
    assert fmio._plain_export(meta) == fmio.yaml_handler().export(meta)
