"""The typed engine API on real temp stores: reads, writes under each policy, proposals."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from memsearch_tui.engine.api import (
    Document,
    Memory,
    Proposal,
    SearchResult,
    WriteResult,
    mcp_writes,
    redact,
    to_json,
)
from memsearch_tui.engine.core.errors import Conflict, InvalidInput, NotFound, Refused

JOURNAL = """\
# 2026-11-29

## Session 09:00

### 09:05
<!-- session:s1 turn:1 transcript:/t/s1.jsonl -->
- Set up the deploy pipeline for the shop
- User prefers small pull requests

## Session 15:00

### 15:10
<!-- session:s2 turn:1 transcript:/t/s2.jsonl -->
- Moved the orders database to Postgres 16
"""

FLY = "We deploy the shop to Fly.io every Friday afternoon, after the smoke tests pass."
KEY = "ghp_" + "a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8"


@pytest.fixture
def env(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> tuple[Path, Path]:
    """(memory root, project): an initialised store, a journal day and PROJECT.md."""
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    monkeypatch.setenv("MEMSEARCH_TUI_DATA_DIR", str(tmp_path / "data"))
    monkeypatch.delenv("MEMSEARCH_DIR", raising=False)
    root, project = tmp_path / "memory", tmp_path / "proj"
    mem = project / ".memsearch" / "memory"
    mem.mkdir(parents=True)
    (mem / "2026-11-29.md").write_text(JOURNAL, encoding="utf-8")
    (project / ".memsearch" / "PROJECT.md").write_text("# Project\n\nThe shop runs on Kubernetes.\n")
    with Memory(root, project) as m:
        m.store.init()
        m.entries.add("ops", "Deploy day", FLY, ["deploy", "fly"], 0.8)
        m.entries.add("people/team", "Code review", "Alice reviews every database migration before merge.", ["review"])
    return root, project


def test_search_returns_typed_hits_with_titles_and_strategy(env):
    root, project = env
    with Memory(root, project) as m:
        res = m.search.query("Fly.io", k=5)
    assert isinstance(res, SearchResult)
    assert res.strategy == "grep" and "files" in res.reason
    hit = res.hits[0]
    assert (hit.id, hit.title, hit.source) == ("ops/deploy-day", "Deploy day", "store")
    assert hit.lines[0] >= 1 and "Fly.io" in hit.snippet
    data = to_json(res)
    assert data["hits"][0]["lines"] == list(hit.lines)
    json.dumps(data)  # JSON-able all the way down


def test_search_bounds_its_query(env):
    with Memory(*env) as m, pytest.raises(InvalidInput, match="query is"):
        m.search.query("x" * 5000)


def test_read_entry_journal_project_and_line_range(env):
    root, project = env
    with Memory(root, project) as m:
        doc = m.entries.read("ops/deploy-day")
        assert isinstance(doc, Document) and doc.kind == "entry" and doc.version == 1
        assert FLY in doc.text and doc.lines == (1, doc.total_lines)
        part = m.entries.read("ops/deploy-day.md", lines=(1, 2))
        assert part.lines == (1, 2) and part.text.count("\n") == 2
        day = m.entries.read("2026-11-29")
        assert day.kind == "journal" and "Postgres 16" in day.text
        assert m.entries.read("PROJECT.md").text.startswith("# Project")
        assert m.entries.read("INDEX.md").kind == "index"
        with pytest.raises(NotFound):
            m.entries.read("USER.md")
        with pytest.raises(NotFound):
            m.entries.read("ops/nope")
        with pytest.raises(Refused):
            m.entries.read("../../etc/passwd")
        with pytest.raises(Refused):
            m.entries.read("/etc/passwd")
        with pytest.raises(Refused):
            m.entries.read(".memsearch-tui/oplog/1.json")
        with pytest.raises(InvalidInput):
            m.entries.read("ops/deploy-day", lines=(5, 2))


def test_list_categories_and_journal(env):
    with Memory(*env) as m:
        ids = [e.id for e in m.entries.list()]
        assert ids == ["ops/deploy-day", "people/team/code-review"]
        assert [e.id for e in m.entries.list("people")] == ["people/team/code-review"]
        assert m.entries.list(status="archived") == ()
        cats = {c.name: c.entries for c in m.entries.categories()}
        assert cats == {"ops": 1, "people": 1, "people/team": 1}
        day = m.journal.day()
        assert day.date == "2026-11-29" and len(day.sessions) == 2
        one = m.journal.day("2026-11-29", session="s2")
        assert [s.time for s in one.sessions] == ["15:00"]
        assert one.sessions[0].turns[0].bullets == ("Moved the orders database to Postgres 16",)
        with pytest.raises(NotFound):
            m.journal.day("2020-01-01")


def test_direct_writes_check_everything_and_keep_conflicts_as_versions(env):
    root, project = env
    with Memory(root, project, actor="mcp:tester") as m:
        with pytest.raises(Refused) as dup:
            m.entries.add("misc", "Another title", FLY)
        assert dup.value.code == "duplicate"
        with pytest.raises(Refused) as sec:
            m.entries.add("misc", "Token", f"the token is {KEY}")
        assert sec.value.code == "secret" and KEY not in sec.value.message
        with pytest.raises(Refused):
            m.entries.add("../escape", "Bad", "some text that is long enough to matter here")
        out = m.entries.add("ops", "Deploy day", "We deploy the shop to Render every Monday morning.", ["deploy"])
        assert isinstance(out, WriteResult) and out.action == "conflict" and out.entry.version == 2
        assert (root / ".versions" / "ops" / "deploy-day" / "v1.md").is_file()
        with pytest.raises(Conflict):
            m.entries.update("ops/deploy-day", importance=0.5, expected=1)
        ok = m.entries.update("ops/deploy-day", importance=0.5, expected=2)
        assert ok.action == "updated"
        gone = m.trash.put("people/team/code-review", "left the team")
        assert gone.action == "trashed" and not (root / "people/team/code-review.md").exists()
        assert list((root / ".trash").rglob("code-review.md"))
        done = [(h.summary, h.by) for h in m.history.list(10)]
        assert any(by == "mcp:tester" and "trash" in s and "[by" not in s for s, by in done)
        undone = m.history.undo()
        assert undone.kind == "trash" and (root / "people/team/code-review.md").exists()


def test_read_only_refuses_every_write(env):
    with Memory(*env, writes="read-only") as m:
        for call in (
            lambda: m.entries.add("misc", "X", "text"),
            lambda: m.entries.update("ops/deploy-day", importance=0.1),
            lambda: m.trash.put("ops/deploy-day", "no"),
            lambda: m.proposals.propose("PROJECT.md", "# P\n", "why"),
        ):
            with pytest.raises(Refused) as exc:
                call()
            assert exc.value.code == "read_only"
        assert m.entries.read("ops/deploy-day").version == 1  # reads still work


def test_review_mode_makes_proposals_that_a_person_accepts(env):
    root, project = env
    with Memory(root, project, writes="review", actor="mcp:tester") as agent:
        out = agent.entries.add("misc", "Shop hours", "The shop opens at 9 and closes at 18.", reason="user said so")
        assert out.action == "proposed" and out.entry is None
        assert not (root / "misc").exists()
        with pytest.raises(Refused):  # checks still run before a proposal is made
            agent.entries.add("misc", "Copy", FLY)
        forget = agent.trash.put("ops/deploy-day", "outdated")
        pending = agent.proposals.list()
        assert {p.kind for p in pending} == {"remember", "forget"}
        assert all(isinstance(p, Proposal) and p.author == "mcp:tester" for p in pending)
        assert (root / "ops/deploy-day.md").exists()
    with Memory(root, project) as person:
        done = person.proposals.accept(out.proposal.id)
        assert done.status == "accepted"
        assert person.entries.read("misc/shop-hours").title == "Shop hours"
        person.proposals.reject(forget.proposal.id)
        assert (root / "ops/deploy-day.md").exists()
        assert person.proposals.list() == ()
        assert any("accepted" in h.by and "mcp:tester" in h.by for h in person.history.list(5))


def test_propose_project_md_and_entry_rewrites(env):
    root, project = env
    with Memory(root, project, writes="review", actor="mcp:tester") as agent:
        p = agent.proposals.propose("PROJECT.md", "# Project\n\nThe shop runs on Nomad now.\n", "migration finished")
        assert p.origin == "project" and p.kind == "rewrite" and p.reason == "migration finished"
        e = agent.proposals.propose("ops/deploy-day", FLY + "\nAlso on holidays.\n", "more detail")
        assert e.origin == "store" and e.kind == "revise"
        with pytest.raises(Refused):
            agent.proposals.propose("PROJECT.md", f"key {KEY}", "oops")
        with pytest.raises(NotFound):
            agent.proposals.propose("ops/missing", "text", "why")
    with Memory(root, project) as person:
        assert {x.id for x in person.proposals.list()} == {p.id, e.id}
        person.proposals.accept(p.id)
        assert "Nomad" in (project / ".memsearch" / "PROJECT.md").read_text()
        person.proposals.accept(e.id)
        assert "Also on holidays." in person.entries.read("ops/deploy-day").text


def test_mcp_writes_comes_from_the_home_file_only(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    home = tmp_path / "home"
    monkeypatch.setenv("HOME", str(home))
    assert mcp_writes(home) == "review"
    (home / ".memsearch").mkdir(parents=True)
    (home / ".memsearch" / "config.toml").write_text('[tui.mcp]\nwrites = "direct"\n')
    proj = tmp_path / "proj"
    proj.mkdir()
    (proj / ".memsearch.toml").write_text('[tui.mcp]\nwrites = "read-only"\n')
    assert mcp_writes(home) == "direct"
    (home / ".memsearch" / "config.toml").write_text('[tui.mcp]\nwrites = "everything"\n')
    with pytest.raises(InvalidInput, match="writes"):
        mcp_writes(home)


def test_to_json_and_redact():
    data = to_json(WriteResult("added", "ok"))
    assert data == {
        "action": "added",
        "message": "ok",
        "entry": None,
        "proposal": None,
        "conflict_reason": "",
        "trash_key": "",
        "referenced_by": [],
    }
    assert redact({"a": [f"see {KEY} here"]}) == {"a": ["see [redacted: GitHub token] here"]}
    with pytest.raises(TypeError):
        to_json(object())


def test_an_agent_proposal_shows_its_text_to_the_reviewer(env, cli):
    root, project = env
    with Memory(root, project, writes="review", actor="mcp:tester") as agent:
        out = agent.entries.add("misc", "Shop hours", "The shop opens at 9 and closes at 18.", reason="user said so")
    shown = cli("--json", "lifecycle", "show", out.proposal.id, root=root)
    assert shown.code == 0, shown.err
    data = shown.json["data"]["proposal"]
    assert (data["author"], data["reason"]) == ("mcp:tester", "user said so")
    assert "closes at 18" in data["content"] and data["changes"][0].startswith("remember")
    assert "closes at 18" in cli("lifecycle", "show", out.proposal.id, root=root).out
    review = cli("--json", "proposals", "show", out.proposal.id, root=root)
    assert review.code == 0 and review.json["data"]["proposal"]["after"] == "The shop opens at 9 and closes at 18."


def test_a_journal_hit_reads_back_by_its_path_and_lines(env):
    with Memory(*env) as m:
        res = m.search.query("Postgres", source="journal")
        hit = res.hits[0]
        assert hit.kind == "journal" and hit.title == "2026-11-29"
        doc = m.entries.read(hit.path, lines=hit.lines)
        assert doc.kind == "journal" and doc.ref == "memory/2026-11-29.md" and "Postgres 16" in doc.text


def test_per_client_views_share_one_warm_searcher(env):
    """The MCP server makes a view per call (with_actor); the searcher must not be rebuilt each time."""
    with Memory(*env) as m:
        a, b = m.with_actor("mcp:a"), m.with_actor("mcp:b")
        a.search.query("Fly.io", strategy="index")
        first = m.warm.searcher
        b.search.query("Alice", strategy="index")
        assert first is not None and m.warm.searcher is first
        assert (a.actor, b.actor, m.actor) == ("mcp:a", "mcp:b", "")


def test_refresh_behind_sees_an_outside_change_by_the_query_after_next(env):
    """The MCP server's searcher re-checks files after answering, so queries stay warm."""
    root, project = env
    with Memory(root, project, refresh_behind=True) as m:
        assert m.search.query("Kubernetes", strategy="index").hits  # PROJECT.md
        m.warm.wait()
        (root / "ops" / "pager.md").write_text("---\ntitle: Pager\nstatus: active\n---\nThe zebrafish pager rota.\n")
        m.search.query("zebrafish", strategy="index")  # may still answer from the last check
        m.warm.wait()  # ... which the background re-check has now brought up to date
        assert [h.id for h in m.search.query("zebrafish", strategy="index").hits] == ["ops/pager"]
