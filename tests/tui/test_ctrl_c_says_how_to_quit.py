"""ctrl+c in the app (Textual's binding: it copies, it does not quit) says how to quit in
plain words: Textual's own message is markup, and the app draws every toast as text, so
the user read "Press [b]ctrl+q[/b] to quit the app" (trial, session 19)."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from tests.helpers import SIZE, make_app, settle
from tests.textual_private import notifications

pytestmark = pytest.mark.slow


def test_ctrl_c_names_the_quit_keys_without_markup(demo: tuple[Path, Path]) -> None:
    async def main() -> list[str]:
        app = make_app(demo, remember_theme=False)
        async with app.run_test(size=SIZE) as pilot:
            await settle(pilot, app)
            await pilot.press("ctrl+c")
            await pilot.pause()
            said = [f"{n.title}: {n.message}" for n in notifications(app)]
            assert app.is_running  # it did not quit
            await app.action_quit()
        return said

    said = asyncio.run(main())
    assert len(said) == 1, said
    assert "[b]" not in said[0] and "[/b]" not in said[0], said
    assert said[0].startswith("Do you want to quit?: Press ") and "ctrl+q" in said[0], said
