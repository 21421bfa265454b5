"""A host's folder holding something that is not a plain memory file: named in ``skipped``
with why, never followed, never waited on (issue 33, item 6)."""

from __future__ import annotations

import os
from pathlib import Path

from memsearch_tui.engine.agent_memory.measure import FILE_LIMIT
from tests.agent_memory.conftest import Hosts, write


def skipped(hosts: Hosts) -> dict[str, str]:
    return {s.path: s.reason for s in hosts.ls().skipped}


def test_a_link_leading_out_of_the_hosts_folders_is_not_followed(hosts: Hosts, tmp_path: Path) -> None:
    secret = write(tmp_path / "outside" / "id_rsa.md", "PRIVATE\n")
    (hosts.project / "CLAUDE.md").symlink_to(secret)
    write(hosts.claude / "rules" / "ok.md", "- fine\n")
    (hosts.claude / "rules" / "ssh.md").symlink_to(secret)
    (hosts.claude / "rules" / "linked").symlink_to(secret.parent, target_is_directory=True)
    listed = hosts.ls()
    assert [f.path for f in listed.files] == [str(hosts.claude / "rules" / "ok.md")]
    reasons = {s.path: s.reason for s in listed.skipped}
    assert set(reasons) == {str(hosts.project / "CLAUDE.md"), str(hosts.claude / "rules" / "ssh.md")}
    assert all("leads outside" in r and "not read" in r for r in reasons.values())


def test_a_link_inside_the_hosts_folder_is_read(hosts: Hosts) -> None:
    shared = write(hosts.claude / "shared.md", "- one\n")
    write(hosts.claude / "rules" / "x.md", "")
    (hosts.claude / "rules" / "x.md").unlink()
    (hosts.claude / "rules" / "x.md").symlink_to(shared)
    assert [(f.kind, f.lines) for f in hosts.ls().files] == [("user-rule", 1)]


def test_a_fifo_is_named_and_never_opened_for_reading(hosts: Hosts) -> None:
    folder = hosts.slug_dir()
    write(folder / "MEMORY.md", "- a\n")
    os.mkfifo(folder / "stuck.md")  # no writer: a plain open() would block forever
    reasons = skipped(hosts)
    assert list(reasons) == [str(folder / "stuck.md")]
    assert "FIFO" in reasons[str(folder / "stuck.md")]


def test_a_huge_file_and_a_non_utf8_file_are_skipped(hosts: Hosts) -> None:
    huge = hosts.codex / "memories" / "raw_memories.md"
    huge.parent.mkdir(parents=True)
    with open(huge, "wb") as fh:
        fh.truncate(FILE_LIMIT + 1)  # sparse: costs no disk
    write(hosts.codex / "memories" / "MEMORY.md", b"caf\xe9 latin-1\n")
    write(hosts.codex / "AGENTS.md", "fine\n")
    listed = hosts.ls()
    assert [f.kind for f in listed.files] == ["user-agents"]
    reasons = {Path(s.path).name: s.reason for s in listed.skipped}
    assert "too large" in reasons["raw_memories.md"] or "over" in reasons["raw_memories.md"]
    assert "not UTF-8" in reasons["MEMORY.md"]


def test_a_malformed_settings_file_names_no_folder(hosts: Hosts) -> None:
    write(hosts.claude / "settings.json", "{not json")
    os.mkfifo(hosts.project / ".claude-settings-fifo")
    (hosts.project / ".claude").mkdir()
    os.replace(hosts.project / ".claude-settings-fifo", hosts.project / ".claude" / "settings.local.json")
    assert hosts.ls().auto_memory == str(hosts.slug_dir())
