"""A hostile remote: it can't write outside the store, through a link, or plant a git folder.

Each remote here is a real bare repository whose branch was given a forged commit
(``forge``: trees built with ``git mktree``, as a hostile server would serve them). The
rule: the whole tree is refused, nothing written, and the message names the entries.
"""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest

from memsearch_tui.engine.core.errors import Refused
from memsearch_tui.engine.curator import versions
from memsearch_tui.engine.store.store import Store
from memsearch_tui.engine.sync import run
from tests.sync.conftest import Devices, forge, git, make_remote, refused_whole

FSMONITOR = b"[core]\n\tfsmonitor = touch %s\n"


def test_a_path_climbing_out_of_the_store_is_refused_whole(devices: Devices, tmp_path: Path) -> None:
    refused_whole(devices, {"notes/../../outside.md": ("100644", b"pwned\n")}, "notes/../../outside.md")
    assert not (tmp_path / "outside.md").exists()


def test_a_git_folder_planted_in_a_category_is_refused_in_any_case(devices: Devices, tmp_path: Path) -> None:
    marker = tmp_path / "fsmonitor-ran"
    config = FSMONITOR % str(marker).encode()
    refused_whole(devices, {"evil/.GIT/config": ("100644", config)}, "evil/.GIT/config")
    refused_whole(devices, {"evil/.git/config": ("100644", config)}, "evil/.git/config")
    assert not (devices.b.root / "evil").exists()
    subprocess.run(["git", "status"], cwd=devices.b.root, capture_output=True, check=False)
    assert not marker.exists()


def test_symlinks_gitlinks_and_gitattributes_in_a_remote_tree_are_refused_and_named(devices: Devices) -> None:
    refused_whole(devices, {"notes/link.md": ("120000", b"/etc/passwd")}, "symbolic link")
    gitlink = git(devices.remote, "rev-parse", "refs/heads/main").encode()
    refused_whole(devices, {"vendor": ("160000", gitlink)}, "gitlink")
    refused_whole(devices, {".gitattributes": ("100644", b"* filter=evil\n")}, ".gitattributes")


def test_a_clone_of_a_remote_holding_a_link_writes_nothing(tmp_path: Path) -> None:
    remote = make_remote(tmp_path)
    a = Store(tmp_path / "a")
    a.init()
    run.init(a.root, remote=str(remote), device="laptop")
    (tmp_path / "outside").mkdir()
    forge(remote, {"linked": ("120000", b"../../outside")})
    with pytest.raises(Refused, match="linked"):
        run.init(tmp_path / "b", remote=str(remote), device="desktop")
    assert not (tmp_path / "b").exists()
    assert list((tmp_path / "outside").iterdir()) == []


def test_a_merge_never_writes_through_a_link_on_this_device(devices: Devices, tmp_path: Path) -> None:
    outside = tmp_path / "outside"
    outside.mkdir()
    os.symlink(outside, devices.b.root / "linked")
    forge(devices.remote, {"linked/x.md": ("100644", b"---\ntitle: x\n---\npwned\n")})
    with pytest.raises(Refused, match="linked is a symbolic link"):
        run.sync(devices.b.root)
    assert list(outside.iterdir()) == []


def test_a_git_folder_inside_the_store_stops_sync_and_is_named(devices: Devices, tmp_path: Path) -> None:
    planted = devices.b.root / "notes" / "evil" / ".git"
    planted.mkdir(parents=True)
    (planted / "config").write_bytes(FSMONITOR % str(tmp_path / "ran").encode())
    with pytest.raises(Refused, match="notes/evil/.git"):
        run.sync(devices.b.root)
    (planted / "config").unlink()
    planted.rmdir()
    planted.write_text(f"gitdir: {tmp_path}\n")  # a .git file sends git to another folder's config
    with pytest.raises(Refused, match="notes/evil/.git"):
        run.sync(devices.b.root)


def test_no_clean_filter_runs_when_this_device_commits(devices: Devices, tmp_path: Path) -> None:
    marker = tmp_path / "filter-ran"
    git(devices.a.root, "config", "filter.evil.clean", f"touch {marker}; cat")
    (devices.a.root / ".gitattributes").write_text("* filter=evil\n")
    versions.add_entry(devices.a, "notes", "Alpha launch", "We ship alpha on Friday.")
    report = run.sync(devices.a.root)
    assert not marker.exists()
    assert any(".gitattributes" in n for n in report.notes)
    assert ".gitattributes" not in git(devices.remote, "ls-tree", "-r", "--name-only", "main")
