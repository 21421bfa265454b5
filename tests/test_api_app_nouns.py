"""The API the app reaches the engine through: records converted to dataclasses keep their
wire keys, and the use cases added for the app refuse what the person was not shown."""

from __future__ import annotations

from datetime import date
from pathlib import Path

import pytest

from memsearch_tui.engine.api import Memory, to_json
from memsearch_tui.engine.api.errors import Conflict
from memsearch_tui.engine.api.types import JournalChange, Move, OpenConflict, Version, VersionedEntry
from memsearch_tui.engine.curator import lifecycle, versions
from memsearch_tui.engine.review import store_proposals
from tests.test_api import env  # noqa: F401  (the fixture)

ENTRY = "ops/deploy-day"


def _conflicted(m: Memory) -> None:
    """An agent's contradicting update: v1 kept, v2 current, an open conflict."""
    out = m.with_actor("mcp:tester").entries.update(
        ENTRY, body="We deploy on Mondays with Kubernetes, never on Fridays."
    )
    assert out.action == "conflict"


def test_converted_records_are_the_engine_records_on_the_wire(env):  # noqa: F811
    """``--json`` and MCP print ``to_json`` of these: the same keys, in the same order, as
    the engine's dicts they replace."""
    root, project = env
    with Memory(root, project) as m:
        _conflicted(m)
        m.entries.add("misc", "Old", "Something that expires.", ["x"], expires=date(2001, 1, 1))
        listed = m.versions.list(ENTRY)
        assert all(isinstance(v, Version) for v in listed) and [v.current for v in listed] == [False, True]
        assert to_json(listed) == versions.list_versions(m.store, ENTRY)
        assert [type(c) for c in m.versions.conflicts()] == [OpenConflict]
        assert to_json(m.versions.conflicts()) == versions.conflicts(m.store)
        plan = m.lifecycle.plan()
        assert [(p.action, p.id) for p in plan] == [("expire", "misc/old")] and isinstance(plan[0], Move)
        assert to_json(plan) == lifecycle.plan(m.store)
        assert [list(d) for d in to_json(plan)] == [list(d) for d in lifecycle.plan(m.store)]


def test_journal_forget_returns_a_journal_change_with_the_engines_keys(env):  # noqa: F811
    root, project = env
    with Memory(root, project) as m:
        out = m.journal.forget("2026-11-29", reason="not needed")
    assert isinstance(out, JournalChange) and out.action == "forget" and out.trash_key
    wire = to_json(out)
    assert list(wire) == [
        "action", "day", "file", "removed", "reason", "trash_key", "trash_file", "file_deleted",
        "stale_proposals", "index", "memsearch_index",
    ]  # fmt: skip
    assert list(wire["removed"]) == ["lines", "session", "session_id", "turn", "turn_id", "anchor"]


def test_versioned_lists_open_conflicts_first_and_text_gives_each_version(env):  # noqa: F811
    root, project = env
    with Memory(root, project) as m:
        _conflicted(m)
        assert m.versions.versioned() == (VersionedEntry(ENTRY, "Deploy day", 2, True),)
        old, new = m.versions.text(ENTRY, 1), m.versions.text(ENTRY, 2)
    assert old.title == new.title == "Deploy day"
    assert "Fly.io" in old.text and "Kubernetes" in new.text and "Version history" not in new.text


def test_replace_writes_the_edited_bytes_undoably_and_refuses_a_change_made_since(env):  # noqa: F811
    root, project = env
    path = root / f"{ENTRY}.md"
    with Memory(root, project) as m:
        entry, shown = m.entries.seen(ENTRY)
        assert entry.id == ENTRY and shown == path.read_bytes()
        edited = shown.replace(b"Fly.io", b"Render")
        assert m.entries.replace(ENTRY, edited, expected=shown).id == ENTRY
        assert path.read_bytes() == edited
        m.history.undo()
        assert path.read_bytes() == shown
        theirs = shown + b"\n- an agent wrote this meanwhile\n"
        path.write_bytes(theirs)
        with pytest.raises(Conflict):
            m.entries.replace(ENTRY, edited, expected=shown)
    assert path.read_bytes() == theirs


def test_a_store_proposal_accepted_as_shown_applies_and_one_changed_since_is_refused(env):  # noqa: F811
    root, project = env
    with Memory(root, project) as m:
        m.entries.add("misc", "Old", "Something that expires.", ["x"], expires=date(2001, 1, 1))
        proposed = m.lifecycle.apply(review=True).proposal
        assert proposed is not None
        pid = proposed.id
        shown = m.proposals.get(pid)
        assert [(s.action, s.id) for s in m.proposals.moves(pid)] == [("expire", "misc/old")]
        raw = store_proposals.show(root, pid)
        raw["payload"]["moves"][0]["id"] = "ops/deploy-day"  # edited in place after it was shown
        store_proposals._save(root, raw)
        with pytest.raises(Conflict):
            m.proposals.accept(pid, expected=shown)
        assert m.store.get("ops/deploy-day").status == "active"
        now = m.proposals.get(pid)
        assert m.proposals.accept(pid, expected=now).status == "accepted"
        assert m.store.get("ops/deploy-day").status == "expired"  # what the person was shown second


def test_a_rewrite_accepted_with_the_bytes_shown_refuses_a_target_changed_since(env):  # noqa: F811
    root, project = env
    target = project / ".memsearch" / "PROJECT.md"
    with Memory(root, project, writes="review", actor="mcp:tester") as agent:
        pid = agent.proposals.propose("PROJECT.md", "# Project\n\nNomad now.\n", "moved").id
    with Memory(root, project) as m:
        shown = m.proposals.target_bytes(pid)
        assert shown == target.read_bytes()
        target.write_text("# Project\n\nEdited by hand meanwhile.\n")
        with pytest.raises(Conflict):
            m.proposals.accept(pid, force=True, expected=shown)
        assert "by hand" in target.read_text()


def test_the_journal_read_and_the_forecast_come_through_the_api(env):  # noqa: F811
    root, project = env
    with Memory(root, project) as m:
        [day_file] = m.journal.files()
        day, raw = m.journal.read(day_file)
        assert raw == Path(day_file).read_bytes() and day.sessions
        m.entries.add("misc", "Old", "Something that expires.", ["x"], expires=date(2001, 1, 1))
        forecast = m.lifecycle.forecast(30)
    assert forecast.counts["expire"][0] == 1
