"""Listing journal days costs a call per unusual file, not per day (issue 37 item 5).

The Journal pane, the Overview, ``doctor`` and every search list the day files. pathlib's
``rglob`` with ``is_symlink``/``is_file`` made two ``stat`` calls a day (~0.5 s per 10,000
days under load); the ``os.scandir`` walk knows a regular file from its directory entry, so
only a symlink, a FIFO or the folder's own containment check costs a call. And the walk is
bounded: a runaway folder is listed up to ``MAX_LISTED`` entries, and ``doctor`` says so.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from memsearch_tui.engine.memsearch import journal


def _days(folder: Path, n: int) -> list[str]:
    folder.mkdir(parents=True, exist_ok=True)
    names = [f"{2000 + i // 365:04d}-{1 + i % 12:02d}-{1 + i % 28:02d}-{i:04d}.md" for i in range(n)]
    for i, name in enumerate(names):
        text = "### 10:00 修复登录\n- 缓存预热的竞态\n" if i % 2 else "### 10:00 fix login\n- the cache warm-up race\n"
        (folder / name).write_text(f"# {name[:10]}\n{text}", encoding="utf-8")
    return names


def _counting(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    calls: list[str] = []
    for name in ("stat", "lstat"):
        real = getattr(os, name)

        def counted(*args: object, _real=real, _name=name, **kwargs: object) -> object:
            calls.append(_name)
            return _real(*args, **kwargs)

        monkeypatch.setattr(os, name, counted)
    return calls


def test_listing_300_days_stats_only_the_unusual_files(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    memory = tmp_path / "proj" / ".memsearch" / "memory"
    names = _days(memory, 300)
    (memory / "日记.md").write_text("# 笔记\n- 中文的文件名\n", encoding="utf-8")
    os.symlink(memory / names[0], memory / "2030-01-01.md")  # a link inside: listed, checked
    os.symlink(tmp_path / "secret.md", memory / "2030-01-02.md")  # out of the project: not listed
    (tmp_path / "secret.md").write_text("token", encoding="utf-8")
    os.mkfifo(memory / "2030-01-03.md")
    calls = _counting(monkeypatch)
    files = journal.journal_files(memory)
    listed = len(calls)
    assert [p.name for p in files][:1] == ["2030-01-01.md"] and len(files) == 302
    assert files[-1].name == "日记.md"  # undated files last
    # the containment check of the folder and of the two links resolves a few components each;
    # a day file costs nothing more (5dbfd6c: two calls per day, > 600 here)
    assert listed < 150, calls  # under half a call per day
    skipped = journal.skipped_journal_files(memory)
    assert [s.split(": ", 1)[0] for s in skipped] == [str(memory / "2030-01-02.md"), str(memory / "2030-01-03.md")]


def test_a_runaway_folder_is_listed_up_to_the_bound_and_doctor_is_told(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    memory = tmp_path / "proj" / ".memsearch" / "memory"
    _days(memory, 40)
    monkeypatch.setattr(journal, "MAX_LISTED", 25)
    assert len(journal.journal_files(memory)) == 25
    skipped = journal.skipped_journal_files(memory)
    assert skipped == [f"{memory}: over 25 files and folders; the rest not listed"]


def test_readme_states_the_bound() -> None:
    readme = " ".join((Path(__file__).resolve().parents[2] / "README.md").read_text(encoding="utf-8").split())
    assert f"listed up to {journal.MAX_LISTED:,} files and folders" in readme


def test_a_window_of_days_is_the_whole_lists_head_with_a_path_for_its_days_only(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The Overview's chart needs the last 56 days: ``since`` gives exactly the dated files
    the whole list has from that day on, in its order (copies, undated files and older days
    left out), and makes a ``Path`` for those only (10,000 days: ~0.1 s of Path objects)."""
    memory = tmp_path / "proj" / ".memsearch" / "memory"
    _days(memory, 300)  # all in 2000: long before the window
    recent = ["2026-11-20.md", "2026-11-21-修复登录.md", "2026-11-30.md", "2026-12-01.md"]
    for name in recent:
        (memory / name).write_text(f"# {name[:10]}\n### 10:00 fix\n- 缓存\n", encoding="utf-8")
    (memory / "2026-11-30 (conflicted copy).md").write_text("# copy\n", encoding="utf-8")  # Dropbox's
    (memory / "sub").mkdir()
    (memory / "sub" / "2026-11-25.md").write_text("# 2026-11-25\n", encoding="utf-8")
    (memory / "日记.md").write_text("# 笔记\n", encoding="utf-8")
    (memory / "notes.md").write_text("# notes\n", encoding="utf-8")  # "notes.md" > "2026-…": undated anyway
    whole = journal.journal_files(memory)
    made: list[object] = []
    monkeypatch.setattr(journal, "Path", lambda *a: made.append(a) or Path(*a))
    window = journal.journal_files(memory, "2026-11-21")
    assert window == [p for p in whole if journal._DAY_NAME.match(p.name) and p.name[:10] >= "2026-11-21"]
    assert [p.name for p in window] == ["2026-12-01.md", "2026-11-30.md", "2026-11-25.md", "2026-11-21-修复登录.md"]
    assert len(made) <= len(window) + 1, made  # the window's files and the folder (dfc9a86: no ``since``)
