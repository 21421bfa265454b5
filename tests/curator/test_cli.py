"""The curator commands through the real CLI: envelopes, exit codes, human text."""

from __future__ import annotations

from pathlib import Path


def _init(cli) -> None:
    assert cli("init").code == 0


def test_trash_list_restore_purge_cycle(cli, tmp_path: Path) -> None:
    _init(cli)
    assert cli("add", "projects", "Alpha", "--body", "Alpha runs on port 8080.").code == 0
    r = cli("--json", "trash", "projects/alpha", "--reason", "old news")
    assert r.code == 0 and r.json["data"]["trash_key"] == "2026-11-30/projects/alpha"
    r = cli("--json", "trash", "list")
    [item] = r.json["data"]["items"]
    assert (item["reason"], item["days_left"], item["purge_after"]) == ("old news", 30, "2026-12-30")
    r = cli("trash", "purge", "--all")
    assert r.code == 1 and "would purge 2026-11-30/projects/alpha" in r.out and "--yes" in r.err
    assert (tmp_path / "memory/.trash/2026-11-30/projects/alpha.md").exists()
    r = cli("trash", "restore", "projects/alpha")
    assert r.code == 0 and "restored projects/alpha" in r.out
    cli("trash", "projects/alpha")
    r = cli("--json", "trash", "purge", "--all", "--yes")
    assert r.code == 0 and r.json["data"]["purged"] == ["2026-11-30/projects/alpha"]
    r = cli("--json", "trash", "restore", "projects/alpha")
    assert r.code == 1 and r.json["error"]["code"] == "not_found"


def test_conflict_versions_diff_confirm(cli) -> None:
    _init(cli)
    cli("add", "tools", "Editor", "--body", "The team uses vim.")
    r = cli("add", "tools", "Editor", "--body", "The team uses emacs.")
    assert r.code == 0 and r.out.strip() == "conflict detected, both versions kept, current v2"
    r = cli("--json", "versions", "tools/editor")
    assert [v["version"] for v in r.json["data"]["versions"]] == [1, 2]
    r = cli("diff", "tools/editor")
    assert "-The team uses vim.\n+The team uses emacs." in r.out
    r = cli("--json", "conflicts")
    assert r.json["data"]["count"] == 1
    assert cli("conflicts", "confirm", "tools/editor").code == 0
    assert cli("conflicts").out.strip() == "no open conflicts"
    r = cli("versions", "tools/editor", "--restore", "1")
    assert r.code == 0 and "v1 restored as v3" in r.out
    assert cli("conflicts", "frobnicate").code == 1


def test_lifecycle_apply_proposal_then_accept_and_undo(cli, tmp_path: Path, monkeypatch) -> None:
    monkeypatch.setenv("MEMSEARCH_TUI_NOW", "2026-01-01T12:00:00Z")
    _init(cli)
    cli("add", "notes", "Stale", "--body", "Something nobody reads any more.")
    monkeypatch.setenv("MEMSEARCH_TUI_NOW", "2026-11-30T12:00:00Z")
    r = cli("lifecycle", "plan")
    assert r.code == 0 and r.out.startswith("archive  notes/stale")
    r = cli("--json", "lifecycle", "apply")  # [tui] review defaults to true: a proposal
    pid = r.json["data"]["proposal"]["id"]
    assert (tmp_path / "memory/notes/stale.md").exists()
    assert pid in cli("lifecycle", "proposals").out
    assert "archive  notes/stale" in cli("lifecycle", "show", pid).out
    assert cli("lifecycle", "accept", pid).code == 0
    assert (tmp_path / "memory/notes/archived/stale.md").exists()
    r = cli("--json", "undo", "--list")
    assert r.json["data"]["operations"][0]["summary"].startswith(f"accept {pid}")
    assert cli("undo").code == 0
    assert (tmp_path / "memory/notes/stale.md").exists()
    r = cli("--json", "undo")
    assert r.code == 0  # the add
    r = cli("--json", "undo")
    assert r.code == 1 and r.json["error"]["code"] == "not_found"
    r = cli("undo", "--list")
    assert "(undone · redo)" in r.out  # the add: the most recently undone
    r = cli("--json", "redo")
    assert r.code == 0 and r.json["data"]["redone"]["summary"].startswith("add to notes: Stale")
    r = cli("redo")
    assert r.code == 0 and r.out.startswith(f"redone: accept {pid}")
    assert (tmp_path / "memory/notes/archived/stale.md").exists()
    r = cli("--json", "redo")
    assert r.code == 1 and r.json["error"]["code"] == "not_found"


def test_lifecycle_apply_without_review(cli, tmp_path: Path, monkeypatch) -> None:
    monkeypatch.setenv("HOME", str(tmp_path / "home"))  # review is the user's to switch off, not a project file's
    (tmp_path / "home" / ".memsearch").mkdir(parents=True)
    (tmp_path / "home" / ".memsearch" / "config.toml").write_text("[tui]\nreview = false\n")
    monkeypatch.setenv("MEMSEARCH_TUI_NOW", "2026-01-01T12:00:00Z")
    _init(cli)
    cli("add", "notes", "Stale", "--body", "Something nobody reads any more.")
    monkeypatch.setenv("MEMSEARCH_TUI_NOW", "2026-11-30T12:00:00Z")
    r = cli("--json", "lifecycle", "apply")
    assert r.json["data"]["proposal"] is None and r.json["data"]["applied"][0]["to"] == "notes/archived/stale"


def test_archive_split_merge_import(cli, tmp_path: Path) -> None:
    _init(cli)
    for i, tag in enumerate(["a", "b", "a"]):
        cli("add", "box", f"Thing {i}", "--tags", tag, "--body", f"thing number {i} with tag {tag}")
    assert "box: 3 entries" in cli("split", "plan", "box", "--by", "tag").out
    assert cli("split", "apply", "box", "--by", "tag").code == 0
    assert (tmp_path / "memory/box/a/thing-0.md").exists()
    assert cli("merge", "box").code == 0
    assert cli("archive", "box/thing-1").out.strip() == "archived box/thing-1 → box/archived/thing-1"
    r = cli("--json", "archive", "box/archived/thing-1")
    assert r.code == 1 and r.json["error"]["code"] == "archived"
    src = tmp_path / "MEMORY.md"
    src.write_text("## One\nfirst imported fact\n\n## Two\nsecond imported fact\n")
    r = cli("import", str(src))
    assert r.code == 0 and "2 imported, 0 skipped" in r.out
    assert "0 imported, 2 skipped" in cli("import", str(src)).out
    assert cli("index", "check").code == 0
    assert cli("split", "plan", "box", "--by", "colour").code == 1


def test_the_undo_history_says_which_face_made_each_change(tmp_path):
    """`undo --list` names who did what: the CLI here (the hook and the TUI mark theirs too)."""
    import json
    import subprocess
    import sys

    root = tmp_path / "memory"

    def cli(*args: str) -> str:
        code = "import sys; from memsearch_tui.cli import main; main()"
        env = {k: v for k, v in __import__("os").environ.items() if k != "MEMSEARCH_TUI_FACE"}
        return subprocess.run(
            [sys.executable, "-c", code, "--memory-root", str(root), "--project", str(tmp_path), *args],
            capture_output=True,
            text=True,
            env=env,
            check=True,
        ).stdout

    cli("init")
    cli("add", "notes", "Face marker", "--body", "Written from the command line.")
    ops = json.loads(cli("undo", "--list", "--json"))["data"]["operations"]
    assert ops[0]["by"] == "cli" and "[by" not in ops[0]["summary"]
    assert cli("undo", "--list").splitlines()[0].endswith("[by cli]")  # the text still says who
