"""OneDrive's conflicted copies carry a computer's name; a person's all-caps word is not one.

OneDrive keeps both versions of a file changed on two computers by appending the name of the
computer that kept them (``2026-11-30-DESKTOP-4F2KJ9.md``, ``-2`` for a second). The rule
took any all-capitals word for a Windows name, so a person's ``2026-11-30-TODO.md`` beside
its day was hidden from search and offered for a merge. Now a Windows name needs the shape
Windows gives one (generated, numbered or a PC's, in two or more parts), a Mac's name or
this machine's own; each case both ways, by name and by what gets indexed.
"""

from __future__ import annotations

import socket
from pathlib import Path

import pytest

from memsearch_tui.engine.curator.day_copies import list_copies
from memsearch_tui.engine.memsearch.sync_copies import copy_of
from memsearch_tui.engine.search.sources import project_files
from tests.sync.test_journal_copies import COPY, DAY, _project

COPIES = [
    "2026-11-30-DESKTOP-4F2KJ9.md",  # Windows 10/11's generated name: DESKTOP- + 7
    "2026-11-30-DESKTOP-4F2KJ9-2.md",  # OneDrive's second copy
    "2026-11-30-LAPTOP-8F3K2J1Q.md",  # LAPTOP- + 8
    "2026-11-30-LAPTOP-ABC.md",
    "2026-11-30-WIN-ABC123XYZ01.md",  # Windows Server's WIN- + 11
    "2026-11-30-KIMS-PC.md",
    "2026-11-30-WS-A1B2C3.md",
    "2026-11-30-MacBook-Pro.md",
    "2026-11-30-Kims-MacBook-Pro.md",
]
WORDS = [
    "2026-11-30-TODO.md",
    "2026-11-30-NOTES.md",
    "2026-11-30-DRAFT.md",
    "2026-11-30-WIP.md",
    "2026-11-30-README.md",
    "2026-11-30-TODO-2.md",
    "2026-11-30-TODO-LIST.md",
    "2026-11-30-Q4-PLAN.md",
    "2026-11-30-SPRINT-42.md",
    "2026-11-30-laptop-setup.md",
    "2026-11-30-standup.md",
    "2026-11-30-站会.md",
]


def _indexed(proj: Path) -> list[str]:
    return sorted(Path(f.path).name for f in project_files(proj) if f.kind == "journal")


@pytest.mark.parametrize("name", COPIES)
def test_a_computers_name_makes_a_onedrive_copy_never_indexed(tmp_path: Path, name: str) -> None:
    found = copy_of(name, {"2026-11-30.md"})
    assert found is not None and (found.day, found.tool) == ("2026-11-30", "onedrive")
    proj = _project(tmp_path, {"2026-11-30.md": DAY, name: COPY})
    assert _indexed(proj) == ["2026-11-30.md"] and [c.path.name for c in list_copies(proj)] == [name]


@pytest.mark.parametrize("name", WORDS)
def test_a_persons_word_after_the_date_is_a_file_of_its_own_and_indexed(tmp_path: Path, name: str) -> None:
    assert copy_of(name, {"2026-11-30.md"}) is None
    proj = _project(tmp_path, {"2026-11-30.md": DAY, name: "# 2026-11-30\n\n- ship the release · 发布\n"})
    assert list_copies(proj) == [] and _indexed(proj) == sorted(["2026-11-30.md", name])


def test_a_one_word_computer_name_is_a_copy_on_that_computer(monkeypatch: pytest.MonkeyPatch) -> None:
    assert copy_of("2026-11-30-ZEUS.md", {"2026-11-30.md"}) is None or socket.gethostname().lower() == "zeus"
    monkeypatch.setattr(socket, "gethostname", lambda: "zeus.example.lan")
    found = copy_of("2026-11-30-ZEUS.md", {"2026-11-30.md"})
    assert found is not None and found.tool == "onedrive"
    assert copy_of("2026-11-30-TODO.md", {"2026-11-30.md"}) is None
