"""Issue 19 item 6: the installer never loses a byte of a host's file, and every odd file
gives a named error. Each test here failed on the json.dumps installer it replaces."""

from __future__ import annotations

import json
import os
import shutil
import stat
import subprocess
import sys
from pathlib import Path

import pytest

from memsearch_tui.cli import install_cmds
from tests.hosts.conftest import HostEnv, snapshot

ODD = (
    '{\r\n\t"model": "opus",\r\n\t"big": 1e999,\r\n\t"precise": 1.0000000000000001,\r\n'
    '\t"dup": 1, "dup": 2,\r\n\t"name": "caf\\u00e9 \\ud83d\\ude00",\r\n\t"hooks": {\r\n'
    '\t\t"Stop": [ ]\r\n\t}\r\n}\r\n'
)


def _settings(env: HostEnv, text: str) -> Path:
    path = env.project / ".claude" / "settings.json"
    path.parent.mkdir(exist_ok=True)
    path.write_bytes(text.encode("utf-8"))
    return path


def test_install_keeps_number_spellings_escapes_duplicates_crlf_and_tabs(host_env: HostEnv) -> None:
    path = _settings(host_env, ODD)
    assert host_env.cli("install", "claude-code", "--yes")[0] == 0
    text = path.read_bytes().decode("utf-8")
    for kept in ('"big": 1e999,', '"precise": 1.0000000000000001,', '"dup": 1, "dup": 2,', "caf\\u00e9 \\ud83d\\ude00"):
        assert kept in text
    assert "Infinity" not in text and "\n" not in text.replace("\r\n", "")  # CRLF everywhere, ours included
    assert '\t\t\t{\r\n\t\t\t\t"hooks": [' in text  # our group indented with the file's tabs
    assert json.loads(text)["hooks"]["Stop"][0]["hooks"][0]["async"] is True


def test_uninstall_gives_back_every_byte_even_without_the_backup(host_env: HostEnv) -> None:
    path = _settings(host_env, ODD)
    before = snapshot(host_env.project)
    assert host_env.cli("install", "claude-code", "--yes")[0] == 0
    path.with_name("settings.json.memsearch-tui.bak").unlink()  # the old uninstall then deleted settings.json
    code, out = host_env.cli("uninstall", "claude-code", "--yes")
    assert code == 0, out
    assert snapshot(host_env.project) == before


def test_a_second_uninstall_changes_nothing_and_says_so(host_env: HostEnv) -> None:
    path = _settings(host_env, ODD)
    assert host_env.cli("install", "claude-code", "--yes")[0] == 0
    assert host_env.cli("uninstall", "claude-code", "--yes")[0] == 0
    before = snapshot(host_env.project)
    code, out = host_env.cli("uninstall", "claude-code", "--yes")
    assert code == 0 and "nothing to remove" in out and "restored" not in out and "updated" not in out
    assert snapshot(host_env.project) == before and path.read_bytes() == ODD.encode()


def test_a_symlinked_settings_file_stays_a_link_and_its_target_changes(host_env: HostEnv, tmp_path: Path) -> None:
    dotfiles = tmp_path / "dotfiles"
    dotfiles.mkdir()
    target = dotfiles / "claude-settings.json"
    target.write_text('{\n  "model": "opus"\n}\n')
    link = host_env.home / ".claude" / "settings.json"
    link.parent.mkdir()
    link.symlink_to(target)
    assert host_env.cli("install", "claude-code", "--user", "--yes")[0] == 0
    assert link.is_symlink() and link.resolve() == target
    assert "--run-due" in target.read_text()
    assert host_env.cli("uninstall", "claude-code", "--user", "--yes")[0] == 0
    assert link.is_symlink() and target.read_text() == '{\n  "model": "opus"\n}\n'


def test_a_read_only_file_is_refused_with_a_message(host_env: HostEnv) -> None:
    path = _settings(host_env, '{"model": "opus"}\n')
    path.chmod(0o444)
    code, out = host_env.cli("--json", "install", "claude-code", "--yes")
    err = json.loads(out)["error"]
    assert code == 1 and err["code"] == "refused" and "read-only" in err["message"] and str(path) in err["message"]
    assert path.read_text() == '{"model": "opus"}\n' and stat.S_IMODE(path.stat().st_mode) == 0o444
    assert not (host_env.project / ".mcp.json").exists()  # nothing half-done


def test_an_edit_made_while_the_prompt_waits_is_never_overwritten(
    host_env: HostEnv, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = _settings(host_env, '{"model": "opus"}\n')

    def host_writes_meanwhile(diff: str, json_mode: bool, action: str) -> bool:
        path.write_text('{"model": "sonnet"}\n')  # Claude Code saved its settings while we asked
        return True

    monkeypatch.setattr(install_cmds, "_confirm", host_writes_meanwhile)
    code, out = host_env.cli("--json", "install", "claude-code")
    err = json.loads(out)["error"]
    assert code == 1 and err["code"] == "conflict" and "changed since the diff" in err["message"]
    assert path.read_text() == '{"model": "sonnet"}\n'
    assert not (host_env.project / ".mcp.json").exists()


def test_the_backup_keeps_the_original_mode(host_env: HostEnv) -> None:
    path = _settings(host_env, '{"model": "opus"}\n')
    path.chmod(0o600)
    assert host_env.cli("install", "claude-code", "--yes")[0] == 0
    backup = path.with_name("settings.json.memsearch-tui.bak")
    assert stat.S_IMODE(backup.stat().st_mode) == 0o600 and backup.read_text() == '{"model": "opus"}\n'
    assert stat.S_IMODE(path.stat().st_mode) == 0o600


def test_a_users_own_server_entry_is_neither_replaced_nor_removed(host_env: HostEnv) -> None:
    mine = '{\n  "mcpServers": {\n    "memsearch-tui": {"command": "/opt/my/memsearch-tui", "args": ["mcp"]}\n  }\n}\n'
    mcp = host_env.project / ".mcp.json"
    mcp.write_text(mine)
    code, out = host_env.cli("install", "claude-code", "--yes")
    assert code == 0 and "'mcpServers.memsearch-tui' is not one install wrote; left as it is" in out
    assert mcp.read_text() == mine
    code, out = host_env.cli("uninstall", "claude-code", "--yes")
    assert code == 0 and "left as it is" in out and mcp.read_text() == mine


def test_a_users_own_skill_file_is_left_alone(host_env: HostEnv) -> None:
    skill = host_env.project / ".claude" / "skills" / "memsearch-tui" / "SKILL.md"
    skill.parent.mkdir(parents=True)
    skill.write_text("my own notes\n")
    code, out = host_env.cli("install", "claude-code", "--yes")
    assert code == 0 and "not the skill install wrote; left as it is" in out
    assert skill.read_text() == "my own notes\n"
    assert host_env.cli("uninstall", "claude-code", "--yes")[0] == 0
    assert skill.read_text() == "my own notes\n"


def test_a_file_install_did_not_create_is_never_deleted(host_env: HostEnv) -> None:
    """A file that held only ``{}`` keeps ``{}``; the old uninstall deleted it."""
    path = _settings(host_env, "{}")
    assert host_env.cli("install", "claude-code", "--yes")[0] == 0
    path.with_name("settings.json.memsearch-tui.bak").unlink()
    assert host_env.cli("uninstall", "claude-code", "--yes")[0] == 0
    assert path.read_text() == "{}"


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("mcp_servers = 5\n", "'mcp_servers' is a number, not a table"),
        ('mcp_servers = "x"\n', "'mcp_servers' is a string, not a table"),
        ("mcp_servers = [1]\n", "'mcp_servers' is an array, not a table"),
        ('mcp_servers = { docs = { command = "d" } }\n', "cannot add [mcp_servers.memsearch-tui] to this file"),
        ("[broken\n", "not valid TOML"),
    ],
)
def test_an_odd_codex_config_gives_a_named_error(host_env: HostEnv, text: str, message: str) -> None:
    config = host_env.project / ".codex" / "config.toml"
    config.parent.mkdir()
    config.write_text(text)
    code, out = host_env.cli("--json", "install", "codex", "--yes")
    err = json.loads(out)["error"]
    assert code == 1 and message in err["message"] and str(config) in err["message"], out
    _uninstall_names_it_or_leaves_it(host_env, "codex", message)
    assert config.read_text() == text


def _uninstall_names_it_or_leaves_it(env: HostEnv, host: str, message: str) -> None:
    """Uninstall of a file it cannot read is the same named error; of one it can read but
    that holds nothing of ours, "nothing to remove" — never a traceback, never a write."""
    code, out = env.cli("--json", "uninstall", host, "--yes")
    reply = json.loads(out)
    if code == 1:
        assert message in reply["error"]["message"], out
    else:
        assert code == 0 and reply["data"]["written"] == [] and reply["data"]["removed"] == [], out


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ('{"hooks": {"Stop": [{"hooks": 5}]}}', "'hooks.Stop[0].hooks' is a number, not a list"),
        ('{"hooks": {"Stop": [7]}}', "'hooks.Stop[0]' is a number, not an object"),
        ('{"hooks": {"Stop": {"x": 1}}}', "'hooks.Stop' is an object, not a list"),
        ('{"hooks": {"Stop": [{"hooks": ["cmd"]}]}}', "'hooks.Stop[0].hooks[0]' is a string, not an object"),
        ('{"hooks": []}', "'hooks' is a list, not an object"),
        ("[1, 2]", "expected a JSON object at the top, found a list"),
        ('{"a": 1,}', "not valid JSON (expected a quoted key at line 1 column 9)"),
        ('{"a": NaN}', "not valid JSON"),
        ("[" * 5000 + "]" * 5000, "nested more than 200 levels deep"),
    ],
)
def test_an_odd_settings_file_gives_a_named_error(host_env: HostEnv, text: str, message: str) -> None:
    path = _settings(host_env, text)
    code, out = host_env.cli("--json", "install", "claude-code", "--yes")
    assert code == 1 and message in json.loads(out)["error"]["message"], out
    _uninstall_names_it_or_leaves_it(host_env, "claude-code", message)
    assert path.read_text() == text


def _dry_run_in_a_child(env: HostEnv) -> subprocess.CompletedProcess[str]:
    code = "import sys; from memsearch_tui.cli import main; main(sys.argv[1:])"
    return subprocess.run(
        [sys.executable, "-c", code, "--json", "install", "claude-code", "--dry-run"],
        cwd=env.project,
        env={**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)},
        capture_output=True,
        text=True,
        timeout=60,
    )


def test_a_fifo_or_a_dangling_link_gives_a_named_error_without_hanging(host_env: HostEnv, tmp_path: Path) -> None:
    """Run in a child with a timeout: the old installer blocked forever reading the FIFO."""
    settings = host_env.project / ".claude" / "settings.json"
    settings.parent.mkdir()
    os.mkfifo(settings)
    dangling = host_env.project / ".mcp.json"
    dangling.symlink_to(tmp_path / "missing.json")
    run = _dry_run_in_a_child(host_env)
    err = json.loads(run.stdout)["error"]
    assert run.returncode == 1 and "Traceback" not in run.stderr
    assert err["message"] == f"{settings}: is a FIFO (named pipe), not a regular file; not read; not changed"
    settings.unlink()
    run = _dry_run_in_a_child(host_env)
    assert run.returncode == 1 and "which does not exist" in json.loads(run.stdout)["error"]["message"]


def test_a_hook_that_only_looks_like_ours_is_named_and_left(host_env: HostEnv) -> None:
    """Installed with a store, uninstalled without it and without the record: nothing of
    the user's goes, and uninstall says which hooks it left."""
    assert host_env.cli("install", "claude-code", "--yes")[0] == 0
    shutil.rmtree(host_env.data)
    code, out = host_env.plain("uninstall", "claude-code", "--yes")
    assert code == 0 and "hooks.Stop[0], hooks.SessionEnd[0] run memsearch-tui but install has no record" in out
    assert "--run-due" in (host_env.project / ".claude" / "settings.json").read_text()
