"""What stays on this machine stays here: the trash, the state folder, secrets, passwords.

Our commit code decides what a commit holds, never a ``.gitignore`` (which the remote
writes): tested with a remote that has none, one that negates ours, and one that links it.
"""

from __future__ import annotations

import os
import stat
from pathlib import Path

import pytest

from memsearch_tui.engine.core.errors import MemsearchError
from memsearch_tui.engine.curator import trash, versions
from memsearch_tui.engine.store.store import Change, Store
from memsearch_tui.engine.sync import run
from memsearch_tui.engine.sync.git import shown_url
from tests.sync.conftest import Devices, forge, git, make_remote, synced_files

TOKEN = "ghp_" + "a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8"


def _remote_paths(remote: Path, branch: str = "main") -> list[str]:
    return git(remote, "ls-tree", "-r", "--name-only", branch).splitlines()


def _assert_nothing_private_left(remote: Path) -> None:
    paths = _remote_paths(remote)
    assert paths and not [p for p in paths if p.startswith((".trash/", ".memsearch-tui/"))], paths


def _trash_and_sync(store: Store) -> None:
    eid = versions.add_entry(store, "notes", "Alpha launch", "We ship alpha on Friday.")["entry"]["id"]
    versions.update_entry(store, eid, Change(body="We ship alpha on Monday, not Friday."))
    trash.trash(store, eid, "obsolete")
    run.sync(store.root)


def test_a_store_cloned_from_a_hand_made_remote_keeps_its_trash_and_state(tmp_path: Path) -> None:
    work = tmp_path / "hand"
    s = Store(work)
    s.init()
    git(work, "init", "-q", "-b", "main")
    git(work, "add", "INDEX.md", "config.md")
    git(work, "commit", "-qm", "a store pushed by hand, no .gitignore")
    remote = make_remote(tmp_path)
    git(work, "push", "-q", str(remote), "main")
    run.init(tmp_path / "b", remote=str(remote), device="desktop")
    assert "/.trash/" in (tmp_path / "b" / ".gitignore").read_text()
    _trash_and_sync(Store(tmp_path / "b"))
    _assert_nothing_private_left(remote)


def test_a_gitignore_from_the_remote_that_negates_ours_changes_nothing(devices: Devices) -> None:
    hostile = (devices.a.root / ".gitignore").read_bytes() + b"!/.trash/\n!/.memsearch-tui/\n!*.tmp\n"
    forge(devices.remote, {".gitignore": ("100644", hostile)})
    run.sync(devices.b.root)
    assert (devices.b.root / ".gitignore").read_bytes() == hostile
    _trash_and_sync(devices.b)
    _assert_nothing_private_left(devices.remote)


def test_a_linked_gitignore_is_refused_and_a_local_link_never_written_through(devices: Devices, tmp_path: Path) -> None:
    with pytest.raises(MemsearchError, match="symbolic link"):
        forge(devices.remote, {".gitignore": ("120000", b"../../elsewhere")})
        run.sync(devices.b.root)
    target = tmp_path / "their-file"
    target.write_text("not yours\n")
    c = Store(tmp_path / "c")
    c.init()
    os.symlink(target, c.root / ".gitignore")
    run.init(c.root, device="third")
    assert target.read_text() == "not yours\n"
    assert not (c.root / ".gitignore").is_symlink()


def test_a_file_holding_a_secret_is_left_out_and_named_with_the_fix(devices: Devices) -> None:
    eid = versions.add_entry(devices.a, "notes", "Deploy steps", "Deploy with the blue pipeline.")["entry"]["id"]
    run.sync(devices.a.root)
    path = devices.a.path_of(eid)
    path.write_text(path.read_text() + f"\nThe token is {TOKEN}\n")  # typed by hand: no store write refused it
    report = run.sync(devices.a.root)
    said = [n for n in report.notes if f"{eid}.md" in n]
    assert said and "secret" in said[0] and "sync again" in said[0] and TOKEN not in said[0]
    pushed = git(devices.remote, "show", f"main:{eid}.md")
    assert TOKEN not in pushed and "blue pipeline" in pushed
    run.sync(devices.b.root)
    assert TOKEN not in "".join(p.decode("utf-8", "replace") for p in synced_files(devices.b.root).values())


def test_a_password_in_the_url_is_never_stored_and_a_failed_init_leaves_nothing(tmp_path: Path) -> None:
    s = Store(tmp_path / "m")
    s.init()
    before = synced_files(s.root)
    with pytest.raises(MemsearchError):
        run.init(s.root, remote="https://ana:hunter2secret@127.0.0.1:9/none.git", device="laptop")
    assert synced_files(s.root) == before and not (s.root / ".git").exists()
    stored = [p for p in s.root.rglob("*") if p.is_file() and b"hunter2secret" in p.read_bytes()]
    assert stored == []


def test_sync_state_is_private_to_its_owner(devices: Devices) -> None:
    mode = stat.S_IMODE((devices.a.root / ".memsearch-tui" / "sync.json").stat().st_mode)
    assert mode == 0o600


@pytest.mark.parametrize(
    ("url", "secret"),
    [
        ("https://ana:p@ss@host.example/x.git", "p@ss"),
        ("https://ana:s3cr3t@host.example/x.git", "s3cr3t"),
        ("https://tok@en:x@host.example/x.git", "tok@en"),
    ],
)
def test_urls_are_masked_at_the_last_at_sign(url: str, secret: str) -> None:
    shown = shown_url(url)
    assert secret not in shown and shown == "https://…@host.example/x.git"


def test_the_other_devices_name_is_checked_before_it_enters_an_entry(devices: Devices) -> None:
    eid = versions.add_entry(devices.a, "notes", "Deploy steps", "Deploy with the blue pipeline.")["entry"]["id"]
    devices.sync_all()
    versions.update_entry(devices.b, eid, Change(body="Deploy by hand on Fridays only."))
    evil = "memsearch-tui (x\x1b]0;owned\x07\x1b[31m)"
    raw = b"---\ntitle: Deploy steps\nupdated: 2000-01-01\n---\nDeploy with the green pipeline, never the blue one.\n"
    forge(devices.remote, {f"{eid}.md": ("100644", raw)}, name=evil)
    report = run.sync(devices.b.root)
    text = "".join(p.decode("utf-8", "replace") for p in synced_files(devices.b.root).values())
    assert report.conflicts == [eid]
    assert "from the other device (sync)" in text
    assert "\x1b" not in text + "".join(report.notes) and "\x07" not in text


def test_a_password_in_the_url_goes_to_gits_credential_helper(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    home = tmp_path / "home"
    home.mkdir()
    store_file = tmp_path / "helper-store"
    (home / ".gitconfig").write_text(f"[credential]\n\thelper = store --file {store_file}\n")
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.setenv("XDG_CONFIG_HOME", str(home / ".config"))
    s = Store(tmp_path / "m")
    s.init()
    with pytest.raises(MemsearchError):
        run.init(s.root, remote="https://ana:hunter2secret@127.0.0.1:9/none.git", device="laptop")
    assert "hunter2secret" in store_file.read_text()
    assert not [p for p in s.root.rglob("*") if p.is_file() and b"hunter2secret" in p.read_bytes()]
