"""Issue 31 item 5: a command planted in the candidates repository's config never runs.

An agent that can write files can write ``.memsearch/skill-candidates/.git/config``; our
accept runs ``git add -A`` and ``git commit`` there. A planted ``core.fsmonitor`` or filter
driver is refused by name before anything is written, and the command-running settings a
user's own git config may set are forced off for our calls.
"""

from __future__ import annotations

import json
import subprocess

from memsearch_tui.engine.review import proposals
from tests.maintenance.llm_server import ChatServer
from tests.maintenance.test_cli import cli
from tests.maintenance.test_skill_distill import ANSWER, skill_config


def _proposed(env) -> str:
    assert cli(env, "init").exit_code == 0
    with ChatServer([{"content": ANSWER}]) as server:
        skill_config(env, server)
        cli(env, "maintenance", "run", "--json")
    (p,) = proposals.list_pending(env.project)
    return p.id


def _planted(env, marker_name: str):
    marker = env.tmp / marker_name
    return marker, env.script(f"plant-{marker_name}", f'touch "{marker}"\ncat\n')


def _candidates_repo(env):
    root = env.mem / "skill-candidates"
    root.mkdir(parents=True, exist_ok=True)
    subprocess.run(["git", "init", "-q"], cwd=root, check=True)  # as memsearch makes it
    return root


def test_a_planted_fsmonitor_or_filter_is_refused_and_never_runs(env) -> None:
    pid = _proposed(env)
    root = _candidates_repo(env)
    marker, script = _planted(env, "ran")
    (root / ".gitattributes").write_text("* filter=evil\n")
    config = root / ".git" / "config"
    pristine = config.read_text()
    plants = {
        "core.fsmonitor": f"[core]\n\tfsmonitor = {script}\n",
        "filter.evil.clean": f'[filter "evil"]\n\tclean = {script}\n',
    }
    for key, plant in plants.items():
        config.write_text(pristine + plant)
        r = cli(env, "proposals", "accept", pid)
        said = r.stdout + r.stderr
        assert r.exit_code != 0 and str(config) in said, said[:2000]
        assert f"sets {key}," in said
        assert not marker.exists() and not (root / "run-tests").exists()
    subprocess.run(["git", "add", "-A"], cwd=root, check=True, capture_output=True)  # plain git does run it
    assert marker.exists()
    config.write_text(pristine)
    assert cli(env, "proposals", "accept", pid).exit_code == 0  # memsearch's own config: accepted
    assert (root / "run-tests" / "SKILL.md").exists()


def test_the_users_own_fsmonitor_and_pager_are_forced_off_for_our_git(env) -> None:
    pid = _proposed(env)
    root = _candidates_repo(env)
    marker, script = _planted(env, "global-ran")
    (env.home / ".gitconfig").write_text(f"[core]\n\tfsmonitor = {script}\n")
    assert cli(env, "proposals", "accept", pid).exit_code == 0
    assert not marker.exists()
    log = subprocess.run(
        ["git", "-c", "core.fsmonitor=false", "log", "--format=%s"], cwd=root, capture_output=True, text=True
    )
    assert log.stdout.startswith("distill: add 1 candidate skill")
    assert json.loads((root / "run-tests" / "meta.json").read_text())["name"] == "run-tests"
