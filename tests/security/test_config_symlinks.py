"""Issue 19: `trust` and `maintenance enable` replaced a symlinked ~/.memsearch/config.toml
(a dotfiles checkout) with a regular file; the link must stay and its target change."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.helpers import run_cli


@pytest.fixture
def linked_config(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> tuple[Path, Path, Path]:
    home, dotfiles, repo = tmp_path / "home", tmp_path / "dotfiles", tmp_path / "repo"
    (home / ".memsearch").mkdir(parents=True)
    dotfiles.mkdir()
    (repo / ".git").mkdir(parents=True)
    target = dotfiles / "memsearch.toml"
    target.write_text('# mine\n[tui]\ntheme = "dark"\n')
    target.chmod(0o600)
    link = home / ".memsearch" / "config.toml"
    link.symlink_to(target)
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.setenv("MEMSEARCH_TUI_DATA_DIR", str(tmp_path / "data"))
    monkeypatch.chdir(tmp_path)
    return link, target, repo


def test_trust_writes_through_the_link(linked_config: tuple[Path, Path, Path], tmp_path: Path) -> None:
    link, target, repo = linked_config
    assert run_cli("--memory-root", str(tmp_path / "mem"), "trust", str(repo)).code == 0
    assert link.is_symlink() and link.resolve() == target
    assert "# mine" in target.read_text() and str(repo.resolve()) in target.read_text()
    assert target.stat().st_mode & 0o777 == 0o600


def test_maintenance_enable_writes_through_the_link(linked_config: tuple[Path, Path, Path], tmp_path: Path) -> None:
    link, target, repo = linked_config
    args = ["--memory-root", str(tmp_path / "mem"), "--project", str(repo)]
    assert run_cli(*args, "maintenance", "enable", "project_review", "--platform", "claude-code").code == 0
    assert link.is_symlink() and link.resolve() == target
    assert "project_review" in target.read_text() and "# mine" in target.read_text()
