"""A forgotten turn leaves the vector index too (when one was built), not only the files."""

from __future__ import annotations

from tests.journals.conftest import DAY


def test_forget_deletes_the_turns_vectors(cli, proj, day_path):
    r = cli("--json", "vectors", "index")
    assert r.code == 0, r.err
    r = cli("--json", "search", "-s", "vector", "-k", "3", "mocking the system clock in a flaky login test")
    assert any("flaky" in h["snippet"] for h in r.json["data"]["hits"])
    r = cli("--json", "journal", "forget", DAY, "-S", "s1", "-T", "t1", "-r", "wrong")
    assert r.code == 0, r.out
    assert (
        r.json["data"]["index"]["vectors"].endswith("deleted")
        and " 0 deleted" not in r.json["data"]["index"]["vectors"]
    )
    r = cli("--json", "vectors", "status")
    drift = r.json["data"]["drift"]
    assert drift["pending_deletes"] == 0 and drift["pending_vectors"] == 0 and drift["unindexed_files"] == 0
    assert drift["orphan_chunks"] == 0
    for strategy in ("vector", "hybrid"):
        r = cli("--json", "search", "-s", strategy, "-k", "10", "mocking the system clock in a flaky login test")
        assert not any("flaky" in h["snippet"] or "hunter2" in h["snippet"] for h in r.json["data"]["hits"]), strategy
