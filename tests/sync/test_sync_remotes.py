"""Any remote a person makes: ``git init --bare`` (HEAD → master here), an empty one, one
with ``master``; a failed ``sync init`` leaves the folder as it was and names the cause."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from memsearch_tui.engine.core.errors import MemsearchError
from memsearch_tui.engine.curator import versions
from memsearch_tui.engine.store.store import Store
from memsearch_tui.engine.sync import run
from tests.sync.conftest import git


def _bare(tmp: Path, *args: str) -> Path:
    remote = tmp / "remote.git"
    subprocess.run(["git", "init", "-q", "--bare", *args, str(remote)], check=True, capture_output=True)
    return remote


def _store_with(tmp: Path, name: str, title: str) -> Store:
    s = Store(tmp / name)
    s.init()
    versions.add_entry(s, "notes", title, f"{title}: what this device knows.")
    return s


@pytest.mark.parametrize("head", ["master", "main", "trunk"])
def test_a_plain_bare_remote_with_any_default_branch_brings_the_second_device_up(tmp_path: Path, head: str) -> None:
    remote = _bare(tmp_path, "-b", head)
    a = _store_with(tmp_path, "a", "Alpha launch")
    run.init(a.root, remote=str(remote), device="laptop")
    report = run.init(tmp_path / "b", remote=str(remote), device="desktop")
    assert "cloned" in report.message
    b = Store(tmp_path / "b")
    assert b.get("notes/alpha-launch").title == "Alpha launch"
    versions.add_entry(b, "notes", "Beta plan", "Beta opens in March.")
    run.sync(b.root)
    run.sync(a.root)
    assert a.get("notes/beta-plan").title == "Beta plan"
    plain = tmp_path / "plain-clone"  # the remote's HEAD names the store's branch: a plain clone has it
    subprocess.run(["git", "clone", "-q", str(remote), str(plain)], check=True, capture_output=True)
    assert (plain / "INDEX.md").is_file()


def test_a_remote_whose_store_is_on_master_is_joined_not_forked(tmp_path: Path) -> None:
    remote = _bare(tmp_path, "-b", "master")
    hand = _store_with(tmp_path, "hand", "Alpha launch")
    git(hand.root, "init", "-q", "-b", "master")
    git(hand.root, "add", "-A")
    git(hand.root, "commit", "-qm", "pushed by hand")
    git(hand.root, "push", "-q", str(remote), "master")
    a = _store_with(tmp_path, "a", "Beta plan")
    run.init(a.root, remote=str(remote), device="laptop")
    assert a.get("notes/alpha-launch").title == "Alpha launch"
    assert git(remote, "for-each-ref", "--format=%(refname)").split() == ["refs/heads/master"]
    assert "notes/beta-plan.md" in git(remote, "ls-tree", "-r", "--name-only", "master")


@pytest.mark.parametrize("made", [False, True])
def test_init_from_an_empty_remote_leaves_the_folder_as_it_was_and_says_why(tmp_path: Path, made: bool) -> None:
    remote = _bare(tmp_path)
    root = tmp_path / "b"
    if made:
        root.mkdir()
    with pytest.raises(MemsearchError, match="is empty") as err:
        run.init(root, remote=str(remote), device="desktop")
    assert "sync init --remote" in err.value.message
    assert root.exists() == made and (not made or list(root.iterdir()) == [])


def test_a_failed_init_in_a_store_leaves_no_git_folder_and_a_retry_works(tmp_path: Path) -> None:
    a = _store_with(tmp_path, "a", "Alpha launch")
    before = sorted(p.relative_to(a.root).as_posix() for p in a.root.rglob("*"))
    with pytest.raises(MemsearchError, match="could not reach"):
        run.init(a.root, remote=str(tmp_path / "nowhere.git"), device="laptop")
    assert sorted(p.relative_to(a.root).as_posix() for p in a.root.rglob("*")) == before
    remote = _bare(tmp_path)
    assert run.init(a.root, remote=str(remote), device="laptop").pushed
