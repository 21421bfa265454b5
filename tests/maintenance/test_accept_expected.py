"""Accepting a PROJECT.md rewrite in the TUI passes the target as its diff showed it
(``expected=``): a change made after the diff was drawn is refused even with ``force``,
which only ever overwrites the changes the person was shown."""

from __future__ import annotations

import pytest

from memsearch_tui.engine.core.errors import Conflict
from memsearch_tui.engine.maintenance import run_tasks
from memsearch_tui.engine.review import proposals
from tests.maintenance.conftest import answer_script

NEW = '{"action": "replace", "reason": "journals added a decision", "content": "# Project\\n\\n- Milvus Lite chosen"}'


def test_accept_refuses_a_target_changed_after_the_diff_was_shown(env):
    target = env.mem / "PROJECT.md"
    target.write_text("v1\n", encoding="utf-8")
    env.command_provider(answer_script(env, NEW))
    [r] = [x for x in run_tasks(env.project, env.config(), memory_root=env.store) if x.result == "proposed"]
    target.write_text("v2 edited by hand\n", encoding="utf-8")  # seen in the diff: force may overwrite it
    [prop] = proposals.list_pending(env.project)
    shown = proposals.current_bytes(prop)
    assert shown == b"v2 edited by hand\n"
    target.write_text("v3 written by an agent after the diff was drawn\n", encoding="utf-8")
    for force in (False, True):
        with pytest.raises(Conflict, match="PROJECT.md"):
            proposals.accept(env.project, r.proposal_id, memory_root=env.store, force=force, expected=shown)
        assert target.read_text(encoding="utf-8").startswith("v3 written by an agent")
        assert [p.id for p in proposals.list_pending(env.project)] == [r.proposal_id]
    proposals.accept(
        env.project, r.proposal_id, memory_root=env.store, force=True, expected=proposals.current_bytes(prop)
    )
    assert target.read_text(encoding="utf-8").startswith("# Project")
