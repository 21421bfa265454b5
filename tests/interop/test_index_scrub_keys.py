"""Issue 31 item 2: memsearch's index after a forget, across projects, and what doctor says.

* a scrub that could not reach one project's collection stays pending (and in ``doctor``)
  when another project's scrub of another collection succeeds;
* a forget that deletes a surviving turn's chunk (its lines moved) names that turn and the
  command that brings it back, and that command does;
* ``doctor`` no longer calls ``[milvus] collection`` of a project file "ignored" (memsearch
  and our scrub use it), nor a task that file switches off "enabled".
"""

from __future__ import annotations

from pathlib import Path

import pytest

from memsearch_tui.engine.maintenance.doctor import doctor
from memsearch_tui.engine.memsearch.index_scrub import load_pending, scrub
from tests.interop.conftest import memsearch
from tests.interop.test_index_scrub import DAY, _project, rows
from tests.maintenance.test_cli import cli, js


def make_foreign(lite: Path) -> None:
    """A ``memsearch_chunks`` collection not of memsearch's schema in the Milvus Lite at ``lite``
    (in this process, as our scrub opens it: closed and its LOCK freed after)."""
    from milvus_lite.server_manager import server_manager_instance
    from pymilvus import MilvusClient

    client = MilvusClient(uri=str(lite))
    client.create_collection("memsearch_chunks", dimension=4)
    client.close()
    server_manager_instance.release_server(str(lite))


def _other_project(tmp: Path) -> tuple[Path, Path]:
    other = tmp / "other"
    (other / ".git").mkdir(parents=True)
    (other / ".memsearch" / "memory").mkdir(parents=True)
    (other / ".memsearch.toml").write_text('[milvus]\ncollection = "other_chunks"\n', encoding="utf-8")
    day = other / ".memsearch" / "memory" / "2026-11-29.md"
    day.write_text(DAY, encoding="utf-8")
    return other, day


@pytest.mark.slow
def test_a_pending_scrub_is_kept_until_its_own_project_and_collection_are_scrubbed(env) -> None:
    day = _project(env)
    lite = env.home / ".memsearch" / "milvus.db"
    lite.parent.mkdir(parents=True, exist_ok=True)
    make_foreign(lite)
    first = scrub(env.store, env.project, [day], home=env.home)  # memsearch_chunks: not memsearch's schema
    assert "not memsearch's schema" in first.problem
    other, other_day = _other_project(env.tmp)
    done = scrub(env.store, other, [other_day], home=env.home)  # other_chunks: absent, nothing to do
    assert done.problem == "" and "other_chunks" in done.note
    (record,) = load_pending(env.store)  # before: cleared by the other project's scrub
    assert record["files"] == [str(day)] and record["collection"] == "memsearch_chunks"
    for where in (env.project, other):  # doctor keeps warning, from either project
        checks = [c for c in doctor(where, env.store, home=env.home) if c.area == "memsearch-index"]
        assert [c.status for c in checks] == ["problem"] and str(env.project.resolve()) in checks[0].message


def forget_names_the_moved_turns(env, day: Path) -> None:
    """A forget that deletes the chunks of turns whose lines moved names them and the command
    that brings them back, and that command does (run after one ``memsearch index`` by
    ``test_index_scrub.test_redact_forget_and_moved_turns_in_memsearchs_index``)."""
    out = js(cli(env, "journal", "forget", "2026-11-28", "--turn", "09:05", "--reason", "wrong", "--json"))
    theirs = out["data"]["memsearch_index"]
    assert theirs["deleted"] == 3, theirs  # the turn, and the two whose lines moved up
    assert sorted(theirs["moved"]) == ["2026-11-28 ### 09:10", "2026-11-28 ### 09:20"], theirs  # before: not said
    assert theirs["reindex"] == f"cd {env.project} && memsearch index {env.mem / 'memory'}"
    assert not any("hunter2swordfish" in text for text in rows(env))  # out until memsearch indexes
    text = cli(env, "journal", "forget", "2026-11-28", "--turn", "09:20", "--reason", "done").stdout
    assert "warning: out of `memsearch search` until memsearch indexes again" not in text  # nothing moved now
    memsearch(env, "index", ".memsearch/memory")
    assert any("hunter2swordfish" in t for t in rows(env))  # the moved turn is back


def test_doctor_says_what_a_project_file_sets_for_memsearch_and_for_tasks(env) -> None:
    env.config_file('[plugins.claude-code.project_review]\nenabled = true\nprovider = "native"\n')
    (env.project / ".memsearch.toml").write_text(
        '[milvus]\ncollection = "repo_chunks"\n[plugins.claude-code.project_review]\nenabled = false\n',
        encoding="utf-8",
    )
    messages = [c.message for c in doctor(env.project, env.store, home=env.home)]
    said = "\n".join(messages)
    assert "ignored milvus.collection" not in said  # before: although the scrub uses it
    assert (
        "milvus.collection is memsearch's: its `index` and memsearch-tui's scrub of memsearch's index follow it" in said
    )
    (task,) = [m for m in messages if m.startswith("claude-code.project_review: ")]
    assert task.startswith("claude-code.project_review: enabled = false in ")  # before: "enabled from"
