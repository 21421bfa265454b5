"""A candidate accepted here is committed in memsearch's own candidates repository, and
``memsearch skills install`` then commits there too — never into the user's project."""

from __future__ import annotations

import json

import pytest

from memsearch_tui.engine.core.errors import Refused
from memsearch_tui.engine.review import candidate_repo, proposals
from tests.interop.conftest import git, memsearch
from tests.maintenance.llm_server import ChatServer
from tests.maintenance.test_cli import cli, js
from tests.maintenance.test_skill_distill import ANSWER, SKILL_MD, skill_config


def _accept_candidate(env) -> None:
    assert cli(env, "init").exit_code == 0
    with ChatServer([{"content": ANSWER}]) as server:
        skill_config(env, server)
        js(cli(env, "maintenance", "run", "--json"))
    (p,) = proposals.list_pending(env.project)
    assert cli(env, "proposals", "accept", p.id).exit_code == 0


def test_accepted_candidate_is_memsearchs_repo_and_its_install_leaves_the_project_alone(git_project):
    env = git_project
    _accept_candidate(env)
    root = env.mem / "skill-candidates"
    assert (root / ".git").is_dir()
    assert git(root, "log", "--format=%an <%ae>|%s").splitlines() == [
        "memsearch <memsearch@localhost>|distill: add 1 candidate skill [claude-code]"
    ]
    assert git(root, "status", "--porcelain") == ""
    memsearch(env, "skills", "install", "run-tests", "--path", ".claude/skills")
    installed = env.project / ".claude" / "skills" / "run-tests" / "SKILL.md"
    assert installed.read_text(encoding="utf-8") == SKILL_MD
    assert git(env.project, "rev-list", "--count", "HEAD").strip() == "1"  # no commit of the project
    assert "?? .env" in git(env.project, "status", "--porcelain", "--untracked-files=all").splitlines()
    log = git(root, "log", "--format=%s").splitlines()
    assert log[0] == "install: run-tests -> 1 path(s)" and len(log) == 2
    meta = json.loads((root / "run-tests" / "meta.json").read_text(encoding="utf-8"))
    assert meta["status"] == "installed" and meta["installed_paths"] == [str(installed)]


def test_a_candidate_memsearch_added_evolves_here_with_an_evolve_commit(git_project):
    env = git_project
    body = env.tmp / "body.md"
    body.write_text("old body\n", encoding="utf-8")
    memsearch(env, "skills", "add", "--name", "Run Tests!", "--description", "old", "--body-file", str(body))
    root = env.mem / "skill-candidates"
    assert git(root, "log", "--format=%s").splitlines() == ["add: created candidate skill run-tests (manual)"]
    _accept_candidate(env)
    assert git(root, "log", "--format=%an|%s").splitlines()[0] == (
        "memsearch|distill: evolve 1 candidate skill [claude-code]"
    )
    assert (root / "run-tests" / "SKILL.md").read_text(encoding="utf-8") == SKILL_MD
    assert git(env.project, "rev-list", "--count", "HEAD").strip() == "1"


def test_a_candidates_folder_that_leads_elsewhere_is_refused(git_project):
    env = git_project
    (env.mem / "skill-candidates").symlink_to(env.project)  # memsearch would commit the project
    with pytest.raises(Refused, match="symlink"):
        candidate_repo.prepare(env.project)
    (env.mem / "skill-candidates").unlink()
    (env.mem / "skill-candidates").mkdir()
    (env.mem / "skill-candidates" / ".git").write_text(f"gitdir: {env.project / '.git'}\n", encoding="utf-8")
    with pytest.raises(Refused, match="not a folder"):
        candidate_repo.prepare(env.project)


def test_doctor_flags_a_candidates_folder_without_its_own_repository(git_project):
    from memsearch_tui.engine.maintenance.doctor import doctor

    env = git_project
    (env.mem / "skill-candidates" / "old").mkdir(parents=True)  # made by an older memsearch-tui
    (check,) = [c for c in doctor(env.project, env.store, home=env.home) if c.area == "skills"]
    assert check.status == "problem" and check.fix == f"git -C {env.mem / 'skill-candidates'} init -q"
    candidate_repo.prepare(env.project)
    assert not [c for c in doctor(env.project, env.store, home=env.home) if c.area == "skills"]
