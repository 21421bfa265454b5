"""The Versions pane with a version number that has no file (a sync conflict renumbers):
not listed, the header names the versions the diff shows, no error toast per cursor move."""

from __future__ import annotations

import io

from rich.console import Console
from textual.widgets import OptionList

from tests.helpers import settle, until

ENTRY = "decisions/postgres-16-in-production"


def test_a_version_not_kept_is_not_listed_and_the_header_matches_the_diff(demo, drive):
    root, _ = demo
    (root / ".versions" / ENTRY / "v2.md").unlink()  # v3 current, v1 kept, v2 not kept

    async def flow(pilot, app):
        severities: list[str] = []
        notify = app.notify

        def counting(*args, **kw):
            severities.append(kw.get("severity", "information"))
            return notify(*args, **kw)

        app.notify = counting
        await pilot.press("3")
        await settle(pilot, app)
        pane = app.pane("versions")
        pane.open_entry(ENTRY)
        await settle(pilot, app)
        vl = app.query_one("#version-list", OptionList)
        assert [vl.get_option_at_index(i).id for i in range(vl.option_count)] == ["3", "1"]
        console = Console(width=200, record=True, file=io.StringIO())
        console.print(app.query_one("#versions-head").content)
        head = console.export_text()
        assert "comparing v1 → v3" in head
        diff = app.query_one("#versions-diff")
        assert diff._texts is not None and (diff._texts[2], diff._texts[3]) == (f"{ENTRY}@v1", f"{ENTRY}@v3")
        vl.focus()
        for key in ("down", "up", "down", "up"):
            await pilot.press(key)
            await settle(pilot, app)
        assert "error" not in severities and app.errors == []

    drive(flow)


def test_the_first_draw_is_the_catalog_as_last_saved_then_the_files_re_checked(demo, drive):
    """At 100k entries re-checking every file takes seconds: the Versions pane's first visit
    draws the conflicts the catalog last saw at once, then the list re-checked (a conflict
    mark written by hand, by a sync, since the catalog was saved shows in the second)."""
    root, _ = demo

    async def flow(pilot, app):
        # the start-up conflict check (the badges, on a 1 s timer: no worker yet for settle to
        # wait on) re-reads every file: after the edit below, the first draw showed it already
        await until(pilot, lambda: ENTRY in app.badges.conflicted, "the start-up conflict check")
        await settle(pilot, app)  # the Index's start-up check has saved the catalog
        other = "decisions/use-sqlite-for-the-local-cache"
        path = root / f"{other}.md"
        text = path.read_text(encoding="utf-8")
        path.write_text(text.replace("---\n", "---\nconflict: {previous: 1, detected: 2026-11-30}\n", 1), "utf-8")
        pane = app.pane("versions")
        drawn: list[dict[str, bool]] = []
        apply = pane.apply
        pane.apply = lambda data: (drawn.append({r.id: r.conflict for r in data.rows}), apply(data))[1]
        await pilot.press("3")
        await settle(pilot, app)
        assert [(d.get(ENTRY), d.get(other)) for d in drawn] == [(True, None), (True, True)]
        assert app.errors == []

    drive(flow)
