"""Issue 20's smaller items: the state file after a decision, a failed task's time, the
fix for an unset ``env:`` key, ``--run-due --task memory_to_skill``, ``--set`` usage
errors, proposals of a moved project."""

from __future__ import annotations

import json
import shutil

import pytest

from memsearch_tui.cli.run_due import main as run_due
from memsearch_tui.engine.maintenance.doctor import doctor
from memsearch_tui.engine.memsearch.state import load_state, save_state
from memsearch_tui.engine.review import proposals
from tests.helpers import run_cli
from tests.maintenance.conftest import answer_script
from tests.maintenance.llm_server import ChatServer
from tests.maintenance.test_cli import NEW, cli, js
from tests.maintenance.test_skill_distill import ANSWER, skill_config


def _propose(env) -> str:
    assert cli(env, "init").exit_code == 0
    env.command_provider(answer_script(env, NEW))
    out = js(cli(env, "maintenance", "run", "--json"))
    return out["data"]["tasks"][0]["proposal_id"]


@pytest.mark.parametrize("verb, action, decided", [("accept", "replace", "accepted"), ("reject", "none", "rejected")])
def test_the_state_file_stops_saying_proposed_once_decided(env, verb, action, decided):
    pid = _propose(env)
    assert load_state(env.mem)[0]["claude-code.project_review"]["tui_action"] == "proposed"
    assert cli(env, "proposals", verb, pid).exit_code == 0
    entry = load_state(env.mem)[0]["claude-code.project_review"]
    assert (entry["last_action"], entry["tui_action"], entry["proposal_id"]) == (action, decided, pid)
    row = next(
        t for t in js(cli(env, "maintenance", "status", "--json"))["data"]["tasks"] if t["task"] == "project_review"
    )
    assert row["last_action"] == action if verb == "accept" else decided


def test_a_failed_tasks_line_shows_when_it_failed(env):
    env.command_provider(answer_script(env, NEW))
    save_state(
        env.mem,
        {
            "claude-code.project_review": {
                "last_action": "error",
                "last_success_at": "2026-11-20T08:00:00Z",
                "last_failed_at": "2026-11-29T09:30:00Z",
                "last_error": "boom",
            }
        },
    )
    out = cli(env, "maintenance", "status", "--platform", "claude-code").stdout
    line = next(x for x in out.splitlines() if x.startswith("claude-code.project_review:"))
    assert "last error 2026-11-29T09:30:00Z" in line and "2026-11-20" not in line


def test_doctor_says_export_for_an_unset_env_key(env, monkeypatch):
    monkeypatch.delenv("NOPE_API_KEY", raising=False)
    env.config_file(
        '[plugins.claude-code.project_review]\nenabled = true\nprovider = "api"\n\n'
        '[llm.providers.api]\ntype = "openai"\nmodel = "m"\napi_key = "env:NOPE_API_KEY"\n'
    )
    checks = [c for c in doctor(env.project, env.store, home=env.home) if c.area == "tasks" and c.status == "problem"]
    assert [c.fix for c in checks] == ["export NOPE_API_KEY=…"]
    assert "NOPE_API_KEY" in checks[0].message and "maintenance enable" not in checks[0].fix


def test_run_due_takes_task_memory_to_skill(env, capsys):
    with ChatServer([{"content": ANSWER}]) as server:
        skill_config(env, server)
        code = run_due(["--run-due", "--task", "memory_to_skill", "--json", "--project", str(env.project)])
    out = json.loads(capsys.readouterr().out)
    rows = [r for r in out["data"]["tasks"] if r["platform"] != "store"]
    assert code == 0 and [(r["task"], r["result"]) for r in rows] == [("memory_to_skill", "proposed")]


@pytest.mark.parametrize("bad", ["no-equals-sign", "plugins.codex.project_review.enabled=maybe", "=1"])
def test_bad_set_is_a_usage_error(env, capsys, bad):
    for args in (["maintenance", "status"], ["maintenance", "run"]):
        r = run_cli("--project", str(env.project), *args, "--set", bad)
        assert r.code == 2 and "Traceback" not in r.err
    assert run_due(["--run-due", "--project", str(env.project), "--set", bad]) == 2
    assert "Traceback" not in capsys.readouterr().err


def test_pending_proposals_survive_moving_the_project(env):
    pid = _propose(env)
    kept = json.loads((env.mem / "proposals" / f"{pid}.json").read_text(encoding="utf-8"))
    assert kept["target"] == "PROJECT.md"  # relative to the memsearch folder
    moved = env.tmp / "elsewhere"
    shutil.copytree(env.project, moved, symlinks=True)
    (p,) = proposals.list_pending(moved)
    assert not p.tampered and p.target == str(moved / ".memsearch" / "PROJECT.md")
    # a record written before (absolute, the old place) reads against where the folder is now
    kept["target"] = "/old/place/.memsearch/PROJECT.md"
    (moved / ".memsearch" / "proposals" / f"{pid}.json").write_text(json.dumps(kept), encoding="utf-8")
    (p,) = proposals.list_pending(moved)
    assert not p.tampered and p.target == str(moved / ".memsearch" / "PROJECT.md")
    kept["target"] = "../../etc/passwd"
    (moved / ".memsearch" / "proposals" / f"{pid}.json").write_text(json.dumps(kept), encoding="utf-8")
    (p,) = proposals.list_pending(moved)
    assert p.tampered  # a relative path that leaves the folder is still refused
