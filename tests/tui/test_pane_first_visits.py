"""The Maintenance (5) and Notes (7) keys' first visits list no day file they do not show
(issue 37 item 5: at 10,000 days each first visit listed and stat-ed every day file for
memsearch's input digest, ~300 ms a key, though the Notes pane only needs the two notes'
paths and the Maintenance pane shows no digest, and needs one only for an enabled task's
due check). What is shown stays what ``maintenance status`` says.

Listings are counted with an audit hook (``os.scandir`` of the journal folder), whatever
lists it; a real app under Pilot, in English and Chinese day files.
"""

from __future__ import annotations

import asyncio
import dataclasses
import json
import sys
from pathlib import Path

import pytest

from memsearch_tui.engine.api import Memory
from memsearch_tui.engine.store.store import Store
from tests.helpers import SIZE, make_app, settle

pytestmark = pytest.mark.slow  # starts the whole app

_LISTED: list[str] | None = None  # folders listed while a test listens, else None


def _hook(event: str, args: tuple[object, ...]) -> None:
    # a folder is listed by its path, or opened by it and listed through the descriptor
    # (the input digest's walk since s19): either counts
    if _LISTED is not None and event in ("os.scandir", "open") and isinstance(args[0], str):
        _LISTED.append(args[0])


sys.addaudithook(_hook)  # one hook for the process (they cannot be removed): idle unless listened to


def _memory(tmp_path: Path, days: int = 30) -> tuple[Path, Path]:
    root, project = tmp_path / "memory", tmp_path / "proj"
    Store(root).init()
    folder = project / ".memsearch" / "memory"
    folder.mkdir(parents=True)
    (project / ".git").mkdir()
    for i in range(days):
        words = "修复了登录测试的竞争条件" if i % 2 else "fixed the flaky login test"
        (folder / f"2026-10-{1 + i:02d}.md").write_text(f"# 2026-10-{1 + i:02d}\n\n### 09:00\n- {words}\n")
    return root, project


def _visit(root: Path, project: Path, key: str, pid: str) -> tuple[object, list[str]]:
    """Press ``key`` once the app settled; the pane and the journal-folder listings it caused."""
    global _LISTED
    journals = str(project / ".memsearch" / "memory")

    async def main() -> tuple[object, list[str]]:
        global _LISTED
        app = make_app((root, project), remember_theme=False)
        async with app.run_test(size=SIZE) as pilot:
            await settle(pilot, app)
            _LISTED = []
            await pilot.press(key)
            await settle(pilot, app)
            listed = [p for p in _LISTED if p.rstrip("/") == journals]
            _LISTED = None
            pane = app.pane(pid)
            assert app.query_one("#tabs").active == pid and pane._data is not None
            return pane, listed

    try:
        return asyncio.run(main())
    finally:
        _LISTED = None


def test_maintenance_first_visit_lists_no_day_when_every_task_is_disabled(tmp_path: Path) -> None:
    root, project = _memory(tmp_path)  # no config: every task disabled, as memsearch ships them
    pane, listed = _visit(root, project, "5", "maintenance")
    assert listed == []  # dfc9a86: the journal folder listed (and each day stat-ed) for a digest not shown
    mem = Memory(root, project)
    full = mem.maintenance.status(mem.maintenance.config())
    assert pane.data.rows == [dataclasses.replace(r, input_digest="") for r in full]  # type: ignore[attr-defined]
    assert {r.input_digest for r in full} != {""}  # the CLI's status still digests


def test_maintenance_first_visit_digests_for_an_enabled_task(tmp_path: Path) -> None:
    """An enabled task whose state keeps a digest: "on new input" needs it, so it is made."""
    root, project = _memory(tmp_path)
    msdir = project / ".memsearch"
    (project / ".memsearch.toml").write_text("[plugins.claude-code.project_review]\nenabled = true\n", encoding="utf-8")
    mem = Memory(root, project)
    digest = next(r.input_digest for r in mem.maintenance.status(mem.maintenance.config()))
    state = {"claude-code.project_review": {"last_input_digest": digest, "last_success_at": "2026-10-30T09:00:00Z"}}
    (msdir / ".maintenance-state.json").write_text(json.dumps(state), encoding="utf-8")
    pane, listed = _visit(root, project, "5", "maintenance")
    assert len(listed) == 1
    rows = {(r.platform, r.task): r for r in pane.data.rows}  # type: ignore[attr-defined]
    assert rows["claude-code", "project_review"].reason == "input unchanged"
    assert rows["claude-code", "project_review"].input_digest == digest
    assert rows["claude-code", "user_profile"].input_digest == ""  # disabled: nothing compares it


def test_notes_first_visit_lists_no_day(tmp_path: Path) -> None:
    root, project = _memory(tmp_path)
    notes = project / "notes"  # a path the config names is the project's
    (project / ".memsearch.toml").write_text(
        '[plugins.claude-code.user_profile]\noutput_file = "notes/用户.md"\n', encoding="utf-8"
    )
    notes.mkdir()
    (notes / "用户.md").write_text("# 用户\n- 回复用中文\n", encoding="utf-8")
    pane, listed = _visit(root, project, "7", "notes")
    assert listed == []  # dfc9a86: listed and stat-ed every day for the two notes' paths
    files = [(task, path.resolve()) for task, path, _text in pane.data.files]  # type: ignore[attr-defined]
    assert files == [
        ("project_review", (project / ".memsearch" / "PROJECT.md").resolve()),
        ("user_profile", (notes / "用户.md").resolve()),
    ]
    assert pane.data.files[1][2] == "# 用户\n- 回复用中文\n"  # type: ignore[attr-defined]


def test_the_maintenance_pane_imports_no_dialog_until_one_opens() -> None:
    """Its four dialogs (and Textual's TextArea under them: 40-90 ms of key 5 on a loaded
    machine) are imported by the action that opens one, not by the pane's first visit."""
    import subprocess

    code = (
        "import sys, memsearch_tui.tui.panes.maintenance_pane as m\n"
        "print(sorted({'memsearch_tui.tui.modals', 'textual.widgets._text_area'} & set(sys.modules)))\n"
        "m.MaintenancePane.action_reject  # the action still names its dialog (imported when it runs)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr[-2000:]
    assert out.stdout.strip() == "[]"  # dfc9a86: both


def test_maintenance_first_visit_draws_the_rows_before_any_day_is_listed(tmp_path: Path, monkeypatch) -> None:
    """Two enabled tasks (English and Chinese days): the first draw comes before the
    journal folder is opened or listed (6e86c88: after its listing and 30 stats, 10,000 at
    10,000 days), every row there, the enabled tasks' "next" saying "checking…"; the
    second draw's rows are the CLI's ``status`` (bar disabled rows' digests) and its
    "next" cells what the pane showed before (``next_run`` of those rows)."""
    from memsearch_tui.tui.panes import maintenance_pane as mp

    root, project = _memory(tmp_path)
    (project / ".memsearch.toml").write_text(
        "[plugins.claude-code.project_review]\nenabled = true\n[plugins.codex.user_profile]\nenabled = true\n",
        encoding="utf-8",
    )
    mem = Memory(root, project)
    digest = next(r.input_digest for r in mem.maintenance.status(mem.maintenance.config()))
    state = {"claude-code.project_review": {"last_input_digest": digest, "last_success_at": "2026-10-30T09:00:00Z"}}
    (project / ".memsearch" / ".maintenance-state.json").write_text(json.dumps(state), encoding="utf-8")
    draws: list[tuple[int, dict[str, str]]] = []  # (journal-folder listings so far, row → its "next")
    journals = str(project / ".memsearch" / "memory")

    def noting(draw):  # type: ignore[no-untyped-def]
        def noted(self, data) -> None:  # type: ignore[no-untyped-def]
            draw(self, data)
            table = self.query_one("#tasks")
            seen = [p for p in (_LISTED or []) if p.rstrip("/") == journals]
            draws.append((len(seen), {str(k.value): str(table.get_row(k)[2]) for k in table.rows}))
            cells.append({str(k.value): [str(c) for c in table.get_row(k)] for k in table.rows})

        return noted

    cells: list[dict[str, list[str]]] = []  # every cell of each draw
    whole = mp.MaintenancePane.apply
    checked = noting(mp.MaintenancePane.apply_checked)

    def checked_then_whole(self, data) -> None:  # type: ignore[no-untyped-def]
        checked(self, data)
        whole(self, data)  # a whole draw of the same rows: the cells it makes, for comparison
        table = self.query_one("#tasks")
        cells.append({str(k.value): [str(c) for c in table.get_row(k)] for k in table.rows})

    monkeypatch.setattr(mp.MaintenancePane, "apply", noting(whole))
    monkeypatch.setattr(mp.MaintenancePane, "apply_checked", checked_then_whole)
    pane, listed = _visit(root, project, "5", "maintenance")
    assert len(listed) >= 1  # the digest was made, after the first draw
    assert len(draws) == 2 and draws[0][0] == 0  # 6e86c88: one draw, after the listing
    first, last = draws[0][1], draws[1][1]
    assert first.keys() == last.keys() and first["claude-code.project_review"] == "checking…"
    assert first["codex.user_profile"] == "checking…"
    full = mem.maintenance.status(mem.maintenance.config())
    assert pane.data.rows == [  # type: ignore[attr-defined]
        r if r.enabled else dataclasses.replace(r, input_digest="") for r in full
    ]
    shown = {f"{r.platform}.{r.task}": mp.next_run(r) for r in full if r.enabled}
    assert shown == {"claude-code.project_review": "on new input", "codex.user_profile": "due now"}
    assert {k: v for k, v in last.items() if k in shown} == shown
    assert {k: v for k, v in first.items() if k not in shown} == {k: v for k, v in last.items() if k not in shown}
    assert len(cells) == 3 and cells[1] == cells[2]  # the second draw's cells are a whole draw's
