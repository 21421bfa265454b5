"""A month of background runs under a budget (issue 34), on a simulated clock: three forced
runs a day from 1 November to 2 December against the loopback server, each call reporting
3,000 input and 400 output tokens. Days roll over (the daily limit frees up again), the
month fills up (refusals for ``monthly_tokens``), then the month rolls over (calls resume).

``pytest -s tests/maintenance/test_spend_month.py`` prints the month's ledger table
(``maintenance spend --since 2026-11-01 --by day``) with its refusals.
"""

from __future__ import annotations

import json
from collections import Counter

import pytest

from memsearch_tui.engine.maintenance import run_tasks
from tests.helpers import run_cli
from tests.maintenance.llm_server import ChatServer

NONE = '{"action": "none", "reason": "nothing new"}'
DAILY, MONTHLY = 10_000, 100_000
DAYS = [f"2026-11-{d:02d}" for d in range(1, 31)] + ["2026-12-01", "2026-12-02"]


@pytest.mark.slow
def test_a_month_under_a_budget(env, monkeypatch):
    monkeypatch.setenv("TEST_LLM_KEY", "sk-month-test")
    replies = [{"content": NONE, "usage": [3000, 400]}] * (3 * len(DAYS))
    results: list[tuple[str, str, str]] = []
    with ChatServer(replies) as server:
        env.config_file(
            '[plugins.codex.project_review]\nenabled = true\nprovider = "api"\n\n'
            f'[llm.providers.api]\ntype = "openai-compatible"\nmodel = "test-model"\nbase_url = "{server.base_url}"\n'
            'api_key = "env:TEST_LLM_KEY"\ntimeout_s = 10\n\n'
            '[tui.prices."test-model"]\ninput_per_mtok = 3.0\noutput_per_mtok = 15.0\n\n'
            f"[tui.budget]\ndaily_tokens = {DAILY}\nmonthly_tokens = {MONTHLY}\n"
        )
        for day in DAYS:
            for hour in ("08", "13", "18"):
                monkeypatch.setenv("MEMSEARCH_TUI_NOW", f"{day}T{hour}:00:00Z")
                (r,) = run_tasks(env.project, env.config(), memory_root=env.store, tasks=["project_review"], force=True)
                results.append((day, r.result, r.reason))
        sent = len(server.requests)

    lines = [json.loads(x) for x in env.ledger.read_text(encoding="utf-8").splitlines()]
    made = [x for x in lines if x["outcome"] != "refused"]
    assert sent == len(made) == sum(r == "none" for _, r, _ in results)  # a refusal sent nothing
    assert {r for _, r, _ in results} == {"none", "refused"}
    per_day = Counter()
    for x in made:
        per_day[x["ts"][:10]] += x["input_tokens"] + x["output_tokens"]
    assert max(per_day.values()) <= DAILY  # never past the daily limit
    assert sum(v for k, v in per_day.items() if k.startswith("2026-11")) <= MONTHLY
    reasons = Counter(x["reason"] for x in lines if x["outcome"] == "refused")
    assert reasons["budget: daily_tokens"] and reasons["budget: monthly_tokens"]  # both limits bit
    late_november = [r for d, r, _ in results if "2026-11-25" <= d <= "2026-11-30"]
    assert set(late_november) == {"refused"}  # the month is spent
    assert [r for d, r, _ in results if d == "2026-12-01"][0] == "none"  # a new month: calls resume
    assert per_day["2026-11-02"] and per_day["2026-11-02"] == per_day["2026-11-01"]  # a new day: same again

    monkeypatch.setenv("MEMSEARCH_TUI_NOW", "2026-12-02T20:00:00Z")
    table = run_cli(
        *("--project", str(env.project), "--memory-root", str(env.store)),
        *("maintenance", "spend", "--since", "2026-11-01", "--by", "day"),
        env={"HOME": str(env.home)},
    )
    print("\n" + table.stdout)
    assert table.exit_code == 0
    assert "refused (no request sent): 16 × budget: daily_tokens, 48 × budget: monthly_tokens" in table.stdout
    assert "2026-11-30" in table.stdout and "budget: monthly_tokens: 13,600 of 100,000" in table.stdout
