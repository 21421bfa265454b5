"""memory_to_skill: shown in status, run through the review flow, accepted into memsearch's
skill-candidates folder. The LLM is the loopback server (real HTTP, OpenAI wire format)."""

from __future__ import annotations

import json
import os

from memsearch_tui.engine.maintenance import run_tasks, status
from memsearch_tui.engine.maintenance.locks import pid_lock_path
from memsearch_tui.engine.memsearch.state import load_state
from memsearch_tui.engine.review import proposals
from memsearch_tui.engine.review.skill_candidates import git_blob_hash
from tests.maintenance.llm_server import ChatServer
from tests.maintenance.test_cli import cli, js

SKILL = {
    "name": "Run Tests!",
    "description": "Run the test suite and report failures. Use when asked to run tests.",
    "body": "## Run the tests\n\n1. `pytest -q`\n2. Report failures.",
    "occurrences": 4,
    "sources": ["2026-11-28.md"],
    "reason": "test runs recurred in 4 sessions",
}
ANSWER = json.dumps({"skills": [SKILL]})
SKILL_MD = (
    '---\nname: run-tests\ndescription: "Run the test suite and report failures. Use when asked to run tests."\n'
    "---\n\n## Run the tests\n\n1. `pytest -q`\n2. Report failures.\n"
)


def skill_config(
    env, server: ChatServer, *, review: bool = True, platform: str = "claude_code", extra: str = ""
) -> None:
    env.config_file(
        f'[plugins.{platform}.memory_to_skill]\nenabled = true\nprovider = "local"\nmin_occurrences = 2\n'
        'paths = [".claude/skills"]\n\n'
        f'[llm.providers.local]\ntype = "openai-compatible"\nmodel = "m1"\nbase_url = "{server.base_url}"\n'
        f'api_key = "k"\ntimeout_s = 10\n\n[tui]\nreview = {str(review).lower()}\n{extra}'
    )


def test_status_shows_memory_to_skill_even_when_off(env):
    rows = {(r.platform, r.task): r for r in status(env.project, env.config(), platforms=["claude-code"])}
    row = rows[("claude-code", "memory_to_skill")]
    assert row.enabled is False and row.reason == "disabled" and row.provider == "native"
    assert row.output_file == str(env.mem / "skill-candidates")
    assert row.prompt.startswith("memsearch ") and row.prompt.endswith("memory_to_skill.txt")  # memsearch is installed
    r = cli(env, "maintenance", "status", "--platform", "claude-code")
    assert "claude-code.memory_to_skill: disabled, provider native" in r.stdout
    assert [t.task for t in run_tasks(env.project, env.config(), platforms=["claude-code"])] == [
        "project_review",
        "user_profile",
    ]  # off by default, as in memsearch: a run does not even list it


def test_candidate_is_proposed_then_accepted_into_memsearch_folder_and_undone(env):
    assert cli(env, "init").exit_code == 0
    with ChatServer([{"content": "```json\n" + ANSWER + "\n```"}]) as server:
        skill_config(env, server)
        r = js(cli(env, "maintenance", "run", "--json"))
    [row] = [t for t in r["data"]["tasks"] if t["task"] == "memory_to_skill"]
    assert row["result"] == "proposed" and row["output_file"] == str(env.mem / "skill-candidates")
    prompt = server.requests[0]["messages"][-1]["content"]
    assert "at least 2 distinct sessions" in prompt and "## Existing skills (you may revise these)\n\n(none)" in prompt
    assert "Decided to store vectors in Milvus Lite" in prompt and server.requests[0]["model"] == "m1"
    target = env.mem / "skill-candidates" / "run-tests" / "SKILL.md"
    assert not target.exists()  # nothing lands unseen
    (p,) = proposals.list_pending(env.project)
    assert (p.id, p.kind, p.task, p.target, p.content) == (
        row["proposal_id"],
        "skill",
        "memory_to_skill",
        str(target),
        SKILL_MD,
    )
    state = load_state(env.mem)[0]["claude-code.memory_to_skill"]
    assert state["last_action"] == "distilled" and state["output_file"] == str(env.mem / "skill-candidates")
    st = js(cli(env, "maintenance", "status", "--json", "--platform", "claude-code"))["data"]["tasks"]
    assert next(t for t in st if t["task"] == "memory_to_skill")["pending_proposals"] == [p.id]

    assert cli(env, "proposals", "accept", p.id).exit_code == 0
    assert target.read_text(encoding="utf-8") == SKILL_MD
    meta = json.loads((target.parent / "meta.json").read_text(encoding="utf-8"))
    assert meta["name"] == "run-tests" and meta["status"] == "candidate" and meta["installed_paths"] == []
    assert meta["content_hash"] == git_blob_hash(SKILL_MD) and meta["occurrences"] == 4
    assert meta["sources"] == ["2026-11-28.md"] and meta["created_at"].endswith("Z")
    assert not (env.project / ".claude").exists()  # installing stays a person's step
    assert cli(env, "undo").exit_code == 0
    assert not target.exists() and not (target.parent / "meta.json").exists()


def test_evolving_an_installed_candidate_keeps_memsearchs_install_record(env):
    folder = env.mem / "skill-candidates" / "run-tests"
    folder.mkdir(parents=True)
    (folder / "SKILL.md").write_text('---\nname: run-tests\ndescription: "old"\n---\n\nold body\n')
    old_meta = {
        "name": "run-tests",
        "status": "installed",
        "description": "old",
        "installed_hash": "gitblob:abc",
        "installed_paths": ["/p/.claude/skills/run-tests/SKILL.md"],
        "sources": ["2026-11-01.md"],
        "occurrences": 6,
        "created_at": "2026-11-01T00:00:00Z",
    }
    (folder / "meta.json").write_text(json.dumps(old_meta))
    with ChatServer([{"content": ANSWER}]) as server:
        skill_config(env, server, review=False)
        (r,) = run_tasks(env.project, env.config(), memory_root=env.store, tasks=["memory_to_skill"])
    assert r.result == "replaced", r.reason
    prompt = server.requests[0]["messages"][-1]["content"]
    assert "### run-tests\nold\n\nCurrent body:\n```markdown\nold body\n```" in prompt
    meta = json.loads((folder / "meta.json").read_text(encoding="utf-8"))
    assert meta["status"] == "installed" and meta["installed_hash"] == "gitblob:abc"
    assert meta["sources"] == ["2026-11-01.md", "2026-11-28.md"] and meta["occurrences"] == 6
    assert (folder / "SKILL.md").read_text(encoding="utf-8") == SKILL_MD


def test_unchanged_none_bad_answers_and_skips(env):
    with ChatServer([{"content": '{"skills": []}'}, {"content": "no json here"}]) as server:
        skill_config(env, server)
        (r,) = run_tasks(env.project, env.config(), tasks=["memory_to_skill"])
        assert (r.result, r.reason) == ("none", "no new or changed skill")
        (again,) = run_tasks(env.project, env.config(), tasks=["memory_to_skill"])
        assert (again.result, again.reason) == ("skip", "input unchanged")
        (bad,) = run_tasks(env.project, env.config(), tasks=["memory_to_skill"], force=True)
    assert bad.result == "error" and "valid JSON" in bad.reason
    entry = load_state(env.mem)[0]["claude-code.memory_to_skill"]
    assert entry["last_action"] == "error" and entry["last_success_at"]
    assert not (env.mem / "skill-candidates").exists() and proposals.list_pending(env.project) == []


def test_memsearch_holding_the_task_lock_wins(env):
    lock = pid_lock_path(env.mem, "claude-code", "memory_to_skill")
    assert lock.name == ".maintenance-claude-code-memory_to_skill.lock"  # memsearch's own file
    lock.write_text(str(os.getpid()))
    with ChatServer([{"content": ANSWER}]) as server:
        skill_config(env, server)
        (r,) = run_tasks(env.project, env.config(), tasks=["memory_to_skill"])
    assert r.result == "locked" and server.requests == []


def test_rejected_candidate_input_is_not_proposed_again(env):
    with ChatServer([{"content": ANSWER}, {"content": ANSWER}]) as server:
        skill_config(env, server)
        (r,) = run_tasks(env.project, env.config(), tasks=["memory_to_skill"])
        proposals.reject(env.project, r.proposal_id)
        (again,) = run_tasks(env.project, env.config(), tasks=["memory_to_skill"], force=True)
    assert again.result == "skip" and "rejected" in again.reason and len(server.requests) == 1  # no second call
    assert proposals.list_pending(env.project) == []


def test_a_skill_proposal_pointed_elsewhere_is_refused_as_tampered(env, tmp_path):
    """A skill candidate may only write its own SKILL.md under skill-candidates/: a proposal
    file edited to name another skill folder (or a link out of the project) is refused."""
    assert cli(env, "init").exit_code == 0
    with ChatServer([{"content": "```json\n" + ANSWER + "\n```"}]) as server:
        skill_config(env, server)
        cli(env, "maintenance", "run", "--json")
    (p,) = proposals.list_pending(env.project)
    path = proposals.proposals_dir(env.project) / f"{p.id}.json"
    data = json.loads(path.read_text(encoding="utf-8"))
    data["extra"]["skill"]["name"] = "../../../escape"
    path.write_text(json.dumps(data), encoding="utf-8")
    r = cli(env, "proposals", "accept", p.id, "--force")
    assert r.exit_code != 0 and "tampered" in (r.stdout + r.stderr)
    data["extra"]["skill"]["name"] = "run-tests"
    outside = tmp_path / "outside"
    outside.mkdir()
    (env.mem / "skill-candidates").mkdir(parents=True, exist_ok=True)
    (env.mem / "skill-candidates" / "run-tests").symlink_to(outside)
    path.write_text(json.dumps(data), encoding="utf-8")
    r = cli(env, "proposals", "accept", p.id, "--force")
    assert r.exit_code != 0 and "tampered" in (r.stdout + r.stderr)
    assert list(outside.iterdir()) == []
