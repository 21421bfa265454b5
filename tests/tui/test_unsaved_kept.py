"""An external edit the store refuses is kept where a reboot does not empty it: the data
folder's ``unsaved/`` (private), not /tmp, and the toast says where."""

from __future__ import annotations

import contextlib
import re
import stat
import tempfile

import pytest

from tests.helpers import settle, told, until

pytestmark = pytest.mark.slow  # starts the whole app
ENTRY = "preferences/editor-setup"


@pytest.mark.parametrize("answer", ["a broken frontmatter", "Esc at the conflict"])
def test_a_refused_external_edit_is_kept_in_the_data_folder(demo, drive, tmp_path, monkeypatch, answer):
    root, _ = demo
    real = root / f"{ENTRY}.md"
    editor = tmp_path / "fake-editor.sh"
    agent = f"printf '\\n- 代理同时写的\\n' >> '{real}'\n" if answer.startswith("Esc") else ""
    change = "s/Neovim/Helix 编辑器/" if agent else "s/^title: .*/title: [unclosed 编辑器/"
    editor.write_text(f"#!/bin/sh\nsed -i '{change}' \"$1\"\n{agent}", encoding="utf-8")
    editor.chmod(0o755)
    monkeypatch.setenv("EDITOR", str(editor))
    monkeypatch.setenv("MEMSEARCH_TUI_DATA_DIR", str(tmp_path / "data"))
    (tmp_path / "tmp").mkdir()
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path / "tmp"))  # the editor's copy: here, not /tmp
    before = real.read_bytes()

    async def flow(pilot, app):
        from memsearch_tui.tui.modals import ConflictModal

        app.suspend = contextlib.nullcontext  # the headless test driver cannot hand over the terminal
        app.pane("index").select_entry(ENTRY)
        await pilot.press("e")
        if agent:
            await until(pilot, lambda: isinstance(app.screen, ConflictModal), "the conflict dialog")
            await pilot.press("escape")
        await until(pilot, lambda: any("kept in" in t.message or "is in" in t.message for t in told(app)), "the toast")
        await settle(pilot, app)

    app = drive(flow)
    kept = list((tmp_path / "data" / "unsaved").iterdir())
    assert len(kept) == 1 and re.fullmatch(r"2026-11-30-\d{6}-preferences-editor-setup\.md", kept[0].name), kept
    assert "编辑器" in kept[0].read_text(encoding="utf-8")
    assert stat.S_IMODE(kept[0].stat().st_mode) == 0o600 and stat.S_IMODE(kept[0].parent.stat().st_mode) == 0o700
    assert any(str(kept[0]) in t.message for t in told(app)), told(app)  # the toast says where
    assert list((tmp_path / "tmp").iterdir()) == []  # the editor's temp copy is gone
    assert real.read_bytes() == before or agent  # nothing saved (the agent's line stays, theirs)
