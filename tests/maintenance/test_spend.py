"""The spend ledger and budgets (issue 34): every provider type's tokens, refusals before any
request, the CLI's exit codes and words, a project that may lower a budget but not raise it."""

from __future__ import annotations

import json
import math
import os
from pathlib import Path

import pytest

from memsearch_tui.engine.maintenance import run_tasks
from memsearch_tui.engine.maintenance.providers import SYSTEM_PROMPT
from tests.helpers import CliResult, run_cli
from tests.maintenance.conftest import answer_script
from tests.maintenance.llm_server import ChatServer

NONE = '{"action": "none", "reason": "checked the journals"}'
KEY = "sk-test-SECRET-7781"
PRICES = '[tui.prices."test-model"]\ninput_per_mtok = 3.0\noutput_per_mtok = 15.0\n'


def lines(env) -> list[dict]:
    if not env.ledger.exists():
        return []
    return [json.loads(x) for x in env.ledger.read_text(encoding="utf-8").splitlines()]


def api_config(env, server: ChatServer, ptype: str, extra: str = "") -> None:
    base = server.base_url if ptype.startswith("openai") else server.base_url[: -len("/v1")]
    env.config_file(
        '[plugins.codex.project_review]\nenabled = true\nprovider = "api"\n\n'
        f'[llm.providers.api]\ntype = "{ptype}"\nmodel = "test-model"\nbase_url = "{base}"\n'
        f'api_key = "env:TEST_LLM_KEY"\ntimeout_s = 10\n\n{PRICES}{extra}'
    )


def cli(env, *args: str) -> CliResult:
    return run_cli("--project", str(env.project), "--memory-root", str(env.store), *args, env={"HOME": str(env.home)})


@pytest.mark.parametrize("ptype", ["openai", "openai-compatible", "anthropic", "gemini"])
def test_api_usage_goes_to_the_ledger_and_nothing_else(env, monkeypatch, ptype):
    monkeypatch.setenv("TEST_LLM_KEY", KEY)
    with ChatServer([{"tool": "grep -n Milvus ."}, {"content": NONE}]) as server:
        api_config(env, server, ptype)
        (r,) = run_tasks(env.project, env.config(), memory_root=env.store, tasks=["project_review"])
    assert r.result == "none", r.reason
    (line,) = lines(env)
    # Gemini's SDK runs the tool rounds itself and keeps only the last response's usage
    ins, outs = server.usage[-1] if ptype == "gemini" else [sum(x) for x in zip(*server.usage, strict=True)]
    assert (line["input_tokens"], line["output_tokens"], line["estimated"]) == (ins, outs, False)
    assert line["input_tokens"] > 100  # the real request size, not a placeholder
    assert (line["platform"], line["task"], line["provider"], line["provider_type"]) == (
        "codex",
        "project_review",
        "api",
        ptype,
    )
    assert (line["model"], line["outcome"], line["reason"]) == ("test-model", "none", "")
    assert line["cost"] == pytest.approx((ins * 3.0 + outs * 15.0) / 1_000_000)
    text = env.ledger.read_text(encoding="utf-8")
    for secret_or_words in (KEY, "SECRET", "Milvus", "checked the journals", "Recent memory", "grep"):
        assert secret_or_words not in text  # never a key, a prompt, a tool call or an answer


def test_native_claude_reports_usage_in_its_json(env, monkeypatch):
    answer = json.dumps(
        {
            "type": "result",
            "subtype": "success",
            "is_error": False,
            "result": NONE,
            "total_cost_usd": 0.01,
            "usage": {
                "input_tokens": 12,
                "cache_creation_input_tokens": 3000,
                "cache_read_input_tokens": 500,
                "output_tokens": 40,
            },
        }
    )
    argv_file = env.tmp / "argv.txt"
    env.script("claude", f"printf \"%s\\n\" \"$@\" > {argv_file}\ncat > /dev/null\nprintf '%s' '{answer}'\n")
    monkeypatch.setenv("PATH", f"{env.tmp / 'bin'}{os.pathsep}{os.environ['PATH']}")
    env.config_file("[plugins.claude-code.project_review]\nenabled = true\n")
    (r,) = run_tasks(env.project, env.config(), memory_root=env.store, tasks=["project_review"])
    assert (r.result, r.reason) == ("none", "checked the journals")
    args = argv_file.read_text().splitlines()
    assert args[args.index("--output-format") + 1] == "json"
    (line,) = lines(env)
    assert (line["input_tokens"], line["output_tokens"], line["estimated"]) == (3512, 40, False)
    assert (line["provider"], line["provider_type"], line["model"]) == ("native", "native", "")


def test_native_codex_reports_usage_in_its_json_events(env, monkeypatch):
    events = "\\n".join(
        [
            '{"type":"thread.started","thread_id":"t1"}',
            '{"type":"turn.started"}',
            '{"type":"item.completed","item":{"id":"i0","type":"agent_message","text":"ignored"}}',
            '{"type":"turn.completed","usage":{"input_tokens":2400,"cached_input_tokens":2000,"output_tokens":77}}',
        ]
    )
    env.script(
        "codex",
        f"cat > /dev/null\nprintf '{events}\\n'\n"
        'while [ "$1" != "-o" ]; do shift; done\n'
        f"printf '%s' '{NONE}' > \"$2\"\n",
    )
    monkeypatch.setenv("PATH", f"{env.tmp / 'bin'}{os.pathsep}{os.environ['PATH']}")
    env.config_file("[plugins.codex.project_review]\nenabled = true\n")
    (r,) = run_tasks(env.project, env.config(), memory_root=env.store, tasks=["project_review"])
    assert (r.result, r.reason) == ("none", "checked the journals")
    (line,) = lines(env)
    assert (line["input_tokens"], line["output_tokens"], line["estimated"]) == (2400, 77, False)


def test_a_command_provider_is_estimated_by_the_documented_rule(env):
    seen = env.tmp / "prompt.txt"
    env.command_provider(env.script("answer", f"cat > {seen}\nprintf '%s' '{NONE}'\n"))
    (r,) = run_tasks(env.project, env.config(), memory_root=env.store, tasks=["project_review"])
    assert r.result == "none"
    (line,) = lines(env)
    prompt = seen.read_text(encoding="utf-8")
    assert line["estimated"] is True
    assert line["input_tokens"] == math.ceil(len(SYSTEM_PROMPT + prompt) / 4)
    assert line["output_tokens"] == math.ceil(len(NONE) / 4)
    assert line["cost"] is None  # no price for this model


def budget_config(env, server: ChatServer, budget: str) -> None:
    api_config(env, server, "openai-compatible", f"\n[tui.budget]\n{budget}\n")


def test_over_budget_no_request_is_sent_and_state_stays_memsearchs(env, monkeypatch):
    monkeypatch.setenv("TEST_LLM_KEY", KEY)
    state = env.mem / ".maintenance-state.json"
    with ChatServer([{"content": NONE}]) as server:
        budget_config(env, server, "daily_tokens = 100")
        (r,) = run_tasks(env.project, env.config(), memory_root=env.store, tasks=["project_review"])
        result = cli(env, "maintenance", "run", "--task", "project_review")
        assert server.requests == []
    assert r.result == "refused" and "daily_tokens" in r.reason
    assert not state.exists()  # nothing recorded for memsearch: the task stays due
    assert result.exit_code == 1
    assert "daily_tokens 100 tokens would be passed" in result.stderr
    assert "spent 0 tokens today" in result.stderr and "raise [tui.budget] daily_tokens in" in result.stderr
    refusals = lines(env)
    assert [(x["outcome"], x["reason"], x["input_tokens"]) for x in refusals] == [
        ("refused", "budget: daily_tokens", 0)
    ] * 2


def test_the_hook_exits_0_and_says_budget_in_its_one_line(env, monkeypatch):
    import subprocess
    import sys

    monkeypatch.setenv("TEST_LLM_KEY", KEY)
    with ChatServer([{"content": NONE}]) as server:
        budget_config(env, server, "monthly_tokens = 50")
        proc = subprocess.run(
            [sys.executable, "-c", "import sys; from memsearch_tui.cli import main; main(sys.argv[1:])"]
            + ["--run-due", "--hook", "codex", "--foreground"],
            capture_output=True,
            cwd=env.project,
            env={**os.environ, "HOME": str(env.home), "MEMSEARCH_TUI_MEMORY_ROOT": str(env.store)},
            stdin=subprocess.DEVNULL,
            timeout=60,
        )
        assert server.requests == []
    assert proc.returncode == 0 and proc.stdout.strip() == b'{"continue":true}'
    (summary,) = [ln for ln in proc.stderr.decode().splitlines() if ln.startswith("memsearch-tui:")]
    assert "codex.project_review refused (budget: monthly_tokens" in summary
    assert not (env.mem / ".maintenance-state.json").exists()
    assert [x["reason"] for x in lines(env)] == ["budget: monthly_tokens"]


def test_max_tokens_per_run_per_task(env, monkeypatch):
    monkeypatch.setenv("TEST_LLM_KEY", KEY)
    with ChatServer([{"content": NONE}]) as server:
        budget_config(
            env, server, "max_tokens_per_run = 1000000\n\n[tui.budget.project_review]\nmax_tokens_per_run = 10"
        )
        (r,) = run_tasks(env.project, env.config(), memory_root=env.store, tasks=["project_review"])
        assert server.requests == []
    assert r.result == "refused" and "over max_tokens_per_run 10" in r.reason


def test_a_project_may_lower_a_budget_never_raise_it(env):
    from memsearch_tui.engine.maintenance.budget import limits

    env.config_file("[tui.budget]\ndaily_tokens = 1000\nmonthly_tokens = 20000\n")
    (env.project / ".memsearch.toml").write_text(
        "[tui.budget]\ndaily_tokens = 999999999\nmonthly_tokens = 500\ndaily_cost = 1.5\n\n"
        '[tui.prices."m"]\ninput_per_mtok = 0\n',
        encoding="utf-8",
    )
    config = env.config()
    assert limits(config) == {"daily_tokens": 1000, "monthly_tokens": 500, "daily_cost": 1.5}
    assert any("ignored tui.budget.daily_tokens = 999999999" in w and "never raise" in w for w in config.warnings)
    assert "prices" not in config.tui and any("ignored tui.prices.m.input_per_mtok" in w for w in config.warnings)


def test_a_bad_budget_value_refuses_every_call(env, monkeypatch):
    monkeypatch.setenv("TEST_LLM_KEY", KEY)
    with ChatServer([{"content": NONE}]) as server:
        budget_config(env, server, 'daily_tokens = "lots"')
        (r,) = run_tasks(env.project, env.config(), memory_root=env.store, tasks=["project_review"])
        assert server.requests == []
    assert r.result == "refused" and "[tui.budget] is unusable" in r.reason


def test_dry_run_prints_the_estimate_and_budget_left_without_calling(env, monkeypatch):
    monkeypatch.setenv("TEST_LLM_KEY", KEY)
    with ChatServer([{"content": NONE}]) as server:
        budget_config(env, server, "daily_tokens = 100000\nmonthly_cost = 2")
        out = cli(env, "maintenance", "run", "--dry-run")
        data = json.loads(cli(env, "maintenance", "run", "--dry-run", "--json").stdout)["data"]
        assert server.requests == []
    assert out.exit_code == 0, out.stdout
    assert "codex.project_review: ~" in out.stdout and "via api test-model" in out.stdout
    assert "budget: daily_tokens: 0 of 100,000 tokens used today (0%), 100,000 tokens left" in out.stdout
    (est,) = data["estimates"]
    assert est["input_tokens"] > 100 and est["output_tokens"] == 2000 and est["refused"] == ""
    assert est["cost"] == pytest.approx((est["input_tokens"] * 3 + 2000 * 15) / 1e6)
    assert lines(env) == [] and not (env.mem / ".maintenance-state.json").exists()


def test_spend_status_and_doctor_show_use_against_the_budget(env, monkeypatch):
    monkeypatch.setenv("TEST_LLM_KEY", KEY)
    with ChatServer([{"content": NONE, "usage": [8000, 500]}]) as server:
        budget_config(env, server, "daily_tokens = 10000")
        (r,) = run_tasks(env.project, env.config(), memory_root=env.store, tasks=["project_review"])
    assert r.result == "none"
    spend = json.loads(cli(env, "maintenance", "spend", "--by", "provider", "--json").stdout)["data"]
    (row,) = spend["rows"]
    assert (row["key"], row["calls"], row["input_tokens"], row["output_tokens"]) == (
        "api (openai-compatible)",
        1,
        8000,
        500,
    )
    assert spend["budget"][0]["left"] == 1500 and spend["total"]["cost"] == pytest.approx(0.0315)
    text = cli(env, "maintenance", "spend").stdout
    assert "project_review" in text and "8,000" in text and "1,500 tokens left" in text
    status = cli(env, "maintenance", "status").stdout
    assert "budget: daily_tokens: 8,500 of 10,000 tokens used today (85%), 1,500 tokens left" in status
    doctor = cli(env, "doctor").stdout
    assert "[warn] budget: daily_tokens: 8,500 of 10,000" in doctor
    assert cli(env, "maintenance", "spend", "--by", "colour").exit_code != 0
    assert cli(env, "maintenance", "spend", "--since", "yesterday").exit_code != 0


def test_the_ledger_rotates_and_stays_bounded(env, monkeypatch):
    from memsearch_tui.engine.maintenance import ledger

    monkeypatch.setattr(ledger, "MAX_BYTES", 2000)
    line = ledger.Line(
        "2026-11-30T12:00:00Z", "codex", "project_review", "api", "openai", "m", 10, 5, False, 0.1, "none"
    )
    for _ in range(100):
        ledger.append(line)
    old = env.ledger.with_name("spend.jsonl.1")
    assert old.exists() and env.ledger.stat().st_size <= 2000 and old.stat().st_size <= 2000
    kept = ledger.read()
    assert 10 < len(kept) < 100 and all(x == line for x in kept)
    env.ledger.write_text(env.ledger.read_text() + "not json\n" + "[1]\n" + '{"ts": "x"}\n')
    assert len(ledger.read()) == len(kept)  # foreign lines are skipped


def test_refusals_per_task_and_day_are_capped_in_the_ledger(env, monkeypatch):
    from memsearch_tui.engine.maintenance.budget import MAX_REFUSALS_PER_DAY

    monkeypatch.setenv("TEST_LLM_KEY", KEY)
    with ChatServer([]) as server:
        budget_config(env, server, "daily_tokens = 10")
        for _ in range(MAX_REFUSALS_PER_DAY + 5):
            (r,) = run_tasks(env.project, env.config(), memory_root=env.store, tasks=["project_review"])
            assert r.result == "refused"
        monkeypatch.setenv("MEMSEARCH_TUI_NOW", "2026-12-01T09:00:00Z")  # a new day: recorded again
        run_tasks(env.project, env.config(), memory_root=env.store, tasks=["project_review"])
        assert server.requests == []
    days = [x["ts"][:10] for x in lines(env)]
    assert days == ["2026-11-30"] * MAX_REFUSALS_PER_DAY + ["2026-12-01"]


@pytest.mark.parametrize("host, platform", [("claude", "claude-code"), ("codex", "codex")])
def test_the_real_native_cli_reports_usage(env, monkeypatch, host, platform):
    """Against the real host CLI when it is installed and signed in (it spends a little)."""
    import shutil

    folder = os.environ.get("MEMSEARCH_TUI_HOST_BINS")  # as tests/hosts/test_real_hosts.py
    found = shutil.which(host, path=folder) if folder else shutil.which(host)
    if found is None:
        pytest.skip(f"the real `{host}` CLI is not installed here (MEMSEARCH_TUI_HOST_BINS)")
    if not os.environ.get("MEMSEARCH_TUI_REAL_HOSTS"):
        pytest.skip("set MEMSEARCH_TUI_REAL_HOSTS=1 to let this test call the real agent (it costs tokens)")
    env.config_file(f"[plugins.{platform}.project_review]\nenabled = true\n")
    monkeypatch.setenv("PATH", f"{Path(found).parent}{os.pathsep}{os.environ['PATH']}")
    (r,) = run_tasks(env.project, env.config(), memory_root=env.store, tasks=["project_review"])
    assert r.result in ("none", "proposed"), r.reason
    (line,) = lines(env)
    assert line["estimated"] is False and line["input_tokens"] > 0 and line["output_tokens"] > 0


def test_a_trusted_project_may_not_raise_a_budget_either(env):
    from memsearch_tui.engine.maintenance.budget import limits

    env.config_file("[tui]\ntrust_project_config = true\n\n[tui.budget]\ndaily_tokens = 1000\n")
    (env.project / ".memsearch.toml").write_text("[tui.budget]\ndaily_tokens = 5000\n", encoding="utf-8")
    assert limits(env.config()) == {"daily_tokens": 1000}


def test_memory_to_skill_calls_are_metered_too(env):
    env.command_provider(answer_script(env, '{"skills": []}'), tasks=("memory_to_skill",))
    (r,) = run_tasks(env.project, env.config(), memory_root=env.store, tasks=["memory_to_skill"])
    assert r.result == "none", r.reason
    (line,) = lines(env)
    assert (line["task"], line["outcome"], line["estimated"]) == ("memory_to_skill", "none", True)
