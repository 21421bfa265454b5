"""An unsaved edit of an entry whose file name is long in Chinese is still kept."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from memsearch_tui.engine.core.errors import InvalidInput
from memsearch_tui.engine.store.editor import edit_in_editor, keep_unsaved
from memsearch_tui.engine.store.store import Store
from tests.store.test_editor import _editor


def test_edit_of_an_entry_with_a_long_chinese_name_is_kept(
    store: Store, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    e = store.add("notes", "部署", "回滚到上一个标签。\n")
    long = e.path.with_name("部署" * 40 + ".md")  # a note named by hand: 243 bytes, a valid name
    e.path.rename(long)
    e = store.get("notes/" + "部署" * 40)
    monkeypatch.setenv("MEMSEARCH_TUI_DATA_DIR", str(tmp_path / "data"))
    _editor(tmp_path, monkeypatch, "path.write_text('我的修改', encoding='utf-8'); sys.exit(3)")
    with pytest.raises(InvalidInput, match="exited with status 3") as err:
        edit_in_editor(store, e.id, subprocess.call)
    kept = Path(err.value.message.rsplit("what it wrote is kept in ", 1)[1])
    assert kept.read_text(encoding="utf-8") == "我的修改"


@pytest.mark.parametrize("name", ["记" * 85 + ".md", "🔑" * 62 + ".md", "a" * 251 + ".md"])
def test_keep_unsaved_takes_any_valid_file_name(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, name: str) -> None:
    monkeypatch.setenv("MEMSEARCH_TUI_DATA_DIR", str(tmp_path / "data"))
    kept = keep_unsaved("正文\n".encode(), name)
    assert kept.parent == tmp_path / "data" / "unsaved" and kept.read_bytes() == "正文\n".encode()
    assert kept.suffix == ".md"
