"""The per-noun API: one answer whichever face asks (versions, proposals, errors, search hits)."""

from __future__ import annotations

import errno
from pathlib import Path

import pytest

from memsearch_tui.engine.api import Memory, describe, to_json
from memsearch_tui.engine.api.errors import Conflict, MemsearchError, NotFound, Refused
from tests.test_api import FLY, env  # noqa: F401  (the fixture)


def test_list_gives_each_entry_its_version(env):  # noqa: F811
    root, project = env
    path = root / "ops/deploy-day.md"
    path.write_text(path.read_text().replace("version: 1", "version: 4"))  # as after three kept versions
    with Memory(root, project) as m:
        versions = {e.id: e.version for e in m.entries.list()}
        assert versions == {"ops/deploy-day": 4, "people/team/code-review": 1}
        assert m.entries.show("ops/deploy-day").version == 4


def test_a_store_proposal_keeps_the_reject_note(env):  # noqa: F811
    root, project = env
    with Memory(root, project, writes="review", actor="mcp:tester") as agent:
        pid = agent.trash.put("ops/deploy-day", "outdated").proposal.id
    with Memory(root, project) as person:
        done = person.proposals.reject(pid, note="still true")
        assert done.note == "still true" and done.status == "rejected"
        assert person.proposals.get(pid).note == "still true"  # kept in the proposal's file
        assert [p.note for p in person.proposals.list(None) if p.id == pid] == ["still true"]


def test_both_kinds_of_proposal_have_one_shape(env):  # noqa: F811
    root, project = env
    with Memory(root, project, writes="review", actor="mcp:tester") as agent:
        rewrite = agent.proposals.propose("PROJECT.md", "# Project\n\nNomad now.\n", "moved")
        store = agent.entries.add("misc", "Hours", "Open 9 to 18.", reason="said so").proposal
    assert store is not None
    assert to_json(rewrite).keys() == to_json(store).keys()
    with Memory(root, project) as person:
        shown = person.proposals.get(rewrite.id)
        assert shown.content == "# Project\n\nNomad now.\n" and shown.origin == "project"
        assert person.proposals.get(store.id).changes  # a store proposal lists what it changes


def test_describe_gives_code_message_and_title_for_every_face():
    assert describe(NotFound("no entry 'x'")) == ("not_found", "no entry 'x'", "Not found")
    assert describe(Conflict("changed")).title == "Changed meanwhile"
    assert describe(Refused("dup", code="duplicate"))[:2] == ("duplicate", "dup")
    assert describe(MemsearchError("odd")).title == "Error"
    assert describe(PermissionError(errno.EACCES, "denied", "/x")) == (
        "permission",
        "/x: permission denied",
        "Permission denied",
    )
    assert describe(OSError(errno.ENOSPC, "No space left on device", "/y")).message == "/y: No space left on device"
    assert describe(ValueError("a bug")) is None


def test_a_search_hit_has_the_same_fields_on_the_literal_path_and_through_memory(env):  # noqa: F811
    from memsearch_tui.engine.api.literal import literal_json

    root, project = env
    with Memory(root, project) as m:
        warm = m.search.query("Friday", strategy="grep")
    fast = literal_json(root, project, "Friday", 10, None, "all")
    assert to_json(warm)["hits"] == fast["hits"] != []
    assert list(to_json(warm)) == list(fast)  # the same fields in the same order: one printed shape
    assert fast["hits"][0]["title"] == "Deploy day"


def test_a_copy_for_another_actor_does_not_write_as_the_first(env):  # noqa: F811
    root, project = env
    with Memory(root, project) as m:
        m.with_actor("mcp:other").entries.add("misc", "Other", "A different note entirely.")
        assert m.history.list(1)[0].by == "mcp:other"


def test_nouns_refuse_writes_in_read_only_mode(env, tmp_path: Path):  # noqa: F811
    root, project = env
    with Memory(root, project, writes="read-only") as m:
        for write in (
            lambda: m.trash.put("ops/deploy-day"),
            lambda: m.lifecycle.archive("ops/deploy-day"),
            lambda: m.layout.merge("ops"),
            lambda: m.entries.update("ops/deploy-day", title="x"),
        ):
            with pytest.raises(Refused) as exc:
                write()
            assert exc.value.code == "read_only"
    assert (root / "ops/deploy-day.md").read_text().count(FLY) == 1


def test_ls_json_and_show_json_give_the_version_the_file_holds(cli, tmp_path: Path):
    assert cli("init").code == 0
    assert cli("add", "ops", "Deploy", "--body", "Deploys go out on Fridays.").code == 0
    path = tmp_path / "memory" / "ops" / "deploy.md"
    path.write_text(path.read_text().replace("version: 1", "version: 3"))
    listed = cli("--json", "ls").json["data"]["entries"]
    assert [(e["id"], e["version"]) for e in listed] == [("ops/deploy", 3)]
    assert cli("--json", "show", "ops/deploy").json["data"]["version"] == 3
