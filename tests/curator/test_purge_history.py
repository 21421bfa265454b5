"""Issue 38: an accepted purge (a lifecycle proposal's, or ``trash purge --yes``) is in the
history: ``undo --list`` shows it as done and not undoable, ``undo`` stops at it with the
reason, and its record keeps none of the purged bytes nor the names of what it deleted."""

from __future__ import annotations

from pathlib import Path

SECRET_BODY = "The old VPN gateway 旧的网关 is vpn-legacy.example.internal."


def _store_with_a_purge_due(cli, monkeypatch) -> None:
    monkeypatch.setenv("MEMSEARCH_TUI_NOW", "2026-10-01T12:00:00Z")
    assert cli("init").code == 0
    assert cli("add", "notes", "Gateway", "--body", SECRET_BODY).code == 0
    assert cli("trash", "notes/gateway", "--reason", "retired").code == 0
    monkeypatch.setenv("MEMSEARCH_TUI_NOW", "2026-11-30T12:00:00Z")  # past the 30 days kept


def _log_text(root: Path) -> str:
    return "\n".join(p.read_text(encoding="utf-8") for p in sorted((root / ".memsearch-tui" / "oplog").glob("*.json")))


def test_an_accepted_purge_proposal_is_in_the_history_and_not_undoable(cli, tmp_path: Path, monkeypatch) -> None:
    _store_with_a_purge_due(cli, monkeypatch)
    r = cli("--json", "lifecycle", "apply")  # review is on by default: a proposal
    pid = r.json["data"]["proposal"]["id"]
    assert "purge" in cli("lifecycle", "show", pid).out
    assert cli("lifecycle", "accept", pid).code == 0
    assert not list((tmp_path / "memory" / ".trash").rglob("gateway*.md"))

    r = cli("--json", "undo", "--list")
    newest = r.json["data"]["operations"][0]
    assert newest["kind"] == "purge" and not newest["undone"]
    assert "purged for good" in newest["purged"] and newest["files"] == []
    assert "(not undoable) purge 1 entry from the trash" in cli("undo", "--list").out.splitlines()[0]

    r = cli("--json", "undo")
    assert r.code == 1 and r.json["error"]["code"] == "conflict"
    assert "cannot undo 'purge 1 entry from the trash" in r.json["error"]["message"]
    assert "purged for good" in r.json["error"]["message"]
    r = cli("undo")
    assert r.code == 1 and r.err.startswith("error: cannot undo") and "Traceback" not in r.err
    assert not list((tmp_path / "memory" / ".trash").rglob("gateway*.md"))  # still gone

    log = _log_text(tmp_path / "memory")
    assert "vpn-legacy" not in log and "notes/gateway" not in log and "网关" not in log


def test_trash_purge_yes_is_recorded_too(cli, tmp_path: Path, monkeypatch) -> None:
    _store_with_a_purge_due(cli, monkeypatch)
    assert cli("trash", "purge", "--all", "--yes").code == 0
    [newest, *_] = cli("--json", "undo", "--list").json["data"]["operations"]
    assert newest["kind"] == "purge" and newest["purged"]
    assert cli("undo").code == 1
