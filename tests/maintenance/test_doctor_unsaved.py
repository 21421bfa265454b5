"""``doctor`` says how many unsaved edits are kept, where, and the oldest; it never deletes one.

An edit that could not be saved (refused, a conflict, the editor failed) is kept in
``<data>/unsaved/`` (0600 in 0700, named by date) so nothing is lost; nothing listed them,
so the folder only grew, unseen."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from memsearch_tui.engine.store.editor import keep_unsaved


@pytest.fixture(autouse=True)
def _own_temp_folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """doctor lists the edits kept in the system temp folder too: this test's own one."""
    import tempfile

    (tmp_path / "tmp").mkdir()
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path / "tmp"))


def _unsaved(report: dict) -> dict:
    [check] = [c for c in report["checks"] if c["area"] == "unsaved"]
    return check


def test_doctor_says_none_are_kept(cli) -> None:
    folder = Path(os.environ["MEMSEARCH_TUI_DATA_DIR"]) / "unsaved"
    check = _unsaved(cli("doctor", "--json").json["data"])
    assert check["status"] == "ok" and check["message"] == f"no unsaved edits kept in {folder}", check


def test_doctor_counts_the_kept_edits_names_the_oldest_and_keeps_them(cli, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("MEMSEARCH_TUI_NOW", "2026-11-02T10:15:00Z")
    oldest = keep_unsaved("部署：先跑冒烟测试。\n".encode(), "部署流程.md")
    monkeypatch.setenv("MEMSEARCH_TUI_NOW", "2026-11-30T12:00:00Z")
    kept = [oldest, keep_unsaved(b"deploy on Fridays\n", "deploy.md"), keep_unsaved(b"again\n", "deploy.md")]
    assert oldest.name == "2026-11-02-101500-部署流程.md"

    check = _unsaved(cli("doctor", "--json").json["data"])
    assert check["status"] == "warn", check
    assert check["message"] == f"3 unsaved edits kept in {oldest.parent}; the oldest: {oldest.name}", check
    assert "delete" in check["fix"]

    text = cli("doctor").output
    assert f"unsaved: 3 unsaved edits kept in {oldest.parent}; the oldest: 2026-11-02-101500-部署流程.md" in text, text
    cli("doctor", "--fix")
    assert all(p.is_file() for p in kept), "doctor never deletes a kept edit"
    assert oct(oldest.parent.stat().st_mode & 0o777) == "0o700" and oct(oldest.stat().st_mode & 0o777) == "0o600"
