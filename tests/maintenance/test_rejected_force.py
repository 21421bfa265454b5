"""Issue 31 item 10: after a reject, ``maintenance run --force`` says why and asks no model;
a proposal diff of a file without a final newline shows git's marker.

The model is the loopback LLM server (real HTTP, OpenAI wire format): it counts the calls.
"""

from __future__ import annotations

from memsearch_tui.engine.review import proposals
from tests.maintenance.llm_server import ChatServer
from tests.maintenance.test_cli import cli, js
from tests.maintenance.test_run_proposals import NEW


def _config(env, server: ChatServer) -> None:
    env.config_file(
        '[plugins.claude-code.project_review]\nenabled = true\nprovider = "local"\n\n'
        f'[llm.providers.local]\ntype = "openai-compatible"\nmodel = "m1"\nbase_url = "{server.base_url}"\n'
        'api_key = "k"\ntimeout_s = 10\n\n[tui]\nreview = true\n'
    )


def test_force_after_a_reject_prints_why_and_never_calls_the_model(env) -> None:
    assert cli(env, "init").exit_code == 0
    with ChatServer([{"content": NEW}] * 5) as server:
        _config(env, server)
        first = js(cli(env, "maintenance", "run", "--json", "--task", "project_review"))["data"]["tasks"][0]
        assert cli(env, "proposals", "reject", first["proposal_id"]).exit_code == 0
        outs = [cli(env, "maintenance", "run", "--force", "--task", "project_review").stdout for _ in range(3)]
    assert len(server.requests) == 1  # before: one more call for every forced run
    for out in outs:
        assert f"claude-code.project_review skip (proposal {first['proposal_id']} for this input was rejected" in out
        assert "undo" in out
    assert proposals.list_pending(env.project) == []


def test_a_proposal_diff_marks_a_missing_final_newline(env) -> None:
    assert cli(env, "init").exit_code == 0
    (env.mem / "PROJECT.md").write_text("# Project\n\n- old", encoding="utf-8")  # no final newline
    with ChatServer([{"content": NEW}]) as server:
        _config(env, server)
        pid = js(cli(env, "maintenance", "run", "--json", "--task", "project_review"))["data"]["tasks"][0][
            "proposal_id"
        ]
    out = cli(env, "proposals", "diff", pid).stdout
    assert "-- old\n\\ No newline at end of file\n" in out
    assert out.count("No newline at end of file") == 1 and "+- Milvus Lite chosen\n" in out  # proposed text ends in one
