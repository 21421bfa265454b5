"""An undo in the undo history reloads the pane behind it now, the others when shown.

It reloaded all eight panes behind the list (two thirds of the key's time at 80x24 on a
loaded machine, benchmarks/tui_keys.py "u in the undo history"); only the pane drawn behind
the list needs its data at once. A hidden pane is marked and reloads when it is next
shown, so what it shows is never the state from before the undo.
"""

from __future__ import annotations

import pytest

from memsearch_tui.engine.history import oplog
from memsearch_tui.tui.modals import UndoModal
from memsearch_tui.tui.panes.base import Pane
from tests.helpers import settle, until

pytestmark = pytest.mark.slow  # starts the whole app


def test_an_undo_in_the_history_reloads_the_shown_pane_now_and_the_trash_when_shown(demo, drive, monkeypatch):
    root, _ = demo
    reloads: list[str] = []
    real = Pane.reload

    def counting(self):
        reloads.append(self.pane_id)
        return real(self)

    monkeypatch.setattr(Pane, "reload", counting)

    async def flow(pilot, app):
        for key in ("4", "2", "1"):  # trash, journal, back to the index: each loaded once
            await pilot.press(key)
            await settle(pilot, app)
        trash_rows = lambda: [str(k.value) for k in app.query_one("#trash-table").rows]  # noqa: E731
        before = trash_rows()
        await pilot.press("u")
        await until(pilot, lambda: isinstance(app.screen, UndoModal), "the undo history")
        await settle(pilot, app)
        modal = app.screen
        newest = modal.newest()
        assert newest.kind == "trash"  # the demo's newest change: an entry to the trash
        reloads.clear()
        await pilot.press("u")
        await until(pilot, lambda: modal.newest().seq != newest.seq, "the undo, and the list drawn again")
        await settle(pilot, app)
        assert reloads == ["index"]  # the pane behind the list; not the trash, journal, …
        await pilot.press("escape", "4")
        await settle(pilot, app)
        assert reloads == ["index", "trash"]  # shown again: reloaded, the undone item gone
        assert len(trash_rows()) == len(before) - 1

    drive(flow)


def test_the_operation_log_is_read_again_when_another_process_changed_it(demo):
    """``oplog.records`` keeps its last read while the folder is unchanged: a record
    marked undone, or a new one, by another process is seen at the next call."""
    import subprocess
    import sys

    root, _ = demo
    first = oplog.records(root)
    assert first and not first[0].undone
    subprocess.run(
        [sys.executable, "-c", "import sys; from memsearch_tui.cli import main; main(sys.argv[1:])",
         "--memory-root", str(root), "undo"],
        check=True, capture_output=True, timeout=120,
    )  # fmt: skip
    again = oplog.records(root)
    assert again[0].seq == first[0].seq and again[0].undone
    again[0].files[0]["path"] = "changed by a caller"
    assert oplog.records(root)[0].files[0]["path"] != "changed by a caller"  # each caller its own copy
