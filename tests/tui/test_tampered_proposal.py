"""The Maintenance pane flags a tampered proposal as ``proposals list`` does: ``[TAMPERED]``.

A proposal is a JSON file in the project's ``.memsearch/proposals`` (a cloned repository
can ship one). One whose target is not its task's output file is tampered: the engine never
reads its target and refuses its accept. The CLI's list marks it; the pane showed it like
any other (a diff of the proposed text against nothing, as if it were a new PROJECT.md) and
refused only at ``y``. Its target's name comes from the file: drawn as text (no markup, the
escapes shown).
"""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

import pytest

from tests.helpers import SNAPSHOT_SIZES, make_app, run_flow, settle, shown, told
from tests.tui.home_demo import home_demo  # noqa: F401 (fixture)

PID = "20261130-083000-project-review-demo"  # the demo's pending rewrite of PROJECT.md
GENUINE = "20261130-083001-project-review-copy"  # a copy left as it was
SECRET = "export TOKEN=ghp_" + "A1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q7r8"  # in the tampered target: never read
NAME = "[red]笔记 [bold]x \x1b]0;pwned.md"  # a Chinese name with markup and a terminal title escape


def tamper(project: Path, home: Path) -> Path:
    """Copy the demo's pending proposal (the copy stays genuine), then point the original's
    target at a file of the user's outside the project, as a shipped file could."""
    folder = project / ".memsearch" / "proposals"
    path = folder / f"{PID}.json"
    data = json.loads(path.read_text(encoding="utf-8"))
    (folder / f"{GENUINE}.json").write_text(json.dumps(data | {"id": GENUINE}), encoding="utf-8")
    victim = home / NAME
    victim.write_text(SECRET + "\n", encoding="utf-8")
    path.write_text(json.dumps(data | {"target": str(victim)}), encoding="utf-8")
    return victim


def _labels(app) -> dict[str, str]:
    plist = app.query_one("#proposals")
    return {o.id: shown(o.prompt) for o in plist.options if o.id}


@pytest.mark.slow
def test_a_tampered_proposal_is_flagged_in_the_list_and_says_why(home_demo) -> None:  # noqa: F811
    root, project = home_demo
    victim = tamper(project, root.parent)

    async def flow() -> None:
        app = make_app((root, project), remember_theme=False)
        async with app.run_test(size=SNAPSHOT_SIZES["120x36"]) as pilot:
            await settle(pilot)
            await pilot.press("5")
            await settle(pilot)
            labels = _labels(app)
            assert labels[f"p:{PID}"].startswith("[TAMPERED] [red]笔记 [bold]x \\x1b]0;pwned.md"), labels
            assert "TAMPERED" not in labels[f"p:{GENUINE}"], labels
            pane = app.query_one("#pane-maintenance")
            pane.open_proposal(f"p:{PID}")
            await settle(pilot)
            head = shown(app.query_one("#proposal-head"))
            assert "⚠ TAMPERED: it targets" in head and "[red]笔记 [bold]x" in head, head
            assert "never applied: x rejects it" in head, head
            assert head.count("TAMPERED") == 1 and "tampered proposal" not in head, head  # the flag, then why
            assert "it targets '~/" in head and str(root.parent) not in head, head  # its paths from ~
            diff = shown(app.query_one("#proposal-diff"))
            assert "no diff: a tampered proposal's target is never read" in diff, diff
            for text in (head, diff, *labels.values()):
                assert "\x1b" not in text and "ghp_" not in text
            await pilot.press("e")  # refused before the editor opens
            await settle(pilot)
            assert type(app.screen).__name__ != "TextEditModal"
            assert any(t.title == "Edit+accept" and t.message.startswith("tampered: it targets") for t in told(app))
            await pilot.press("y")  # the engine refuses it
            await settle(pilot)
            assert any("tampered proposal" in t.message for t in told(app)), told(app)
            assert app.errors == []
        assert victim.read_text(encoding="utf-8") == SECRET + "\n"

    asyncio.run(flow())


@pytest.mark.slow
def test_the_tampered_proposal_snapshot(home_demo, snap_compare) -> None:  # noqa: F811
    """The pane with the tampered proposal selected: the mark in the list, why in the head,
    no diff (120×36, the demo's fixed clock, the demo in the test's own HOME)."""
    root, project = home_demo
    tamper(project, root.parent)

    async def run_before(pilot) -> None:
        await settle(pilot)
        await pilot.press("5")
        await settle(pilot)
        pilot.app.query_one("#pane-maintenance").open_proposal(f"p:{PID}")
        await settle(pilot)

    app = make_app((root, project), remember_theme=False)
    assert snap_compare(app, terminal_size=SNAPSHOT_SIZES["120x36"], run_before=run_before)


@pytest.mark.slow
def test_while_the_config_does_not_load_a_proposal_is_marked_not_checked(home_demo) -> None:  # noqa: F811
    """A broken ``.memsearch.toml``: no proposal's target can be checked, so the pane marks
    it ``[NOT CHECKED]`` (not tampered), says until when, and shows no diff."""
    root, project = home_demo
    (project / ".memsearch.toml").write_text("[plugins.codex.project_review]\nenabled = [\n", encoding="utf-8")

    async def flow(pilot, app) -> None:
        await pilot.press("5")
        await settle(pilot)
        labels = _labels(app)
        assert labels[f"p:{PID}"].startswith("[NOT CHECKED] PROJECT.md"), labels
        app.query_one("#pane-maintenance").open_proposal(f"p:{PID}")
        await settle(pilot)
        head = shown(app.query_one("#proposal-head"))
        assert "⚠ NOT CHECKED: until the config loads" in head and "TAMPERED" not in head, head
        assert "no diff until the config loads" in shown(app.query_one("#proposal-diff"))
        assert app.errors == []

    run_flow(make_app((root, project), remember_theme=False), flow, size=SNAPSHOT_SIZES["120x36"])
