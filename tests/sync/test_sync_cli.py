"""``memsearch-tui sync``, ``sync init``, ``sync status`` through the CLI (in-process)."""

from __future__ import annotations

from pathlib import Path

from tests.sync.conftest import make_remote


def test_sync_init_sync_and_status_round_trip(cli, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    remote = make_remote(tmp_path)
    a, b = tmp_path / "a", tmp_path / "b"
    assert cli("init", root=a).code == 0
    assert cli("add", "notes", "Alpha launch", "--body", "We ship alpha on Friday.", root=a).code == 0
    first = cli("--json", "sync", "init", "--remote", str(remote), "--device", "laptop", root=a)
    assert first.code == 0 and first.json["data"]["pushed"] is True
    cloned = cli("sync", "init", "--remote", str(remote), "--device", "desktop", root=b)
    assert cloned.code == 0 and "cloned" in cloned.out
    assert cli("add", "notes", "Beta plan", "--body", "Beta opens in March.", root=b).code == 0
    assert cli("sync", root=b).code == 0
    got = cli("--json", "sync", root=a)
    assert got.code == 0 and got.json["data"]["received"] == 1
    assert "notes/beta-plan" in cli("ls", root=a).out
    status = cli("--json", "sync", "status", root=a).json["data"]
    assert status["device"] == "laptop" and status["ahead"] == 0 and status["behind"] == 0


def test_sync_before_init_is_a_clear_refusal(cli, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    cli("init")
    out = cli("sync")
    assert out.code == 1 and "sync init" in out.err and "Traceback" not in out.err
    status = cli("sync", "status")
    assert status.code == 0 and "not synced" in status.out


def test_a_remote_url_with_a_password_is_never_echoed(cli, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    cli("init")
    out = cli("sync", "init", "--remote", "https://ana:hunter2secret@127.0.0.1:9/none.git", "--device", "laptop")
    assert out.code == 1
    assert "hunter2secret" not in out.out + out.err


def test_status_right_after_a_clone_names_the_clone_as_the_last_sync(cli, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    """Issue 31 item 9: a clone is this device's first sync; status said "last sync never"."""
    remote = make_remote(tmp_path)
    a, b = tmp_path / "a", tmp_path / "b"
    assert cli("init", root=a).code == 0
    assert cli("sync", "init", "--remote", str(remote), "--device", "laptop", root=a).code == 0
    assert cli("sync", "init", "--remote", str(remote), "--device", "desktop", root=b).code == 0
    status = cli("sync", "status", root=b)
    assert status.code == 0 and "last sync never" not in status.out, status.out
    data = cli("--json", "sync", "status", root=b).json["data"]
    assert data["last_sync"] and data["behind"] == 0 and data["ahead"] == 0
