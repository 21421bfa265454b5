"""memsearch parity of the config: both platform spellings read and written in place,
memory_to_skill's keys checked, and memsearch's own prompt texts used when installed."""

from __future__ import annotations

import importlib
import sys

import pytest

from memsearch_tui.engine.maintenance import prompts as prompts_mod
from memsearch_tui.engine.maintenance import run_tasks, status
from memsearch_tui.engine.maintenance.prompts import task_prompt, task_text
from memsearch_tui.engine.memsearch.config import load_config, skill_task
from tests.maintenance.conftest import answer_script
from tests.maintenance.llm_server import ChatServer
from tests.maintenance.test_cli import cli, js

MEMSEARCH_STYLE = """# keep this comment
[plugins.claude_code.project_review]
enabled = false   # off for now
provider = "native"
"""


@pytest.fixture
def memsearch_installed(tmp_path, monkeypatch):
    """A `memsearch` package on sys.path with its prompts/*.txt (as pip installs it)."""
    site = tmp_path / "site"
    prompts = site / "memsearch" / "prompts"
    prompts.mkdir(parents=True)
    (site / "memsearch" / "__init__.py").write_text("raise ImportError('must not be imported')\n")
    for task in ("project_review", "user_profile", "memory_to_skill"):
        (prompts / f"{task}.txt").write_text(f"MEMSEARCH {task} for {{{{AGENT_NAME}}}} min {{{{MIN_OCCURRENCES}}}}\n")
    monkeypatch.syspath_prepend(str(site))
    monkeypatch.delitem(sys.modules, "memsearch", raising=False)  # the real one, if a test imported it
    importlib.invalidate_caches()
    return prompts


def test_enable_writes_into_the_underscore_form_the_file_uses(env):
    path = env.config_file(MEMSEARCH_STYLE)
    r = cli(env, "maintenance", "enable", "project_review", "--platform", "claude-code", "--interval", "6")
    assert r.exit_code == 0, r.stdout
    text = path.read_text(encoding="utf-8")
    assert "claude-code" not in text and "# keep this comment" in text
    assert "[plugins.claude_code.project_review]\nenabled = true   # off for now\n" in text
    assert "min_interval_hours = 6" in text
    r = cli(env, "maintenance", "enable", "memory_to_skill")  # the only configured platform
    assert r.exit_code == 0 and "[plugins.claude_code.memory_to_skill]\nenabled = true\n" in path.read_text()
    assert "claude-code" not in path.read_text(encoding="utf-8")
    cfg = env.config()
    assert cfg.task("claude-code", "project_review").enabled and skill_task(cfg, "claude-code").enabled
    rows = {r.task: r for r in status(env.project, cfg, platforms=["claude-code"])}
    assert rows["project_review"].enabled and rows["memory_to_skill"].enabled


def test_hyphen_form_stays_hyphen_and_a_file_with_both_gets_both_edited(env):
    path = env.config_file("[plugins.claude-code.user_profile]\nenabled = false\n")
    assert cli(env, "maintenance", "enable", "user_profile", "--platform", "claude-code").exit_code == 0
    assert "claude_code" not in path.read_text(encoding="utf-8")
    both = (
        '[plugins.claude_code.project_review]\nenabled = false\n\n[plugins.claude-code.project_review]\nmodel = "x"\n'
    )
    path = env.config_file(both)
    assert cli(env, "maintenance", "enable", "project_review", "--platform", "claude-code").exit_code == 0
    text = path.read_text(encoding="utf-8")
    assert text.count("enabled = true") == 2 and "enabled = false" not in text  # the tools cannot disagree


def test_memory_to_skill_keys_are_type_checked(env):
    """A bad value disables memory_to_skill (named for doctor), not the whole config."""
    env.config_file('[plugins.codex.memory_to_skill]\nenabled = true\nmin_occurrences = "three"\n')
    st = skill_task(env.config(), "codex")
    assert not st.enabled and "min_occurrences" in st.problem
    assert env.config().task("codex", "project_review").problem == ""  # the other tasks still work
    env.config_file('[plugins.codex.memory_to_skill]\nenabled = true\npaths = "not a list"\n')
    st = skill_task(env.config(), "codex")
    assert not st.enabled and "paths must be a list of strings" in st.problem
    env.config_file("[plugins.codex.memory_to_skill]\nenabled = true\n")
    st = skill_task(env.config(), "codex")
    assert (st.min_occurrences, st.min_interval_hours, st.paths, st.provider) == (3, 24.0, (), "native")


def test_a_project_file_may_not_redirect_skill_prompts_or_inputs(env):
    (env.project / ".memsearch.toml").write_text(
        '[prompts]\nmemory_to_skill = "/tmp/evil.txt"\n\n'
        '[plugins.claude-code.memory_to_skill]\nenabled = true\ninput_dir = "/etc"\n',
        encoding="utf-8",
    )
    cfg = load_config(env.project, home=env.home)
    assert cfg.prompt_override("memory_to_skill") == ""
    assert skill_task(cfg, "claude-code").input_dir == ".memsearch/memory"
    assert any("prompts.memory_to_skill" in w for w in cfg.warnings)
    assert any("memory_to_skill.input_dir" in w for w in cfg.warnings)


def test_memsearch_prompts_are_used_when_installed(env, memsearch_installed):
    text, origin = task_prompt("project_review")
    assert text.startswith("MEMSEARCH project_review") and origin.startswith("memsearch ")
    assert task_text("project_review", source="memsearch-tui").startswith("You are maintaining the project notes")
    with ChatServer([{"content": '{"skills": []}'}]) as server:
        env.config_file(
            '[plugins.claude-code.memory_to_skill]\nenabled = true\nprovider = "local"\n\n'
            f'[llm.providers.local]\ntype = "openai-compatible"\nmodel = "m"\nbase_url = "{server.base_url}"\n'
            'api_key = "k"\n'
        )
        (r,) = run_tasks(env.project, env.config(), tasks=["memory_to_skill"])
    assert r.result == "none"
    assert server.requests[0]["messages"][-1]["content"].startswith("MEMSEARCH memory_to_skill for claude-code min 3")
    rows = js(cli(env, "maintenance", "status", "--json", "--platform", "claude-code"))["data"]["tasks"]
    assert all(row["prompt"].startswith("memsearch ") for row in rows)


def test_prompt_switch_forces_ours_or_theirs(env, memsearch_installed):
    script = answer_script(env, '{"action": "none", "reason": "ok"}')
    env.config_file(
        '[plugins.claude-code.project_review]\nenabled = true\nprovider = "s"\n\n'
        f'[llm.providers.s]\ntype = "command"\ncommand = ["{script}"]\n\n[tui]\nprompts = "memsearch-tui"\n'
    )
    row = next(r for r in status(env.project, env.config()) if r.task == "project_review")
    assert row.prompt == "memsearch-tui"
    env.config_file('[tui]\nprompts = "memsearch-classic"\n')
    rows = status(env.project, env.config(), platforms=["claude-code"])
    assert all("expected one of memsearch, memsearch-tui" in r.prompt for r in rows)


def test_asking_for_memsearch_prompts_without_memsearch_is_a_clear_error(env, monkeypatch):
    monkeypatch.setattr(prompts_mod, "memsearch_prompt_file", lambda task: None)  # memsearch not installed
    script = answer_script(env, '{"action": "none", "reason": "ok"}')
    env.config_file(
        '[plugins.claude-code.project_review]\nenabled = true\nprovider = "s"\n\n'
        f'[llm.providers.s]\ntype = "command"\ncommand = ["{script}"]\n\n[tui]\nprompts = "memsearch"\n'
    )
    (r,) = run_tasks(env.project, env.config(), tasks=["project_review"])
    assert r.result == "error" and "memsearch's project_review.txt is not installed" in r.reason
    row = next(x for x in status(env.project, env.config()) if x.task == "project_review")
    assert row.prompt.startswith("error: ")
