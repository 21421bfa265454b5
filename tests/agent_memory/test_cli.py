"""``memsearch-tui agent-memory ls [--json]`` (issue 33, item 2)."""

from __future__ import annotations

import json

from tests.agent_memory.conftest import Hosts, write
from tests.helpers import run_cli

TOKEN = "ghp_a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8"


def ls(hosts: Hosts, *extra: str) -> tuple[int, str]:
    r = run_cli("--memory-root", str(hosts.memory_root), "--project", str(hosts.project), "agent-memory", "ls", *extra)
    return r.code, r.out


def test_ls_json_has_one_row_per_file_with_what_the_host_cuts(hosts: Hosts) -> None:
    write(hosts.slug_dir() / "MEMORY.md", "".join(f"- note {i}\n" for i in range(250)))
    write(hosts.project / "CLAUDE.md", f"token {TOKEN}\n")
    code, out = ls(hosts, "--json")
    assert code == 0 and TOKEN not in out
    data = json.loads(out)["data"]
    index = next(f for f in data["files"] if f["kind"] == "auto-memory-index")
    assert list(index) == [
        "host", "kind", "path", "lines", "bytes", "tokens", "loads",
        "loaded_lines", "loaded_bytes", "cut_lines", "cut_bytes", "secrets",
        "unreviewed_added", "unreviewed_removed",
    ]  # fmt: skip
    assert (index["lines"], index["loaded_lines"], index["cut_lines"]) == (250, 200, 50)
    assert [f["secrets"] for f in data["files"] if f["kind"] == "project-instructions"] == [1]
    assert data["auto_memory"] == str(hosts.slug_dir())


def test_ls_text_names_each_file_and_each_skip(hosts: Hosts) -> None:
    write(hosts.slug_dir() / "MEMORY.md", "".join(f"- note {i}\n" for i in range(250)))
    write(hosts.codex / "AGENTS.md", f"use {TOKEN}\n")
    write(hosts.codex / "memories" / "MEMORY.md", b"\xff\xfe not utf-8\n")
    code, out = ls(hosts)
    assert code == 0 and TOKEN not in out
    lines = out.splitlines()
    assert any("auto-memory-index" in x and "200 of 250 lines" in x for x in lines)
    assert any("user-agents" in x and "1 secret" in x for x in lines)
    assert any(x.startswith("skipped (codex memory-registry)") and "not UTF-8" in x for x in lines)


def test_ls_with_nothing_there(hosts: Hosts) -> None:
    assert ls(hosts) == (0, "no agent-memory files found\n")
