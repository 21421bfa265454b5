"""``hygiene --propose`` condenses an over-long Claude Code ``MEMORY.md``: the tail the host
cuts moves into a topic file beside it and a pointer line in the host's own index form
stays; accept is one undoable operation over both files (issue 35, item 2: condense)."""

from __future__ import annotations

import json
import os
import re
from pathlib import Path

import pytest

from memsearch_tui.engine.api import Memory
from memsearch_tui.engine.api.errors import Conflict

from .conftest import World, write
from .test_cli import _cli

# Claude Code's index line, as its own prompt gives it: `- [Title](file.md) — one-line hook`.
INDEX_LINE = re.compile(r"^- \[[^\]]+\]\(([a-z0-9-]+\.md)\) — .+$")


def _index(n: int) -> str:
    """An auto-memory index of ``n`` lines, English and Chinese, each `- [Title](file.md) — hook`."""
    rows = []
    for i in range(1, n + 1):
        if i % 2:
            rows.append(f"- [Deploy note {i}](deploy-{i}.md) — staging deploys need the VPN, case {i}\n")
        else:
            rows.append(f"- [发布说明 {i}](release-{i}.md) — 发布前先在预发环境跑回归测试，第 {i} 条\n")
    return "".join(rows)


def _condense(world: World) -> str:
    with Memory(world.root, world.project) as mem:
        (f,) = mem.hygiene.propose(["over-long"]).findings
    assert f.fix.startswith("condense: ") and f.proposal
    return f.proposal


def test_condense_moves_the_cut_tail_to_a_topic_file_and_undo_gives_both_back(
    world: World, capsys: pytest.CaptureFixture[str]
) -> None:
    original = _index(230).encode()
    index = write(world.claude_memory(), original.decode())
    topic = index.with_name("memory-overflow.md")
    pid = _condense(world)
    assert index.read_bytes() == original and not topic.exists()  # proposing writes nothing

    code, out = _cli(world, "proposals", "diff", pid)
    assert code == 0, out
    assert "-- [Deploy note 201](deploy-201.md)" in out and "+++ b/memory-overflow.md (new file" in out
    assert "+- [发布说明 230](release-230.md) — 发布前先在预发环境跑回归测试，第 230 条" in out

    code, out = _cli(world, "proposals", "accept", pid)
    assert code == 0, out
    new = index.read_text(encoding="utf-8").splitlines()
    assert new[:199] == original.decode().splitlines()[:199] and len(new) == 200
    assert INDEX_LINE.match(new[-1]) and INDEX_LINE.match(new[-1]).group(1) == "memory-overflow.md"  # type: ignore[union-attr]
    assert len(new[-1]) < 150  # the host asks for index lines under ~150 characters
    moved = topic.read_text(encoding="utf-8")
    head, _, body = moved.partition("\n---\n\n")
    assert head.startswith("---\nname: memory-overflow\ndescription: ") and "\n" not in head.split("description: ")[1]
    assert body == "".join(original.decode().splitlines(keepends=True)[199:])
    with Memory(world.root, world.project) as mem:  # the host now loads the whole index
        rows = {Path(f.path).name: f for f in mem.agent_memory.ls().files}
    assert rows["MEMORY.md"].loads == "full" and rows["memory-overflow.md"].kind == "auto-memory-topic"

    code, out = _cli(world, "undo")
    assert code == 0, out
    assert index.read_bytes() == original and not os.path.lexists(topic)


def test_an_index_over_the_byte_limit_is_cut_to_fit_with_its_pointer(world: World) -> None:
    long = "".join(f"- [长条目 {i}](long-{i}.md) — {'很长的中文说明，' * 12}第 {i} 条\n" for i in range(1, 121))
    index = write(world.claude_memory(), long)
    assert len(long.encode()) > 25_000
    pid = _condense(world)
    with Memory(world.root, world.project) as mem:
        mem.proposals.accept(pid)
        (row,) = [f for f in mem.agent_memory.ls().files if f.path == str(index)]
    data = index.read_bytes()
    assert len(data) <= 25_000 and row.loads == "full" and INDEX_LINE.match(data.decode().splitlines()[-1])
    kept = data.decode().splitlines(keepends=True)[:-1]
    assert "".join(kept) + index.with_name("memory-overflow.md").read_text().partition("\n---\n\n")[2] == long


def test_a_changed_index_refuses_accept_and_writes_nothing(world: World) -> None:
    index = write(world.claude_memory(), _index(230))
    pid = _condense(world)
    changed = index.read_bytes() + "- [新的](new.md) — added by the agent meanwhile\n".encode()
    index.write_bytes(changed)
    with Memory(world.root, world.project) as mem, pytest.raises(Conflict, match="changed since proposal"):
        mem.proposals.accept(pid, force=True)
    assert index.read_bytes() == changed and not index.with_name("memory-overflow.md").exists()


def test_the_topic_name_never_overwrites_and_never_writes_through_a_link(world: World, tmp_path: Path) -> None:
    index = write(world.claude_memory(), _index(230))
    folder = index.parent
    mine = write(folder / "memory-overflow.md", "my own topic\n")
    outside = tmp_path / "outside.md"
    os.symlink(outside, folder / "memory-overflow-2.md")  # dangling, leading out of the folder
    pid = _condense(world)
    with Memory(world.root, world.project) as mem:
        assert "memory-overflow-3.md" in "".join(mem.proposals.diff(pid).diff)
        write(folder / "memory-overflow-3.md", "made meanwhile\n")  # the chosen name taken after proposing
        before = index.read_bytes()
        with pytest.raises(Conflict, match="already exists"):
            mem.proposals.accept(pid)
    assert index.read_bytes() == before and (folder / "memory-overflow-3.md").read_text() == "made meanwhile\n"
    assert mine.read_text() == "my own topic\n" and not outside.exists()


@pytest.mark.parametrize("name", ["../../escaped.md", "sub/dir.md", ".hidden.md", "MEMORY.md"])
def test_a_proposal_whose_topic_name_was_edited_is_refused_as_tampered(world: World, name: str) -> None:
    index = write(world.claude_memory(), _index(230))
    pid = _condense(world)
    path = world.project / ".memsearch" / "proposals" / f"{pid}.json"
    record = json.loads(path.read_text())
    record["extra"]["new_file"]["name"] = name
    path.write_text(json.dumps(record))
    before = index.read_bytes()
    with Memory(world.root, world.project) as mem, pytest.raises(Exception, match="tampered proposal"):
        mem.proposals.accept(pid)
    assert index.read_bytes() == before and sorted(p.name for p in index.parent.iterdir()) == ["MEMORY.md"]


def test_proposing_twice_files_one_proposal_and_a_rejected_one_is_not_made_again(world: World) -> None:
    write(world.claude_memory(), _index(230))
    pid = _condense(world)
    assert _condense(world) == pid
    with Memory(world.root, world.project) as mem:
        mem.proposals.reject(pid, note="I will prune it myself")
        (f,) = mem.hygiene.propose(["over-long"]).findings
    assert f.proposal == ""


def test_an_over_long_codex_agents_file_is_reported_not_condensed(world: World) -> None:
    agents = write(world.project / "AGENTS.md", "# 项目约定\n" + "- keep the build green and the tests fast\n" * 1200)
    with Memory(world.root, world.project) as mem:
        (f,) = mem.hygiene.propose(["over-long"]).findings
    assert f.proposal == "" and "by hand" in f.fix and agents.stat().st_size > 32 * 1024
