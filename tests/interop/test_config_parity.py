"""A project's ``.memsearch.toml`` read as memsearch 0.4.23 reads it: the keys it honours
there (``[milvus] collection`` among them) and the one difference we keep on purpose
(``[plugins.*]``), which status and doctor name; our vectors' collection is our own key;
a missing ``[prompts]`` file falls back to the packaged prompt, as in memsearch."""

from __future__ import annotations

import json

from memsearch_tui.engine.maintenance import run_tasks, status
from memsearch_tui.engine.maintenance.doctor import doctor
from memsearch_tui.engine.maintenance.prompts import task_text
from memsearch_tui.engine.memsearch.config import load_config
from memsearch_tui.engine.memsearch.native_config import native_index
from memsearch_tui.engine.memsearch.state import load_state
from memsearch_tui.engine.search.settings import load_settings
from tests.interop.conftest import memsearch_py
from tests.maintenance.conftest import answer_script
from tests.maintenance.test_cli import cli

RESOLVED = (
    "import json; from memsearch.config import resolve_config\nc = resolve_config()\n"
    "t = c.plugins.claude_code.project_review\n"
    "print(json.dumps({'collection': c.milvus.collection, 'uri': c.milvus.uri, 'chunk': c.chunking.max_chunk_size,"
    " 'overlap': c.chunking.overlap_lines, 'enabled': t.enabled, 'interval': t.min_interval_hours}))"
)
PROJECT_FILE = (
    '[milvus]\ncollection = "repo_chunks"\nuri = "http://evil.example:19530"\n'
    "[chunking]\nmax_chunk_size = 800\noverlap_lines = 1\n"
    '[plugins.claude-code.project_review]\nenabled = true\nmin_interval_hours = 2\nprovider = "x"\n'
)


def test_the_project_keys_memsearch_honours_are_read_as_it_reads_them(env):
    env.config_file('[milvus]\ncollection = "mine"\n[chunking]\nmax_chunk_size = 1200\n')
    (env.project / ".memsearch.toml").write_text(PROJECT_FILE, encoding="utf-8")
    theirs = memsearch_py(env, RESOLVED)
    ours = native_index(env.project, home=env.home)
    assert (ours.collection, ours.uri, ours.max_chunk_size, ours.overlap_lines) == (
        theirs["collection"],
        theirs["uri"],
        theirs["chunk"],
        theirs["overlap"],
    )
    assert theirs["collection"] == "repo_chunks" and theirs["uri"] == "~/.memsearch/milvus.db"
    assert ours.collection_from == str(env.project / ".memsearch.toml")


def test_plugins_in_a_project_file_are_our_documented_difference_and_said_so(env):
    ok = answer_script(env, '{"action": "none", "reason": "tui"}')
    env.config_file(f'[llm.providers.x]\ntype = "command"\ncommand = ["{ok}"]\n')
    (env.project / ".memsearch.toml").write_text(PROJECT_FILE, encoding="utf-8")
    theirs = memsearch_py(env, RESOLVED)
    assert (theirs["enabled"], theirs["interval"]) == (False, 24)  # memsearch ignores [plugins] there
    config = load_config(env.project, home=env.home)
    assert config.task("claude-code", "project_review").enabled  # we follow it (README: where we differ)
    (row,) = [r for r in status(env.project, config, platforms=["claude-code"]) if r.task == "project_review"]
    assert row.memsearch_differs.startswith(
        f"enabled = true, min_interval_hours = 2 in {env.project / '.memsearch.toml'}"
    )
    assert f"its own hooks follow {env.home / '.memsearch' / 'config.toml'}" in row.memsearch_differs
    text = cli(env, "maintenance", "status", "--platform", "claude-code").stdout
    assert "    settings: enabled = true, min_interval_hours = 2 in" in text
    (check,) = [c for c in doctor(env.project, env.store, home=env.home) if "memsearch 0.4.23 ignores" in c.message]
    assert check.status == "warn" and "[plugins.claude-code.project_review]" in check.fix


def test_our_vectors_have_their_own_collection_key(env):
    env.config_file('[milvus]\ncollection = "team_memory"\n')  # memsearch's chunks: not ours
    assert load_settings(env.store, env.project).collection == "memsearch_tui_chunks"
    assert native_index(env.project, home=env.home).collection == "team_memory"
    env.config_file('[milvus]\ncollection = "team_memory"\n[tui.search]\ncollection = "team_memory_tui"\n')
    assert load_settings(env.store, env.project).collection == "team_memory_tui"
    assert memsearch_py(env, RESOLVED)["collection"] == "team_memory"  # memsearch is not repointed


def test_a_missing_prompt_file_falls_back_as_memsearch_does(env):
    ok = answer_script(env, '{"action": "none", "reason": "tui"}')
    missing = env.tmp / "no-such-prompt.md"
    env.config_file(
        '[plugins.claude-code.project_review]\nenabled = true\nprovider = "x"\n'
        f'[llm.providers.x]\ntype = "command"\ncommand = ["{ok}"]\n'
        f'[prompts]\nproject_review = "{missing}"\n[tui]\nprompts = "memsearch"\n'
    )
    code = (
        "import json; from memsearch.config import resolve_config\n"
        "from memsearch.maintenance import _load_prompt_template as load\n"
        "print(json.dumps(load('project_review', resolve_config())))"
    )
    assert memsearch_py(env, code) == task_text("project_review", str(missing), "memsearch")
    config = load_config(env.project, home=env.home)
    (r,) = run_tasks(env.project, config, platforms=["claude-code"], tasks=["project_review"])
    assert r.result == "none", r.reason
    entry = load_state(env.mem)[0]["claude-code.project_review"]
    assert entry["last_action"] == "none" and "last_error" not in entry
    (row,) = [x for x in status(env.project, config, platforms=["claude-code"]) if x.task == "project_review"]
    assert (
        row.prompt.startswith("memsearch ")
        and f"the [prompts] project_review file {missing} does not exist" in row.prompt
    )
    assert json.dumps(row.to_dict())  # the status row stays serialisable for --json
