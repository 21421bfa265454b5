"""The CLI contract: commands, the --json envelope, exit codes, no tracebacks."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import tree_bytes
from tests.helpers import run_cli

COMMANDS_JSON = [
    ["init"],
    [
        "add",
        "projects",
        "Alpha",
        "--body",
        "alpha notes",
        "--tags",
        "a,b",
        "--importance",
        "0.5",
        "--expires",
        "2027-01-01",
    ],
    ["show", "projects/alpha"],
    ["ls"],
    ["ls", "projects", "--status", "active"],
    ["update", "projects/alpha", "--title", "Alpha 2"],
    ["index", "check"],
]


def test_every_store_command_speaks_the_json_envelope(cli) -> None:
    for args in COMMANDS_JSON:
        res = cli(*args, "--json")
        assert res.code == 0, (args, res.out, res.err)
        doc = res.json
        assert doc["ok"] is True and doc["error"] is None and "data" in doc, args
    shown = cli("show", "projects/alpha", "--json").json["data"]
    assert (shown["title"], shown["tags"], shown["importance"], shown["expires"]) == (
        "Alpha 2",
        ["a", "b"],
        0.5,
        "2027-01-01",
    )


def test_refusals_exit_1_with_code_and_message(cli) -> None:
    cli("init")
    cli("add", "p", "One", "--body", "the same text")
    cases = {
        ("add", "p", "Two", "--body", "the same text"): "duplicate",
        ("add", "p", "Key", "--body", "token = ghp_abcdefghijklmnopqrstuvwxyz0123456789"): "secret",
        ("show", "../etc/passwd"): "unsafe_path",
        ("show", "p/missing"): "not_found",
    }
    for args, code in cases.items():
        res = cli(*args, "--json")
        assert res.code == 1, args
        assert res.json["ok"] is False and res.json["error"]["code"] == code, (args, res.out)
    secret = cli("add", "p", "Key", "--body", "token = ghp_abcdefghijklmnopqrstuvwxyz0123456789")
    assert "GitHub token" in secret.err and "ghp_" not in secret.err + secret.out


def test_usage_errors_exit_2(cli) -> None:
    cli("init")
    assert cli("add").code == 2
    for args in (
        ["add", "p", "X", "--body", "b", "--importance", "7"],
        ["add", "p", "X", "--body", "b", "--expires", "2024-13-01"],
        ["add", "p", "X", "--body", "b", "--body-file", "-"],
        ["add", "p", "X"],
        ["ls", "--status", "bogus"],
        ["update", "p/x"],
    ):
        res = cli(*args, "--json")
        assert res.code == 2 and res.json["error"]["code"] == "usage", args
    res = cli("frobnicate", "--json")
    assert res.code == 2 and res.json["error"]["code"] == "usage"


def test_body_from_file_and_stdin(cli, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    cli("init")
    body = tmp_path / "body.md"
    body.write_text("from a file\n")
    assert cli("add", "p", "File", "--body-file", str(body)).code == 0
    import io

    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO("来自标准输入\n".encode())))
    assert cli("add", "p", "Stdin", "--body-file", "-").code == 0
    assert "来自标准输入" in cli("show", "p/stdin").out
    bad = tmp_path / "bad.bin"
    bad.write_bytes(b"\xff\xfe\x00\x01")
    res = cli("add", "p", "Bin", "--body-file", str(bad))
    assert res.code == 1 and "binary" in res.err


def test_ls_lists_nested_and_filters_status(cli, tmp_path: Path) -> None:
    cli("init")
    cli("add", "a", "Top", "--body", "top level body")
    cli("add", "a/b", "Nested", "--body", "nested body text")
    p = tmp_path / "memory/a/b/nested.md"
    p.write_text(p.read_text().replace("status: active", "status: expired"))
    ids = [e["id"] for e in cli("ls", "a", "--json").json["data"]["entries"]]
    assert ids == ["a/b/nested", "a/top"]
    assert [e["id"] for e in cli("ls", "--status", "expired", "--json").json["data"]["entries"]] == ["a/b/nested"]


def test_index_check_exit_codes_and_fix(cli, tmp_path: Path) -> None:
    cli("init")
    cli("add", "p", "One", "--body", "one")
    (tmp_path / "memory/p/INDEX.md").write_text("# p\n\n| Title | Status |\n")
    res = cli("index", "check", "--json")
    assert res.code == 1 and res.json["ok"] is False and res.json["error"]["code"] == "index_drift"
    assert res.json["data"]["problems"]
    assert cli("index", "check", "--fix").code == 0
    assert cli("index", "check").code == 0


def test_edit_validates_and_keeps_unsaved_text(cli, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    cli("init")
    cli("add", "p", "One", "--body", "original body")
    before = tree_bytes(tmp_path / "memory")
    monkeypatch.setenv(
        "EDITOR",
        f"{sys.executable} -c \"import sys,pathlib; p=pathlib.Path(sys.argv[1]); p.write_text(p.read_text().replace('status: active','status: nonsense'))\"",
    )
    monkeypatch.setenv("MEMSEARCH_TUI_DATA_DIR", str(tmp_path / "data"))
    res = cli("edit", "p/one")
    assert res.code == 1 and "'status' must be one of" in res.err and "kept in" in res.err
    kept = Path(res.err.split("kept in ")[1].strip())
    assert "nonsense" in kept.read_text()
    assert kept.parent == tmp_path / "data" / "unsaved" and kept.name.endswith("-one.md")  # not /tmp
    assert tree_bytes(tmp_path / "memory") == before
    monkeypatch.setenv(
        "EDITOR",
        f"{sys.executable} -c \"import sys,pathlib; p=pathlib.Path(sys.argv[1]); p.write_text(p.read_text().replace('original','edited'))\"",
    )
    assert cli("edit", "p/one").code == 0
    assert "edited body" in cli("show", "p/one").out


def test_agent_memory_is_refused_as_root(cli, tmp_path: Path) -> None:
    ws = tmp_path / "ws"
    (ws / ".git").mkdir(parents=True)
    (ws / "memory").mkdir()
    res = cli("init", "--json", root=ws / "memory")
    assert res.code == 1 and res.json["error"]["code"] == "agent_memory"
    claude = tmp_path / "agent"
    claude.mkdir()
    (claude / "MEMORY.md").write_text("- a fact\n")
    assert cli("init", root=claude).code == 1
    assert cli("init", root=claude / "MEMORY.md").code == 1
    assert cli("init", root=tmp_path / "proj/.memsearch/memory").code == 1
    assert not (claude / "INDEX.md").exists()


def test_installed_console_script_runs_without_traceback(tmp_path: Path) -> None:
    exe = Path(sys.executable).with_name("memsearch-tui")
    env = {**os.environ, "MEMSEARCH_TUI_MEMORY_ROOT": str(tmp_path / "m")}
    subprocess.run([str(exe), "init"], env=env, check=True, capture_output=True)
    bad = tmp_path / "m/p/bad.md"
    bad.parent.mkdir()
    bad.write_bytes(b"---\ntitle: [\n---\n")
    proc = subprocess.run([str(exe), "show", "p/bad"], env=env, capture_output=True, text=True)
    assert proc.returncode == 1 and "Traceback" not in proc.stderr
    assert f"{bad}: line 3 malformed YAML frontmatter" in proc.stderr
    proc = subprocess.run([str(exe), "ls", "--json"], env=env, capture_output=True, text=True)
    assert json.loads(proc.stdout)["data"]["entries"][0]["error"]


def test_show_records_access_without_touching_anything_else(cli, tmp_path: Path) -> None:
    from memsearch_tui.engine.store import access

    cli("init")
    path = tmp_path / "memory/bad/anchors.md"
    path.parent.mkdir(parents=True)
    original = "---\ntitle: anchors\nbase: &b {a: 1}\nother: *b\n# a comment to keep\ntags: [x, y]\n---\nbody\n"
    path.write_text(original)
    assert cli("show", "bad/anchors").code == 0
    assert path.read_text() == original  # a read never writes the entry
    assert access.last_read(tmp_path / "memory") == {"bad/anchors": "2026-11-30"}
    assert cli("show", "bad/anchors").code == 0
    assert path.read_text() == original


@pytest.mark.parametrize(
    "args",
    [
        ["add", "--help"],
        ["ls", "--help"],
        ["index", "check", "--help"],
        ["add"],
        ["add", "x", "y", "--bodyy", "z"],
        ["ls", "--status", "bogus"],
        ["--json", "add"],
    ],
)
def test_a_run_building_only_its_command_says_what_the_full_app_says(
    args: list[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """`run` registers only the invoked top-level command; help and usage errors stay the same."""
    from memsearch_tui.cli import app as cli_app

    full_args = ["--memory-root", str(tmp_path / "m"), *args]
    mine = run_cli(*full_args)
    build = cli_app.build_app
    monkeypatch.setattr(cli_app, "build_app", lambda modules, only=None: build(cli_app.ALL_MODULES))
    theirs = run_cli(*full_args)
    assert theirs.code == mine.code
    assert (mine.out, mine.err) == (theirs.out, theirs.err)
