"""Every way a person can purge scrubs the search copies at once, not at the next hook.

Four paths delete text for good: ``trash purge``, a lifecycle plan carried out at once
(``lifecycle apply --now``), and a lifecycle plan accepted as a proposal (``lifecycle
accept`` and ``proposals accept``). Each goes through ``mem.trash.scrub``; after each, a
byte-for-byte grep of every file under the store, the project and the data folder (the
literal-search text cache, the manifest, the keyword index, Milvus Lite's folder) finds
none of the purged text.
"""

from __future__ import annotations

from pathlib import Path

import pytest

CANARY = "zq-canary-5d2e the vault combination changes on the first monday"
LATER = "2026-12-20T12:00:00Z"  # past trash_retention_days (30) since the trash on 2026-11-10


def _files_holding(folders: list[Path], needle: bytes) -> list[str]:
    return [str(p) for f in folders for p in sorted(f.rglob("*")) if p.is_file() and needle in p.read_bytes()]


@pytest.fixture
def trashed(cli, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, request: pytest.FixtureRequest) -> list[Path]:
    """An entry holding CANARY, searched (so every search copy holds it; with the param
    ``"vectors"`` also embedded), then trashed long enough ago that the lifecycle plan
    purges it; the folders to grep."""
    monkeypatch.setenv("MEMSEARCH_TUI_DATA_DIR", str(tmp_path / "data"))
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    monkeypatch.setenv("MEMSEARCH_TUI_NOW", "2026-11-10T12:00:00Z")
    assert cli("init").code == 0
    assert cli("add", "ops", "Vault", "--body", CANARY).code == 0
    assert cli("add", "ops", "Runbook", "--body", "restart the worker pool when the queue backs up").code == 0
    for strategy in ("grep", "index"):  # the literal text cache, the manifest and the keyword index
        assert "ops/vault" in cli("search", "vault combination", "-s", strategy).out
    if getattr(request, "param", "") == "vectors":
        assert cli("vectors", "index").code == 0
        assert "ops/vault" in cli("search", "vault combination", "-s", "vector").out  # Milvus holds it
    assert cli("trash", "ops/vault").code == 0
    monkeypatch.setenv("MEMSEARCH_TUI_NOW", LATER)
    folders = [tmp_path / "memory", tmp_path / ".memsearch", tmp_path / "data"]
    assert any("/data/" in f for f in _files_holding(folders, CANARY.encode()))  # so the test can fail
    return folders


def _purge_by_trash(cli) -> None:
    r = cli("--json", "trash", "purge", "--all", "--yes")
    assert r.code == 0 and r.json["data"]["not_scrubbed"] == []


def _purge_by_plan_now(cli) -> None:
    r = cli("--json", "lifecycle", "apply", "--now")
    assert r.code == 0 and [m["action"] for m in r.json["data"]["applied"]] == ["purge"]


def _proposed(cli) -> str:
    r = cli("--json", "lifecycle", "apply")  # [tui] review defaults to true: a proposal
    assert r.code == 0 and r.json["data"]["proposal"]["kind"] == "lifecycle"
    return str(r.json["data"]["proposal"]["id"])


def _purge_by_lifecycle_accept(cli) -> None:
    assert cli("lifecycle", "accept", _proposed(cli)).code == 0


def _purge_by_proposals_accept(cli) -> None:
    r = cli("--json", "proposals", "accept", _proposed(cli))
    assert r.code == 0 and r.json["data"]["proposal"]["status"] == "accepted"


@pytest.mark.parametrize(
    "purge", [_purge_by_trash, _purge_by_plan_now, _purge_by_lifecycle_accept, _purge_by_proposals_accept]
)
def test_every_purge_path_leaves_no_copy_of_the_text(cli, trashed: list[Path], purge) -> None:
    purge(cli)
    assert _files_holding(trashed, CANARY.encode()) == []
    assert _files_holding(trashed, b"zq-canary-5d2e") == []
    assert "ops/runbook" in cli("search", "worker pool", "-s", "index").out  # the rest still found


@pytest.mark.slow
@pytest.mark.parametrize("trashed", ["vectors"], indirect=True)
def test_an_accepted_plan_scrubs_the_vectors_too(cli, trashed: list[Path]) -> None:
    """With the vector index built (Milvus Lite and the embedding model, for real)."""
    _purge_by_proposals_accept(cli)
    assert _files_holding(trashed, CANARY.encode()) == []
    found = cli("--json", "search", "vault combination", "-s", "vector").json["data"]["hits"]
    assert [h["id"] for h in found] == ["ops/runbook"]  # the vault's vector left the collection
