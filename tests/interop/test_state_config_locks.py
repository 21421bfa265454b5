"""memsearch 0.4.23 and memsearch-tui on each other's files: the input digest, the shared
state file (both directions), the task locks (both directions), and the config each
tool's own commands write. memsearch runs in a subprocess through its own API or CLI
(no model is loaded: its LLM runner is a stub that records which tasks it was called for)."""

from __future__ import annotations

import json
import subprocess
import sys

from memsearch_tui.engine.maintenance import run_tasks
from memsearch_tui.engine.maintenance.due import is_due
from memsearch_tui.engine.maintenance.locks import task_lock
from memsearch_tui.engine.memsearch.config import load_config
from memsearch_tui.engine.memsearch.state import input_digest, load_state
from tests.interop.conftest import _env, memsearch, memsearch_py, served
from tests.maintenance.conftest import answer_script
from tests.maintenance.test_cli import cli

RUN_DUE = r"""
import json, os, sys
from pathlib import Path
from memsearch.config import resolve_config
from memsearch.maintenance import run_due_tasks
calls = []
def runner(ctx, prompt):
    calls.append(ctx.task)
    if ctx.task == "user_profile":
        raise RuntimeError("memsearch side: simulated provider failure")
    return '{"action": "none", "reason": "memsearch side"}'
out = []
try:
    for r in run_due_tasks(platform="claude-code", project_dir=Path.cwd(), cfg=resolve_config(), llm_runner=runner):
        out.append([r.task, r.action])
except RuntimeError as exc:  # memsearch stops at the first failing task
    out.append(["raised", str(exc)])
print(json.dumps({"results": out, "calls": calls}))
"""
BOTH = (
    '[plugins.claude-code.project_review]\nenabled = true\nprovider = "x"\n'
    '[plugins.claude-code.user_profile]\nenabled = true\nprovider = "y"\n'
)


def _journals(env) -> None:
    nested = env.mem / "memory" / "nested"
    nested.mkdir()
    (nested / "2026-11-29.md").write_bytes("- b ✓ 中文\r\n".encode())


def test_same_input_digest(env):
    _journals(env)
    code = "import sys; from pathlib import Path; from memsearch.maintenance import _input_digest as d\n"
    code += "import json; print(json.dumps(d(Path('.memsearch/memory'))))"
    assert memsearch_py(env, code) == input_digest(env.mem / "memory")


def test_memsearch_writes_the_state_we_read(env):
    env.config_file(BOTH)
    report = memsearch_py(env, RUN_DUE)
    assert report["calls"] == ["project_review", "user_profile"]
    raw = (env.mem / ".maintenance-state.json").read_text(encoding="utf-8")
    state, problem = load_state(env.mem)
    assert not problem and set(state) == {"claude-code.project_review", "claude-code.user_profile"}
    pr, up = state["claude-code.project_review"], state["claude-code.user_profile"]
    assert pr["last_action"] == "none" and {"last_checked_at", "last_success_at", "last_input_digest"} <= set(pr)
    assert up["last_action"] == "error" and "simulated" in up["last_error"] and "last_success_at" not in up
    cfg = load_config(env.project, home=env.home)
    assert is_due(cfg.task("claude-code", "project_review"), pr, input_digest(env.mem / "memory")) == (
        False,
        "input unchanged",
    )
    assert raw == json.dumps(state, indent=2, sort_keys=True) + "\n"  # the bytes both sides write


def test_we_write_the_state_memsearch_reads(env):
    ok = answer_script(env, '{"action": "none", "reason": "tui"}')
    crash = env.script("crash", "cat >/dev/null\nexit 3\n")
    env.config_file(
        BOTH + f'[llm.providers.x]\ntype = "command"\ncommand = ["{ok}"]\n'
        f'[llm.providers.y]\ntype = "command"\ncommand = ["{crash}"]\n'
    )
    results = run_tasks(env.project, load_config(env.project, home=env.home), platforms=["claude-code"])
    assert [r.result for r in results] == ["none", "error"]
    ours = json.loads((env.mem / ".maintenance-state.json").read_text(encoding="utf-8"))
    report = memsearch_py(env, RUN_DUE)
    assert report["calls"] == ["user_profile"]  # our success: input unchanged, its runner never called
    after = json.loads((env.mem / ".maintenance-state.json").read_text(encoding="utf-8"))
    assert after["claude-code.project_review"] == ours["claude-code.project_review"]
    assert after["claude-code.user_profile"]["last_action"] == "error"


def test_a_lock_either_side_holds_stops_the_other(env):
    ok = answer_script(env, '{"action": "none", "reason": "tui"}')
    env.config_file(
        BOTH.split("[plugins.claude-code.user_profile]")[0]
        + f'[llm.providers.x]\ntype = "command"\ncommand = ["{ok}"]\n'
    )
    with task_lock(env.mem, "claude-code", "project_review") as held:
        assert held
        assert memsearch_py(env, RUN_DUE)["results"] == [["project_review", "locked"], ["user_profile", "disabled"]]
    hold = (
        "import sys; from pathlib import Path; from memsearch.maintenance import _file_lock\n"
        "with _file_lock(Path('.memsearch/.maintenance-claude-code-project_review.lock')) as ok:\n"
        "    print(ok, flush=True); sys.stdin.read()\n"
    )
    proc = subprocess.Popen(
        [sys.executable, "-c", hold],
        cwd=env.project,
        env=_env(env),
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        assert proc.stdout is not None and proc.stdout.readline().strip() == "True"
        (r,) = run_tasks(
            env.project, load_config(env.project, home=env.home), platforms=["claude-code"], tasks=["project_review"]
        )
        assert r.result == "locked", r.reason
    finally:
        proc.communicate("", timeout=30)


def test_each_tools_config_commands_write_what_the_other_reads(env):
    """memsearch's three calls in one memsearch process (``served``: one import of its CLI, not three)."""
    assert cli(env, "maintenance", "enable", "project_review", "--platform", "codex", "--interval", "6").exit_code == 0
    code = (
        "import json; from memsearch.config import resolve_config\n"
        "t = resolve_config().plugins.codex.project_review\n"
        "print(json.dumps([t.enabled, t.min_interval_hours, t.provider]))"
    )
    with served(env):
        assert memsearch_py(env, code) == [True, 6, "native"]
        memsearch(env, "config", "set", "plugins.codex.user_profile.enabled", "true")
        memsearch(env, "config", "set", "plugins.codex.user_profile.min_interval_hours", "3")
    task = load_config(env.project, home=env.home).task("codex", "user_profile")
    assert (task.enabled, task.min_interval_hours) == (True, 3)
    assert load_config(env.project, home=env.home).task("codex", "project_review").enabled  # ours kept


def test_memsearch_reads_a_journal_we_redacted_and_we_read_its_compact_section(env):
    assert cli(env, "init").exit_code == 0
    day = env.mem / "memory" / "2026-11-28.md"
    day.write_text(day.read_text(encoding="utf-8") + "- token hunter2-staging\n", encoding="utf-8")
    r = cli(env, "journal", "redact", "2026-11-28", "--pattern", "hunter2-staging", "--reason", "secret")
    assert r.exit_code == 0, r.output
    code = (
        "import json; from pathlib import Path; from memsearch.maintenance import _read_recent_journals as read\n"
        "print(json.dumps(read(Path('.memsearch/memory'))))"
    )
    seen = memsearch_py(env, code)
    assert "- token [redacted]" in seen and "hunter2-staging" not in seen and "Milvus Lite" in seen
    # memsearch's compact appends "## Memory Compact HH:MM" sections to the day file: we parse them
    from memsearch_tui.engine.memsearch.journal import parse_journal

    compacted = day.read_text(encoding="utf-8") + "\n\n## Memory Compact 18:30\n\n- summary line\n"
    parsed = parse_journal(compacted, day)
    assert [(s.time, s.title) for s in parsed.sessions][-1] == ("18:30", "Memory Compact")
    assert parsed.sessions[-2].turns[-1].end_line < parsed.sessions[-1].line  # not part of the last turn
