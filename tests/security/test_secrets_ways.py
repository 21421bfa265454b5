"""Secrets on every way in and every way out: never stored from a store write, an import,
an LLM answer or a proposal edit; never echoed by a refusal, the state file, `status`, a
`--json` field or a provider's stderr. Journal text shown to the LLM is not blocked."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from memsearch_tui.engine.core.errors import Refused
from memsearch_tui.engine.maintenance import run_tasks
from memsearch_tui.engine.review import proposals
from tests.helpers import run_cli
from tests.maintenance.conftest import JOURNAL, Env, answer_script
from tests.maintenance.llm_server import ChatServer

KEY = "glpat-" + "xY3kP9mQ2rT7vW1zB4nC"  # a GitLab token (built in two parts)
AWS = "AKIA" + "IOSFODNN7EXAMPLE"
PIECES = ("xY3kP9mQ2rT7", "IOSFODNN7", "iosfodnn7")  # what must never be shown or stored


@pytest.fixture
def env(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Env:
    """The maintenance tests' project (the same set-up as tests/maintenance/conftest.py)."""
    return make_env(tmp_path, monkeypatch)


def make_env(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Env:
    home, project = tmp_path / "home", tmp_path / "proj"
    (project / ".git").mkdir(parents=True)
    (project / ".memsearch" / "memory").mkdir(parents=True)
    (project / ".memsearch" / "memory" / "2026-11-28.md").write_text(JOURNAL, encoding="utf-8")
    home.mkdir()
    monkeypatch.setenv("HOME", str(home))
    for var in ("XDG_DATA_HOME", "XDG_STATE_HOME", "XDG_CONFIG_HOME"):
        monkeypatch.setenv(var, str(home / var.lower()))
    monkeypatch.delenv("MEMSEARCH_DIR", raising=False)
    monkeypatch.delenv("MEMSEARCH_TUI_IN_MAINTENANCE", raising=False)
    monkeypatch.setenv("MEMSEARCH_TUI_MEMORY_ROOT", str(tmp_path / "store"))
    return Env(tmp_path, home, project)


def _clean(text: str) -> bool:
    return not any(p in text for p in PIECES)


def _cli(*args: str) -> tuple[int, str, str]:
    r = run_cli(*args)
    return r.code, r.out, r.err


def _tree_clean(*roots: Path) -> bool:
    for root in roots:
        for p in root.rglob("*"):
            if p.is_file() and any(x.encode() in p.read_bytes() for x in PIECES):
                return False
    return True


# -- in: store writes and import --------------------------------------------------------
@pytest.mark.parametrize("as_json", [False, True])
def test_a_secret_in_a_title_is_refused_without_being_echoed(tmp_path: Path, as_json: bool) -> None:
    root = tmp_path / "memory"
    base = ["--memory-root", str(root), "--project", str(tmp_path)]
    assert _cli(*base, "init")[0] == 0
    code, out, err = _cli(
        *base, "add", "notes", f"deploy with {AWS}", "--body", "fine", *(["--json"] if as_json else [])
    )
    assert code == 1
    shown = out + err
    assert "AWS access key id" in shown and _clean(shown), shown
    if as_json:
        assert json.loads(out)["error"]["code"] == "secret"
    assert _tree_clean(root)


def test_an_imported_heading_holding_a_secret_is_withheld_everywhere(tmp_path: Path) -> None:
    root = tmp_path / "memory"
    base = ["--memory-root", str(root), "--project", str(tmp_path)]
    _cli(*base, "init")
    src = tmp_path / "agent" / "MEMORY.md"
    src.parent.mkdir()
    src.write_text(f"## Token {KEY}\n\nuse it for CI\n\n## Editor\n\nNeovim with gruvbox\n", encoding="utf-8")
    code, out, err = _cli(*base, "import", str(src), "--json")
    assert code == 0, out + err
    data = json.loads(out)["data"]
    assert len(data["imported"]) == 1 and len(data["skipped"]) == 1
    assert data["skipped"][0]["source"].endswith("#(withheld)")
    assert _clean(out + err), out
    code, out, err = _cli(*base, "import", str(src))  # text mode, the second time
    assert _clean(out + err)
    assert _tree_clean(root)


# -- in: LLM answers and proposal edits ---------------------------------------------------
def _answer(content: str, reason: str = "refreshed") -> str:
    return json.dumps({"action": "replace", "reason": reason, "content": content})


@pytest.mark.parametrize("review", [True, False])
def test_an_answer_that_adds_a_credential_is_refused(env: Env, review: bool) -> None:
    env.command_provider(answer_script(env, _answer(f"# Project\n\n- CI token: {KEY}\n")), review=review)
    (r,) = run_tasks(env.project, env.config(), memory_root=env.store, tasks=["project_review"])
    assert r.result == "error" and "would add a secret (GitLab token" in r.reason
    assert not (env.mem / "PROJECT.md").exists()
    assert not list((env.mem / "proposals").glob("*.json")) if (env.mem / "proposals").exists() else True
    assert _tree_clean(env.mem, env.store)


def test_journal_secrets_reach_the_model_and_a_kept_secret_is_no_new_one(env: Env) -> None:
    """The journal holds a credential: the prompt carries it (not blocked); PROJECT.md
    already holds another, and a rewrite that keeps it is proposed as usual."""
    (env.mem / "memory" / "2026-11-28.md").write_text(f"# 2026-11-28\n\n- pasted {KEY} by mistake\n", encoding="utf-8")
    stripe = "sk_live_" + "4eC39HqLyjWDarjtT1zdp7dc"
    (env.mem / "PROJECT.md").write_text(f"# Project\n\n- billing key {stripe}\n", encoding="utf-8")
    seen = env.tmp / "prompt.txt"
    body = json.dumps({"action": "replace", "reason": "r", "content": f"# Project\n\n- billing key {stripe}\n- more\n"})
    quoted = body.replace("'", "'\"'\"'")
    env.command_provider(env.script("p", f"cat > {seen}\nprintf '%s' '{quoted}'\n"))
    (r,) = run_tasks(env.project, env.config(), memory_root=env.store, tasks=["project_review"])
    assert r.result == "proposed", r.reason
    assert KEY in seen.read_text(encoding="utf-8")


def test_a_proposal_edit_that_adds_a_credential_is_refused(env: Env) -> None:
    env.command_provider(answer_script(env, _answer("# Project\n\n- plain\n")))
    (r,) = run_tasks(env.project, env.config(), memory_root=env.store, tasks=["project_review"])
    assert r.result == "proposed"
    with pytest.raises(Refused, match="GitLab token") as info:
        proposals.accept(env.project, r.proposal_id, memory_root=env.store, content=f"# Project\n\n{KEY}\n")
    assert _clean(info.value.message)
    assert not (env.mem / "PROJECT.md").exists()
    proposals.accept(env.project, r.proposal_id, memory_root=env.store, content="# Project\n\n- edited\n")
    assert (env.mem / "PROJECT.md").read_text(encoding="utf-8") == "# Project\n\n- edited\n"


def test_a_planted_proposal_file_holding_a_credential_is_not_accepted(env: Env) -> None:
    env.command_provider(answer_script(env, _answer("# Project\n\n- plain\n")))
    (r,) = run_tasks(env.project, env.config(), memory_root=env.store, tasks=["project_review"])
    path = env.mem / "proposals" / f"{r.proposal_id}.json"
    data = json.loads(path.read_text(encoding="utf-8"))
    data["content"] = f"# Project\n\n{KEY}\n"
    path.write_text(json.dumps(data), encoding="utf-8")
    with pytest.raises(Refused, match="GitLab token"):
        proposals.accept(env.project, r.proposal_id, memory_root=env.store)
    assert not (env.mem / "PROJECT.md").exists()


# -- out: provider stderr, state, status, --json ------------------------------------------
def test_a_provider_stderr_secret_never_reaches_state_status_or_json(env: Env) -> None:
    env.command_provider(env.script("leaky", f"cat >/dev/null\necho 'auth failed for {KEY} and {AWS}' >&2\nexit 4\n"))
    (r,) = run_tasks(env.project, env.config(), memory_root=env.store, tasks=["project_review"])
    assert r.result == "error" and "[redacted: GitLab token]" in r.reason and _clean(r.reason)
    state = (env.mem / ".maintenance-state.json").read_text(encoding="utf-8")
    assert "[redacted: " in state and _clean(state)
    base = ["--project", str(env.project), "--memory-root", str(env.store)]
    for extra in ([], ["--json"]):
        code, out, err = _cli(*base, "maintenance", "status", *extra)
        assert code == 0 and "redacted" in out and _clean(out + err), out
    state_entry = json.loads(state)["claude-code.project_review"]
    state_entry["last_error"] = f"written by another tool: {KEY}"  # memsearch itself writes this file too
    (env.mem / ".maintenance-state.json").write_text(json.dumps({"claude-code.project_review": state_entry}))
    for extra in ([], ["--json"]):
        code, out, err = _cli(*base, "maintenance", "status", *extra)
        assert code == 0 and _clean(out + err), out


def test_a_loopback_model_answering_with_a_credential_is_refused_and_not_echoed(env: Env, monkeypatch) -> None:
    monkeypatch.setenv("TEST_LLM_KEY", "unused-key")
    replies = [{"content": _answer(f"# Project\n\n{AWS}\n", reason=f"found {KEY} in the journal")}]
    with ChatServer(replies) as server:
        env.config_file(
            '[plugins.codex.project_review]\nenabled = true\nprovider = "local"\n\n'
            f'[llm.providers.local]\ntype = "openai-compatible"\nmodel = "m"\nbase_url = "{server.base_url}"\n'
            'api_key = "env:TEST_LLM_KEY"\ntimeout_s = 10\n\n[tui]\nreview = false\n'
        )
        code, out, err = _cli(
            *("--project", str(env.project), "--memory-root", str(env.store)),
            *("maintenance", "run", "--task", "project_review", "--platform", "codex", "--json"),
        )
    assert code == 0, out + err
    (row,) = json.loads(out)["data"]["tasks"]
    assert row["result"] == "error" and "AWS access key id" in row["reason"]
    assert _clean(out + err)
    assert not (env.mem / "PROJECT.md").exists()
    assert _tree_clean(env.mem, env.store)


def test_a_model_reason_quoting_a_journal_secret_is_kept_redacted(env: Env) -> None:
    env.command_provider(answer_script(env, _answer("# Project\n\n- plain\n", reason=f"dropped {KEY} from notes")))
    (r,) = run_tasks(env.project, env.config(), memory_root=env.store, tasks=["project_review"])
    assert r.result == "proposed" and "[redacted: GitLab token]" in r.reason
    assert _tree_clean(env.mem, env.store)


@pytest.mark.parametrize("as_json", [False, True])
def test_run_due_output_is_redacted_and_escaped(env: Env, as_json: bool) -> None:
    import subprocess
    import sys

    script = env.script("leaky2", f"cat >/dev/null\nprintf '\\033[2J{KEY} failed' >&2\nexit 5\n")
    env.command_provider(script)
    argv = ["--run-due", "--project", str(env.project), "--memory-root", str(env.store), "--force"]
    code = "import sys; from memsearch_tui.cli import main; main(sys.argv[1:])"
    proc = subprocess.run(
        [sys.executable, "-c", code, *argv, *(["--json"] if as_json else [])],
        capture_output=True,
        text=True,
        timeout=120,
    )
    shown = proc.stdout + proc.stderr
    assert "status 5" in shown, shown
    assert _clean(shown) and "\x1b" not in shown and "redacted" in shown


def test_a_secret_cut_by_a_message_limit_is_masked_first(env: Env) -> None:
    """stderr is shown by its last 500 characters and a bad answer by its first 160: the
    secret is masked before the cut, so no fragment of it is left."""
    pad = "x" * 487  # the last 500 characters start 12 characters into the key
    script = env.script("cut", f"cat >/dev/null\nprintf '%s' '{KEY}{' ' + pad}' >&2\nexit 3\n")
    env.command_provider(script)
    (r,) = run_tasks(env.project, env.config(), memory_root=env.store, tasks=["project_review"])
    assert r.result == "error" and not any(KEY[i : i + 6] in r.reason for i in range(len(KEY) - 6)), r.reason
    lead = "y " * 75
    env.command_provider(answer_script(env, f"{lead}{KEY} and no JSON", name="cut2"))
    (r,) = run_tasks(env.project, env.config(), memory_root=env.store, tasks=["project_review"], force=True)
    assert "no JSON answer object" in r.reason
    assert not any(KEY[i : i + 6] in r.reason for i in range(len(KEY) - 6)), r.reason
