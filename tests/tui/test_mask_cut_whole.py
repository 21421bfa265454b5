"""A label cut to its width keeps a ``[redacted: …]`` mask whole or drops it whole.

The Maintenance pane's "last error" cell cut the (masked) error at 24 characters and the
tree rows' ``tui.text.clip`` cut at a word: both could end a mask with "…"
("[redacted: OpenAI AP…"), naming a kind of secret that is not one."""

from __future__ import annotations

import json

import pytest
from rich.cells import cell_len
from rich.text import Text

from memsearch_tui.tui.text import clip
from tests.helpers import make_app, run_flow, settle

KEY = "sk-proj-" + "aB3cD4eF5gH6" * 6
MARK = "[redacted: OpenAI API key]"


def _whole(shown: str) -> bool:
    return "[redacted" not in shown or MARK in shown


@pytest.mark.parametrize("label", [f"deploy key {MARK} rotated monthly", f"部署密钥{MARK}每月轮换一次"])
def test_clip_keeps_a_mask_whole_or_drops_it(label) -> None:
    for width in range(4, cell_len(label) + 1):
        out = clip(Text(label, style="bold"), width).plain
        assert cell_len(out) <= width and _whole(out), (width, out)


@pytest.mark.parametrize(
    ("error", "start"),
    [(f"OpenAI: key {KEY} was refused (401)", "OpenAI: key"), (f"密钥 {KEY} 被拒绝（401）", "密钥")],
    ids=["en", "zh"],
)
def test_the_last_error_cell_never_ends_a_mask_with_an_ellipsis(demo, error, start) -> None:
    root, project = demo
    path = project / ".memsearch" / ".maintenance-state.json"
    state = json.loads(path.read_text(encoding="utf-8"))
    state["claude-code.project_review"] |= {"last_error": error, "last_action": "error"}
    path.write_text(json.dumps(state), encoding="utf-8")

    async def flow(pilot, app) -> None:
        await pilot.press("5")
        await settle(pilot)
        cell = app.query_one("#tasks").get_cell("claude-code.project_review", "last error").plain
        assert cell.startswith(start) and _whole(cell) and "sk-proj" not in cell, cell
        assert app.errors == []

    run_flow(make_app((root, project)), flow)
