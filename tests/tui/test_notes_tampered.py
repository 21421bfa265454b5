"""The Notes pane shows a tampered proposal as the Maintenance pane does: flagged, no diff.

A proposal file may come with a cloned repository and name any file as its target. Notes
read that file and drew it as the diff's base, secrets in clear; it took a tampered
proposal naming PROJECT.md for "the proposal waiting"; its target's name went raw to the
terminal (an OSC title escape); and its footer counted targets, not proposals.
"""

from __future__ import annotations

import json
from pathlib import Path

from tests.helpers import SNAPSHOT_SIZES, make_app, run_flow, settle, shown
from tests.tui.home_demo import home_demo, option_texts  # noqa: F401 (fixture)

PID = "20261130-083000-project-review-demo"  # the demo's pending rewrite of PROJECT.md
GENUINE = "20261130-083001-project-review-copy"  # a copy left as it was
CROSS = "20261130-090000-user-profile-cross"  # user_profile's task, PROJECT.md's target
NEWLINE = "20261130-083002-project-review-newline"  # a target name with a newline in it
SECRET = "export TOKEN=ghp_" + "A1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q7r8"
NAME = "[red]秘密 [bold]x \x1b]0;pwned.md"  # a Chinese name with markup and a terminal title escape
SIZE = SNAPSHOT_SIZES["120x36"]


def plant(project: Path, home: Path) -> None:
    """The demo's pending proposal pointed at a private file, with a genuine copy, a
    cross-task one naming PROJECT.md (the newest) and one whose name has a newline."""
    folder = project / ".memsearch" / "proposals"
    path = folder / f"{PID}.json"
    data = json.loads(path.read_text(encoding="utf-8"))
    note = data["target"]
    victim = home / NAME
    victim.write_text(f"MY PRIVATE DIARY LINE\n{SECRET}\n", encoding="utf-8")
    copies = {
        GENUINE: {},
        CROSS: {"task": "user_profile", "content": "# CROSSTASK TAMPERED CONTENT\n", "created": "2026-11-30T09:00:00Z"},
        NEWLINE: {"target": f"{note}\n[TAMPERED]"},
    }
    for pid, over in copies.items():
        (folder / f"{pid}.json").write_text(json.dumps(data | {"id": pid} | over), encoding="utf-8")
    path.write_text(json.dumps(data | {"target": str(victim)}), encoding="utf-8")


def _pick(lst, fragment: str) -> None:
    lst.highlighted = next(i for i, t in enumerate(option_texts(lst)) if fragment in t)


def test_notes_flag_a_tampered_proposal_and_never_show_its_target(home_demo) -> None:  # noqa: F811
    root, project = home_demo
    plant(project, root.parent)

    async def flow(pilot, app) -> None:
        await pilot.press("7")
        await settle(pilot)
        lst = app.query_one("#notes-list")
        texts = option_texts(lst)
        flagged = [t for t in texts if "[TAMPERED]" in t]
        assert len(flagged) == 3, texts  # the private file, the cross-task and the newline one
        assert any("[TAMPERED] [red]秘密 [bold]x \\x1b]0;pwned.md" in t for t in flagged), flagged
        assert any("[TAMPERED] PROJECT.md\\n[TAMPERED]" in t for t in flagged), flagged
        assert "2 decided · 4 pending" in shown(app.query_one("#notes-status"))  # proposals, not targets
        _pick(lst, "PROJECT.md  proposal waiting")  # the genuine one, not the newer cross-task one
        await pilot.pause(0.1)
        diff = shown(app.query_one("#notes-diff"))
        assert "Move auth to the shared gateway" in diff and "CROSSTASK" not in diff, diff
        _pick(lst, "秘密")
        await pilot.pause(0.1)
        head, diff = shown(app.query_one("#notes-head")), shown(app.query_one("#notes-diff"))
        assert "⚠ TAMPERED: it targets" in head and "秘密" in head, head
        assert "it targets '~/" in head and str(root.parent) not in head, head  # its paths from ~
        assert "no diff: a tampered proposal's target is never read" in diff, diff
        for text in (head, diff, *texts):
            assert "\x1b" not in text and "ghp_" not in text and "DIARY" not in text, text
        assert app.errors == []

    run_flow(make_app((root, project), remember_theme=False), flow, size=SIZE)


def test_a_missing_note_names_the_key_that_opens_the_task_detail(home_demo) -> None:  # noqa: F811
    """Enter does nothing in the Maintenance task table; ``t`` opens the detail."""
    root, project = home_demo
    (project / ".memsearch" / "PROJECT.md").unlink()

    async def flow(pilot, app) -> None:
        await pilot.press("7")
        await settle(pilot)
        _pick(app.query_one("#notes-list"), "PROJECT.md")
        await pilot.pause(0.1)
        text = app.query_one("#notes-text")  # a message, not a note: plain text, no Markdown made
        assert text.display and "does not exist yet" in shown(text) and "task detail, t)" in shown(text), shown(text)
        assert app.errors == []

    run_flow(make_app((root, project), remember_theme=False), flow, size=SIZE)
