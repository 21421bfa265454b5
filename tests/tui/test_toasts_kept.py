"""A TUI test reads the toasts an app raised through ``tests.helpers.told``: the ones shown
expire after a few seconds of wall time, which a loaded machine spends in one reload
(CONTRIBUTING.md, "Order and time")."""

from __future__ import annotations

import asyncio

from textual.app import App, ComposeResult
from textual.widgets import Static

from tests.helpers import Told, told, until
from tests.textual_private import notifications


class _Tiny(App[None]):
    def compose(self) -> ComposeResult:
        yield Static("写 memory")


def test_a_toast_expired_from_the_screen_is_still_told() -> None:
    async def flow() -> None:
        app = _Tiny()
        async with app.run_test(size=(40, 5)) as pilot:
            app.notify("saved 已保存", title="Index", severity="warning", timeout=2)
            await until(pilot, lambda: notifications(app), "the toast on screen")
            await until(pilot, lambda: not notifications(app), "the toast to expire")
            assert told(app) == [Told("Index", "saved 已保存", "warning")]

    asyncio.run(flow())
