"""doctor's 'unsaved' check counts an edit it could not keep in
<data>/unsaved/ and left in the system temp folder (keep_unsaved's fallback; it said none)."""

from pathlib import Path

import pytest

from memsearch_tui.engine.maintenance.doctor import _unsaved_checks
from memsearch_tui.engine.store.editor import keep_unsaved


def test_an_edit_kept_in_the_temp_folder_is_not_reported_as_none(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    data = tmp_path / "data"
    data.mkdir()
    (data / "unsaved").write_text("not a folder", encoding="utf-8")  # the data folder cannot take it
    monkeypatch.setenv("MEMSEARCH_TUI_DATA_DIR", str(data))
    monkeypatch.setenv("TMPDIR", str(tmp_path / "tmp"))
    (tmp_path / "tmp").mkdir()
    import tempfile

    monkeypatch.setattr(tempfile, "tempdir", None)
    kept = keep_unsaved("部署：先跑冒烟测试。\n".encode(), "部署.md")
    assert kept.parent == tmp_path / "tmp" and kept.is_file()
    [check] = _unsaved_checks()
    assert check.status != "ok" and str(kept.parent) in check.message, check  # said "no unsaved edits kept"
