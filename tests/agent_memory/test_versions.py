"""``agent-memory diff / seen / history / purge``: versions kept content-addressed in our
data folder, bounded per file and in total (issue 33, item 3)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from memsearch_tui.engine.agent_memory import versions
from memsearch_tui.engine.api import Memory
from memsearch_tui.engine.core.errors import NotFound
from tests.agent_memory.conftest import Hosts, write
from tests.helpers import run_cli

TOKEN = "ghp_a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8"


def api(hosts: Hosts) -> Memory:
    return Memory(hosts.memory_root, hosts.project)


def kept() -> Path:
    return Path(os.environ["MEMSEARCH_TUI_DATA_DIR"]) / "agent-memory"


def test_diff_shows_what_the_agent_added_since_the_last_review(hosts: Hosts) -> None:
    index = write(hosts.slug_dir() / "MEMORY.md", "- uses pnpm\n")
    with api(hosts) as mem:
        first = mem.agent_memory.diff(str(index))
        assert (first.since, first.added, first.removed) == (None, 1, 0)  # never reviewed: all new
        mem.agent_memory.seen([str(index)])
        assert mem.agent_memory.diff(str(index)).diff == ""
        index.write_text(f"- uses npm\n- deploy token {TOKEN}\n")
        d = mem.agent_memory.diff(str(index))
    assert (d.added, d.removed) == (2, 1)
    assert "-- uses pnpm" in d.diff and "+- uses npm" in d.diff
    assert TOKEN not in d.diff and "redacted" in d.diff
    assert d.since == first.now


def test_history_lists_each_distinct_content_once_and_marks_the_seen_one(hosts: Hosts) -> None:
    f = write(hosts.project / "CLAUDE.md", "one\n")
    with api(hosts) as mem:
        mem.agent_memory.seen([str(f)])
        mem.agent_memory.history(str(f))  # unchanged: no new version
        f.write_text("one\ntwo\n")
        rows = mem.agent_memory.history(str(f))
        assert [(v.lines, v.seen) for v in rows] == [(1, True), (2, False)]
        back = mem.agent_memory.diff(str(f), since=rows[1].version)
        assert (back.added, back.removed) == (0, 0)
    objects = sorted(p.name for p in (kept() / "objects").iterdir())
    assert len(objects) == 2 and all(len(n) == 64 for n in objects)  # one file per content, named by its sha256


def test_seen_all_marks_every_file_and_skips_what_ls_skips(hosts: Hosts) -> None:
    write(hosts.project / "CLAUDE.md", "a\n")
    write(hosts.codex / "AGENTS.md", "b\n")
    os.mkfifo(hosts.project / "CLAUDE.local.md")
    with api(hosts) as mem:
        done = mem.agent_memory.seen(None)
    assert sorted(Path(v.path).name for v in done) == ["AGENTS.md", "CLAUDE.md"]
    assert all(v.seen for v in done)


def test_a_path_that_is_no_agent_memory_file_is_refused(hosts: Hosts, tmp_path: Path) -> None:
    other = write(tmp_path / "notes.md", "x\n")
    with api(hosts) as mem, pytest.raises(NotFound, match="not an agent-memory file"):
        mem.agent_memory.diff(str(other))
    assert not (kept() / "objects").exists()


def test_versions_are_bounded_per_file_keeping_the_seen_one(hosts: Hosts) -> None:
    f = write(hosts.project / "CLAUDE.md", "v0\n")
    with api(hosts) as mem:
        mem.agent_memory.seen([str(f)])
        for i in range(1, versions.KEEP_PER_FILE + 5):
            f.write_text(f"v{i}\n")
            rows = mem.agent_memory.history(str(f))
    assert len(rows) == versions.KEEP_PER_FILE
    assert rows[0].seen and rows[-1].lines == 1
    assert len(list((kept() / "objects").iterdir())) == versions.KEEP_PER_FILE


def test_versions_are_bounded_in_total(hosts: Hosts, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(versions, "KEEP_TOTAL_BYTES", 250)
    a, b = write(hosts.project / "CLAUDE.md", "a" * 99 + "\n"), write(hosts.codex / "AGENTS.md", "b" * 99 + "\n")
    with api(hosts) as mem:
        for i in range(3):
            a.write_text(f"{i}" * 99 + "\n")
            mem.agent_memory.history(str(a))
        mem.agent_memory.history(str(b))
        sizes = sum(p.stat().st_size for p in (kept() / "objects").iterdir())
        assert sizes <= 250
        assert [v.lines for v in mem.agent_memory.history(str(b))] == [1]  # each file's newest is kept
        assert len(mem.agent_memory.history(str(a))) == 1


def test_purge_wipes_every_kept_version(hosts: Hosts) -> None:
    f = write(hosts.project / "CLAUDE.md", "x\n")
    args = ["--memory-root", str(hosts.memory_root), "--project", str(hosts.project), "agent-memory"]
    assert run_cli(*args, "seen", str(f)).code == 0
    purged = run_cli(*args, "purge", "--json")
    assert purged.code == 0
    assert purged.json["data"] == {"purged": 1}
    assert not (kept() / "objects").exists() and not (kept() / "files").exists()
    assert f.read_text() == "x\n"  # the host's file itself stays


def test_cli_diff_seen_history(hosts: Hosts) -> None:
    f = write(hosts.slug_dir() / "MEMORY.md", "- one\n")
    args = ["--memory-root", str(hosts.memory_root), "--project", str(hosts.project), "agent-memory"]
    refused = run_cli(*args, "seen")
    assert refused.code != 0  # neither PATH nor --all
    assert "name a PATH or give --all" in refused.err + refused.out
    assert run_cli(*args, "seen", "--all").code == 0
    f.write_text(f"- one\n- two {TOKEN}\n")
    diff = run_cli(*args, "diff", str(f))
    assert diff.code == 0
    out = diff.out
    assert "+1 -0" in out and "+- two" in out and TOKEN not in out
    history = run_cli(*args, "history", str(f), "--json")
    assert history.code == 0
    rows = history.json["data"]
    assert [(r["lines"], r["seen"]) for r in rows] == [(1, True), (2, False)]


def test_ls_counts_the_lines_changed_since_the_last_review(hosts: Hosts) -> None:
    shared = write(hosts.claude / "shared.md", "- a\n- b\n")
    (hosts.claude / "CLAUDE.md").symlink_to(shared)  # a link inside ~/.claude is followed
    agents = write(hosts.codex / "AGENTS.md", "never seen\n")
    with api(hosts) as mem:
        mem.agent_memory.seen([str(hosts.claude / "CLAUDE.md")])
        shared.write_text("- a\n- c\n- d\n")
        found = {Path(f.path): (f.unreviewed_added, f.unreviewed_removed) for f in mem.agent_memory.ls().files}
    assert found == {hosts.claude / "CLAUDE.md": (2, 1), agents: (None, None)}
    assert len(list((kept() / "objects").iterdir())) == 1  # ls recorded nothing
    args = ["--memory-root", str(hosts.memory_root), "--project", str(hosts.project), "agent-memory", "ls"]
    listed = run_cli(*args)
    assert listed.code == 0
    assert "unreviewed +2 -1" in listed.out
