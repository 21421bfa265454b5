"""A long title can be added, kept twice, trashed twice and archived: its slug is cut by
UTF-8 bytes.

A file name is at most 255 bytes. The slug was cut at 80 *characters*: 80 Chinese ones are
240 bytes, and the atomic writer's temp name (``.<name>.<8>.tmp``) made ``store add`` fail
with "File name too long", from the CLI, MCP and the app alike (one engine path). The slug
now stays under a byte limit that leaves room for that temp name, a ``-2`` suffix and the
trash's ``~2``; an English title keeps its 80 characters.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from memsearch_tui.engine.core.atomic import TMP_SUFFIX
from memsearch_tui.engine.core.paths import SLUG_BYTES, slugify

ZH = "部署" * 40  # 80 Chinese characters: 240 bytes
EN = "deploy " * 15  # 105 characters: the slug keeps 80 as before
TEMP_EXTRA = len(".") + len(".") + 8 + len(TMP_SUFFIX)  # mkstemp's ".<name>.XXXXXXXX.tmp"


@pytest.fixture
def mem(store_mem):
    return store_mem


def _names(root: Path) -> list[str]:
    return [p.name for p in root.rglob("*")]


@pytest.mark.parametrize("title", [ZH, "笔记 " * 30 + "end", EN], ids=["zh80", "zh-words", "en"])
def test_a_long_title_is_added_twice_trashed_twice_and_archived(mem, title) -> None:
    first = mem.entries.add("notes", title, "We deploy the shop to Fly.io every Friday afternoon.")
    kept = mem.entries.add("notes", title, "We deploy the shop to Render every Monday morning.")
    assert kept.entry.id == first.entry.id and kept.entry.version == 2  # v1 kept in .versions/
    second = mem.entries.add("notes", title + "!", "Second, unrelated: cache keys rotate monthly.")
    assert second.entry.id == first.entry.id + "-2"  # the same slug, taken
    root = Path(mem.store.root)
    for name in _names(root):  # every name, with room for the temp name of its next write
        assert len(name.encode("utf-8")) + TEMP_EXTRA <= 255, name
    mem.trash.put(first.entry.id)
    third = mem.entries.add("notes", title, "第三条：回滚用上一个标签，不要手动改数据库。")
    assert third.entry.id == first.entry.id  # the name is free again
    mem.trash.put(third.entry.id)  # the same day: "<name>~2.md" in the trash
    mem.lifecycle.archive(second.entry.id)
    for name in _names(root):
        assert len(name.encode("utf-8")) + TEMP_EXTRA <= 255, name
    slug = first.entry.id.rsplit("/", 1)[1]
    trashed = {p.name for p in root.rglob("*.md") if ".trash" in p.parts and not p.parent.name.endswith(".versions")}
    assert trashed - {"INDEX.md"} == {f"{slug}.md", f"{slug}~2.md"}, trashed
    assert (root / "notes" / "archived" / f"{slug}-2.md").is_file()


def test_the_slug_is_cut_by_bytes_and_an_english_one_keeps_80_characters() -> None:
    assert len(slugify(ZH).encode("utf-8")) <= SLUG_BYTES and slugify(ZH) == ZH[: SLUG_BYTES // 3]
    assert slugify(EN) == ("deploy-" * 12)[:80].strip("-")  # unchanged: 80 characters, 80 bytes
    assert slugify("用户偏好") == "用户偏好"
    assert slugify("a" + "部" * 79) == "a" + "部" * ((SLUG_BYTES - 1) // 3)  # never half a character


def test_store_add_from_the_cli_takes_80_chinese_characters(cli) -> None:
    assert cli("init").code == 0
    res = cli("add", "notes", ZH, "--body", "部署在周五，冒烟测试通过之后。")
    assert res.code == 0, res.output
    assert "File name too long" not in res.output
    shown = cli("show", f"notes/{slugify(ZH)}", "--json")
    assert shown.code == 0 and shown.json["data"]["title"] == ZH, shown.output
