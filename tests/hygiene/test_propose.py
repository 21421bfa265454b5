"""``hygiene --propose``: each store fix becomes a pending proposal; accepting one is one
logged, undoable operation; host files and journals are never changed."""

from __future__ import annotations

import json

import pytest

from memsearch_tui.engine.api import Memory
from memsearch_tui.engine.api.errors import Conflict
from memsearch_tui.engine.store.trash_index import list_trash

from .conftest import World, write
from .test_cli import _cli
from .test_kinds import AWS


def _files(world: World) -> dict[str, bytes]:
    return {
        p.relative_to(world.root).as_posix(): p.read_bytes()
        for p in sorted(world.root.rglob("*"))
        if p.is_file() and ".memsearch-tui" not in p.parts
    }


def _proposed(world: World, kind: str):
    with Memory(world.root, world.project) as mem:
        report = mem.hygiene.propose([kind])
    return [f for f in report.findings if f.kind == kind]


def test_duplicates_merge_into_the_newer_and_undo_restores_both(world: World) -> None:
    world.entry(
        "ops/db-a",
        "Staging database is refreshed from a production snapshot every night at two.\nIt takes 20 minutes.",
        updated="2026-11-01",
    )
    world.entry("ops/db-b", "Every night at two the staging database is refreshed from a production snapshot.")
    before = _files(world)
    (f,) = _proposed(world, "duplicate")
    assert f.proposal.startswith("merge-") and _files(world) == before  # proposing writes no memory
    with Memory(world.root, world.project) as mem:
        review = mem.proposals.review(f.proposal)
        assert "+It takes 20 minutes.\n" in review.diff and "merged into ops/db-b" in review.note
        mem.proposals.accept(f.proposal)
        kept = mem.entries.show("ops/db-b")
        assert "It takes 20 minutes." in kept.body and kept.version == 2
        assert (world.root / ".versions/ops/db-b/v1.md").read_bytes() == before["ops/db-b.md"]
        (gone,) = list_trash(world.root)
        assert gone.reason == "merged into ops/db-b" and gone.original_id == "ops/db-a"
        mem.history.undo()
    assert _files(world) == before


def test_contradiction_archives_the_older_one(world: World) -> None:
    world.entry("ops/first", "Staging resets on Monday.", updated="2026-10-01")
    world.entry("ops/second", "Staging resets on Friday.", updated="2026-11-01")
    before = _files(world)
    (f,) = _proposed(world, "contradiction")
    with Memory(world.root, world.project) as mem:
        assert [m.id for m in mem.proposals.moves(f.proposal)] == ["ops/first"]
        mem.proposals.accept(f.proposal)
        assert [e.id for e in mem.entries.list()] == ["ops/archived/first", "ops/second"]
        mem.history.undo()
    assert _files(world) == before


def test_secret_is_redacted_by_the_existing_redactor(world: World) -> None:
    world.entry("ops/aws-access", f"key id {AWS} for the deploy user")
    (f,) = _proposed(world, "secret")
    with Memory(world.root, world.project) as mem:
        assert AWS not in json.dumps(mem.proposals.get(f.proposal).summary)
        mem.proposals.accept(f.proposal)
        body = mem.entries.show("ops/aws-access").body
    assert AWS not in body and "[secret removed: " in body and "for the deploy user" in body


def test_a_redact_diff_shows_what_the_accept_writes_never_the_secret(world: World) -> None:
    """Trial of s12, problem 8: both sides of the diff read ``[redacted: …]`` (the display
    mask), so nothing showed what would change. The new side is the marker written."""
    world.entry("ops/aws-access", f"部署用户的 key id {AWS} for the deploy user")
    (f,) = _proposed(world, "secret")
    code, out = _cli(world, "proposals", "diff", f.proposal)
    assert code == 0 and AWS not in out
    old = [ln for ln in out.splitlines() if ln.startswith("-") and "key id" in ln]
    new = [ln for ln in out.splitlines() if ln.startswith("+") and "key id" in ln]
    assert old and new and old[0][1:] != new[0][1:], out
    assert "[redacted: " in old[0] and "[secret removed: " in new[0] and "for the deploy user" in new[0]
    with Memory(world.root, world.project) as mem:
        mem.proposals.accept(f.proposal)
        assert new[0][1:] in mem.entries.show("ops/aws-access").body


def test_dead_references_fixed_to_the_nearest_path_in_one_proposal(world: World) -> None:
    world.tracked("src/auth/login_flow.py", "docs/setup_guide.md")
    world.entry("notes/auth", "Login: src/auth/login.py. Setup: docs/setup-guide.md.")
    found = _proposed(world, "dead-reference")
    assert len(found) == 2 and found[0].proposal == found[1].proposal != ""
    with Memory(world.root, world.project) as mem:
        mem.proposals.accept(found[0].proposal)
        assert mem.entries.show("notes/auth").body == "Login: src/auth/login_flow.py. Setup: docs/setup_guide.md.\n"


def test_host_files_and_journals_stay_as_they_are_only_the_over_long_index_is_proposed(
    world: World, capsys: pytest.CaptureFixture[str]
) -> None:
    memory_md = write(world.claude_memory(), "".join(f"- fact number {n}\n" for n in range(1, 231)))
    world.entry("团队/发布", "每次发布前必须先在预发环境跑完整回归测试。\n")
    write(world.claude_memory().with_name("topic.md"), "- 每次发布前必须先在预发环境跑完整回归测试\n")
    day = world.journal("2026-11-02", f"## 10:00\nI used {AWS} to deploy\n")
    host_before, day_before = memory_md.read_bytes(), day.read_bytes()
    code, out = _cli(world, "hygiene", "--propose", "--json")
    findings = json.loads(out)["data"]["findings"]
    assert code == 0 and {f["kind"] for f in findings} >= {"over-long", "secret"}
    assert [f["kind"] for f in findings if f["proposal"]] == ["over-long"]  # condense: test_condense.py
    assert memory_md.read_bytes() == host_before and day.read_bytes() == day_before


def test_proposing_twice_files_each_once_and_a_changed_entry_refuses_accept(world: World) -> None:
    world.entry("ops/first", "Staging resets on Monday.", updated="2026-10-01")
    world.entry("ops/second", "Staging resets on Friday.", updated="2026-11-01")
    world.entry("ops/aws-access", f"key id {AWS} for the deploy user")
    first = _proposed(world, "secret") + _proposed(world, "contradiction")
    again = _proposed(world, "secret") + _proposed(world, "contradiction")
    assert [f.proposal for f in first] == [f.proposal for f in again]
    with Memory(world.root, world.project) as mem:
        assert len(mem.proposals.list()) == 2
    world.entry("ops/aws-access", f"key id {AWS} for the deploy user, edited", updated="2026-11-25")
    path = world.root / "ops/aws-access.md"
    path.write_text(path.read_text().replace("version: 1", "version: 2"))
    edited = path.read_bytes()
    with Memory(world.root, world.project) as mem, pytest.raises(Conflict, match="version 2"):
        mem.proposals.accept(first[0].proposal)
    assert path.read_bytes() == edited


def test_a_tampered_merge_naming_a_path_outside_the_store_is_refused(world: World) -> None:
    world.entry(
        "ops/db-a", "Staging database is refreshed from a production snapshot every night at two.", updated="2026-11-01"
    )
    world.entry("ops/db-b", "Every night at two the staging database is refreshed from a production snapshot.")
    (f,) = _proposed(world, "duplicate")
    path = world.root / ".memsearch-tui/proposals" / f"{f.proposal}.json"
    prop = json.loads(path.read_text())
    prop["payload"]["drop"] = "../../outside"
    path.write_text(json.dumps(prop))
    before = _files(world)
    with Memory(world.root, world.project) as mem, pytest.raises(Exception, match="tampered proposal"):
        mem.proposals.accept(f.proposal)
    assert _files(world) == before
