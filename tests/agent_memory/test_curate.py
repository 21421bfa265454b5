"""``agent-memory prune / edit / restore``: a host's memory file curated in place by
proposal; ``proposals accept`` writes only over the bytes the proposal was made from and
``undo`` puts them back byte for byte (issue 33, item 4)."""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path

import pytest

from tests.agent_memory.conftest import Hosts, write
from tests.helpers import run_cli

# CRLF endings, CJK, and no final newline: each must survive accept and undo as bytes.
ORIGINAL = "# 项目记忆\r\n- uses pnpm\r\n- 部署用 staging 分支\r\n- wrong: tests need docker\r\n- last line, no newline".encode()


def cli(hosts: Hosts, *args: str) -> tuple[int, str]:
    r = run_cli("--memory-root", str(hosts.memory_root), "--project", str(hosts.project), *args)
    return r.code, r.out + r.err


def propose(hosts: Hosts, *args: str) -> str:
    code, out = cli(hosts, "agent-memory", *args, "--json")
    assert code == 0, out
    pid: str = json.loads(out)["data"]["id"]
    return pid


def test_prune_is_a_proposal_accept_writes_it_and_undo_puts_the_bytes_back(hosts: Hosts) -> None:
    index = write(hosts.slug_dir() / "MEMORY.md", ORIGINAL)
    pid = propose(hosts, "prune", str(index), "--lines", "4", "--reason", "wrong: no docker")
    assert index.read_bytes() == ORIGINAL  # nothing changes before accept
    code, out = cli(hosts, "proposals", "diff", pid)
    assert code == 0 and "-- wrong: tests need docker" in out
    code, out = cli(hosts, "proposals", "accept", pid)
    assert code == 0, out
    assert index.read_bytes() == ORIGINAL.replace(b"- wrong: tests need docker\r\n", b"")
    code, out = cli(hosts, "undo")
    assert code == 0, out
    assert index.read_bytes() == ORIGINAL


def test_prune_a_range_and_the_last_line_without_newline(hosts: Hosts) -> None:
    f = write(hosts.project / "CLAUDE.md", ORIGINAL)
    code, out = cli(hosts, "agent-memory", "prune", str(f), "--lines", "4-5", "--reason", "stale")
    assert code == 0, out
    pid = out.splitlines()[0]  # the id is printed first
    assert cli(hosts, "proposals", "accept", pid)[0] == 0
    assert f.read_bytes() == "# 项目记忆\r\n- uses pnpm\r\n- 部署用 staging 分支\r\n".encode()


def test_accept_refuses_when_the_file_changed_since_even_with_force(hosts: Hosts) -> None:
    index = write(hosts.slug_dir() / "MEMORY.md", ORIGINAL)
    pid = propose(hosts, "prune", str(index), "--lines", "2", "--reason", "pnpm is gone")
    changed = b"- a line the agent added at the top\n" + ORIGINAL
    index.write_bytes(changed)
    for extra in ((), ("--force",)):
        code, out = cli(hosts, "proposals", "accept", pid, *extra)
        assert code != 0 and "changed since" in out and "make the proposal again" in out
        assert "Traceback" not in out
        assert index.read_bytes() == changed


def test_edit_runs_the_editor_on_a_copy_and_proposes_what_it_saved(
    hosts: Hosts, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    f = write(hosts.codex / "memories" / "memory_summary.md", ORIGINAL)
    editor = write(
        tmp_path / "editor.py",
        "import sys\np = sys.argv[1]\nb = open(p, 'rb').read()\n"
        "open(p, 'wb').write(b.replace('部署用'.encode(), '发布用'.encode()))\n",
    )
    monkeypatch.setenv("VISUAL", f"{sys.executable} {editor}")
    pid = propose(hosts, "edit", str(f), "--reason", "wording")
    assert f.read_bytes() == ORIGINAL
    assert cli(hosts, "proposals", "accept", pid)[0] == 0
    assert f.read_bytes() == ORIGINAL.replace("部署用".encode(), "发布用".encode())
    monkeypatch.setenv("VISUAL", "true")  # saved unchanged: no proposal
    code, out = cli(hosts, "agent-memory", "edit", str(f))
    assert (code, out.strip()) == (0, "no change: nothing proposed")


def test_restore_a_kept_version_is_a_proposal_too(hosts: Hosts) -> None:
    f = write(hosts.project / "AGENTS.md", ORIGINAL)
    code, out = cli(hosts, "agent-memory", "history", str(f), "--json")
    old = json.loads(out)["data"][0]["version"]
    f.write_bytes(b"- an agent rewrote it all\n")
    pid = propose(hosts, "restore", str(f), old)
    assert f.read_bytes() == b"- an agent rewrote it all\n"
    assert cli(hosts, "proposals", "accept", pid)[0] == 0
    assert f.read_bytes() == ORIGINAL
    assert cli(hosts, "undo")[0] == 0
    assert f.read_bytes() == b"- an agent rewrote it all\n"


def test_only_files_discovery_lists_and_never_through_a_link_out(hosts: Hosts, tmp_path: Path) -> None:
    outside = write(tmp_path / "elsewhere" / "notes.md", "secret plans\n")
    code, out = cli(hosts, "agent-memory", "prune", str(outside), "--lines", "1", "--reason", "x")
    assert code != 0 and "not an agent-memory file" in out
    os.symlink(outside, hosts.project / "CLAUDE.md")
    code, out = cli(hosts, "agent-memory", "prune", str(hosts.project / "CLAUDE.md"), "--lines", "1", "--reason", "x")
    assert code != 0 and "Traceback" not in out
    assert outside.read_text() == "secret plans\n"


def test_a_proposal_file_retargeted_elsewhere_is_refused_as_tampered(hosts: Hosts, tmp_path: Path) -> None:
    f = write(hosts.project / "CLAUDE.md", "keep\ndrop\n")
    pid = propose(hosts, "prune", str(f), "--lines", "2", "--reason", "x")
    victim = write(tmp_path / "victim.md", "keep\ndrop\n")
    record = next((hosts.project / ".memsearch" / "proposals").glob(f"{pid}.json"))
    data = json.loads(record.read_text())
    data["target"] = str(victim)
    record.write_text(json.dumps(data))
    code, out = cli(hosts, "proposals", "accept", pid, "--force")
    assert code != 0 and "tampered" in out
    assert victim.read_text() == "keep\ndrop\n"


def test_lines_past_the_end_or_malformed_are_refused(hosts: Hosts) -> None:
    f = write(hosts.project / "CLAUDE.md", "one\ntwo\n")
    for spec, words in (("3", "past its 2 lines"), ("2-1", "A-B"), ("x", "A-B"), ("0", "A-B")):
        code, out = cli(hosts, "agent-memory", "prune", str(f), "--lines", spec, "--reason", "x")
        assert code != 0 and words in out, (spec, out)
    assert not (hosts.project / ".memsearch" / "proposals").exists() or not any(
        (hosts.project / ".memsearch" / "proposals").glob("*.json")
    )


def test_a_file_may_be_pruned_to_nothing(hosts: Hosts) -> None:
    f = write(hosts.slug_dir() / "MEMORY.md", "- only line\n")
    pid = propose(hosts, "prune", str(f), "--lines", "1", "--reason", "wrong")
    assert cli(hosts, "proposals", "accept", pid)[0] == 0
    assert f.read_bytes() == b""


def test_an_edit_that_adds_a_secret_is_refused(hosts: Hosts, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    token = "ghp_a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8"
    f = write(hosts.project / "CLAUDE.md", "- notes\n")
    editor = write(tmp_path / "ed.py", f"import sys\nopen(sys.argv[1], 'a').write('token {token}\\n')\n")
    monkeypatch.setenv("VISUAL", f"{sys.executable} {editor}")
    code, out = cli(hosts, "agent-memory", "edit", str(f))
    assert code != 0 and "secret" in out and token not in out
    assert f.read_bytes() == b"- notes\n"


def test_a_link_inside_the_hosts_folder_writes_the_file_it_names(hosts: Hosts) -> None:
    real = write(hosts.project / "docs" / "agent-notes.md", "keep\ndrop\n")
    link = hosts.project / "CLAUDE.md"
    os.symlink(real, link)
    pid = propose(hosts, "prune", str(link), "--lines", "2", "--reason", "x")
    assert cli(hosts, "proposals", "accept", pid)[0] == 0
    assert link.is_symlink() and real.read_bytes() == b"keep\n"


def test_the_apps_accept_with_the_bytes_it_showed(hosts: Hosts) -> None:
    """The Maintenance pane accepts with ``expected=`` the target bytes it showed."""
    from memsearch_tui.engine.api import Memory
    from memsearch_tui.engine.core.errors import Conflict

    f = write(hosts.slug_dir() / "MEMORY.md", ORIGINAL)
    with Memory(hosts.memory_root, hosts.project) as mem:
        made = mem.agent_memory.prune(str(f), "2", "pnpm is gone")
        assert mem.proposals.diff(made.id).diff  # listed and diffed like any rewrite, not tampered
        shown = mem.proposals.target_bytes(made.id)
        f.write_bytes(ORIGINAL + b"\n")
        with pytest.raises(Conflict):
            mem.proposals.accept(made.id, expected=shown)
        f.write_bytes(ORIGINAL)
        mem.proposals.accept(made.id, expected=mem.proposals.target_bytes(made.id))
    assert f.read_bytes() == ORIGINAL.replace(b"- uses pnpm\r\n", b"")


def test_proposals_diff_masks_a_token_in_the_hosts_file(hosts: Hosts, capsys: pytest.CaptureFixture[str]) -> None:
    """The file holds a pasted token: the proposal's diff (API, CLI, --json) shows it masked,
    accept writes the file's own bytes (issue 35, item 4)."""
    from memsearch_tui.engine.api import Memory

    key = "ghp_" + "a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8"
    original = f"# 笔记\n- deploy token {key}\n- old line\n- 旧的一行\n"
    f = write(hosts.project / "CLAUDE.md", original)
    pid = propose(hosts, "prune", str(f), "--lines", "4", "--reason", "old")
    with Memory(hosts.memory_root, hosts.project) as mem:
        lines = mem.proposals.diff(pid).diff
    assert "".join(lines).count("[redacted: GitHub token]") == 1 and key not in "".join(lines)
    assert "-- 旧的一行\n" in lines
    code, out = cli(hosts, "proposals", "diff", pid, "--json")
    assert code == 0 and key not in out
    assert cli(hosts, "proposals", "accept", pid)[0] == 0
    assert f.read_text(encoding="utf-8") == original.replace("- 旧的一行\n", "")


FRESH_PROCESS = """
import json, sys
from pathlib import Path
from memsearch_tui.engine.api import Memory

with Memory(Path(sys.argv[1]), Path(sys.argv[2])) as mem:
    imported = "memsearch_tui.engine.agent_memory.curate" in sys.modules
    tampered = {p.id: p.tampered for p in mem.proposals.list()}
    mem.proposals.accept(sys.argv[3])
print(json.dumps({"imported_at_start": imported, "tampered": tampered}))
"""


def test_a_fresh_process_checks_agent_memory_targets_it_has_not_imported_yet(hosts: Hosts, tmp_path: Path) -> None:
    """``Memory`` no longer imports the curation module for its side effect (the app's first
    frame reads no proposal): it registers a stand-in that imports it when a proposal is
    first checked. A process that made no proposal still refuses a retargeted one, and
    lists and accepts a sound one."""
    import subprocess

    f = write(hosts.project / "CLAUDE.md", "keep\ndrop\n")
    good = propose(hosts, "prune", str(f), "--lines", "2", "--reason", "stale")
    index = write(hosts.slug_dir() / "MEMORY.md", "- 部署用 staging 分支\n")
    bad = propose(hosts, "prune", str(index), "--lines", "1", "--reason", "x")
    victim = write(tmp_path / "victim.md", "keep\ndrop\n")
    record = next((hosts.project / ".memsearch" / "proposals").glob(f"{bad}.json"))
    record.write_text(json.dumps({**json.loads(record.read_text()), "target": str(victim)}))
    out = subprocess.run(
        [sys.executable, "-c", FRESH_PROCESS, str(hosts.memory_root), str(hosts.project), good],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert out.returncode == 0, out.stderr[-2000:]
    seen = json.loads(out.stdout.strip().splitlines()[-1])
    assert seen["imported_at_start"] is False
    assert seen["tampered"][good] == ""
    assert "not an agent-memory file of this project" in seen["tampered"][bad]
    assert f.read_text() == "keep\n" and victim.read_text() == "keep\ndrop\n"
