"""A hostile remote, a careless person, another device: sync's enemies, each a real git repo.

Every remote here is a real bare repository in a temp folder; hostile trees are forged
with ``git mktree``/``commit-tree`` (see ``conftest.forge``), as a server could serve them.
"""

from __future__ import annotations

import subprocess
import unicodedata
from pathlib import Path

import pytest

from memsearch_tui.engine.core.errors import MemsearchError, Refused
from memsearch_tui.engine.curator import versions
from memsearch_tui.engine.store.store import Store
from memsearch_tui.engine.sync import run
from memsearch_tui.engine.sync.commit import blob_id
from memsearch_tui.engine.sync.git import GitError
from tests.sync.conftest import Devices, forge, git, make_remote, refused_nothing_written, refused_whole, synced_files

ENTRY = b"---\ntitle: x\n---\nbody\n"


def test_a_blob_over_the_bound_is_refused_by_its_size_before_it_is_read(devices: Devices) -> None:
    bomb = b"\0" * (run.commit.MAX_BLOB + 1)  # compresses to a few KB: a zip bomb for a reader
    refused_whole(devices, {"notes/big.md": ("100644", bomb)}, "notes/big.md")


@pytest.mark.parametrize("name", ["notes/a\u009b31m.md", "notes/cod\u202egnp.md", "notes/a\u200bb.md"])
def test_names_with_c1_controls_or_bidi_or_invisible_characters_are_refused(devices: Devices, name: str) -> None:
    refused_whole(devices, {name: ("100644", ENTRY)}, "invisible or control character")


def test_names_that_are_not_utf8_are_refused(devices: Devices) -> None:
    tip = git(devices.remote, "rev-parse", "refs/heads/main")
    blob = git(devices.remote, "hash-object", "-w", "--stdin", data=ENTRY)
    inner = (
        subprocess.run(
            ["git", "-C", str(devices.remote), "mktree"],
            input=b"100644 blob " + blob.encode() + b"\tbad\xff.md\n",
            capture_output=True,
            check=True,
        )
        .stdout.decode()
        .strip()
    )
    forge(devices.remote, {})  # a fresh commit on the tip, then one adding the folder
    top = git(devices.remote, "ls-tree", "refs/heads/main")
    tree = git(devices.remote, "mktree", data=(top + f"\n040000 tree {inner}\tweird\n").encode())
    made = git(devices.remote, "commit-tree", tree, "-p", tip, "-m", "x")
    git(devices.remote, "update-ref", "refs/heads/main", made)
    before = synced_files(devices.b.root)
    with pytest.raises(Refused, match="nothing written"):
        run.sync(devices.b.root)
    assert synced_files(devices.b.root) == before


@pytest.mark.parametrize(
    ("one", "two"),
    [("notes/alpha.md", "notes/Alpha.md"), ("notes/caf\u00e9.md", unicodedata.normalize("NFD", "notes/caf\u00e9.md"))],
)
def test_two_names_one_file_on_a_mac_or_windows_are_refused(devices: Devices, one: str, two: str) -> None:
    refused_whole(devices, {one: ("100644", ENTRY), two: ("100644", ENTRY + b"2\n")}, two)


def test_a_name_too_long_for_a_file_system_is_refused(devices: Devices) -> None:
    refused_whole(devices, {"notes/" + "a" * 300 + ".md": ("100644", ENTRY)}, "aaaa")


def test_too_many_files_are_refused_by_count(devices: Devices, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(run.guard, "MAX_FILES", 20)
    refused_whole(
        devices,
        {f"notes/n{i}.md": ("100644", ENTRY + bytes([65 + i % 26])) for i in range(30)},
        "over the 20-file bound",
    )


def test_a_file_where_this_device_has_a_folder_stops_sync_with_one_line(devices: Devices) -> None:
    versions.add_entry(devices.b, "notes", "Beta", "Beta text.")
    run.sync(devices.b.root)
    forge(devices.remote, {"notes/beta.md/x.md": ("100644", ENTRY)})
    before = synced_files(devices.b.root)
    with pytest.raises(MemsearchError) as err:
        run.sync(devices.b.root)
    assert "notes/beta.md" in err.value.message
    assert synced_files(devices.b.root) == before


def test_a_remote_folder_where_this_device_has_a_new_file_stops_sync_with_one_line(devices: Devices) -> None:
    forge(devices.remote, {"notes/beta.md/x.md": ("100644", ENTRY)})  # a valid tree on its own
    versions.add_entry(devices.b, "notes", "Beta", "Beta text.")  # not yet sent: the clash is in the merge
    refused_nothing_written(devices.b.root, "notes/beta.md")


def test_two_spellings_of_one_name_made_by_hand_here_are_not_sent(devices: Devices) -> None:
    (devices.a.root / "notes").mkdir(exist_ok=True)
    (devices.a.root / "notes" / "gamma.md").write_bytes(ENTRY)
    (devices.a.root / "notes" / "Gamma.md").write_bytes(ENTRY + b"2\n")
    report = run.sync(devices.a.root)
    sent = git(devices.remote, "ls-tree", "-r", "--name-only", "main").splitlines()
    assert "notes/gamma.md" not in sent or "notes/Gamma.md" not in sent
    assert any("Gamma.md" in n or "gamma.md" in n for n in report.notes)
    run.sync(devices.b.root)  # and the other device still syncs


@pytest.mark.parametrize("lock", [".git/index.lock", ".git/refs/heads/main.lock"])
def test_a_lock_left_by_a_killed_git_is_named_with_what_to_do(devices: Devices, lock: str) -> None:
    versions.add_entry(devices.a, "notes", "Eta", "Eta text.")
    (devices.a.root / lock).write_text("")
    with pytest.raises(GitError) as err:
        run.sync(devices.a.root)
    assert lock.rsplit("/", 1)[1] in err.value.message and "remove that file" in err.value.message
    (devices.a.root / lock).unlink()
    run.sync(devices.a.root)


def test_a_write_that_fails_halfway_rolls_the_merge_back_and_names_the_file(devices: Devices) -> None:
    held = devices.b.root / "notes" / "keys"  # held back here (a secret): no commit knows it
    held.parent.mkdir(exist_ok=True)
    held.write_text("token " + "ghp_" + "a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8\n")
    forge(devices.remote, {"notes/a-first.md": ("100644", ENTRY), "notes/keys/x.md": ("100644", ENTRY)})
    refused_nothing_written(devices.b.root, "notes/keys")
    held.unlink()
    run.sync(devices.b.root)
    assert (devices.b.root / "notes/keys/x.md").read_bytes() == ENTRY


@pytest.mark.parametrize("name", [".MEMSEARCH-TUI/sync.json", ".Trash/notes/x.md"])
def test_a_private_folder_in_another_spelling_is_refused(devices: Devices, name: str) -> None:
    refused_whole(devices, {name: ("100644", b'{"remote": "/tmp/evil"}\n')}, "private folder")


def test_recovery_never_touches_a_path_outside_the_store_named_in_sync_json(devices: Devices, tmp_path: Path) -> None:
    outside = tmp_path / "outside.md"
    outside.write_bytes(b"precious\n")
    state = run.st.load(devices.b.root)
    assert state is not None
    head = git(devices.b.root, "rev-parse", "HEAD")
    state.in_progress = {
        "ours": head,
        "theirs": head,
        "started": "x",
        "wrote": {"../outside.md": blob_id(b"precious\n")},
    }
    run.st.save(devices.b.root, state)
    run.sync(devices.b.root)
    assert outside.read_bytes() == b"precious\n"


def test_a_branch_name_holding_a_terminal_control_is_refused_never_printed(tmp_path: Path) -> None:
    remote = make_remote(tmp_path)
    a = Store(tmp_path / "a")
    a.init()
    run.init(a.root, remote=str(remote), device="laptop")
    weird = "refs/heads/a\u009b31mb"
    git(remote, "update-ref", weird, "refs/heads/main")
    git(remote, "update-ref", "-d", "refs/heads/main")
    git(remote, "symbolic-ref", "HEAD", weird)
    with pytest.raises(Refused, match="U\\+009B") as err:
        run.init(tmp_path / "b", remote=str(remote), device="desktop")
    assert "\u009b" not in err.value.message
    assert not (tmp_path / "b").exists()
