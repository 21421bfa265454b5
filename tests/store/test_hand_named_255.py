"""An entry someone named by hand with up to 255 bytes can be saved, and undone.

The atomic writer's temp file was ``.<name>.<8 random>.tmp``: 14 bytes more than the name,
so a name of 242–255 bytes (84 Chinese characters and ``.md`` is 255) failed every save
with "File name too long" although the file system holds the file itself. A long name's
temp file now takes the name's start and a hash of it, within 255 bytes, in the same folder.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from memsearch_tui.engine.core.atomic import atomic_write_bytes, find_temp_files, is_temp_name

ZH = "记" * 84  # + ".md": 255 bytes, the longest name ext4 takes
EN = "n" * 252


@pytest.fixture
def mem(store_mem):
    return store_mem


@pytest.mark.parametrize("stem", [ZH, EN], ids=["zh255", "en255"])
def test_a_hand_named_255_byte_entry_is_saved_and_undone(mem, stem) -> None:
    added = mem.entries.add("notes", "部署", "回滚到上一个标签。")
    path = Path(mem.store.root) / "notes" / f"{stem}.md"
    assert len(path.name.encode("utf-8")) == 255
    Path(mem.entries.path_of(added.entry.id)).rename(path)  # named by hand
    out = mem.entries.update(f"notes/{stem}", body="新的正文：部署前先跑冒烟测试。")
    assert "新的正文" in path.read_text(encoding="utf-8")
    assert out.entry.id == f"notes/{stem}"
    mem.history.undo()
    assert "回滚到上一个标签" in path.read_text(encoding="utf-8")
    assert not find_temp_files(Path(mem.store.root)), "no temp file left"


def test_a_long_names_temp_name_fits_and_is_known_as_ours(tmp_path: Path) -> None:
    target = tmp_path / f"{ZH}.md"
    atomic_write_bytes(target, "正文".encode())
    assert target.read_bytes() == "正文".encode() and [p.name for p in tmp_path.iterdir()] == [target.name]
    from memsearch_tui.engine.core.atomic import temp_prefix

    for name in (ZH + ".md", EN + ".md", "🔑" * 63 + ".md", "short.md"):
        prefix = temp_prefix(name)
        assert len(f"{prefix}abcd1234.tmp".encode()) <= 255, name
        assert is_temp_name(f"{prefix}abcd1234.tmp"), name
    assert temp_prefix("short.md") == ".short.md."  # a short name's temp name is as before
    assert temp_prefix(ZH + "甲.md") != temp_prefix(ZH + "乙.md")  # same start, two names: two prefixes
