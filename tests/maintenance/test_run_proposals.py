"""Whole runs: proposals for review, accept/reject/conflict, undo, review = false, isolation."""

from __future__ import annotations

import pytest

from memsearch_tui.engine.core.errors import Conflict, NotFound, Refused
from memsearch_tui.engine.history import undo
from memsearch_tui.engine.maintenance import run_tasks, status
from memsearch_tui.engine.memsearch.state import load_state
from memsearch_tui.engine.review import proposals
from tests.maintenance.conftest import answer_script

NEW = '{"action": "replace", "reason": "journals added a decision", "content": "# Project\\n\\n- Milvus Lite chosen"}'
OLD = "# Project\n\nHand-curated notes \u2014 keep me.\r\n"


def run(env, **kw):
    return [r for r in run_tasks(env.project, env.config(), memory_root=env.store, **kw) if r.result != "disabled"]


def test_replace_becomes_pending_proposal_then_accept_and_undo(env):
    target = env.mem / "PROJECT.md"
    target.write_bytes(OLD.encode())
    env.command_provider(answer_script(env, NEW))
    (r,) = run(env)
    assert r.result == "proposed" and r.proposal_id
    assert target.read_bytes() == OLD.encode()  # nothing lands unseen
    (p,) = proposals.list_pending(env.project)
    assert (p.id, p.platform, p.task, p.target) == (r.proposal_id, "claude-code", "project_review", str(target))
    assert p.reason == "journals added a decision" and p.input_digest.startswith("sha256:")
    assert p.content == "# Project\n\n- Milvus Lite chosen\n" and p.created.endswith("Z")
    diff = proposals.diff(env.project, p.id)
    assert "-Hand-curated notes \u2014 keep me.\r\n" in diff and "+- Milvus Lite chosen\n" in diff
    assert load_state(env.mem)[0]["claude-code.project_review"]["proposal_id"] == p.id
    row = next(s for s in status(env.project, env.config()) if s.task == "project_review")
    assert row.pending_proposals == [p.id] and row.last_action == "proposed" and row.reason == "input unchanged"

    done = proposals.accept(env.project, p.id[:12], memory_root=env.store)
    assert done.status == "accepted" and proposals.list_pending(env.project) == []
    assert target.read_text(encoding="utf-8") == "# Project\n\n- Milvus Lite chosen\n"
    undo.undo_last(env.store)
    assert target.read_bytes() == OLD.encode()  # byte-exact, CRLF and all
    assert [q.id for q in proposals.list_pending(env.project)] == [p.id]  # undo puts it back for review
    proposals.accept(env.project, p.id, memory_root=env.store)
    with pytest.raises(Refused, match="already accepted"):
        proposals.accept(env.project, p.id, memory_root=env.store)


def test_a_rejection_is_logged_and_undone(env):
    env.command_provider(answer_script(env, NEW))
    (r,) = run(env)
    proposals.reject(env.project, r.proposal_id, note="not now", memory_root=env.store)
    assert proposals.list_pending(env.project) == []
    rec = undo.undo_last(env.store)
    assert "reject proposal" in rec.summary
    (back,) = proposals.list_pending(env.project)
    assert back.id == r.proposal_id and back.status == "pending"


def test_accept_refuses_when_target_changed(env):
    target = env.mem / "PROJECT.md"
    target.write_text("v1\n", encoding="utf-8")
    env.command_provider(answer_script(env, NEW))
    (r,) = run(env)
    target.write_text("v2 edited by hand\n", encoding="utf-8")
    assert proposals.get(env.project, r.proposal_id).summary()["target_changed"] is True
    with pytest.raises(Conflict, match="changed since proposal"):
        proposals.accept(env.project, r.proposal_id, memory_root=env.store)
    assert target.read_text(encoding="utf-8") == "v2 edited by hand\n"
    proposals.accept(env.project, r.proposal_id, memory_root=env.store, force=True)
    assert target.read_text(encoding="utf-8").startswith("# Project")


def test_accept_edited_text(env):
    env.command_provider(answer_script(env, NEW))
    (r,) = run(env)
    proposals.accept(env.project, r.proposal_id, memory_root=env.store, content="# Mine\n")
    assert (env.mem / "PROJECT.md").read_text(encoding="utf-8") == "# Mine\n"
    assert proposals.get(env.project, r.proposal_id).decision_note == "edited before accepting"


def test_rejected_input_is_not_proposed_again(env):
    env.command_provider(answer_script(env, NEW))
    (r,) = run(env)
    proposals.reject(env.project, r.proposal_id, note="wrong")
    (again,) = run(env, force=True)
    assert again.result == "skip" and f"proposal {r.proposal_id} for this input was rejected" in again.reason
    assert proposals.list_pending(env.project) == []
    (env.mem / "memory" / "2026-11-29.md").write_text("- more\n", encoding="utf-8")
    (fresh,) = run(env, force=True)
    assert fresh.result == "proposed"


def test_newer_proposal_supersedes_pending_one(env):
    env.command_provider(answer_script(env, NEW))
    (a,) = run(env)
    (b,) = run(env, force=True)
    assert [p.id for p in proposals.list_pending(env.project)] == [b.proposal_id]
    assert proposals.get(env.project, a.proposal_id).status == "superseded"


def test_review_false_replaces_at_once_and_is_undoable(env):
    target = env.mem / "PROJECT.md"
    target.write_text("old\n", encoding="utf-8")
    env.command_provider(answer_script(env, NEW), review=False)
    (r,) = run(env)
    assert r.result == "replaced" and target.read_text(encoding="utf-8").startswith("# Project")
    assert proposals.list_all(env.project) == []
    undo.undo_last(env.store)
    assert target.read_text(encoding="utf-8") == "old\n"


def test_failing_task_recorded_next_task_runs(env):
    bad = env.script("bad", "cat >/dev/null; exit 1\n")
    env.config_file(
        '[plugins.claude-code.project_review]\nenabled = true\nprovider = "bad"\n'
        '[plugins.claude-code.user_profile]\nenabled = true\nprovider = "good"\n'
        f'[llm.providers.bad]\ntype = "command"\ncommand = ["{bad}"]\n'
        f'[llm.providers.good]\ntype = "command"\ncommand = ["{answer_script(env, NEW)}"]\n'
    )
    first, second = run(env)
    assert (first.task, first.result) == ("project_review", "error")
    assert (second.task, second.result) == ("user_profile", "proposed")
    state = load_state(env.mem)[0]
    assert state["claude-code.project_review"]["last_action"] == "error"
    # still due next time (no success recorded), unchanged input does not hide the failure
    (again, _) = run(env)
    assert again.result == "error"


def test_skip_disabled_and_locked(env):
    env.command_provider(answer_script(env, '{"action": "none", "reason": "nothing"}'))
    results = run_tasks(env.project, env.config(), memory_root=env.store)
    assert [(r.task, r.result) for r in results] == [("project_review", "none"), ("user_profile", "disabled")]
    (skip,) = run(env)
    assert (skip.result, skip.reason) == ("skip", "input unchanged")
    from memsearch_tui.engine.maintenance.locks import task_lock

    with task_lock(env.mem, "claude-code", "project_review"):
        (locked,) = run(env, force=True)
    assert locked.result == "locked"
    assert run(env, platforms=["codex"]) == []


def test_unknown_proposal(env):
    with pytest.raises(NotFound):
        proposals.get(env.project, "nope")


def test_memsearch_dir_env_is_honoured(env, monkeypatch, tmp_path):
    moved = tmp_path / "elsewhere"
    (moved / "memory").mkdir(parents=True)
    (moved / "memory" / "2026-11-28.md").write_text("- x\n", encoding="utf-8")
    monkeypatch.setenv("MEMSEARCH_DIR", str(moved))
    env.command_provider(answer_script(env, '{"action": "none", "reason": "n"}'))
    (r,) = run(env)
    assert r.result == "none"
    assert (moved / ".maintenance-state.json").exists()
    assert not (env.mem / ".maintenance-state.json").exists()


def test_due_tasks_matches_what_a_run_does(env):
    from memsearch_tui.engine.maintenance import due_tasks

    env.command_provider(answer_script(env, '{"action": "none", "reason": "n"}'))
    assert due_tasks(env.project, env.config()) == [("claude-code", "project_review")]
    run(env)
    assert due_tasks(env.project, env.config()) == []
    assert due_tasks(env.project, env.config(), force=True) == [("claude-code", "project_review")]
    assert due_tasks(env.project, env.config(), platforms=["codex"], force=True) == []
