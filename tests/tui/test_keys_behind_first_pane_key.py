"""Keys typed right behind a pane's key, on that pane's first visit, reach the pane.

Trial s20 #6: ``6`` then ``reverse proxy`` 50 ms later left ``verse proxy`` in the box (the
first keys arrived while the Search pane was being made and mounted, before the focus had
moved into it), and a pasted question with its Enter ran no search. The keys here are
posted in one go behind the pane key, as one read from the terminal delivers them.
"""

from __future__ import annotations

import pytest
from textual import events

from memsearch_tui.tui.panes.search_pane import SearchBox
from tests.helpers import settle, shown, until

pytestmark = pytest.mark.slow  # starts the whole app
SMALL = (80, 24)


def _post(app, keys: str) -> None:
    for ch in keys:
        key = {" ": "space", "\r": "enter"}.get(ch, ch)
        app.post_message(events.Key(key, None if ch == "\r" else ch))


@pytest.mark.parametrize("query", ["reverse proxy", "反向代理 配置"])
def test_letters_typed_behind_the_first_6_all_reach_the_box(drive, query):
    async def flow(pilot, app):
        _post(app, "6" + query)
        await settle(pilot, app)
        assert app.query_one("#tabs").active == "search"
        assert app.query_one(SearchBox).value == query

    drive(flow, size=SMALL)


def test_a_pasted_question_with_its_enter_searches(drive):
    async def flow(pilot, app):
        _post(app, "6deploy\r")
        await settle(pilot, app)
        assert app.query_one(SearchBox).value == "deploy"
        await until(pilot, lambda: "hits ·" in shown(app.query_one("#search-status")), "the search's answer")

    drive(flow, size=SMALL)
