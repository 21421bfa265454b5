"""Resource bounds on everything untrusted, against hostile providers: real child
processes written by the test and the real loopback LLM server. Each bound has a named
error; nothing hangs (generous hang guards only, no timing assertions), nothing is
written, nothing raw is echoed."""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

from memsearch_tui.engine.maintenance import run_tasks
from memsearch_tui.engine.maintenance.answer import MAX_ANSWER_CHARS, AnswerError, AnswerTooLarge, parse_answer
from memsearch_tui.engine.maintenance.providers import (
    MAX_STDERR,
    MAX_STDOUT,
    Call,
    ProviderOutputTooLarge,
    ProviderTimeout,
    ask,
)
from memsearch_tui.engine.maintenance.sandbox import GREP_MAX_BYTES, Sandbox
from memsearch_tui.engine.memsearch.config import ProviderSettings
from memsearch_tui.engine.memsearch.state import load_state
from tests.helpers import run_cli
from tests.maintenance.conftest import Env
from tests.maintenance.llm_server import ChatServer
from tests.security.test_secrets_ways import make_env

RAW = ("\x1b", "\x07", "\x9b", "\u202e")


@pytest.fixture
def env(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Env:
    return make_env(tmp_path, monkeypatch)


def _call(env: Env) -> Call:
    return Call(platform="claude-code", model="", project=env.project, sandbox=Sandbox([env.mem / "memory"]))


def _cmd(script: Path, timeout: float = 20) -> ProviderSettings:
    return ProviderSettings(name="hostile", type="command", command=(str(script),), timeout_s=timeout)


# -- command providers --------------------------------------------------------------------
def test_a_flood_on_stdout_is_cut_and_its_group_killed(env: Env) -> None:
    marker = env.tmp / "grandchild-survived"
    script = env.script("flood", f"cat >/dev/null\n(sleep 2; touch {marker}) &\nyes 'aaaaaaaaaaaaaaaa'\n")
    with pytest.raises(ProviderOutputTooLarge, match=f"more than {MAX_STDOUT} bytes on stdout") as info:
        ask(_cmd(script), _call(env), "p")
    assert info.value.code == "provider_output_too_large"
    time.sleep(2.5)  # past the moment the grandchild would have written
    assert not marker.exists()


def test_a_flood_on_stderr_is_cut_too(env: Env) -> None:
    script = env.script("errflood", "cat >/dev/null\nyes 'complaint' >&2\n")
    with pytest.raises(ProviderOutputTooLarge, match=f"more than {MAX_STDERR} bytes on stderr"):
        ask(_cmd(script), _call(env), "p")


def test_memory_stays_bounded_while_a_child_floods(env: Env) -> None:
    """The old reader kept everything a child wrote (GBs of RSS for `yes`). Peak RSS of a
    process that asks a flooding provider stays within a small multiple of the cap."""
    script = env.script("flood2", "cat >/dev/null\nyes 'bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb'\n")
    code = textwrap.dedent(
        f"""
        import resource
        from pathlib import Path
        from memsearch_tui.engine.maintenance.providers import ask, Call, ProviderOutputTooLarge
        from memsearch_tui.engine.maintenance.sandbox import Sandbox
        from memsearch_tui.engine.memsearch.config import ProviderSettings
        p = ProviderSettings(name="h", type="command", command=({str(script)!r},), timeout_s=60)
        before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
        try:
            ask(p, Call("claude-code", "", Path({str(env.project)!r}), Sandbox([Path({str(env.tmp)!r})])), "x")
        except ProviderOutputTooLarge:
            pass
        print(before, resource.getrusage(resource.RUSAGE_SELF).ru_maxrss)
        """
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120, check=True)
    before_kb, after_kb = map(int, out.stdout.split())
    assert (after_kb - before_kb) * 1024 < 20 * MAX_STDOUT, (before_kb, after_kb)
    print(f"\npeak RSS while a child floods stdout: +{(after_kb - before_kb) / 1024:.1f} MB")


def test_a_slow_child_is_a_named_timeout(env: Env) -> None:
    script = env.script("slow", "cat >/dev/null\nsleep 30\n")
    with pytest.raises(ProviderTimeout, match="timed out after 0.5s"):
        ask(_cmd(script, timeout=0.5), _call(env), "p")


def test_a_child_that_never_reads_a_big_prompt_does_not_hang(env: Env) -> None:
    script = env.script("deaf", 'printf \'%s\' \'{"action": "none", "reason": "deaf"}\'\n')
    assert "deaf" in ask(_cmd(script, timeout=30), _call(env), "x" * 2_000_000)


def test_control_characters_and_secrets_in_a_child_error_are_not_echoed(env: Env) -> None:
    key = "ghp_" + "Q" * 36
    script = env.script(
        "ansi", f"cat >/dev/null\nprintf '\\033]0;pwned\\007\\033[2J{key} \\342\\200\\256 bad' >&2\nexit 2\n"
    )
    env.command_provider(script)
    (r,) = run_tasks(env.project, env.config(), memory_root=env.store, tasks=["project_review"])
    assert r.result == "error" and "exited with status 2" in r.reason
    assert not any(c in r.reason for c in RAW) and "\\x1b" in r.reason
    assert key not in r.reason and "[redacted: GitHub token]" in r.reason
    state = (env.mem / ".maintenance-state.json").read_text(encoding="utf-8")
    assert key not in state and "\x1b" not in json.loads(state)["claude-code.project_review"]["last_error"]


def test_a_huge_answer_is_refused_unparsed(env: Env) -> None:
    n = MAX_ANSWER_CHARS + 10
    script = env.script("huge", f"cat >/dev/null\nhead -c {n} /dev/zero | tr '\\0' 'x'\n")
    env.command_provider(script)
    (r,) = run_tasks(env.project, env.config(), memory_root=env.store, tasks=["project_review"])
    assert r.result == "error" and "at most" in r.reason
    assert load_state(env.mem)[0]["claude-code.project_review"]["last_action"] == "error"
    assert not (env.mem / "PROJECT.md").exists()


# -- answers: linear parser -----------------------------------------------------------------
def test_answer_bounds_have_names() -> None:
    with pytest.raises(AnswerTooLarge) as info:
        parse_answer("x" * (MAX_ANSWER_CHARS + 1))
    assert info.value.code == "answer_too_large"
    deep = '{"a":' * 50_000 + '{"action":"none","reason":"deep"}' + "}" * 50_000
    with pytest.raises(AnswerError, match="no JSON answer object"):  # a named error, not a RecursionError
        parse_answer(deep)


PATHOLOGICAL_ANSWERS = {
    "open braces": "{",
    "unclosed nest": '{"a":',
    "fences": "```",
    "quotes": '{"\\',
    "brackets": '{"a":[',
    "stray then nest": "{ x ",
}


def test_the_answer_parser_is_linear_on_pathological_answers() -> None:
    code = textwrap.dedent(
        f"""
        import json, time
        from memsearch_tui.engine.maintenance.answer import parse_answer, AnswerError, MAX_ANSWER_CHARS
        out = {{}}
        for name, unit in {PATHOLOGICAL_ANSWERS!r}.items():
            text = unit * ((MAX_ANSWER_CHARS - 100) // len(unit)) + '{{"action": "none", "reason": "end"}}'
            t = time.perf_counter()
            try:
                r = parse_answer(text).reason
            except AnswerError as exc:
                r = type(exc).__name__
            out[name] = [r, round(time.perf_counter() - t, 3)]
        print(json.dumps(out))
        """
    )
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0, proc.stderr
    results = json.loads(proc.stdout)
    assert set(results) == set(PATHOLOGICAL_ANSWERS)
    assert all(r in ("end", "AnswerError") for r, _ in results.values()), results
    print(f"\nanswer parse of ~500 KB pathological answers: {results}")


# -- the sandbox grep ---------------------------------------------------------------------
def test_catastrophic_regex_runs_in_linear_time(env: Env) -> None:
    (env.mem / "memory" / "long.md").write_text("a" * 200_000 + "!\n", encoding="utf-8")
    code = textwrap.dedent(
        f"""
        import time
        from pathlib import Path
        from memsearch_tui.engine.maintenance.sandbox import Sandbox
        sb = Sandbox([Path({str(env.mem / "memory")!r})])
        t = time.perf_counter()
        outs = [sb.run(c) for c in ("grep -c 'a*a*a*a*a*a*a*a*a*a*a*b' .", "grep -c '.*.*.*.*.*.*.*.*.*x' .", "grep -c 'a*a*a*!' .")]
        print(round(time.perf_counter() - t, 3), outs)
        """
    )
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0, proc.stderr
    assert "long.md:1" in proc.stdout and "long.md:0" in proc.stdout
    print(f"\nsandbox grep, 3 catastrophic patterns on a 200 KB line: {proc.stdout.strip()}")


def test_patterns_re2_cannot_run_are_refused_with_a_hint(env: Env) -> None:
    sb = Sandbox([env.mem / "memory"])
    out = sb.run("grep -e 'a*+' .")  # a possessive quantifier: Python's re would take it, RE2 does not
    assert out.startswith("Error: invalid pattern") and "-F" in out
    assert "Decided" in sb.run("grep -F -e 'Decided*+' -e x .") or "Decided" in sb.run("grep -F Decided .")


def test_grep_has_a_read_budget(env: Env, monkeypatch: pytest.MonkeyPatch) -> None:
    from memsearch_tui.engine.maintenance import sandbox

    for i in range(5):
        (env.mem / "memory" / f"big-{i}.md").write_text("nothing here\n" * 2000, encoding="utf-8")
    monkeypatch.setattr(sandbox, "GREP_MAX_BYTES", 30_000)
    out = Sandbox([env.mem / "memory"]).run("grep -r zzz .")
    assert out.startswith("Error: grep stopped") and "narrow the path" in out
    assert GREP_MAX_BYTES > 30_000


def test_a_loopback_model_sends_a_catastrophic_regex_and_a_quadratic_answer(env: Env, monkeypatch) -> None:
    """The model asks the tool for a backtracking bomb, then answers with an unclosed nest
    of objects: the run ends with a named error and writes nothing."""
    monkeypatch.setenv("TEST_LLM_KEY", "unused-key")
    (env.mem / "memory" / "long.md").write_text("a" * 100_000 + "!\n", encoding="utf-8")
    replies = [{"tool": "grep -c 'a*a*a*a*a*a*a*a*a*a*a*a*b' ."}, {"content": '{"a":' * 90_000}]
    with ChatServer(replies) as server:
        env.config_file(
            '[plugins.codex.project_review]\nenabled = true\nprovider = "local"\n\n'
            f'[llm.providers.local]\ntype = "openai-compatible"\nmodel = "m"\nbase_url = "{server.base_url}"\n'
            'api_key = "env:TEST_LLM_KEY"\ntimeout_s = 30\n\n[tui]\nreview = false\n'
        )
        (r,) = run_tasks(
            env.project, env.config(), platforms=["codex"], memory_root=env.store, tasks=["project_review"]
        )
    assert r.result == "error" and "no JSON answer object" in r.reason
    tool_out = [m["content"] for m in server.requests[1]["messages"] if m.get("role") == "tool"]
    assert len(tool_out) == 1 and tool_out[0].endswith("long.md:0")  # answered at once, no backtracking
    assert not (env.mem / "PROJECT.md").exists()


def test_a_loopback_model_reason_with_control_characters_is_escaped_in_cli_output(env: Env, monkeypatch) -> None:
    monkeypatch.setenv("TEST_LLM_KEY", "unused-key")
    reason = "all good\x1b[2J\x1b]0;pwned\x07\u202eevil"
    replies = [{"content": json.dumps({"action": "none", "reason": reason})}] * 2
    with ChatServer(replies) as server:
        env.config_file(
            '[plugins.codex.project_review]\nenabled = true\nprovider = "local"\n\n'
            f'[llm.providers.local]\ntype = "openai-compatible"\nmodel = "m"\nbase_url = "{server.base_url}"\n'
            'api_key = "env:TEST_LLM_KEY"\ntimeout_s = 10\n'
        )
        base = ["--project", str(env.project), "--memory-root", str(env.store), "maintenance", "run"]
        for extra in (["--json"], ["--force"]):
            out = run_cli(*base, "--task", "project_review", "--platform", "codex", *extra)
            assert out.code == 0, out
            assert not any(c in out.out + out.err for c in RAW), repr(out.out)
