"""``mem.agent_memory.ls``: every file each host keeps, where the host looks for it, and
what it loads at the start of a session (issue 33, item 1)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.agent_memory.conftest import Hosts, git, write


def rows(hosts: Hosts) -> dict[str, object]:
    return {f.path: f for f in hosts.ls().files}


def test_claude_code_files_are_found_at_every_level(hosts: Hosts) -> None:
    c, p = hosts.claude, hosts.project
    write(c / "CLAUDE.md", "# me\nterse answers\n")
    write(c / "rules" / "style.md", "- tabs\n")
    write(c / "rules" / "api" / "rest.md", "---\npaths:\n  - 'src/api/**'\n---\n- REST only\n")
    write(p / "CLAUDE.md", "# project\n")
    write(p / ".claude" / "CLAUDE.md", "# also project\n")
    write(p / ".claude" / "rules" / "tests.md", "- pytest\n")
    write(p / "CLAUDE.local.md", "my sandbox\n")
    write(hosts.slug_dir() / "MEMORY.md", "- [debugging](debugging.md)\n")
    write(hosts.slug_dir() / "debugging.md", "notes\nmore\n")
    found = {Path(f.path): f for f in hosts.ls().files}
    kinds = {path: (f.host, f.kind, f.loads) for path, f in found.items()}
    assert kinds == {
        c / "CLAUDE.md": ("claude-code", "user-instructions", "full"),
        c / "rules" / "style.md": ("claude-code", "user-rule", "full"),
        c / "rules" / "api" / "rest.md": ("claude-code", "user-rule", "on-demand"),
        p / "CLAUDE.md": ("claude-code", "project-instructions", "full"),
        p / ".claude" / "CLAUDE.md": ("claude-code", "project-instructions", "full"),
        p / ".claude" / "rules" / "tests.md": ("claude-code", "project-rule", "full"),
        p / "CLAUDE.local.md": ("claude-code", "local-instructions", "full"),
        hosts.slug_dir() / "MEMORY.md": ("claude-code", "auto-memory-index", "full"),
        hosts.slug_dir() / "debugging.md": ("claude-code", "auto-memory-topic", "on-demand"),
    }
    topic = found[hosts.slug_dir() / "debugging.md"]
    assert (topic.lines, topic.bytes, topic.tokens, topic.loaded_lines, topic.cut_lines) == (2, 11, 3, 0, 2)
    assert str(hosts.slug_dir()).endswith("-work-my-app--v2/memory")  # "_", "." and "._" each char → "-", no squeezing


def test_memory_md_loads_the_first_200_lines(hosts: Hosts) -> None:
    write(hosts.slug_dir() / "MEMORY.md", "".join(f"- note {i}\n" for i in range(250)))
    f = next(iter(hosts.ls().files))
    assert (f.lines, f.loads, f.loaded_lines, f.cut_lines) == (250, "head", 200, 50)
    assert f.loaded_bytes == sum(len(f"- note {i}\n") for i in range(200))


def test_memory_md_with_long_lines_loads_at_most_25_kb(hosts: Hosts) -> None:
    line = "x" * 399 + "\n"
    write(hosts.slug_dir() / "MEMORY.md", line * 100)  # 40,000 bytes in 100 lines
    f = next(iter(hosts.ls().files))
    assert (f.bytes, f.loaded_lines, f.loaded_bytes, f.cut_bytes) == (40_000, 62, 24_800, 15_200)


def test_claude_config_dir_moves_dot_claude(hosts: Hosts, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    elsewhere = tmp_path / "cfg"
    monkeypatch.setenv("CLAUDE_CONFIG_DIR", str(elsewhere))
    write(hosts.claude / "CLAUDE.md", "not read: CLAUDE_CONFIG_DIR moved it\n")
    write(elsewhere / "CLAUDE.md", "read\n")
    hosts.claude = elsewhere
    write(hosts.slug_dir() / "MEMORY.md", "- x\n")
    assert set(rows(hosts)) == {str(elsewhere / "CLAUDE.md"), str(hosts.slug_dir() / "MEMORY.md")}


def test_auto_memory_directory_from_user_or_local_settings_never_the_projects(hosts: Hosts, tmp_path: Path) -> None:
    chosen, planted = tmp_path / "my-memories", tmp_path / "planted"
    write(chosen / "MEMORY.md", "- mine\n")
    write(planted / "MEMORY.md", "- planted by the repository\n")
    write(hosts.slug_dir() / "MEMORY.md", "- default\n")
    write(hosts.project / ".claude" / "settings.json", f'{{"autoMemoryDirectory": "{planted}"}}')
    assert hosts.ls().auto_memory == str(hosts.slug_dir())  # the project's own settings are ignored
    write(hosts.claude / "settings.json", f'{{"autoMemoryDirectory": "{chosen}"}}')
    listed = hosts.ls()
    assert listed.auto_memory == str(chosen)
    assert listed.auto_memory_from == f"autoMemoryDirectory in user settings ({hosts.claude / 'settings.json'})"
    assert [f.path for f in listed.files] == [str(chosen / "MEMORY.md")]
    local = tmp_path / "local-memories"
    write(hosts.project / ".claude" / "settings.local.json", '{"autoMemoryDirectory": "' + str(local) + '"}')
    assert hosts.ls().auto_memory == str(local)  # local settings come before user settings


def test_a_worktree_shares_its_main_checkouts_auto_memory(hosts: Hosts, tmp_path: Path) -> None:
    git("-c", "user.name=t", "-c", "user.email=t@t", "commit", "-q", "--allow-empty", "-m", "one", cwd=hosts.project)
    tree = tmp_path / "trees" / "feature_b"
    git("worktree", "add", "-q", str(tree), cwd=hosts.project)
    write(hosts.slug_dir() / "MEMORY.md", "- shared\n")
    main_memory = hosts.slug_dir()
    hosts.project = tree.resolve()
    assert hosts.ls().auto_memory == str(main_memory)


def test_codex_memories_and_agents_md(hosts: Hosts) -> None:
    m = hosts.codex / "memories"
    write(m / "memory_summary.md", "s" * 11_999 + "\n")
    write(m / "MEMORY.md", "# registry\n")
    write(m / "raw_memories.md", "raw\n")
    write(m / "rollout_summaries" / "t1.md", "r\n")
    write(m / "skills" / "deploy" / "SKILL.md", "skill\n")
    write(hosts.codex / "AGENTS.md", "global\n")
    write(hosts.project / "AGENTS.md", ("y" * 99 + "\n") * 400)  # 40,000 bytes
    found = {Path(f.path): f for f in hosts.ls().files}
    loads = {
        p.relative_to(hosts.home if p.is_relative_to(hosts.home) else hosts.project): (f.kind, f.loads)
        for p, f in found.items()
    }
    assert loads == {
        Path(".codex/memories/memory_summary.md"): ("memory-summary", "head+tail"),
        Path(".codex/memories/MEMORY.md"): ("memory-registry", "on-demand"),
        Path(".codex/memories/raw_memories.md"): ("raw-memories", "on-demand"),
        Path(".codex/memories/rollout_summaries/t1.md"): ("rollout-summary", "on-demand"),
        Path(".codex/memories/skills/deploy/SKILL.md"): ("skill", "on-demand"),
        Path(".codex/AGENTS.md"): ("user-agents", "full"),
        Path("AGENTS.md"): ("project-agents", "head"),
    }
    summary = found[m / "memory_summary.md"]
    assert (summary.bytes, summary.loaded_bytes, summary.cut_bytes, summary.tokens) == (12_000, 10_000, 2_000, 3_000)
    agents = found[hosts.project / "AGENTS.md"]
    assert (agents.loaded_bytes, agents.loaded_lines) == (32_700, 327)  # the last whole line within 32 KiB


def test_codex_home_moves_dot_codex_and_override_wins(
    hosts: Hosts, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    home = tmp_path / "codex-home"
    monkeypatch.setenv("CODEX_HOME", str(home))
    write(hosts.codex / "memories" / "memory_summary.md", "not read\n")
    write(home / "memories" / "memory_summary.md", "short\n")
    write(home / "AGENTS.md", "plain\n")
    write(home / "AGENTS.override.md", "override\n")
    found = {f.path: (f.kind, f.loads, f.loaded_lines) for f in hosts.ls().files}
    assert found == {
        str(home / "memories" / "memory_summary.md"): ("memory-summary", "full", 1),
        str(home / "AGENTS.override.md"): ("user-agents", "full", 1),
    }


def test_memsearch_notes_are_in_the_same_listing(hosts: Hosts) -> None:
    write(hosts.project / ".memsearch" / "PROJECT.md", "# project\n")
    write(hosts.project / ".memsearch" / "USER.md", "# user\n")
    found = [(f.host, f.kind, f.loads) for f in hosts.ls().files]
    assert found == [("memsearch", "project", "not-measured"), ("memsearch", "user", "not-measured")]


def test_secrets_are_counted_never_returned(hosts: Hosts) -> None:
    token = "ghp_a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8"
    write(hosts.project / "CLAUDE.md", f"deploy with {token}\nagain {token}\n")
    write(hosts.codex / "AGENTS.md", "nothing here\n")
    listed = hosts.ls()
    assert {f.kind: f.secrets for f in listed.files} == {"project-instructions": 1, "user-agents": 0}
    assert token not in repr(listed)


def test_nothing_found_is_an_empty_listing(hosts: Hosts) -> None:
    listed = hosts.ls()
    assert (listed.files, listed.skipped) == ((), ())


def js_string_hash_base36(text: str) -> str:
    """Claude Code 2.1.197's ``Math.abs(jCe(path)).toString(36)``, where ``jCe`` is
    ``for (...) t = (t << 5) - t + e.charCodeAt(n) | 0`` (written out here, not imported)."""
    import numpy as np

    t = 0
    for unit in memoryview(text.encode("utf-16-le")).cast("H"):
        t = ((t << 5) - t + unit) & 0xFFFFFFFF
    signed = t - 2**32 if t & 0x80000000 else t
    return str(np.base_repr(abs(signed), 36)).lower()


def test_a_project_path_over_200_characters_finds_claude_codes_hashed_folder(hosts: Hosts, tmp_path: Path) -> None:
    deep = tmp_path / ("a" * 120) / ("b_" * 60)
    deep.mkdir(parents=True)
    git("init", "-q", cwd=deep)
    hosts.project = deep.resolve()
    full = hosts.slug_dir().parent.name
    assert len(full) > 200
    hashed = hosts.claude / "projects" / f"{full[:200]}-{js_string_hash_base36(str(hosts.project))}" / "memory"
    write(hashed / "MEMORY.md", "- long path\n")
    write(hosts.claude / "projects" / (full[:200] + "-1q2w3e") / "memory" / "MEMORY.md", "- another path's\n")
    assert [f.path for f in hosts.ls().files] == [str(hashed / "MEMORY.md")]


def test_project_agents_override_wins(hosts: Hosts) -> None:
    write(hosts.project / "AGENTS.md", "plain\n")
    write(hosts.project / "AGENTS.override.md", "override\n")
    assert [Path(f.path).name for f in hosts.ls().files] == ["AGENTS.override.md"]


def test_a_folder_lists_at_most_500_entries(hosts: Hosts) -> None:
    folder = hosts.codex / "memories" / "rollout_summaries"
    for i in range(501):
        write(folder / f"t{i:03}.md", "r\n")
    listed = hosts.ls()
    assert len(listed.files) == 500
    assert [s.reason for s in listed.skipped] == [f"{folder}: over 500 entries; only the first listed"]
