"""One containment rule for every read an agent or a cloned repository can aim (issue 19.1).

A repository ships ``.memsearch/PROJECT.md`` (or a day file, or the whole ``memory``
folder) as a symlink to a file outside the project. The MCP ``read`` tool under every
spelling of the name, the literal search (MCP and CLI), the ``journal`` tool and ``doctor``
must all refuse or skip it, and name it; a FIFO is never opened.
"""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

import anyio
import pytest
from mcp import Client

from memsearch_tui.engine.api import Memory
from memsearch_tui.engine.maintenance.doctor import doctor
from memsearch_tui.mcp.server import build_server
from tests.mcp.conftest import Env

OUTSIDE = "outside-the-project-QX7"


def _outside(env: Env) -> Path:
    secret = env.home / "private" / "notes.md"
    secret.parent.mkdir(parents=True)
    secret.write_text(f"# private\n\n{OUTSIDE}\n", encoding="utf-8")
    return secret


def _calls(env: Env, calls: list[tuple[str, dict]]) -> list[tuple[bool, str]]:
    """(is_error, text) of each tool call, through the SDK's client against the server."""
    out: list[tuple[bool, str]] = []

    async def main() -> None:
        async with Client(build_server(env.root, env.project, writes="review")) as c:
            for name, args in calls:
                r = await c.call_tool(name, args)
                out.append((r.is_error, json.dumps(r.structured_content) if not r.is_error else r.content[0].text))

    anyio.run(main)
    return out


def test_project_md_linking_out_is_refused_under_every_spelling(env: Env):
    secret = _outside(env)
    ms = env.project / ".memsearch"
    (ms / "PROJECT.md").unlink()
    (ms / "PROJECT.md").symlink_to(secret)
    spellings = [
        "PROJECT.md",
        "project.md",
        "project",
        "PROJECT",
        str(ms / "PROJECT.md"),
        "~/../" + str(ms)[1:] + "/PROJECT.md",
    ]
    results = _calls(env, [("read", {"id_or_path": s}) for s in spellings])
    for spelling, (err, text) in zip(spellings, results, strict=True):
        assert err, spelling
        assert OUTSIDE not in text and "unsafe_path" in text, (spelling, text)
    err, text = _calls(env, [("search", {"query": OUTSIDE, "strategy": "grep"})])[0]
    assert not err and json.loads(text)["hits"] == []


def test_a_day_file_linking_out_is_not_read_searched_or_listed(env: Env):
    secret = _outside(env)
    day = env.project / ".memsearch" / "memory" / "2026-11-28.md"
    day.symlink_to(secret)
    results = _calls(
        env,
        [
            ("read", {"id_or_path": "2026-11-28"}),
            ("read", {"id_or_path": "memory/2026-11-28.md"}),
            ("journal", {"day": "2026-11-28"}),
            ("journal", {}),
            ("search", {"query": OUTSIDE, "strategy": "grep"}),
        ],
    )
    assert all(OUTSIDE not in text for _, text in results[:4]), results
    assert results[0][0] and results[1][0] and results[2][0]
    assert json.loads(results[3][1])["days"] == ["2026-11-29"]
    assert json.loads(results[4][1])["hits"] == []
    out = subprocess.run(
        env.argv("--json", "search", OUTSIDE, "-s", "grep"),
        env=env.environ(),
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert json.loads(out.stdout)["data"]["hits"] == [], out.stdout + out.stderr
    problems = [c.message for c in doctor(env.project, env.root, home=env.home) if c.status == "problem"]
    assert any(str(day) in m and "leads outside" in m for m in problems), problems


def test_a_memory_folder_linking_to_home_is_never_walked(env: Env):
    _outside(env)
    mem = env.project / ".memsearch" / "memory"
    for f in mem.iterdir():
        f.unlink()
    mem.rmdir()
    (env.home / "private" / "2026-01-01.md").write_text(f"# 2026-01-01\n\n- {OUTSIDE}\n", encoding="utf-8")
    mem.symlink_to(env.home / "private")
    results = _calls(env, [("journal", {}), ("read", {"id_or_path": "2026-01-01"})])
    assert all(err and OUTSIDE not in text for err, text in results), results
    with Memory(env.root, env.project) as m:
        assert m.search.query(OUTSIDE, strategy="grep").hits == ()
    problems = [c.message for c in doctor(env.project, env.root, home=env.home) if c.status == "problem"]
    assert any(str(mem) in m and "leads outside" in m for m in problems), problems


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs on this platform")
def test_a_fifo_day_is_never_opened(env: Env):
    fifo = env.project / ".memsearch" / "memory" / "2026-11-30.md"
    os.mkfifo(fifo)
    results = _calls(env, [("read", {"id_or_path": "2026-11-30"}), ("journal", {}), ("search", {"query": "deploy"})])
    assert results[0][0] and "FIFO" in results[0][1]
    assert not results[1][0] and json.loads(results[1][1])["days"] == ["2026-11-29"]
    assert not results[2][0]
    problems = [c.message for c in doctor(env.project, env.root, home=env.home) if c.status == "problem"]
    assert any(str(fifo) in m and "FIFO" in m for m in problems), problems


def test_reads_are_bounded_a_huge_day_and_a_sparse_project_md_are_named_not_loaded(env: Env):
    """A 4 GB sparse PROJECT.md, ``USER.md -> /dev/zero`` and a day over the bound: refused
    or skipped with the file named, never read whole (issue 19.2)."""
    ms = env.project / ".memsearch"
    with open(ms / "PROJECT.md", "r+b") as fh:
        fh.truncate(4 << 30)
    (ms / "USER.md").symlink_to("/dev/zero")
    big = ms / "memory" / "2026-11-30.md"
    big.write_bytes(b"# 2026-11-30\n\n## Session 10:00\n\n### 10:01\n" + b"- deploy note padding\n" * 250_000)
    results = _calls(
        env,
        [
            ("read", {"id_or_path": "PROJECT.md"}),
            ("read", {"id_or_path": "USER.md"}),
            ("journal", {"day": "2026-11-30"}),
            ("journal", {"day": "2026-11-29"}),
            ("search", {"query": "deploy", "strategy": "grep"}),
        ],
    )
    assert results[0][0] and "too_large" in results[0][1] and "PROJECT.md" in results[0][1]
    assert results[1][0] and "unsafe_path" in results[1][1] and "USER.md" in results[1][1]
    assert (
        results[2][0] and "too_large" in results[2][1] and "too_large: 2026-11-30:" in results[2][1]
    )  # a day by its date
    assert not results[3][0]
    assert not results[4][0]
    hits = json.loads(results[4][1])["hits"]
    assert hits and all(not h["path"].endswith(("2026-11-30.md", "PROJECT.md")) for h in hits)
    problems = [c.message for c in doctor(env.project, env.root, home=env.home) if c.status == "problem"]
    assert any("2026-11-30.md" in m and "limit" in m for m in problems), problems


def test_index_check_names_store_links_that_lead_out(env: Env):
    """An entry file or a category folder linking out of the memory root is never read and is
    named by ``index check``, with the fix."""
    secret = _outside(env)
    (env.root / "ops" / "leak.md").symlink_to(secret)
    (env.root / "linked").symlink_to(secret.parent, target_is_directory=True)
    out = subprocess.run(
        env.argv("--json", "index", "check"), env=env.environ(), capture_output=True, text=True, timeout=120
    )
    assert out.returncode == 1 and OUTSIDE not in out.stdout
    found = {p["file"]: p for p in json.loads(out.stdout)["data"]["problems"]}
    assert (
        "outside the memory root" in found["ops/leak.md"]["message"]
        and "remove the link" in found["ops/leak.md"]["fix"]
    )
    assert "symlinked folder" in found["linked"]["message"] and "remove the link" in found["linked"]["fix"]
    results = _calls(env, [("read", {"id_or_path": "ops/leak"}), ("read", {"id_or_path": "linked/notes"})])
    assert all(err and OUTSIDE not in text for err, text in results), results
