"""`memsearch-tui trust PROJECT` (from outside it only), and a bad value disabling its
own section only (memsearch's truthy strings accepted for ``enabled``)."""

from __future__ import annotations

import json

import pytest

from memsearch_tui.engine.core.errors import InvalidInput, Refused
from memsearch_tui.engine.maintenance import due_tasks
from memsearch_tui.engine.maintenance.doctor import doctor
from memsearch_tui.engine.memsearch.config import load_config
from memsearch_tui.engine.memsearch.trust import set_trusted
from memsearch_tui.engine.search.settings import load_settings
from tests.maintenance.conftest import env  # noqa: F401  (fixture)
from tests.maintenance.test_cli import cli, js

EVIL = '[llm.providers.repo]\ntype = "command"\ncommand = ["true"]\n[tui]\nreview = false\n'


def test_trust_from_outside_records_the_real_path(env, monkeypatch):  # noqa: F811
    (env.project / ".memsearch.toml").write_text(EVIL, encoding="utf-8")
    alias = env.tmp / "alias"
    alias.symlink_to(env.project)
    assert load_config(env.project, home=env.home).review is True
    monkeypatch.chdir(env.tmp)
    r = cli(env, "trust", str(alias), "--json")
    assert r.exit_code == 0 and js(r)["data"]["project"] == str(env.project.resolve())
    text = (env.home / ".memsearch" / "config.toml").read_text(encoding="utf-8")
    assert str(env.project.resolve()) in text and str(alias) not in text
    cfg = load_config(env.project, home=env.home)
    assert cfg.review is False and cfg.provider("repo").command == ("true",) and cfg.warnings == []
    assert "is trusted" in cfg.trust
    checks = doctor(env.project, env.store, home=env.home)
    assert any(c.area == "trust" and "is trusted" in c.message for c in checks)
    listed = js(cli(env, "trust", "--list", "--json"))["data"]["trusted"]
    assert listed == [str(env.project.resolve())]
    assert cli(env, "trust", str(env.project), "--remove").exit_code == 0
    assert load_config(env.project, home=env.home).review is True


def test_trust_refused_from_inside_the_project_or_a_maintenance_run(env, monkeypatch):  # noqa: F811
    monkeypatch.chdir(env.mem)
    r = cli(env, "trust", str(env.project), "--json")
    assert r.exit_code == 1 and "from inside it" in js(r)["error"]["message"]
    assert not (env.home / ".memsearch" / "config.toml").exists()
    monkeypatch.chdir(env.tmp)
    monkeypatch.setenv("MEMSEARCH_TUI_IN_MAINTENANCE", "1")
    with pytest.raises(Refused):
        set_trusted(env.home / ".memsearch" / "config.toml", env.project)


def test_bad_maintenance_value_leaves_search_and_other_tasks_alone(env):  # noqa: F811
    env.config_file(
        '[plugins.codex.project_review]\nenabled = "maybe"\n'
        '[plugins.codex.user_profile]\nenabled = "yes"\nmin_interval_hours = 1\n'
        '[tui.search]\ncollection = "mine"\n'
    )
    cfg = load_config(env.project, home=env.home)
    bad = cfg.task("codex", "project_review")
    assert bad.enabled is False and "plugins.codex.project_review.enabled must be a boolean" in bad.problem
    assert ":2: " in bad.problem  # file and line
    assert cfg.task("codex", "user_profile").enabled is True  # memsearch's "yes"
    assert due_tasks(env.project, cfg) == [("codex", "user_profile")]
    assert load_settings(env.store, env.project).collection == "mine"  # search still configured
    checks = doctor(env.project, env.store, home=env.home)
    assert any(c.status == "problem" and "[plugins.codex.project_review] disabled" in c.message for c in checks)
    r = cli(env, "vectors", "status", "--json")
    assert r.exit_code == 0 and js(r)["data"]["collection"] == "mine"


def test_bad_milvus_value_disables_vectors_only(env):  # noqa: F811
    """The bad [milvus] section disables the vectors (never a guessed default URI); the
    keyword search and maintenance keep working (tests/search/test_bad_milvus_config.py)."""
    env.config_file("[milvus]\nuri = 5\n[plugins.codex.project_review]\nenabled = true\n")
    cfg = load_config(env.project, home=env.home)
    assert cfg.task("codex", "project_review").enabled is True
    s = load_settings(env.store, env.project)
    assert "bad [milvus] value" in s.vectors_off and "milvus.uri must be a string" in s.vectors_off
    with pytest.raises(InvalidInput, match="milvus.uri must be a string"):
        s.milvus_args()
    r = cli(env, "vectors", "status", "--json")
    assert r.exit_code == 0 and "milvus.uri must be a string" in js(r)["data"]["milvus_error"]
    r = cli(env, "vectors", "index", "--json")
    assert r.exit_code == 1 and "milvus.uri must be a string" in js(r)["error"]["message"]
    r = cli(env, "maintenance", "status", "--json")
    assert r.exit_code == 0 and "milvus" in js(r)["data"]["config"]["problems"]


def test_bad_provider_value_disables_that_provider_only(env):  # noqa: F811
    env.config_file(
        '[llm.providers.a]\ntype = "openai"\ntimeout_s = "slow"\n[llm.providers.b]\ntype = "anthropic"\nmodel = "m"\n'
    )
    cfg = load_config(env.project, home=env.home)
    with pytest.raises(InvalidInput, match="provider 'a' is disabled: .*timeout_s must be a number"):
        cfg.provider("a")
    assert cfg.provider("b").model == "m"


def test_truthy_strings_in_a_project_file(env):  # noqa: F811
    (env.project / ".memsearch.toml").write_text(
        '[plugins.codex.project_review]\nenabled = "true"\n[plugins.codex.user_profile]\nenabled = "no"\n'
    )
    cfg = load_config(env.project, home=env.home)
    assert cfg.task("codex", "project_review").enabled and not cfg.task("codex", "user_profile").enabled
    assert json.dumps(cfg.problems) == "{}"


def test_enable_refuses_to_write_what_a_project_file_may_not_say(env):  # noqa: F811
    r = cli(env, "maintenance", "enable", "project_review", "--platform", "codex", "--project-file", "--model", "x")
    assert r.exit_code == 1 and "may not choose a provider or model" in r.output
    assert not (env.project / ".memsearch.toml").exists()
    ok = cli(env, "maintenance", "enable", "project_review", "--platform", "codex", "--project-file", "--interval", "6")
    assert ok.exit_code == 0 and load_config(env.project, home=env.home).warnings == []


def test_hand_written_trust_entries_are_compared_by_real_path(env):  # noqa: F811
    (env.project / ".memsearch.toml").write_text("[tui]\nreview = false\n", encoding="utf-8")
    env.config_file("[tui]\ntrusted_projects = []\n")
    cfg = load_config(env.project, home=env.home)
    assert cfg.problems == {} and cfg.review is True
    link = env.home / "proj-link"
    link.symlink_to(env.project)
    env.config_file('[tui]\ntrusted_projects = ["~/proj-link"]\n')
    assert load_config(env.project, home=env.home).review is False


def test_trust_refused_from_a_subshell_that_left_the_project(env):  # noqa: F811
    """Issue 19: `(cd / && memsearch-tui trust PROJECT)` from a shell working in the project
    (an agent's) moved only the subshell; the shell that ran it is still inside."""
    import os
    import subprocess
    import sys

    main = f"{sys.executable} -c 'from memsearch_tui.cli import main; main()'"
    cmd = f'(cd / && {main} trust "{env.project}" --json); true'  # `; true`: sh keeps the subshell
    run_env = {**os.environ, "HOME": str(env.home), "PYTHONPATH": os.pathsep.join(sys.path)}

    def run(cwd):
        r = subprocess.run(["sh", "-c", cmd], cwd=cwd, env=run_env, capture_output=True, text=True, timeout=60)
        return json.loads(r.stdout)

    out = run(env.project / ".memsearch")
    assert out["ok"] is False and "from inside it" in out["error"]["message"], out
    assert "works in " + str(env.project.resolve()) in out["error"]["message"]
    assert not (env.home / ".memsearch" / "config.toml").exists()
    assert run(env.tmp)["ok"] is True  # the same command from a shell outside the project
