"""Only our own temp files are taken for ours: the sweep after a killed writer and
`index check --fix` delete what ``is_temp_name`` accepts, so a user's own hidden file that
merely looks like one (``.notes.md.backup.tmp``) must never match."""

import pytest

from memsearch_tui.engine.core.atomic import atomic_write_bytes, find_temp_files, is_temp_name


@pytest.mark.parametrize("name", ["notes.md", "笔记 部署.md"])
def test_a_users_backup_tmp_is_not_ours_but_a_killed_writes_is(tmp_path, name) -> None:
    (tmp_path / name).write_text("x", encoding="utf-8")
    users = [f".{name}.backup.tmp", f".{name}.BACKUP12.tmp", f".{name}.old_copy_v2.tmp"]
    ours = f".{name}.k1ll3d42.tmp"  # what mkstemp names it: 8 of [a-z0-9_]
    for n in [*users, ours]:
        (tmp_path / n).write_text("kept", encoding="utf-8")
    assert [p.name for p in find_temp_files(tmp_path)] == [ours]
    assert not any(is_temp_name(n) for n in users)


def test_every_temp_name_the_writer_makes_is_recognised(tmp_path, monkeypatch) -> None:
    """The pattern is exact, so it must still match every name mkstemp gives (a kill is
    simulated by failing the replace: the temp file stays)."""
    import os

    seen: list[str] = []

    def killed(src, dst):
        seen.append(os.path.basename(src))
        raise OSError(5, "killed")

    monkeypatch.setattr(os, "replace", killed)
    for i in range(40):
        with pytest.raises(OSError):
            atomic_write_bytes(tmp_path / f"条目{i}.md", b"x")
    assert len(seen) == 40 and all(is_temp_name(n) for n in seen), seen
