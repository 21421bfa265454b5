"""The Maintenance pane names a tampered proposal's target as its file writes it.

A shipped proposal file with the target ``~/.bashrc`` (or ``../../笔记/周报.md``) was refused,
but the pane's head showed it joined to the memsearch folder: ``~/project/.memsearch/~/.bashrc``,
a path nobody wrote, read as a file of the project. Now the head shows the target as written
(quoted, escapes shown, secrets masked) beside the refusal, as ``proposals show`` does.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.helpers import SNAPSHOT_SIZES, make_app, run_flow, settle, shown
from tests.tui.home_demo import home_demo  # noqa: F401 (fixture)

PID = "20261130-083000-project-review-demo"  # the demo's pending rewrite of PROJECT.md


def retarget(project: Path, written: str) -> None:
    path = project / ".memsearch" / "proposals" / f"{PID}.json"
    data = json.loads(path.read_text(encoding="utf-8"))
    path.write_text(json.dumps(data | {"target": written}, ensure_ascii=False), encoding="utf-8")


@pytest.mark.slow
@pytest.mark.parametrize("written", ["~/.bashrc", "../../笔记/周报\x1b]0;x.md"])
def test_the_head_names_the_refused_target_as_its_file_writes_it(home_demo, written) -> None:  # noqa: F811
    root, project = home_demo
    retarget(project, written)

    async def flow(pilot, app) -> None:
        await pilot.press("5")
        await settle(pilot)
        app.query_one("#pane-maintenance").open_proposal(f"p:{PID}")
        await settle(pilot)
        head = shown(app.query_one("#proposal-head"))
        shown_as = repr(written).replace("\x1b", "\\x1b")
        assert f"→ {shown_as} (as its proposal file writes it: refused)" in head, head
        assert f"⚠ TAMPERED: it targets {shown_as} (as its proposal file writes it), but" in head, head
        assert ".memsearch/~" not in head and ".memsearch/.." not in head and "\x1b" not in head, head
        assert app.errors == []

    run_flow(make_app((root, project), remember_theme=False), flow, size=SNAPSHOT_SIZES["120x36"])
