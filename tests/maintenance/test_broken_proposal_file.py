"""A proposal file nested 50,000 levels deep (or otherwise unusable) is skipped and reported
with its path, never a RecursionError traceback: `proposals list/show`, `maintenance run`,
`maintenance status`, `doctor` and the `--run-due` hook all keep working (issue #12)."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

from memsearch_tui.engine.review import proposals
from tests.maintenance.conftest import answer_script
from tests.maintenance.test_cli import cli, js

NEW = '{"action": "replace", "reason": "update", "content": "# Project\\n\\n- new"}'
BAD = {
    "deep": '{"a":' * 50_000 + "1" + "}" * 50_000,
    "not json": "{oops",
    "not a record": '["a list"]',
    # valid JSON the decoder takes, but ``asdict`` would recurse past the limit on it
    "deep extra": '{"id": "20261201-000000-deep", "platform": "claude-code", "task": "project_review", '
    '"target": "x", "target_digest": "x", "content": "x", "reason": "x", "input_digest": "x", '
    '"created": "2026-12-01T00:00:00Z", "extra": ' + '{"x":' * 900 + "1" + "}" * 900 + "}",
}


@pytest.fixture(params=sorted(BAD))
def broken(env, request):
    folder = proposals.proposals_dir(env.project)
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / "x.json"
    path.write_text(BAD[request.param], encoding="utf-8")
    env.command_provider(answer_script(env, NEW))
    assert cli(env, "init").exit_code == 0
    return path


def test_proposals_list_skips_and_names_the_file(env, broken) -> None:
    r = cli(env, "proposals", "list", "--json")
    assert r.exit_code == 0, r.output
    data = js(r)["data"]
    assert data["proposals"] == [] and [u["path"] for u in data["unreadable"]] == [str(broken)]
    human = cli(env, "proposals", "list")
    assert human.exit_code == 0 and f"skipped {broken}" in human.stdout


def test_proposals_show_is_a_clear_error(env, broken) -> None:
    r = cli(env, "proposals", "show", "x", "--json")
    assert r.exit_code == 1 and "Traceback" not in r.output
    env_ = js(r)
    assert env_["ok"] is False and str(broken) in env_["error"]["message"]


def test_maintenance_run_status_and_doctor_keep_working(env, broken) -> None:
    run = cli(env, "maintenance", "run", "--force", "--json")
    assert run.exit_code == 0, run.output
    assert [t["result"] for t in js(run)["data"]["tasks"]][0] == "proposed"
    status = cli(env, "--json", "maintenance", "status")
    assert status.exit_code == 0 and js(status)["ok"] is True, status.output
    doc = cli(env, "--json", "doctor")
    checks = js(doc)["data"]["checks"]
    named = [c for c in checks if c["area"] == "proposals" and str(broken) in c["message"]]
    assert named and named[0]["status"] == "problem", checks
    # the good proposal the run wrote is listed beside the broken one
    listed = js(cli(env, "proposals", "list", "--json"))["data"]
    assert len(listed["proposals"]) == 1 and len(listed["unreadable"]) == 1


def test_the_run_due_hook_exits_0(env, broken) -> None:
    environ = {**os.environ, "HOME": str(env.home), "MEMSEARCH_TUI_MEMORY_ROOT": str(env.store)}
    proc = subprocess.run(
        [sys.executable, "-c", "from memsearch_tui.cli import main; main()", "--run-due"],
        cwd=env.project,
        env=environ,
        capture_output=True,
        timeout=120,
    )
    assert proc.returncode == 0 and b"Traceback" not in proc.stderr, proc.stderr
    assert any(p.status == proposals.PENDING for p in proposals.list_all(env.project))


def test_unreadable_reports_path_and_reason(env, broken) -> None:
    ((path, why),) = proposals.unreadable(env.project)
    assert path == broken and why
    assert json.dumps(why)  # a plain string, safe for --json
