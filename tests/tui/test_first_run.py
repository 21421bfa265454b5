"""First run (no store): the welcome screen names the root, i creates it, a offers it too."""

from __future__ import annotations

import asyncio

from memsearch_tui.tui.screens.first_run import FirstRunScreen
from tests.helpers import SNAPSHOT_SIZES, make_app, settle, shown, until

SIZE = SNAPSHOT_SIZES["80x24"]


def _app(tmp_path, monkeypatch):
    home = tmp_path / "home"
    project = home / "code" / "demo"
    project.mkdir(parents=True)
    monkeypatch.setenv("HOME", str(home))
    return home / "memory", make_app((home / "memory", project), remember_theme=False)


def test_first_run_offers_init_and_creates_the_store(tmp_path, monkeypatch):
    root, app = _app(tmp_path, monkeypatch)

    async def flow():
        async with app.run_test(size=SIZE) as pilot:
            await settle(pilot)
            await until(pilot, lambda: isinstance(app.screen, FirstRunScreen), "the first-run screen")
            text = shown(app.screen.query_one(".dialog-body"))
            assert "~/memory — not created yet" in text and "~/code/demo/.memsearch" in text
            assert "Structured memory" in text and "Project memory" in text
            assert not root.exists()
            await pilot.press("i")
            await settle(pilot)
            assert (root / "INDEX.md").is_file() and (root / "config.md").is_file()
            assert not isinstance(app.screen, FirstRunScreen)
            await until(pilot, lambda: "press a to add one" in shown(app.query_one("#entry-meta")).lower(), "hint")
            hint = shown(app.query_one("#entry-meta"))
            assert "or I to import notes" in hint and "memsearch-tui import" not in hint  # a key, not the CLI
            assert app.sub_title == "~/memory  ·  ~/code/demo"
            assert app.errors == []

    asyncio.run(flow())


def test_not_now_keeps_looking_and_add_offers_init_before_the_form(tmp_path, monkeypatch):
    root, app = _app(tmp_path, monkeypatch)

    async def flow():
        async with app.run_test(size=SIZE) as pilot:
            await settle(pilot)
            await until(pilot, lambda: isinstance(app.screen, FirstRunScreen), "the first-run screen")
            await pilot.press("escape")
            await pilot.pause(0.1)
            assert not isinstance(app.screen, FirstRunScreen)
            await pilot.press("4")
            await settle(pilot)
            assert "Press i to create it" in shown(app.query_one("#trash-status"))
            await pilot.press("1")
            await settle(pilot)
            await pilot.press("a")  # no form to fill in for nothing: the welcome screen again
            await pilot.pause(0.1)
            assert isinstance(app.screen, FirstRunScreen)
            await pilot.press("escape", "5")
            await settle(pilot)
            await pilot.press("i")  # i works from any pane while there is no store
            await pilot.pause(0.1)
            assert isinstance(app.screen, FirstRunScreen)
            await pilot.press("escape")
            assert app.errors == []

    asyncio.run(flow())
    assert not root.exists()  # looking never creates a store
