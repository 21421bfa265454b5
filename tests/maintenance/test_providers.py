"""Providers against real things: scripted executables, a loopback chat-completions server."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from memsearch_tui.engine.maintenance import run_tasks
from memsearch_tui.engine.maintenance.providers import Call, ProviderError, ask
from memsearch_tui.engine.maintenance.sandbox import Sandbox
from memsearch_tui.engine.memsearch.config import ProviderSettings
from memsearch_tui.engine.memsearch.state import load_state
from tests.maintenance.llm_server import ChatServer

GOOD = '{"action": "replace", "reason": "new decision", "content": "# Project\\n\\n- Milvus Lite"}'


def call(env, platform: str = "claude-code") -> Call:
    return Call(platform=platform, model="", project=env.project, sandbox=Sandbox([env.mem / "memory"]))


def cmd(script: Path, timeout: float = 20) -> ProviderSettings:
    return ProviderSettings(name="scripted", type="command", command=(str(script),), timeout_s=timeout)


def test_command_gets_prompt_on_stdin(env):
    seen = env.tmp / "prompt.txt"
    script = env.script("echoer", f"cat > {seen}\nprintf '%s' 'ok'\n")
    assert ask(cmd(script), call(env), "the prompt ✓") == "ok"
    assert seen.read_text(encoding="utf-8") == "the prompt ✓"


@pytest.mark.parametrize(
    "body, result, reason",
    [
        (f"cat >/dev/null; printf '%s' '{GOOD}'\n", "proposed", "new decision"),
        (
            'cat >/dev/null; printf \'Here you go:\\n```json\\n{"action": "none", "reason": "wrapped"}\\n```\\n\'\n',
            "none",
            "wrapped",
        ),
        ("cat >/dev/null; echo 'I am not JSON at all'\n", "error", "no JSON answer object"),
        ("cat >/dev/null; sleep 30\n", "error", "timed out after 1s"),
        ("cat >/dev/null; echo 'boom' >&2; exit 3\n", "error", "exited with status 3: boom"),
    ],
)
def test_command_outcomes_through_a_run(env, body, result, reason):
    script = env.script("provider", body)
    env.command_provider(script, timeout=1 if "sleep" in body else 20)
    (r,) = run_tasks(env.project, env.config(), memory_root=env.store, tasks=["project_review"])
    assert (r.result, r.platform, r.task) == (result, "claude-code", "project_review")
    assert reason in r.reason
    entry = load_state(env.mem)[0]["claude-code.project_review"]
    assert entry["last_action"] == {"proposed": "none", "none": "none", "error": "error"}[result]
    assert (entry.get("tui_action") == "proposed") == (result == "proposed")
    assert not (env.mem / "PROJECT.md").exists()  # review = true: nothing written in place, never partial


def test_timeout_kills_grandchildren(env):
    marker = env.tmp / "survived"
    script = env.script("slow", f"cat >/dev/null; (sleep 1; touch {marker}) & sleep 30\n")
    with pytest.raises(ProviderError, match="timed out"):
        ask(cmd(script, timeout=0.3), call(env), "p")
    import time

    time.sleep(1.5)  # past the moment the grandchild would have written the marker
    assert not marker.exists()


def test_missing_executable(env):
    with pytest.raises(ProviderError, match="not found on PATH"):
        ask(cmd(env.tmp / "nope"), call(env), "p")


def test_native_claude_runs_without_tools(env, monkeypatch):
    argv_file = env.tmp / "argv.txt"
    env.script(
        "claude",
        f'printf "%s\\n" "$@" > {argv_file}\n'
        f'printf "%s" "$MEMSEARCH_TUI_IN_MAINTENANCE" >> {argv_file}\n'
        'cat > /dev/null\nprintf \'%s\' \'{"action": "none", "reason": "native"}\'\n',
    )
    monkeypatch.setenv("PATH", f"{env.tmp / 'bin'}{os.pathsep}{os.environ['PATH']}")
    out = ask(ProviderSettings(name="native", type="native"), call(env), "prompt")
    assert json.loads(out)["reason"] == "native"
    args = argv_file.read_text().splitlines()
    assert args[:2] == ["-p", "--strict-mcp-config"] and args[args.index("--tools") + 1] == ""
    assert "prompt" not in args and args[-1] == "1"  # prompt on stdin; recursion guard set


def test_native_codex_read_only(env, monkeypatch):
    argv_file = env.tmp / "argv.txt"
    env.script(
        "codex",
        f'printf "%s\\n" "$@" > {argv_file}\ncat > /dev/null\n'
        'while [ "$1" != "-o" ]; do shift; done\n'
        'printf \'%s\' \'{"action": "none", "reason": "codex"}\' > "$2"\n',
    )
    monkeypatch.setenv("PATH", f"{env.tmp / 'bin'}{os.pathsep}{os.environ['PATH']}")
    out = ask(ProviderSettings(name="native", type="native"), call(env, "codex"), "prompt")
    assert json.loads(out)["reason"] == "codex"
    args = argv_file.read_text().splitlines()
    assert args[:2] == ["exec", "--ephemeral"] and args[args.index("-s") + 1] == "read-only"
    assert "features.hooks=false" in args and args[-1] == "-"


def openai_config(env, server: ChatServer, *, review: bool = True) -> None:
    env.config_file(
        '[plugins.codex.project_review]\nenabled = true\nprovider = "local"\n\n'
        f'[llm.providers.local]\ntype = "openai-compatible"\nmodel = "qwen3"\nbase_url = "{server.base_url}"\n'
        'api_key = "env:TEST_LLM_KEY"\ntimeout_s = 10\n\n'
        f"[tui]\nreview = {str(review).lower()}\n"
    )


def test_openai_compatible_with_one_tool_round(env, monkeypatch):
    monkeypatch.setenv("TEST_LLM_KEY", "sk-test-SECRET-123")
    replies = [{"tool": "grep -n -i milvus ."}, {"content": GOOD}]
    with ChatServer(replies) as server:
        openai_config(env, server, review=False)
        (r,) = run_tasks(env.project, env.config(), memory_root=env.store, tasks=["project_review"])
    assert r.result == "replaced", r.reason
    assert (env.mem / "PROJECT.md").read_text(encoding="utf-8") == "# Project\n\n- Milvus Lite\n"
    first, second = server.requests
    assert first["model"] == "qwen3" and first["tools"][0]["function"]["name"] == "read_memory"
    assert "## Recent memory journal entries" in first["messages"][-1]["content"]
    tool_msg = second["messages"][-1]
    assert tool_msg["role"] == "tool" and tool_msg["tool_call_id"] == "call_1"
    assert "2026-11-28.md:7:- Decided to store vectors in Milvus Lite" in tool_msg["content"]
    assert server.headers[0]["authorization"] == "Bearer sk-test-SECRET-123"
    state_text = (env.mem / ".maintenance-state.json").read_text(encoding="utf-8")
    assert "sk-test" not in state_text


def test_openai_tool_injection_is_refused_and_rounds_capped(env, monkeypatch):
    monkeypatch.setenv("TEST_LLM_KEY", "sk-test-SECRET-123")
    replies = [
        {"tool": "cat /etc/passwd"},
        {"tool": "find . -delete"},
        {"tool": "cat ../PROJECT.md"},
        {"content": '{"action": "none", "reason": "gave up"}'},
    ]
    with ChatServer(replies) as server:
        openai_config(env, server)
        (r,) = run_tasks(env.project, env.config(), memory_root=env.store, tasks=["project_review"])
    assert (r.result, r.reason) == ("none", "gave up")
    tool_outputs = [m["content"] for req in server.requests for m in req["messages"] if m.get("role") == "tool"]
    assert tool_outputs and all(o.startswith("Error:") for o in tool_outputs)
    assert len(server.requests) == 4 and server.requests[-1]["tool_choice"] == "none"
    assert (env.mem / "memory" / "2026-11-28.md").exists()


def test_api_key_never_in_errors_state_or_output(env, monkeypatch):
    monkeypatch.setenv("TEST_LLM_KEY", "sk-test-SECRET-123")
    with ChatServer([{"status": 401, "body": "bad key {auth}"}] * 3) as server:
        openai_config(env, server)
        (r,) = run_tasks(env.project, env.config(), memory_root=env.store, tasks=["project_review"])
    assert r.result == "error" and "401" in r.reason
    assert "SECRET" not in r.reason and "***" in r.reason
    assert "SECRET" not in (env.mem / ".maintenance-state.json").read_text(encoding="utf-8")


@pytest.mark.parametrize("ptype", ["anthropic", "gemini"])
def test_anthropic_and_gemini_sdks_with_one_tool_round(env, monkeypatch, ptype):
    monkeypatch.setenv("TEST_LLM_KEY", "key-SECRET-456")
    replies = [{"tool": "grep -n Milvus ."}, {"content": '{"action": "none", "reason": "checked"}'}]
    with ChatServer(replies) as server:
        root = server.base_url[: -len("/v1")]
        env.config_file(
            '[plugins.codex.project_review]\nenabled = true\nprovider = "api"\n\n'
            f'[llm.providers.api]\ntype = "{ptype}"\nmodel = "test-model"\nbase_url = "{root}"\n'
            'api_key = "env:TEST_LLM_KEY"\ntimeout_s = 10\n'
        )
        (r,) = run_tasks(env.project, env.config(), memory_root=env.store, tasks=["project_review"])
    assert (r.result, r.reason) == ("none", "checked")
    assert len(server.requests) == 2
    second = json.dumps(server.requests[1])
    assert "Decided to store vectors in Milvus Lite" in second  # the tool's output went back to the model
    if ptype == "anthropic":
        h = server.headers[0]  # SDK versions differ: x-api-key or a bearer token
        assert "key-SECRET-456" in (h.get("x-api-key", "") + h.get("authorization", ""))
        assert server.requests[0]["tools"][0]["name"] == "read_memory"
    else:
        assert server.headers[0]["x-goog-api-key"] == "key-SECRET-456"
