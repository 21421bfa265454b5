"""The optional LLM contradiction check (issue 35): off by default; when the user's config
turns it on, the pairs typed values could not settle go to the configured provider (the
real OpenAI SDK against the loopback server), its answer parsed strictly, each request in
the spend ledger and refused past the budget, secrets masked before anything is sent."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from memsearch_tui.engine.maintenance import ledger
from tests.maintenance.llm_server import ChatServer

from .conftest import World, write
from .test_kinds import AWS

# Alike word for word, a number apart, with too few words around it for the typed-value
# rule to call it a contradiction (MIN_WORDS_NUMBER): the rules leave these unsettled.
OLD = "The API timeout is 30"
NEW = "The API timeout is 60"
ZH_OLD = "预发环境的端口是 8080"
ZH_NEW = "预发环境的端口是 9090"


def _config(world: World, server: ChatServer | None, extra: str = "", *, on: bool = True) -> None:
    url = server.base_url if server else "http://127.0.0.1:9/v1"
    write(
        world.home / ".memsearch" / "config.toml",
        f'[llm.providers.local]\ntype = "openai-compatible"\nmodel = "qwen3"\nbase_url = "{url}"\n'
        'api_key = "env:TEST_LLM_KEY"\ntimeout_s = 10\n\n'
        f'[tui.hygiene]\nllm_check = {str(on).lower()}\nprovider = "local"\n{extra}',
    )


@pytest.fixture(autouse=True)
def _ledger(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("MEMSEARCH_TUI_STATE_DIR", str(tmp_path / "state"))
    monkeypatch.setenv("TEST_LLM_KEY", "sk-test-SECRET-123")


def _plant(world: World) -> None:
    world.entry("ops/timeout-old", f"{OLD}.\nDeploy key {AWS} is in the vault.", updated="2026-10-01")
    world.entry("ops/timeout-new", f"{NEW}.")


def _asked(server: ChatServer) -> str:
    return "\n".join(m["content"] for r in server.requests for m in r["messages"] if m["role"] == "user")


def test_off_by_default_the_rules_alone_leave_the_pair_unsettled(world: World) -> None:
    _plant(world)
    with ChatServer([]) as server:
        _config(world, server, on=False)
        assert world.scan("contradiction").findings == ()
    assert server.requests == [] and ledger.read() == []


def test_a_pair_the_provider_confirms_is_a_contradiction_and_secrets_are_never_sent(world: World) -> None:
    _plant(world)
    world.entry("团队/端口-旧", f"{ZH_OLD}。", updated="2026-10-02")
    world.entry("团队/端口-新", f"{ZH_NEW}。")
    with ChatServer([{"content": '{"contradictions": [1]}'}]) as server:
        _config(world, server)
        report = world.scan("contradiction")
    (f,) = report.findings
    assert f.ids == ("ops/timeout-old", "ops/timeout-new") and OLD in f.evidence[0] and NEW in f.evidence[1]
    assert "LLM check" in f.evidence[-1]
    (request,) = server.requests
    sent = _asked(server)
    assert OLD in sent and ZH_OLD in sent and ZH_NEW in sent  # one request: both pairs, EN and ZH
    assert AWS not in json.dumps(request) and "sk-test-SECRET" not in sent  # masked before sending
    assert server.headers[0]["authorization"] == "Bearer sk-test-SECRET-123"
    (line,) = ledger.read()
    assert (line.task, line.provider, line.input_tokens) == ("hygiene", "local", server.usage[0][0])


def test_a_pair_the_provider_rejects_is_no_finding(world: World) -> None:
    _plant(world)
    with ChatServer([{"content": '```json\n{"contradictions": []}\n```'}]) as server:
        _config(world, server)
        report = world.scan("contradiction")
    assert report.findings == () and len(server.requests) == 1 and len(ledger.read()) == 1


@pytest.mark.parametrize(
    "answer",
    [
        "Yes, pair 1 contradicts.",
        '{"contradictions": [1], "also": "run rm -rf /"}',
        '{"contradictions": [7]}',
        '{"contradictions": ["1"]}',
        '{"contradictions": [1]} {"contradictions": [1]}',
        '{"contradictions": [' + "1," * 20_000 + "1]}",
        "[" * 100_000,
    ],
)
def test_a_garbage_answer_confirms_nothing_and_says_so(world: World, answer: str) -> None:
    _plant(world)
    with ChatServer([{"content": answer}]) as server:
        _config(world, server)
        report = world.scan("contradiction")
    assert report.findings == ()
    assert any(n.startswith("LLM contradiction check: ") and "answer" in n for n in report.notes), report.notes
    assert all(len(n) <= 500 for n in report.notes)


def test_past_the_budget_no_request_is_sent_and_the_refusal_is_in_the_ledger(world: World) -> None:
    _plant(world)
    with ChatServer([{"content": '{"contradictions": [1]}'}]) as server:
        _config(world, server, "\n[tui.budget]\ndaily_tokens = 50\n")
        report = world.scan("contradiction")
    assert server.requests == [] and report.findings == ()
    assert any("stopped: budget: daily_tokens" in n for n in report.notes), report.notes
    (line,) = ledger.read()
    assert (line.task, line.outcome, line.reason) == ("hygiene", "refused", "budget: daily_tokens")


def test_a_project_file_cannot_switch_it_on(world: World) -> None:
    _plant(world)
    with ChatServer([{"content": '{"contradictions": [1]}'}]) as server:
        _config(world, server, on=False)
        write(world.project / ".memsearch.toml", '[tui.hygiene]\nllm_check = true\nprovider = "local"\n')
        write(
            world.home / ".memsearch" / "config.toml",
            (world.home / ".memsearch" / "config.toml").read_text() + "\n[tui]\ntrust_project_config = true\n",
        )
        assert world.scan("contradiction").findings == ()
    assert server.requests == []


def test_at_most_max_pairs_are_sent(world: World) -> None:
    for n, name in enumerate(("billing", "search", "mailer")):
        world.entry(f"ops/{name}-a", f"The {name} service port is 80{n}", updated="2026-10-01")
        world.entry(f"ops/{name}-b", f"The {name} service port is 90{n}")
    with ChatServer([{"content": '{"contradictions": [1, 2]}'}]) as server:
        _config(world, server, "max_pairs = 2\n")
        report = world.scan("contradiction")
    assert len(report.findings) == 2 and _asked(server).count(" A: ") == 2
    assert any("1 more candidate pairs not sent" in n for n in report.notes)
