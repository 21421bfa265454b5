"""An entry named with 255 bytes can be trashed, restored, purged and undone, with its versions.

Trash kept a trashed file's versions in ``<stem>.versions/`` beside it: for a 255-byte
entry name (84 Chinese characters and ``.md``) that folder's name is 262 bytes, so trashing
an entry with versions failed "File name too long", and restore failed even without
versions (it looked for the folder by that name). A same-day second trash (``<stem>~2.md``)
was over the limit too. Such names now take their start and a hash, within 255 bytes;
ordinary names keep ``<stem>.versions`` as before. Real files in a temp store, EN and ZH.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from memsearch_tui.engine.core.atomic import find_temp_files
from memsearch_tui.engine.core.errors import Conflict

ZH = "长" * 84  # + ".md": 255 bytes
EN = "n" * 252
BODY = {
    ZH: ("正文一行：回滚到上一个标签。", "改过的正文：部署前先跑冒烟测试。"),
    EN: ("Roll back to the last tag.", "Run the smoke tests before a deploy."),
}


@pytest.fixture
def mem(store_mem):
    return store_mem


def named(mem, stem: str, *, versions: bool = True) -> str:
    """An entry renamed by hand to ``stem`` (255 bytes with .md), updated once when ``versions``."""
    old, new = BODY[stem]
    added = mem.entries.add("项目/发布", "手写的长名字", old)
    path = Path(mem.store.root) / "项目" / "发布" / f"{stem}.md"
    assert len(path.name.encode()) == 255
    Path(mem.entries.path_of(added.entry.id)).rename(path)
    entry_id = f"项目/发布/{stem}"
    if versions:
        mem.entries.update(entry_id, body=new)
    return entry_id


def names_fit(root: Path) -> None:
    for p in root.rglob("*"):
        assert len(p.name.encode()) <= 255, p
    assert not find_temp_files(root), "no temp file left"


def kept(mem, entry_id: str) -> list[int]:
    return sorted(v.version for v in mem.versions.list(entry_id) if not v.current)


@pytest.mark.parametrize("stem", [ZH, EN], ids=["zh255", "en255"])
def test_trash_restore_undo_with_versions(mem, stem) -> None:
    entry_id = named(mem, stem)
    root = Path(mem.store.root)
    assert kept(mem, entry_id) == [1]
    key = mem.trash.put(entry_id, "过时了").trash_key
    [item] = mem.trash.list()
    assert (item.key, item.original_id) == (f"2026-11-30/{entry_id}", entry_id)
    [vdir] = [p for p in Path(item.path).parent.iterdir() if p.is_dir()]
    assert vdir.name.endswith(".versions") and [f.name for f in vdir.iterdir()] == ["v1.md"]
    assert BODY[stem][0] in (vdir / "v1.md").read_text("utf-8")
    names_fit(root)
    mem.history.undo()  # the trash undone: entry and its version back where they were
    assert BODY[stem][1] in (root / f"{entry_id}.md").read_text("utf-8") and kept(mem, entry_id) == [1]
    assert mem.trash.list() == ()
    key = mem.trash.put(entry_id).trash_key
    out = mem.trash.restore(key)
    assert (out.restored, out.renamed) == (entry_id, False)
    assert BODY[stem][1] in (root / f"{entry_id}.md").read_text("utf-8") and kept(mem, entry_id) == [1]
    assert mem.trash.list() == () and not vdir.exists()
    mem.history.undo()  # the restore undone: back in the trash, versions too
    assert [i.key for i in mem.trash.list()] == [key] and [f.name for f in vdir.iterdir()] == ["v1.md"]
    assert mem.trash.purge(mem.trash.list(), yes=True).purged == (key,)  # and then purged
    assert not vdir.exists() and not vdir.parent.exists() and mem.trash.list() == ()
    names_fit(root)


@pytest.mark.parametrize("stem", [ZH, EN], ids=["zh255", "en255"])
def test_purge_takes_the_file_and_its_versions(mem, stem) -> None:
    entry_id = named(mem, stem)
    root = Path(mem.store.root)
    mem.trash.put(entry_id)
    [item] = mem.trash.list()
    folder = Path(item.path).parent
    assert mem.trash.purge([item], yes=True).purged == (item.key,)
    assert mem.trash.list() == () and not folder.exists()  # the versions folder went too
    assert not any(BODY[stem][0] in p.read_text("utf-8", "replace") for p in root.rglob("*.md"))
    with pytest.raises(Conflict, match="a purge keeps nothing to undo"):
        mem.history.undo()  # a purge keeps nothing to undo, and says so
    names_fit(root)


@pytest.mark.parametrize("stem", [ZH, EN], ids=["zh255", "en255"])
def test_without_versions_restore_and_a_same_day_second_trash(mem, stem) -> None:
    entry_id = named(mem, stem, versions=False)
    root = Path(mem.store.root)
    first = mem.trash.put(entry_id).trash_key
    assert mem.trash.restore(first).restored == entry_id  # failed every time: io, File name too long
    mem.entries.update(entry_id, body=BODY[stem][1])
    first = mem.trash.put(entry_id).trash_key
    mem.entries.add("项目/发布", "另一个", BODY[stem][0])
    again = Path(mem.entries.path_of("项目/发布/另一个"))
    again.rename(again.with_name(f"{stem}.md"))  # the same name again, trashed the same day
    second = mem.trash.put(entry_id).trash_key
    assert second != first and {i.original_id for i in mem.trash.list()} == {entry_id}
    names_fit(root)
    assert mem.trash.restore(second).restored == entry_id
    assert BODY[stem][0] in (root / f"{entry_id}.md").read_text("utf-8")
    out = mem.trash.restore(first)  # its name is taken now: suffixed, its version along
    assert out.renamed and kept(mem, out.restored) == [1]
    assert BODY[stem][1] in (root / f"{out.restored}.md").read_text("utf-8")
    names_fit(root)


def test_ordinary_names_keep_the_stem_versions_layout(mem) -> None:
    for title in ("Alpha site", "部署流程"):
        added = mem.entries.add("p", title, f"first text of {title}")
        mem.entries.update(added.entry.id, body=f"second text of {title}")
        key = mem.trash.put(added.entry.id).trash_key
        vdir = Path(mem.store.root, ".trash", f"{key}.versions")
        assert [f.name for f in vdir.iterdir()] == ["v1.md"], vdir
        mem.trash.restore(key)
        assert not vdir.exists()


@pytest.mark.parametrize("stem", [ZH, EN], ids=["zh255", "en255"])
def test_the_trials_steps_through_the_cli(cli, tmp_path: Path, stem) -> None:
    """A hand-written 255-byte file, indexed, updated (v1 kept), trashed, restored, trashed
    and purged: every step exits 0 (trash and restore failed "File name too long")."""
    assert cli("init").code == 0
    folder = tmp_path / "memory" / "项目" / "发布"
    folder.mkdir(parents=True)
    (folder / f"{stem}.md").write_text(f"---\ntitle: 手写的长名字\nstatus: active\n---\n{BODY[stem][0]}\n", "utf-8")
    assert cli("index", "check", "--fix").code == 0
    entry_id = f"项目/发布/{stem}"
    assert cli("update", entry_id, "--body", BODY[stem][1]).code == 0
    r = cli("--json", "trash", entry_id)
    assert r.code == 0, r.err
    key = r.json["data"]["trash_key"]
    r = cli("trash", "restore", key)
    assert r.code == 0, r.err
    assert BODY[stem][1] in (folder / f"{stem}.md").read_text("utf-8")
    assert BODY[stem][0] in (tmp_path / "memory" / ".versions" / "项目" / "发布" / stem / "v1.md").read_text("utf-8")
    assert cli("trash", entry_id).code == 0
    r = cli("trash", "purge", "--all", "--yes")
    assert r.code == 0, r.err
    assert not (tmp_path / "memory" / ".trash" / "2026-11-30").exists()
    names_fit(tmp_path / "memory")
