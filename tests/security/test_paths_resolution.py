"""Paths are checked after resolution (``~``, ``env:``, every symlink) wherever they enter:
task input/output, the sandbox's roots, import sources, the memory root, trash restore."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from memsearch_tui.engine.core.errors import Refused
from memsearch_tui.engine.curator import importer, trash
from memsearch_tui.engine.maintenance import run_tasks
from memsearch_tui.engine.memsearch.config import load_config
from memsearch_tui.engine.memsearch.trust import check_path, path_inside_project, sandbox_roots, task_locations
from memsearch_tui.engine.store.store import Store
from tests.maintenance.conftest import answer_script, env  # noqa: F401  (fixture)

SECRET = "OUTSIDE-SECRET-a41c"


@pytest.fixture
def outside(tmp_path: Path) -> Path:
    folder = tmp_path / "outside"
    folder.mkdir()
    (folder / "secret.md").write_text(f"# Secret\n\n{SECRET}\n", encoding="utf-8")
    return folder


def test_project_paths_are_judged_after_every_symlink(tmp_path, outside):
    project = tmp_path / "proj"
    (project / "docs").mkdir(parents=True)
    (project / "link").symlink_to(outside)
    (project / "docs" / "up").symlink_to("../..")
    assert path_inside_project("docs/notes", project)
    assert not path_inside_project("link", project)
    assert not path_inside_project("docs/up/outside", project)
    assert not path_inside_project("~/x", project) and not path_inside_project("/etc", project)
    assert not path_inside_project("docs/../../outside", project)
    with pytest.raises(Refused, match="outside the project"):
        check_path(project / "link" / "secret.md", project, "output_file")


def test_user_chosen_paths_may_lead_anywhere_but_defaults_may_not(env, outside):  # noqa: F811
    env.config_file(f'[plugins.codex.project_review]\ninput_dir = "{outside}"\n')
    task = load_config(env.project, home=env.home).task("codex", "project_review")
    assert task.user_paths == frozenset({"input_dir"})
    _, src, _ = task_locations(env.project, task.input_dir, task.output_file, task.user_paths)
    assert src == outside.resolve()
    with pytest.raises(Refused):
        task_locations(env.project, str(outside), ".memsearch/PROJECT.md")  # the same value, not the user's


def test_sandbox_never_gets_a_journal_folder_that_leads_out(env, outside):  # noqa: F811
    (env.mem / "memory").rename(env.tmp / "journals")
    (env.mem / "memory").symlink_to(outside)
    roots = sandbox_roots(env.project, env.mem.resolve(), (env.tmp / "journals").resolve())
    assert roots == [(env.tmp / "journals").resolve()]


def test_memsearch_dir_env_is_the_users_choice(env, outside, monkeypatch):  # noqa: F811
    monkeypatch.setenv("MEMSEARCH_DIR", str(outside))
    mem, src, _ = task_locations(env.project, ".memsearch/memory", ".memsearch/PROJECT.md")
    assert mem == outside.resolve() and src == (outside / "memory").resolve()


def test_import_does_not_follow_a_symlink_out_of_the_source(tmp_path, outside):
    store = Store(tmp_path / "memory")
    store.init()
    source = tmp_path / "agent-notes"
    source.mkdir()
    (source / "fine.md").write_text("---\nname: Fine\n---\nan ordinary note\n", encoding="utf-8")
    (source / "sneaky.md").symlink_to(outside / "secret.md")
    result = importer.import_path(store, source)
    assert result["imported"] == ["imported/fine"]
    assert [s["reason"] for s in result["skipped"]] == ["links outside the folder"]
    assert all(SECRET not in p.read_text(encoding="utf-8") for p in store.root.rglob("*.md"))


def test_trash_restore_refuses_a_trashed_file_that_is_a_link(tmp_path, outside):
    store = Store(tmp_path / "memory")
    store.init()
    day = store.root / ".trash" / "2026-11-30" / "notes"
    day.mkdir(parents=True)
    (day / "x.md").symlink_to(outside / "secret.md")
    with pytest.raises(Refused, match="resolves outside"):
        trash.restore(store, "2026-11-30/notes/x")
    assert (outside / "secret.md").read_text(encoding="utf-8").endswith(f"{SECRET}\n")
    assert not (store.root / "notes").exists()


def test_memory_root_through_a_symlink_into_an_agents_memory_is_refused(tmp_path, monkeypatch):
    home = tmp_path / "home"
    (home / ".claude" / "memory").mkdir(parents=True)
    monkeypatch.setenv("HOME", str(home))
    (tmp_path / "store").symlink_to(home / ".claude" / "memory")
    with pytest.raises(Refused, match="agent's own memory"):
        Store(tmp_path / "store").init()
    assert os.listdir(home / ".claude" / "memory") == []


def test_output_file_through_a_link_is_never_written(env, outside):  # noqa: F811
    """The user allowed the task; the repository links the default output out of the project."""
    (env.mem / "PROJECT.md").symlink_to(outside / "secret.md")
    env.command_provider(
        answer_script(env, '{"action": "replace", "reason": "r", "content": "# P\\n"}'), review=False, platform="codex"
    )
    (r,) = run_tasks(env.project, env.config(), memory_root=env.store, tasks=["project_review"])
    assert r.result == "error" and "outside the project" in r.reason
    assert (outside / "secret.md").read_text(encoding="utf-8") == f"# Secret\n\n{SECRET}\n"


def test_sandbox_refuses_roots_that_resolve_to_root_or_home(tmp_path, monkeypatch):
    from memsearch_tui.engine.maintenance.sandbox import Sandbox

    home = tmp_path / "home"
    home.mkdir()
    monkeypatch.setenv("HOME", str(home))
    (tmp_path / "to-root").symlink_to("/")
    (tmp_path / "to-home").symlink_to(home)
    for root in (tmp_path / "to-root", tmp_path / "to-home", Path("/")):
        with pytest.raises(Refused, match="may not be rooted"):
            Sandbox([root])
    assert Sandbox([tmp_path]).roots == [tmp_path.resolve()]


@pytest.mark.parametrize(
    "key, value, why",
    [
        ("input_dir", ".", "whole project"),
        ("input_dir", ".git", "inside .git"),
        ("output_file", ".git/hooks/pre-commit.md", "inside .git"),
        ("output_file", "scripts/build.sh", "Markdown"),
    ],
)
def test_project_file_paths_inside_but_not_its_to_name(env, key, value, why):  # noqa: F811
    (env.project / ".memsearch.toml").write_text(f'[plugins.codex.project_review]\n{key} = "{value}"\n')
    cfg = load_config(env.project, home=env.home)
    assert len(cfg.warnings) == 1 and why in cfg.warnings[0]
    task = cfg.task("codex", "project_review")
    assert (task.input_dir, task.output_file) == (".memsearch/memory", ".memsearch/PROJECT.md")


def test_output_linked_into_git_hooks_is_refused(env):  # noqa: F811
    hooks = env.project / ".git" / "hooks"
    hooks.mkdir(parents=True)
    (env.mem / "PROJECT.md").symlink_to(hooks / "pre-commit")
    env.command_provider(
        answer_script(env, '{"action": "replace", "reason": "r", "content": "#!/bin/sh\\necho owned\\n"}'),
        review=False,
        platform="codex",
    )
    (r,) = run_tasks(env.project, env.config(), memory_root=env.store, tasks=["project_review"])
    assert r.result == "error" and "inside .git" in r.reason
    assert not (hooks / "pre-commit").exists()
