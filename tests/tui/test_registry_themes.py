"""The action registry, keymaps, themes and diff rendering."""

from __future__ import annotations

import asyncio
import json

import pytest

from memsearch_tui.tui import diffview
from memsearch_tui.tui.actions import REGISTRY, bindings, clean_keymap
from memsearch_tui.tui.modals import HelpScreen
from memsearch_tui.tui.themes import BUILTIN_DIR, config_dir, load_themes, theme_from_file
from tests.helpers import SIZE, SNAPSHOT_SIZES, make_app, settle, told


def test_registry_ids_unique_and_bound():
    ids = [s.id for s in REGISTRY]
    assert len(ids) == len(set(ids))
    assert {"e", "r", "f"} <= {b.key for b in bindings("index")}
    # the motion keys are the app's, so they work in every pane's lists alike
    assert {"j", "k", "g,home", "G,end", "pagedown", "pageup"} <= {b.key for b in bindings("app")}


def test_keymap_rejects_unknown_ids():
    keymap, problems = clean_keymap({"app.undo": "ctrl+u", "nope.thing": "x", "index.edit": 3})
    assert keymap == {"app.undo": "ctrl+u"}
    assert len(problems) == 2 and "nope.thing" in problems[0]


def test_builtin_themes_dark_and_light():
    themes, problems = load_themes([BUILTIN_DIR])
    assert problems == []
    assert {t.dark for t in themes} == {True, False}


@pytest.mark.slow
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
        app = make_app((root, project))
        async with app.run_test(size=SIZE) as pilot:
            await settle(pilot, app)
            notes = [n.message for n in told(app)]
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
        app = make_app((root, project))
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


# -- the registry is the one source ----------------------------------------------------
def test_no_default_binding_on_a_multiplexer_prefix():
    from memsearch_tui.tui.actions import MULTIPLEXER_PREFIXES

    taken = {(s.id, k.strip()) for s in REGISTRY for k in s.keys.split(",") if k.strip() in MULTIPLEXER_PREFIXES}
    assert taken == set()


def test_docs_key_table_is_generated_from_the_registry():
    from pathlib import Path

    from memsearch_tui.tui.actions import rewrite_doc

    doc = Path(__file__).resolve().parents[2] / "docs" / "tui.md"
    text = doc.read_text(encoding="utf-8")
    assert rewrite_doc(text) == text, "docs/tui.md is stale: run python -m memsearch_tui.tui.actions"


@pytest.mark.slow
def test_key_hints_in_labels_follow_the_users_keymap(demo):
    root, project = demo
    (project / ".memsearch.toml").write_text(
        (project / ".memsearch.toml").read_text(encoding="utf-8") + '\n[tui.keymap]\n"trash.purge" = "X"\n',
        encoding="utf-8",
    )

    async def flow():
        app = make_app((root, project))
        async with app.run_test(size=SIZE) as pilot:
            await settle(pilot, app)
            await pilot.press("4")
            await settle(pilot, app)
            label = str(app.query_one("#pane-trash .section").content)
            assert "X purge" in label and "P purge" not in label

    asyncio.run(flow())


def _footer_text(app) -> str:
    return app.query_one("#footer").line_for(app.size.width).plain


@pytest.mark.slow
def test_footer_shows_the_most_useful_keys_that_fit_without_cutting_words(demo):
    from memsearch_tui.tui.actions import BY_ID

    seen: dict[int, str] = {}
    for width in (80, 120, 160):

        async def flow(width=width):
            app = make_app(demo)
            async with app.run_test(size=(width, 30)) as pilot:
                await settle(pilot, app)
                text = _footer_text(app)
                seen[width] = text
                assert 0 < len(text) <= width
                for _key, description in app.query_one("#footer").items():
                    if description in text:  # a description is there whole or not at all
                        assert f"{description} " in text

        asyncio.run(flow())
    for width, text in seen.items():  # the pane's first actions, help and quit are always there
        assert BY_ID["index.filter"].description in text and BY_ID["app.help"].description in text, (width, text)
        assert f"q {BY_ID['app.quit'].description}" in text, (width, text)
    assert len(seen[160]) > len(seen[80])
    assert BY_ID["index.related"].description not in seen[80]  # least useful dropped first


@pytest.mark.slow
def test_footer_follows_focus_to_another_pane(demo):
    async def flow():
        app = make_app(demo)
        async with app.run_test(size=(100, 30)) as pilot:
            await settle(pilot, app)
            await pilot.press("4")
            await settle(pilot, app)
            text = _footer_text(app)
            assert "Restore" in text and "Filter" not in text

    asyncio.run(flow())


@pytest.mark.slow
def test_footer_in_an_input_shows_only_keys_that_act_there(demo):
    """In the search box `q`, `u` and `/` are text: the footer must not offer them, and
    Quit is shown by the key that still quits there (ctrl+q), at 80 columns too."""

    async def flow():
        app = make_app(demo)
        async with app.run_test(size=SNAPSHOT_SIZES["80x24"]) as pilot:
            await settle(pilot, app)
            await pilot.press("6")  # the (empty) hit list: a letter there goes into the box
            await settle(pilot, app)
            assert app.focused is app.query_one("#search-hits")
            assert " q Quit" not in _footer_text(app) and " u Undo" not in _footer_text(app)
            await pilot.press("slash")
            assert app.focused is app.query_one("#search-input")
            text = _footer_text(app)
            assert "ctrl+q Quit" in text and "f1 Help" in text, text
            assert " q Quit" not in text and " u Undo" not in text and " / " not in text, text
            await pilot.press(*"dashboard", "enter")
            await settle(pilot, app)
            await pilot.press("down")  # on the hits a letter is text for the box
            await settle(pilot, app)
            assert app.focused is app.query_one("#search-hits")
            text = _footer_text(app)
            assert "ctrl+q Quit" in text and " q Quit" not in text and " u Undo" not in text, text
            await pilot.press("escape", "escape", "1")  # another pane: the letter keys act again
            await settle(pilot, app)
            assert " q Quit" in _footer_text(app)

    asyncio.run(flow())


# -- colours come from the theme ---------------------------------------------------------
def test_no_hard_coded_colour_names_in_the_tui():
    import re
    from pathlib import Path

    import memsearch_tui.tui as tui

    names = r"red|green|yellow|blue|magenta|cyan|white|black|bright_\w+"
    pattern = re.compile(rf"""(style=|["'])\s*(bold |italic |dim )*({names})\b""")
    found = []
    for path in Path(tui.__file__).parent.rglob("*.py"):
        for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            if pattern.search(line) and "noqa: colour" not in line:
                found.append(f"{path.name}:{n}: {line.strip()}")
    assert found == []


# -- wording -------------------------------------------------------------------------
def test_plurals():
    from memsearch_tui.tui.panes.base import plural

    assert plural(1, "hit") == "1 hit" and plural(2, "hit") == "2 hits"
    assert plural(1, "entry", "entries") == "1 entry" and plural(0, "entry", "entries") == "0 entries"


# -- the theme walk: flows that read the app and switch its theme, in one app -----------
#
# Each was a test of its own with the same opening (the demo, the theme not remembered);
# one app now runs them in order (a start cost about as much as a flow). Each step names
# the flow it was; each sets the theme it starts from.


async def toast_titles_say_what_happened_not_the_exception_class(pilot, app):
    from memsearch_tui.engine.core.errors import Conflict, InvalidInput

    app.report(InvalidInput("bad title"))
    app.report(Conflict("changed"))
    await pilot.pause()
    titles = [n.title for n in told(app)]
    assert "Not accepted" in titles and "Changed meanwhile" in titles
    assert not {"InvalidInput", "Conflict"} & set(titles)


async def palette_follows_the_theme(pilot, app):
    from memsearch_tui.tui.palette import PALETTE

    app.theme = "memsearch-dark"
    await settle(pilot, app)
    dark = PALETTE.warning
    app.theme = "memsearch-light"
    await settle(pilot, app)
    assert PALETTE.warning != dark
    assert PALETTE.warning.lower() == app.get_css_variables()["text-warning"][:7].lower()
    label = app.query_one("#index-tree").root.label
    assert any(PALETTE.accent.lower() in str(span.style).lower() for span in label.spans)


async def focused_cursor_row_stands_out_from_an_unfocused_one_in_both_themes(pilot, app):
    """The issue: the two highlights differed by one shade. Now the focused row is the
    theme's primary colour (and bold), the unfocused one a faint band: far apart."""

    def brightness(style) -> float:
        r, g, b = style.bgcolor.get_truecolor()
        return (0.299 * r + 0.587 * g + 0.114 * b) / 255

    tree = app.query_one("#index-tree")
    for theme in ("memsearch-dark", "memsearch-light"):
        app.theme = theme
        tree.focus()
        await settle(pilot, app)
        focused = tree.get_component_rich_style("tree--cursor")
        app.query_one("#index-filter").focus()
        await settle(pilot, app)
        blurred = tree.get_component_rich_style("tree--cursor")
        assert focused.bold and not blurred.bold, theme
        assert abs(brightness(focused) - brightness(blurred)) > 0.2, (theme, focused, blurred)
    tree.focus()


async def a_theme_switch_redraws_without_reloading_and_a_hidden_pane_follows_when_shown(pilot, app):
    """ctrl+t re-draws what the panes already hold (a reload of every pane took up to
    1.5 s); a pane hidden at the switch takes the new colours when it is shown."""
    from memsearch_tui.tui.palette import PALETTE

    app.theme = "memsearch-dark"
    await pilot.press("5")
    await settle(pilot, app)
    await pilot.press("1")
    await settle(pilot, app)
    pane = app.query_one("#pane-maintenance")
    loads = []
    original = pane.load
    pane.load = lambda: loads.append(1) or original()
    app.theme = "memsearch-light"
    await settle(pilot, app)
    await pilot.press("5")
    await settle(pilot, app)
    assert loads == []  # no engine call for a new colour
    cell = pane.query_one("#tasks").get_row("claude-code.project_review")[1]  # status: cannot run here
    assert PALETTE.error.lower() in str(cell.style).lower()
    pane.load = original


async def tabs_come_from_the_pane_list(pilot, app):
    from memsearch_tui.tui.actions import PANES

    tabs = [str(t.label) for t in app.query("Tab")]
    assert tabs == [f"{p.key} {p.title}" for p in PANES]
    assert [app.pane(p.id).pane_id for p in PANES] == [p.id for p in PANES]  # each made when asked
    await settle(pilot, app)  # and mounted before the app closes


THEME_WALK = (
    toast_titles_say_what_happened_not_the_exception_class,
    palette_follows_the_theme,
    focused_cursor_row_stands_out_from_an_unfocused_one_in_both_themes,
    a_theme_switch_redraws_without_reloading_and_a_hidden_pane_follows_when_shown,
    tabs_come_from_the_pane_list,
)


@pytest.mark.slow
def test_the_theme_walk(demo):
    """The steps of ``THEME_WALK`` in order, on one app (a failure names its step in the
    traceback)."""

    async def flow():
        app = make_app(demo, remember_theme=False)
        async with app.run_test(size=SIZE) as pilot:
            await settle(pilot, app)
            for step in THEME_WALK:
                await step(pilot, app)

    asyncio.run(flow())
