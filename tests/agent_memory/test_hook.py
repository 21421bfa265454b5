"""The Stop/SessionEnd hook records a version of each agent-memory file that changed, with
the payload's session, reading nothing when a file's stat is unchanged (issue 33, item 3)."""

from __future__ import annotations

import os
from pathlib import Path

from memsearch_tui.cli.hook_fast import Prelude
from memsearch_tui.cli.run_due import main as run_due
from memsearch_tui.engine.agent_memory.hook import watched
from memsearch_tui.engine.upkeep import fast_path
from tests.agent_memory.conftest import Hosts, write
from tests.helpers import run_cli


def hook(hosts: Hosts, session: object) -> None:
    payload = {"session_id": session, "cwd": str(hosts.project), "hook_event_name": "Stop"}
    args = ["--run-due", "--hook", "claude-code", "--memory-root", str(hosts.memory_root)]
    assert run_due(args, Prelude(0.0, payload, None)) == 0


def history(hosts: Hosts, path: Path) -> list[dict[str, object]]:
    args = ["--memory-root", str(hosts.memory_root), "--project", str(hosts.project)]
    r = run_cli(*args, "agent-memory", "history", str(path), "--json")
    assert r.code == 0
    rows: list[dict[str, object]] = r.json["data"]
    return rows


def test_the_hook_keeps_a_version_with_the_session_that_changed_it(hosts: Hosts) -> None:
    index = write(hosts.slug_dir() / "MEMORY.md", "- uses pnpm\n")
    hook(hosts, "sess-aaa-1")
    index.write_text("- uses pnpm\n- 测试要先启动 docker\n", encoding="utf-8")
    hook(hosts, "sess-bbb-2")
    hook(hosts, "sess-ccc-3")  # nothing changed: no version, no session noted
    rows = history(hosts, index)
    assert [(r["lines"], r["session"]) for r in rows[:2]] == [(1, "sess-aaa-1"), (2, "sess-bbb-2")]
    args = ["--memory-root", str(hosts.memory_root), "--project", str(hosts.project)]
    r = run_cli(*args, "agent-memory", "history", str(index))
    assert r.code == 0
    assert "session sess-bbb-2" in r.out


def test_a_session_id_that_is_not_one_is_not_kept(hosts: Hosts) -> None:
    f = write(hosts.project / "CLAUDE.md", "x\n")
    hook(hosts, "\x1b[31mred\nnewline")
    assert history(hosts, f)[0]["session"] is None


def test_nothing_is_read_when_size_mtime_and_inode_are_unchanged(hosts: Hosts) -> None:
    f = write(hosts.codex / "memories" / "memory_summary.md", "aaaa\n")
    hook(hosts, "s1")
    st = os.stat(f)
    with open(f, "r+b") as fh:  # same inode, same size, then the old mtime back: only a read could tell
        fh.write(b"bbbb\n")
    os.utime(f, ns=(st.st_atime_ns, st.st_mtime_ns))
    hook(hosts, "s2")
    assert len(history_kept(f)) == 1  # not read: the new bytes were not recorded
    os.utime(f, ns=(st.st_atime_ns, st.st_mtime_ns + 1_000_000_000))
    hook(hosts, "s3")
    assert [v["session"] for v in history_kept(f)] == ["s1", "s3"]


def history_kept(path: Path) -> list[dict[str, object]]:
    """The version list as kept on disk (history itself would record the file first)."""
    from memsearch_tui.engine.agent_memory import versions

    index = versions._load(versions.folder(), str(path))
    rows: list[dict[str, object]] = index["versions"]
    return rows


def test_the_fast_path_record_watches_the_memory_files(hosts: Hosts) -> None:
    index = write(hosts.slug_dir() / "MEMORY.md", "- one\n")
    paths = watched(hosts.project)
    assert index in paths and hosts.slug_dir() in paths and hosts.codex / "memories" in paths
    assert hosts.claude not in paths and hosts.codex not in paths  # the hosts' own logs live there
    watch = [fast_path.FILE + os.fsencode(str(p)) for p in paths]
    before, _ = fast_path.signature(watch)
    write(hosts.slug_dir() / "topic.md", "- new topic\n")  # a new file: its folder's stat moves
    assert fast_path.signature(watch)[0] != before


def test_purge_wipes_the_hooks_notes_too_so_the_next_hook_records_afresh(hosts: Hosts) -> None:
    f = write(hosts.project / "AGENTS.md", "- 用 uv 管理依赖\n")
    hook(hosts, "s1")
    kept = Path(os.environ["MEMSEARCH_TUI_DATA_DIR"]) / "agent-memory"
    assert (kept / "stats.json").exists() and any((kept / "objects").iterdir())
    args = ["--memory-root", str(hosts.memory_root), "--project", str(hosts.project)]
    assert run_cli(*args, "agent-memory", "purge").code == 0
    assert not (kept / "stats.json").exists() and not (kept / "objects").exists()
    hook(hosts, "s2")  # the file did not change, yet it is recorded again: nothing says it was
    assert [v["session"] for v in history_kept(f)] == ["s2"]
