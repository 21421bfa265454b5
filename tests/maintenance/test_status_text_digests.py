"""``maintenance status`` as text shows no digest: a disabled task's is not made.

The text lists each task's state, never its ``input_digest``; only an enabled task's due
check needs one. It digested every task's input folder anyway (listing and stat-ing every
day file, 10,000 at 10,000 journal days) when every task was disabled, as memsearch ships
them. It asks ``status(cfg, disabled_digests=False)`` now, as the Maintenance pane does;
``--json`` (either flag) keeps every field, digests included. The printed lines were
compared before and after on corpora with every task disabled and with one enabled, in
English and Chinese day files: the same (benchmarks/README.md, session 18 polish).

Listings and reads are counted with an audit hook (``os.scandir`` of the journal folder,
``open`` of a day file), whatever does them.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from memsearch_tui.engine.maintenance.run import status
from memsearch_tui.engine.memsearch import state
from tests.helpers import run_cli

_SEEN: list[str] | None = None  # folders listed and .md files opened while a test listens, else None


def _hook(event: str, args: tuple[object, ...]) -> None:
    if _SEEN is not None and event in ("os.scandir", "open") and isinstance(args[0], str):
        _SEEN.append(str(args[0]))


sys.addaudithook(_hook)  # one hook for the process (they cannot be removed): idle unless listened to


def _days(env) -> Path:  # type: ignore[no-untyped-def]
    memory = env.project / ".memsearch" / "memory"
    for i in range(20):
        body = "- 缓存预热的竞态\n" if i % 2 else "- the cache warm-up race\n"
        (memory / f"2026-10-{1 + i:02d}.md").write_text(f"# 2026-10-{1 + i:02d}\n### 10:00\n{body}", encoding="utf-8")
    return memory


def _status(env, *args: str):  # type: ignore[no-untyped-def]
    """``maintenance status ARGS`` in-process; (the result, the journal folder's listings
    and day files opened meanwhile)."""
    global _SEEN
    memory = str(env.project / ".memsearch" / "memory")
    _SEEN = []
    try:
        out = run_cli("--project", str(env.project), *args)
        return out, [p for p in _SEEN if p.rstrip("/") == memory or p.startswith(memory + "/")]
    finally:
        _SEEN = None


@pytest.fixture(autouse=True)
def _no_digest_cache(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(state, "_DIGESTS", {}, raising=False)  # each run digests afresh, if it digests


def test_text_status_reads_no_day_when_every_task_is_disabled(env) -> None:  # type: ignore[no-untyped-def]
    _days(env)  # no config: every task disabled, as memsearch ships them
    out, seen = _status(env, "maintenance", "status")
    assert out.code == 0, out.output
    tasks = [ln for ln in out.out.splitlines() if ln.startswith("claude-code.")]
    assert tasks and all(": disabled, " in ln for ln in tasks)
    assert seen == []  # 2c44b36: the journal folder listed, each day stat-ed, for a digest not shown


@pytest.mark.parametrize("flag", [("maintenance", "status", "--json"), ("--json", "maintenance", "status")])
def test_json_status_keeps_every_digest(env, flag) -> None:  # type: ignore[no-untyped-def]
    _days(env)
    out, seen = _status(env, *flag)
    assert out.code == 0, out.output
    tasks = out.json["data"]["tasks"]
    expected = [r.input_digest for r in status(env.project, env.config())]
    assert [t["input_digest"] for t in tasks] == expected and "" not in expected
    assert seen  # the folder is read for them


def test_text_status_still_digests_for_an_enabled_task(env) -> None:  # type: ignore[no-untyped-def]
    """An enabled task whose state keeps today's digest: "input unchanged" needs it."""
    _days(env)
    env.config_file("[plugins.claude-code.project_review]\nenabled = true\n")
    digest = next(r.input_digest for r in status(env.project, env.config()) if r.task == "project_review")
    (env.mem / ".maintenance-state.json").write_text(
        f'{{"claude-code.project_review": {{"last_input_digest": "{digest}", '
        '"last_success_at": "2026-10-30T09:00:00Z", "last_action": "none"}}',
        encoding="utf-8",
    )
    out, seen = _status(env, "maintenance", "status")
    assert out.code == 0, out.output
    line = next(ln for ln in out.out.splitlines() if ln.startswith("claude-code.project_review:"))
    assert "; input unchanged" in line, line
    assert seen
