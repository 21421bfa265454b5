"""The Search pane answers with a broken ``.memsearch.toml`` and names it (docs/search.md).

The repository's config file, broken, made every search in the app fail ("search failed:
…toml…"), store hits too, though a project file sets no search setting.
"""

from __future__ import annotations

import pytest

from tests.helpers import settle, shown, until

pytestmark = pytest.mark.slow  # starts the whole app


def test_a_search_answers_and_names_the_broken_project_file(drive, demo):
    config = demo[1] / ".memsearch.toml"
    config.write_text("[plugins.claude-code.project_review]\nenabled = [\n", encoding="utf-8")

    async def flow(pilot, app):
        await pilot.press("6")
        await settle(pilot, app)
        await pilot.press("slash", *"deploy", "enter")  # Enter: the indexed search, which reads the config
        status = app.query_one("#search-status")
        await until(pilot, lambda: "hits ·" in shown(status) or "failed" in shown(status), "the answer")
        said = " ".join(shown(status).split())
        assert "search failed" not in said and "strategy index" in said, said
        assert f"{config}: invalid TOML" in said and "left out: a project file sets no search setting" in said
        assert "Deploy checklist" in shown(app.query_one("#search-preview"))

    drive(flow)
