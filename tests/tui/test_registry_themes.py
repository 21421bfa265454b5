"""The action registry, keymaps, themes and diff rendering."""

from __future__ import annotations

import asyncio
import json

from memsearch_tui.tui import diffview
from memsearch_tui.tui.actions import REGISTRY, bindings, clean_keymap
from memsearch_tui.tui.app import MemsearchApp
from memsearch_tui.tui.modals import HelpScreen
from memsearch_tui.tui.themes import BUILTIN_DIR, config_dir, load_themes, theme_from_file
from tests.helpers import SIZE, settle


def test_registry_ids_unique_and_bound():
    ids = [s.id for s in REGISTRY]
    assert len(ids) == len(set(ids))
    index_keys = {b.key for b in bindings("index")}
    assert {"j", "k", "g", "G", "e", "r"} <= index_keys


def test_keymap_rejects_unknown_ids():
    keymap, problems = clean_keymap({"app.undo": "ctrl+u", "nope.thing": "x", "index.edit": 3})
    assert keymap == {"app.undo": "ctrl+u"}
    assert len(problems) == 2 and "nope.thing" in problems[0]


def test_builtin_themes_dark_and_light():
    themes, problems = load_themes([BUILTIN_DIR])
    assert problems == []
    assert {t.dark for t in themes} == {True, False}


def test_user_keymap_and_broken_theme_reported(demo, tmp_path):
    root, project = demo
    (project / ".memsearch.toml").write_text(
        (project / ".memsearch.toml").read_text(encoding="utf-8") + '\n[tui.keymap]\n"app.undo" = "ctrl+u"\n',
        encoding="utf-8",
    )
    user_themes = config_dir() / "themes"
    user_themes.mkdir(parents=True)
    (user_themes / "broken.toml").write_text('name = "broken"\nprimary = "not a colour"\n', encoding="utf-8")
    (user_themes / "mine.toml").write_text('name = "mine"\nprimary = "#ff8800"\ndark = true\n', encoding="utf-8")

    async def flow():
        app = MemsearchApp(root, project, watch_files=False)
        async with app.run_test(size=SIZE) as pilot:
            await settle(pilot, app)
            notes = [n.message for n in app._notifications]
            assert any("broken.toml" in m for m in notes), notes
            assert "mine" in app.available_themes
            assert app.keymap == {"app.undo": "ctrl+u"}
            await pilot.press("f1")
            await pilot.pause(0.1)
            assert isinstance(app.screen, HelpScreen)
            await pilot.press("escape")
            app.theme = "memsearch-light"
            await pilot.pause(0.1)

    asyncio.run(flow())
    state = json.loads((config_dir() / "tui-state.json").read_text(encoding="utf-8"))
    assert state["theme"] == "memsearch-light"

    async def again():
        app = MemsearchApp(root, project, watch_files=False)
        async with app.run_test(size=SIZE) as pilot:
            await settle(pilot, app)
            assert app.theme == "memsearch-light"  # remembered

    asyncio.run(again())


def test_theme_file_errors_name_the_file(tmp_path):
    bad = tmp_path / "x.toml"
    bad.write_text("name = [", encoding="utf-8")
    try:
        theme_from_file(bad)
    except ValueError as exc:
        assert str(bad) in str(exc)
    else:  # pragma: no cover - the assertion is the point
        raise AssertionError("a broken theme file must be refused")


def test_diff_side_by_side_and_unified():
    old, new = "a\nb\nc\n", "a\nB\nc\nd\n"
    uni = diffview.render(old, new, left="old", right="new", width=80)
    assert "-b" in uni.plain and "+B" in uni.plain and "+d" in uni.plain
    split = diffview.render(old, new, left="old", right="new", width=160)
    assert split.__class__.__name__ == "Table" and split.row_count == 4
    same = diffview.render(old, old, left="o", right="n", width=160)
    assert "no differences" in same.plain


def test_changed_words_are_emphasised():
    left, right = diffview.changed_pair("Postgres 16 with replication", "Postgres 17 without replication")
    emphasised = {right.plain[s.start : s.end] for s in right.spans if "bold" in str(s.style)}
    assert emphasised == {"17", "without"}
    assert {left.plain[s.start : s.end] for s in left.spans if "bold" in str(s.style)} == {"16", "with"}
