"""Names from proposal files in the Overview and the Maintenance pane (s18 trial #2, #4, #6).

A proposal is a JSON file in the project's ``.memsearch/proposals`` (a cloned repository can
ship one). Its target's name is drawn as text: its control characters shown as escapes (an
OSC sequence in it retitled the terminal from the Overview), no markup parsed. The Overview
flags a tampered one as the Maintenance pane does. One file whose id is not its file name
(``../../../evil``) emptied the whole Maintenance pane, tasks included: it is now skipped,
named, and the other proposals and the tasks stay.
"""

from __future__ import annotations

import json
from pathlib import Path

from tests.helpers import SNAPSHOT_SIZES, make_app, run_flow, settle, shown, told
from tests.tui.home_demo import home_demo  # noqa: F401 (fixture)

PID = "20261130-083000-project-review-demo"  # the demo's pending rewrite of PROJECT.md
GENUINE = "20261130-083001-project-review-copy"
EVIL = "20261201-000004-project-review-evil"  # its JSON's id is ../../../evil
NAME = "[red]秘密 [bold]x \x1b]0;pwned.md"  # a Chinese name with markup and a terminal title escape
SHOWN = "[red]秘密 [bold]x \\x1b]0;pwned.md"
SIZE = SNAPSHOT_SIZES["120x36"]


def plant(project: Path, home: Path, *, evil: bool = False) -> None:
    """A genuine copy of the demo's proposal, the original pointed at a file of the user's
    named ``NAME``, and (``evil``) a copy whose id climbs out of the folder."""
    folder = project / ".memsearch" / "proposals"
    path = folder / f"{PID}.json"
    data = json.loads(path.read_text(encoding="utf-8"))
    (folder / f"{GENUINE}.json").write_text(json.dumps(data | {"id": GENUINE}), encoding="utf-8")
    if evil:
        (folder / f"{EVIL}.json").write_text(json.dumps(data | {"id": "../../../evil"}), encoding="utf-8")
    (home / NAME).write_text("MY PRIVATE DIARY LINE\n", encoding="utf-8")
    path.write_text(json.dumps(data | {"target": str(home / NAME)}), encoding="utf-8")


def _prompts(app, list_id: str) -> dict[str, str]:
    """Each line's text by its id (without the ``#n`` the Overview adds to keep ids unique)."""
    options = app.query_one(list_id).options
    return {o.id.rpartition("#")[0] or o.id: o.prompt.plain for o in options if o.id and hasattr(o.prompt, "plain")}


def test_the_overview_flags_a_tampered_proposal_and_shows_its_name_escaped(home_demo) -> None:  # noqa: F811
    root, project = home_demo
    plant(project, root.parent)

    async def flow(pilot, app) -> None:
        await pilot.press("0")
        await settle(pilot)
        lines = _prompts(app, "#overview-list")
        assert lines[f"prop:p:{PID}"].startswith(f"[TAMPERED] {SHOWN}  "), {
            k: v for k, v in lines.items() if "prop" in k
        }
        assert lines[f"prop:p:{GENUINE}"].startswith("PROJECT.md  "), lines  # no flag on a genuine one
        text = "\n".join(lines.values()) + shown(app.query_one("#overview-list"))
        assert "\x1b" not in text and "\n" not in lines[f"prop:p:{PID}"]
        heads = [
            shown(o.prompt) for o in app.query_one("#overview-list").options if "Pending proposals" in shown(o.prompt)
        ]
        assert heads and "1 flagged, never applied" in heads[0], heads
        assert app.errors == []

    run_flow(make_app((root, project), remember_theme=False), flow, size=SIZE)


def test_the_reject_question_shows_a_proposal_name_escaped(home_demo) -> None:  # noqa: F811
    """A tampered proposal can only be rejected: the question names it as text."""
    root, project = home_demo
    plant(project, root.parent)

    async def flow(pilot, app) -> None:
        await pilot.press("5")
        await settle(pilot)
        app.query_one("#pane-maintenance").open_proposal(f"p:{PID}")
        await settle(pilot)
        app.query_one("#pane-maintenance").action_reject()
        await settle(pilot)
        assert type(app.screen).__name__ == "RejectModal"
        body = app.screen.message
        assert f"Reject the proposal for {SHOWN}?" in body and "\x1b" not in body, body
        assert app.errors == []

    run_flow(make_app((root, project), remember_theme=False), flow, size=SIZE)


def test_a_proposal_with_a_bad_id_hides_neither_the_tasks_nor_the_others(home_demo) -> None:  # noqa: F811
    root, project = home_demo
    plant(project, root.parent, evil=True)

    async def flow(pilot, app) -> None:
        await pilot.press("5")
        await settle(pilot)
        assert app.query_one("#tasks").row_count > 0
        labels = _prompts(app, "#proposals")
        assert {f"p:{PID}", f"p:{GENUINE}"} <= set(labels), labels
        status = str(app.query_one("#maint-status").content)
        assert f"skipped {EVIL}.json: its id '../../../evil' is not its file name" in status, status
        assert not [t for t in told(app) if "invalid proposal id" in t.message], told(app)
        assert app.errors == []

    run_flow(make_app((root, project), remember_theme=False), flow, size=SIZE)


def test_a_proposal_whose_id_is_not_its_file_name_is_listed_as_unreadable(home_demo) -> None:  # noqa: F811
    """The engine refuses it where it reads it, so the CLI, MCP and TUI agree: listed under
    ``unreadable`` with why, never as a proposal (accept and reject find one by its file name)."""
    from memsearch_tui.engine.api import Memory

    root, project = home_demo
    plant(project, root.parent, evil=True)
    with Memory(root, project) as mem:
        listing = mem.proposals.listing(None)
    assert "../../../evil" not in {p.id for p in listing.proposals}
    assert [(Path(u.path).name, u.reason) for u in listing.unreadable] == [
        (f"{EVIL}.json", f"its id '../../../evil' is not its file name '{EVIL}'")
    ]
