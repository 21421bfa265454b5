"""A person's own update that replaces what an entry said keeps the old text as a version
and opens no conflict; the same update from an agent still does."""

from __future__ import annotations

from pathlib import Path

from memsearch_tui.engine.api import Memory


def test_a_persons_update_through_the_cli_keeps_a_version_and_opens_no_conflict(cli, tmp_path: Path) -> None:
    assert cli("init").code == 0
    assert cli("add", "tools", "Editor", "--body", "The team uses vim.").code == 0
    r = cli("update", "tools/editor", "--body", "The team uses emacs.")
    assert r.code == 0 and "kept as v1" in r.out
    assert cli("conflicts").out.strip() == "no open conflicts"
    r = cli("--json", "versions", "tools/editor")
    assert [(v["version"], v["kept"]) for v in r.json["data"]["versions"]] == [(1, True), (2, True)]
    assert "The team uses vim." in (tmp_path / "memory/.versions/tools/editor/v1.md").read_text()


def test_the_same_update_from_an_agent_is_a_conflict_to_confirm(cli, tmp_path: Path) -> None:
    assert cli("init").code == 0
    assert cli("add", "tools", "Editor", "--body", "The team uses vim.").code == 0
    with Memory(tmp_path / "memory", tmp_path, actor="mcp:tester") as m:
        assert m.entries.update("tools/editor", body="The team uses emacs.").action == "conflict"
    assert "tools/editor" in cli("conflicts").out
