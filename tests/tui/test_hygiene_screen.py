"""Hygiene in the app (issue 35, item 5): the Overview's counts by kind from the last
weekly pass (``mem.hygiene.last``: no scan), and the findings screen (``H``, the palette,
Help, Enter on the Overview line) listing each finding with its evidence, the scan run in
a worker, a secret never shown."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from textual.widgets import OptionList

from memsearch_tui.engine.core.state_files import STATE_DIR
from memsearch_tui.engine.hygiene.run import LAST
from tests.helpers import settle, shown
from tests.tui.home_demo import option_texts

pytestmark = pytest.mark.slow
AWS = "AKIAQ3EGRT5YVBNW7XZP"
META = "---\ntitle: {t}\nstatus: active\ncreated: 2026-10-01\nupdated: {u}\nversion: 1\ntags: []\nrelated: []\n---\n"


def plant(root: Path) -> None:
    """Entries as a person's editor writes them (the store refuses a secret on add)."""
    for rel, title, updated, body in [
        ("ops/staging-reset", "staging reset", "2026-10-01", "Staging resets on Monday."),
        ("team/staging-day", "staging day", "2026-11-20", "Staging resets on Friday."),
        ("ops/aws-key", "aws key", "2026-11-20", f"部署用户的 key id {AWS} for the deploy user"),
    ]:
        path = root / f"{rel}.md"
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(META.format(t=title, u=updated) + body + "\n", encoding="utf-8")


def findings_list(app) -> list[str]:  # type: ignore[no-untyped-def]
    """Each option's text, a finding's ids (one to a line) joined by ", "."""
    return [", ".join(t.strip().splitlines()) for t in option_texts(app.screen.query_one("#hy-list", OptionList))]


async def open_overview(pilot, app) -> str:  # type: ignore[no-untyped-def]
    await pilot.press("0")
    await settle(pilot)
    return "\n".join(option_texts(app.query_one("#overview-list", OptionList)))


def test_overview_counts_come_from_the_last_weekly_pass(drive, demo) -> None:  # type: ignore[no-untyped-def]
    root = demo[0]
    counts = {"secret": 1, "over-long": 0, "dead-reference": 0, "duplicate": 2, "contradiction": 3, "stale": 0}
    (root / STATE_DIR).mkdir(parents=True, exist_ok=True)
    (root / STATE_DIR / LAST).write_text(
        json.dumps({"time": "2026-11-30T03:00:00Z", "result": "done", "counts": counts, "proposals": ["a", "b"]}),
        encoding="utf-8",
    )

    async def flow(pilot, app) -> None:  # type: ignore[no-untyped-def]
        text = await open_overview(pilot, app)
        assert "Hygiene · last pass 2026-11-30 03:00" in text
        assert "1 secret · 0 over-long · 0 dead-reference · 2 duplicate · 3 contradiction · 0 stale" in text
        assert "2 proposals filed" in text

    drive(flow)


def test_no_pass_yet_and_enter_opens_the_findings(drive, demo) -> None:  # type: ignore[no-untyped-def]
    plant(demo[0])

    async def flow(pilot, app) -> None:  # type: ignore[no-untyped-def]
        text = await open_overview(pilot, app)
        assert "No hygiene pass yet" in text
        lst = app.query_one("#overview-list", OptionList)
        lst.focus()
        lst.highlighted = next(n for n, o in enumerate(lst.options) if (o.id or "").startswith("hygiene:"))
        await pilot.press("enter")
        await settle(pilot)
        assert "ops/staging-reset, team/staging-day" in findings_list(app)

    drive(flow)


def test_findings_with_their_evidence_and_no_secret(drive, demo) -> None:  # type: ignore[no-untyped-def]
    plant(demo[0])

    async def flow(pilot, app) -> None:  # type: ignore[no-untyped-def]
        await pilot.press("H")
        await settle(pilot)
        listed = findings_list(app)
        assert "secret · 1" in listed  # the demo store's own contradictions are listed too
        assert (
            listed.index("secret · 1")
            < listed.index("ops/aws-key")
            < listed.index("ops/staging-reset, team/staging-day")
        )
        counts = shown(app.screen.query_one("#hy-counts"))
        assert "1 secret" in counts and "contradiction" in counts
        lst = app.screen.query_one("#hy-list", OptionList)
        lst.highlighted = listed.index("ops/staging-reset, team/staging-day")
        await pilot.pause(0.1)
        ev = shown(app.screen.query_one("#hy-evidence"))
        assert "Staging resets on Monday" in ev and "Staging resets on Friday" in ev and "fix: settle it" in ev
        lst.highlighted = listed.index("ops/aws-key")
        await pilot.pause(0.1)
        ev = shown(app.screen.query_one("#hy-evidence"))
        assert "on line 10" in ev and "fix: redact" in ev
        assert AWS not in ev and AWS not in "\n".join(findings_list(app))
        await pilot.press("escape")
        await settle(pilot)
        assert not app.screen.query("#hy-list")

    drive(flow)


def test_the_palette_and_help_name_the_screen(drive) -> None:  # type: ignore[no-untyped-def]
    from memsearch_tui.tui.actions import BY_ID

    assert BY_ID["app.hygiene"].palette and BY_ID["app.hygiene"].keys == "H"
    assert "Hygiene: duplicates" in (Path(__file__).parents[2] / "docs" / "tui.md").read_text(encoding="utf-8")

    async def flow(pilot, app) -> None:  # type: ignore[no-untyped-def]
        commands = [c.title for c in app.get_system_commands(app.screen)]
        assert any(c.startswith("Hygiene: duplicates") for c in commands)
        await pilot.press("f1")
        await settle(pilot)
        assert {"app.hygiene", "hygiene.rescan"} <= {s.id for s in app.screen._specs()}

    drive(flow)


def test_closing_before_the_scan_ends_is_safe(drive, demo) -> None:  # type: ignore[no-untyped-def]
    plant(demo[0])

    async def flow(pilot, app) -> None:  # type: ignore[no-untyped-def]
        await pilot.press("H")
        await pilot.press("escape")  # the scan still runs in its thread
        await settle(pilot)
        assert not app.screen.query("#hy-list")
        await pilot.press("H")
        await settle(pilot)
        assert "ops/aws-key" in findings_list(app)

    drive(flow)


def test_long_ids_are_clipped_at_a_word_boundary_never_wrapped_mid_word(drive, demo) -> None:  # type: ignore[no-untyped-def]
    from rich.cells import cell_len

    root = demo[0]
    long_a = "decisions/2026-postgres-upgrade-plan-for-the-billing-cluster"
    long_b = "decisions/2026-postgres-upgrade-plan-for-the-billing-cluster-v2"
    for rel, updated, body in [
        (long_a, "2026-10-01", "The upgrade window is Sunday."),
        (long_b, "2026-11-20", "The upgrade window is Saturday."),
    ]:
        path = root / f"{rel}.md"
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(META.format(t=rel.rsplit("/", 1)[1], u=updated) + body + "\n", encoding="utf-8")

    async def flow(pilot, app) -> None:  # type: ignore[no-untyped-def]
        await pilot.press("H")
        await settle(pilot)
        lst = app.screen.query_one("#hy-list", OptionList)
        width = lst.scrollable_content_region.width
        (prompt,) = [
            o.prompt for o in lst.options if long_a in shown(o.prompt) or "decisions/2026-postgres" in shown(o.prompt)
        ]
        lines = shown(prompt).splitlines()
        assert len(lines) == 2 and all(cell_len(line) < width for line in lines), (width, lines)
        assert all(line.endswith("…") and long_b.startswith(line[:-1]) for line in lines)

    drive(flow)
