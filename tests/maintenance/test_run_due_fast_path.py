"""The hook's fast path: a call whose inputs did not change since a quiet run is answered from
that run's record without importing the engine, and every kind of change takes the full path.

Behaviour, not timing: each run is a real ``memsearch-tui --run-due`` in a fresh interpreter
that reports whether the engine's config module was imported (the full path always loads
the config; the fast path never does). Records are only written once every input is older
than the racy window, so the setups wait that long once: ``RACY_T`` in these runs (set by the
wrapper, so ~20 setups wait 0.4 s instead of 1.2 s); the rule itself, with the real
``RACY_S``, is tested in-process by ``test_a_file_changed_just_before_the_run_is_never_recorded``.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time

import pytest

from memsearch_tui.engine.memsearch.state import input_digest, load_state, record_success
from memsearch_tui.engine.store.store import Store
from memsearch_tui.engine.upkeep import fast_path
from tests.maintenance.conftest import answer_script

pytestmark = pytest.mark.slow  # each setup waits RACY_T once so that its files may be recorded
RACY_T = 0.2  # the racy window of these runs: RACY_S's 1 s covers whole-second timestamps; tmp dirs here keep ns

NONE = '{"action": "none", "reason": "nothing new"}'
T0 = "2026-11-30T12:00:00Z"
WRAPPER = (
    "import sys\nimport memsearch_tui.cli as cli\n"
    f"import memsearch_tui.engine.upkeep.fast_path as fp\nfp.RACY_S = {RACY_T}\n"
    "def _exit(rc):\n    raise SystemExit(rc)\n"
    "cli._exit_now = _exit\n"
    "try:\n    cli.main(sys.argv[1:])\nexcept SystemExit as exc:\n    rc = exc.code\n"
    "full = 'memsearch_tui.engine.memsearch.config' in sys.modules\n"
    "sys.stderr.write('\\nPATH=' + ('full' if full else 'fast') + '\\n')\n"
    "sys.exit(rc)\n"
)


def hook(env, *args: str, stdin: bytes | None = None, now: str = T0, extra_env: dict | None = None):
    """(path taken, exit code, stdout, stderr without the marker) of one real run."""
    environ = {
        **os.environ,
        "HOME": str(env.home),
        "MEMSEARCH_TUI_MEMORY_ROOT": str(env.store),
        "MEMSEARCH_TUI_NOW": now,
        "XDG_CACHE_HOME": str(env.home / ".cache"),
        **(extra_env or {}),
    }
    r = subprocess.run(
        [sys.executable, "-c", WRAPPER, "--run-due", *args],
        input=stdin,
        capture_output=True,
        cwd=env.project,
        env=environ,
        timeout=60,
        stdin=None if stdin is not None else subprocess.DEVNULL,
    )
    err, _, path = r.stderr.decode().rpartition("\nPATH=")
    assert "Traceback" not in err, err
    return path.strip(), r.returncode, r.stdout, err


def settle() -> None:
    """Let every file made so far age past the racy window, so a quiet run may record."""
    time.sleep(RACY_T + 0.2)


@pytest.fixture
def quiet(env):
    """A configured project_review that is up to date (its input unchanged), and a store."""
    env.command_provider(answer_script(env, NONE), tasks=("project_review",))
    cfg = env.home / ".memsearch" / "config.toml"
    cfg.write_text(cfg.read_text(encoding="utf-8").replace("enabled = true", "enabled = true\nmin_interval_hours = 0"))
    record_success(
        env.mem,
        "claude-code.project_review",
        digest=input_digest(env.mem / "memory"),
        action="none",
        output_file=env.mem / "PROJECT.md",
    )
    Store(env.store).init()
    hook(env)  # the first run checks the store's lifecycle and splits (writes upkeep.json)
    settle()
    return env


def assert_recorded(env, *args: str, **kw) -> tuple:
    first = hook(env, *args, **kw)
    second = hook(env, *args, **kw)
    assert (first[0], second[0]) == ("full", "fast"), (first, second)
    assert first[1:] == second[1:]  # the same exit code and the same bytes on both streams
    return second


def test_nothing_changed_is_answered_from_the_record(quiet):
    path, code, out, err = assert_recorded(quiet)
    assert code == 0 and out == b"memsearch-tui: 1 disabled, 1 skip; upkeep: 3 skip\n" and err == ""


@pytest.mark.parametrize("host", ["claude-code", "codex"])
def test_hook_mode_keeps_the_host_protocol_on_the_fast_path(quiet, host):
    payload = json.dumps({"session_id": "s-1", "cwd": str(quiet.project), "hook_event_name": "Stop"}).encode()
    _, code, out, err = assert_recorded(quiet, "--hook", host, stdin=payload)
    assert code == 0 and out == {"claude-code": b"", "codex": b'{"continue":true}\n'}[host]
    tasks = {"claude-code": "1 disabled, 1 skip", "codex": "2 disabled"}[host]  # only the host's platform runs
    assert err == f"memsearch-tui: {tasks}; upkeep: 3 skip\n"


def test_json_and_force_never_use_a_record(quiet):
    for args in (("--json",), ("--force",), ("--js",)):  # argparse takes abbreviations too
        assert [hook(quiet, *args)[0] for _ in range(2)] == ["full", "full"]


def _append_journal(env) -> None:
    with (env.mem / "memory" / "2026-11-28.md").open("a", encoding="utf-8") as fh:
        fh.write("\n### 09:30\n- Chose gruvbox\n")


def _user_config(env) -> None:
    cfg = env.home / ".memsearch" / "config.toml"
    cfg.write_text(cfg.read_text(encoding="utf-8") + "\n[plugins.claude-code.user_profile]\nenabled = true\n")


def _project_config(env) -> None:
    (env.project / ".memsearch.toml").write_text("[plugins.claude-code.user_profile]\nenabled = true\n")


def _state_file(env) -> None:
    (env.mem / ".maintenance-state.json").unlink()


def _project_md(env) -> None:
    (env.mem / "PROJECT.md").write_text("# Project\n", encoding="utf-8")


def _store_index(env) -> None:
    with (env.store / "INDEX.md").open("a", encoding="utf-8") as fh:
        fh.write("\n")


def _upkeep_state(env) -> None:
    (env.store / ".memsearch-tui" / "upkeep.json").write_text("{}", encoding="utf-8")


def _purge_pending(env) -> None:
    (env.store / ".memsearch-tui" / "purge-pending").write_text("x\n", encoding="utf-8")


CHANGES = {
    "journal line": _append_journal,
    "user config": _user_config,
    "project config": _project_config,
    "state file": _state_file,
    "PROJECT.md": _project_md,
    "store INDEX.md": _store_index,
    "store upkeep state": _upkeep_state,
    "pending purge": _purge_pending,
}


@pytest.mark.parametrize("change", list(CHANGES))
def test_every_kind_of_change_takes_the_full_path(quiet, change):
    assert_recorded(quiet)
    CHANGES[change](quiet)
    assert hook(quiet)[0] == "full"


def test_a_changed_journal_runs_the_due_task(quiet):
    """Not only the full path: the task the new journal line made due really runs."""
    assert_recorded(quiet)
    before = load_state(quiet.mem)[0]["claude-code.project_review"]["last_input_digest"]
    _append_journal(quiet)
    hook(quiet)
    after = load_state(quiet.mem)[0]["claude-code.project_review"]["last_input_digest"]
    assert after != before and after == input_digest(quiet.mem / "memory")


def test_a_new_git_root_between_cwd_and_project_is_seen(quiet):
    deep = quiet.project / "src" / "deep"
    deep.mkdir(parents=True)
    settle()
    payload = json.dumps({"cwd": str(deep)}).encode()
    assert_recorded(quiet, "--hook", "codex", stdin=payload)
    (quiet.project / "src" / ".git").mkdir()  # now src/ is the project the payload's cwd is in
    assert hook(quiet, "--hook", "codex", stdin=payload)[0] == "full"


def test_another_environment_is_another_question(quiet):
    assert_recorded(quiet)
    assert hook(quiet, extra_env={"MEMSEARCH_DIR": str(quiet.mem)})[0] == "full"


def test_time_rules_end_a_record(quiet):
    """A task whose input changed but whose interval has not run out is skipped; once the
    interval ends (here: the frozen clock moves on) the record no longer answers."""
    cfg = quiet.home / ".memsearch" / "config.toml"
    cfg.write_text(cfg.read_text(encoding="utf-8").replace("min_interval_hours = 0", "min_interval_hours = 0.5"))
    _append_journal(quiet)
    settle()
    assert_recorded(quiet)
    assert hook(quiet, now="2026-11-30T12:15:00Z")[0] == "fast"
    assert hook(quiet, now="2026-11-30T12:45:00Z")[0] == "full"
    assert load_state(quiet.mem)[0]["claude-code.project_review"]["last_input_digest"] == input_digest(
        quiet.mem / "memory"
    )


def test_a_config_warning_is_printed_every_time(quiet):
    (quiet.project / ".memsearch.toml").write_text('[llm.providers.evil]\ntype = "command"\ncommand = ["sh"]\n')
    settle()
    runs = [hook(quiet) for _ in range(2)]
    assert [r[0] for r in runs] == ["full", "full"] and all("config:" in r[3] for r in runs)


def test_a_file_changed_just_before_the_run_is_never_recorded(tmp_path, monkeypatch):
    """Racy writes: an input whose ctime is within RACY_S of the run's start may have been
    read half-way, so no record is written (in-process: deterministic timing)."""
    watched = tmp_path / "journal.md"
    watched.write_text("x", encoding="utf-8")
    item = fast_path.FILE + os.fsencode(str(watched))
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    monkeypatch.delenv("MEMSEARCH_TUI_NOW")
    assert not fast_path.write_record("k", [item], float("inf"), time.time(), (0, "out", "quiet"))
    assert fast_path.cached_answer("k") is None
    assert fast_path.write_record("k", [item], float("inf"), time.time() + 5, (0, "out", "quiet"))
    assert fast_path.cached_answer("k") == (0, "out", "quiet")
    watched.write_text("y", encoding="utf-8")
    assert fast_path.cached_answer("k") is None


def test_with_a_vector_index_an_edited_store_file_is_work(quiet):
    """A vector index makes every store file an input: an in-place edit (which moves no
    folder's stat) still ends the record, and the full path indexes the edit."""
    from memsearch_tui.engine.search import Searcher

    entry = quiet.store / "notes" / "deploy.md"
    entry.parent.mkdir()
    entry.write_text("---\ntitle: Deploys\nstatus: active\n---\nWe deploy on Fridays.\n", encoding="utf-8")
    settle()  # indexed once its clock tick has passed: not a racy row the first hook must read again
    with Searcher(quiet.store, quiet.project) as s:
        s.index()
    settle()
    _, _, out, _ = assert_recorded(quiet)
    assert b"store.vectors none" in out
    with entry.open("r+", encoding="utf-8") as fh:  # in place: the folder's stat stays as it was
        fh.seek(0, os.SEEK_END)
        fh.write("Never on Mondays.\n")
    path, _, out, _ = hook(quiet)
    assert path == "full" and b"store.vectors replaced" in out
