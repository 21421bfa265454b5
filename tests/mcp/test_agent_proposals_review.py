"""An agent's proposals are fully reviewable (issue 19.4): ``proposals show/diff`` work for
``remember-``/``revise-``/``forget-`` ids, nothing accept writes is hidden past a preview
length, a field-only revise shows as a field diff, and one client's pending proposals are
capped with a clear refusal."""

from __future__ import annotations

import json
import subprocess

import pytest

from memsearch_tui.engine.api import Memory, limits
from memsearch_tui.engine.core.errors import Refused
from tests.mcp.conftest import FLY, Env

TAIL = "HIDDEN-TAIL-7Q: deploys also need the canary flag."


def _cli(env: Env, *args: str) -> dict:
    out = subprocess.run(env.argv("--json", *args), env=env.environ(), capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stdout + out.stderr
    return json.loads(out.stdout)["data"]


def _text(env: Env, *args: str) -> str:
    out = subprocess.run(env.argv(*args), env=env.environ(), capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stdout + out.stderr
    return out.stdout


def test_show_and_diff_give_every_byte_and_field_an_agent_proposes(env: Env):
    body = "\n".join(f"Line {i}: the release checklist step {i} is documented here." for i in range(150)) + "\n" + TAIL
    assert len(body) > 8000
    agent = Memory(env.root, env.project, writes="review", actor="mcp:probe")
    rem = agent.entries.add("ops", "Release checklist", body, ["release"], reason="long how-to").proposal
    rev = agent.entries.update("people/code-review", tags=["review", "db"], importance=0.9, reason="retag").proposal
    fgt = agent.trash.put("ops/deploy-day", "moved to the wiki").proposal
    assert rem and rev and fgt

    shown = _cli(env, "proposals", "show", rem.id)["proposal"]
    assert shown["after"] == body and shown["proposal"]["author"] == "mcp:probe"
    assert TAIL in _text(env, "proposals", "show", rem.id)
    assert any(TAIL in line for line in _cli(env, "proposals", "diff", rem.id)["diff"])

    fields = {f[0]: f[1:] for f in _cli(env, "proposals", "show", rev.id)["proposal"]["fields"]}
    assert fields == {"tags": ["review", "review, db"], "importance": ["", "0.9"]}
    diff = "".join(_cli(env, "proposals", "diff", rev.id)["diff"])
    assert "@@ tags @@\n-review\n+review, db\n" in diff

    gone = _cli(env, "proposals", "show", fgt.id)["proposal"]
    assert gone["before"].strip() == FLY and gone["after"] == "" and "trash" in gone["note"]
    assert "-" + FLY in "".join(_cli(env, "proposals", "diff", fgt.id)["diff"])

    _cli(env, "proposals", "accept", rem.id)  # what was shown is what was written
    with Memory(env.root, env.project) as m:
        assert TAIL in m.entries.read("ops/release-checklist").text


def test_pending_agent_proposals_are_capped_per_client(env: Env, monkeypatch: pytest.MonkeyPatch):
    monkeypatch.setattr(limits, "PENDING_PER_CLIENT", 3)
    agent = Memory(env.root, env.project, writes="review", actor="mcp:flood")
    for i in range(3):
        agent.entries.add("misc", f"Fact {i}", f"A durable fact number {i} about the shop.", reason="r")
    with pytest.raises(Refused) as info:
        agent.entries.add("misc", "Fact 3", "A durable fact number 3 about the shop.", reason="r")
    assert info.value.code == "too_many_proposals" and "mcp:flood" in info.value.message
    other = Memory(env.root, env.project, writes="review", actor="mcp:other")
    assert other.entries.add("misc", "Other", "Another client's fact about the shop.", reason="r").action == "proposed"
    pending = [p for p in agent.proposals.list("pending") if p.author == "mcp:flood"]
    agent.with_actor("tui").proposals.reject(pending[0].id)
    assert (
        agent.entries.add("misc", "Fact 3", "A durable fact number 3 about the shop.", reason="r").action == "proposed"
    )
