"""A proposal file shipped in the repository may only target its task's resolved output
file: anything else is listed as tampered, never read, diffed or accepted (--force too)."""

from __future__ import annotations

import json

import pytest

from memsearch_tui.engine.core.errors import Refused
from memsearch_tui.engine.maintenance.doctor import doctor
from memsearch_tui.engine.review import proposals
from tests.maintenance.conftest import env  # noqa: F401  (fixture)
from tests.maintenance.test_cli import cli, js

SECRET = "BASHRC-SECRET-55e1"


def shipped(env, pid: str, **over) -> None:  # noqa: F811
    """A proposal file as a repository could ship it."""
    data = {
        "id": pid,
        "platform": "codex",
        "task": "project_review",
        "target": str(env.mem / "PROJECT.md"),
        "target_digest": "missing",
        "content": "pwned\n",
        "reason": "looks harmless",
        "input_digest": "x",
        "created": "2026-11-30T10:00:00Z",
        **over,
    }
    folder = env.mem / "proposals"
    folder.mkdir(exist_ok=True)
    (folder / f"{pid}.json").write_text(json.dumps(data), encoding="utf-8")


@pytest.fixture
def victim(env):  # noqa: F811
    bashrc = env.home / ".bashrc"
    bashrc.write_text(f"export X={SECRET}\n", encoding="utf-8")
    (env.project / ".git" / "hooks").mkdir()
    return bashrc


def test_proposal_outside_the_project_is_refused_and_never_read(env, victim):  # noqa: F811
    shipped(env, "20261130-evil", target=str(victim), target_digest=proposals.file_digest(victim))
    listed = js(cli(env, "proposals", "list", "--json"))["data"]["proposals"]
    assert listed[0]["tampered"].startswith("tampered proposal 20261130-evil")
    text = cli(env, "proposals", "list").stdout
    assert "[TAMPERED]" in text and "'~/.bashrc'" in text and str(env.home) not in text  # from ~, as the app says it
    diff = cli(env, "proposals", "diff", "20261130-evil", "--json")
    assert diff.exit_code == 1 and js(diff)["error"]["code"] == "tampered_proposal"
    for args in (("accept", "20261130-evil"), ("accept", "20261130-evil", "--force")):
        r = cli(env, "proposals", *args, "--json")
        assert r.exit_code == 1 and js(r)["error"]["code"] == "tampered_proposal"
    show = cli(env, "proposals", "show", "20261130-evil").stdout
    assert "TAMPERED" in show
    for out in (text, show):  # the flag, then the reason without "tampered proposal ID" again
        assert out.lower().count("tampered") == 1 and out.count("20261130-evil") == 1, out
    for out in (text, show, diff.stdout):
        assert SECRET not in out
    prop = proposals.get(env.project, "20261130-evil")
    assert proposals.current_text(prop) == "" and proposals.target_changed(prop) is False  # never read
    assert victim.read_text(encoding="utf-8") == f"export X={SECRET}\n"
    checks = doctor(env.project, env.store, home=env.home)
    assert any(c.area == "proposals" and c.status == "problem" and "20261130-evil" in c.message for c in checks)
    assert cli(env, "proposals", "reject", "20261130-evil").exit_code == 0  # rejecting is always allowed


@pytest.mark.parametrize("folder", ["notes", "笔记 私人"])
def test_the_cli_says_a_tampered_reason_from_home_as_the_app_does_and_never_its_secret(env, folder):  # noqa: F811
    """``proposals list`` and ``show`` printed the reason with the full path (``/root/…``)
    while the app shows it from ``~``: both now print ``proposal_flag``'s words. A token in
    the target's name is masked; ``--json`` keeps the engine's exact reason (a script's)."""
    from memsearch_tui.engine.api.proposals import project_proposal, proposal_flag

    token = "ghp_" + "A1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q7r8"
    target = env.home / folder / f"日记 {token}.md"
    shipped(env, "20261130-home", target=str(target))
    flag, why = proposal_flag(project_proposal(proposals.list_all(env.project)[0]))  # what the app draws
    assert flag == "TAMPERED" and f"'~/{folder}/日记 " in why and str(env.home) not in why
    listed = cli(env, "proposals", "list").stdout
    show = cli(env, "proposals", "show", "20261130-home").stdout
    for out in (listed, show):
        assert "TAMPERED" in out and f"it targets '~/{folder}/日记 [redacted: " in out, out
        assert str(env.home) not in out and token not in out, out
        assert "writes only ~/" not in out and f"writes only {env.mem / 'PROJECT.md'}" in out  # outside ~: whole
    assert f"target:   ~/{folder}/日记 [redacted: " in show
    data = js(cli(env, "proposals", "list", "--json"))["data"]["proposals"][0]
    assert str(env.home / folder) in data["tampered"] and data["target"].startswith(str(env.home))
    assert token not in json.dumps(data)


@pytest.mark.parametrize(
    "over",
    [
        {"target": "{project}/.git/hooks/pre-commit"},  # inside the project, but not the task's output
        {"target": "{mem}/USER.md"},  # another task's output
        {"task": "user_profile", "target": "{mem}/PROJECT.md"},
        {"platform": "../../x"},
        {"task": "rm -rf"},
        {"target": "{mem}/../.memsearch/../.git/hooks/pre-commit"},
    ],
)
def test_other_targets_inside_the_project_are_tampered_too(env, victim, over):  # noqa: F811
    values = {k: v.format(project=env.project, mem=env.mem) for k, v in over.items()}
    shipped(env, "20261130-x", **values)
    with pytest.raises(Refused, match="tampered proposal"):
        proposals.accept(env.project, "20261130-x", memory_root=env.store, force=True)
    assert not (env.project / ".git" / "hooks" / "pre-commit").exists()
    assert not (env.mem / "USER.md").exists()


def test_a_genuine_proposal_still_applies(env):  # noqa: F811
    target = env.mem / "PROJECT.md"
    shipped(env, "20261130-ok", target=str(target))
    prop = proposals.accept(env.project, "20261130-ok", memory_root=env.store)
    assert prop.status == "accepted" and target.read_text(encoding="utf-8") == "pwned\n"


def test_malformed_proposal_fields_are_unreadable_not_a_crash(env):  # noqa: F811
    shipped(env, "20261130-bad", target=["/etc/passwd"])
    assert proposals.list_all(env.project) == []
    r = cli(env, "proposals", "accept", "20261130-bad", "--json")
    assert r.exit_code == 1 and "unreadable proposal" in js(r)["error"]["message"]


@pytest.mark.parametrize(
    "payload",
    [
        {"kind": "lifecycle", "payload": {"moves": [{"action": "trash", "id": "../../home/.bashrc"}]}},
        {"kind": "lifecycle", "payload": {"moves": "all"}},
        {"kind": "split", "payload": {"category": "notes", "moves": {"notes/a": "/etc/cron.d/x"}}},
        {"kind": "shell", "payload": {}},
    ],
)
def test_store_proposals_may_only_name_store_entries(tmp_path, payload):
    from memsearch_tui.engine.review import store_proposals
    from memsearch_tui.engine.store.store import Store

    store = Store(tmp_path / "memory")
    store.init()
    folder = store_proposals.proposals_dir(store.root)
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "p-1.json").write_text(json.dumps({"id": "p-1", "status": "pending", **payload}), encoding="utf-8")
    with pytest.raises(Refused, match="tampered proposal p-1") as err:
        store_proposals.accept(store, "p-1")
    assert err.value.code == "tampered_proposal"


def test_an_agent_rewrite_may_only_target_project_or_user_md(env, victim):  # noqa: F811
    """The MCP server's `propose` makes `agent_edit` proposals; a shipped one naming any other
    file is tampered, whatever its platform says."""
    shipped(env, "20261130-agent", platform="mcp:evil", task="agent_edit", target=str(victim))
    r = cli(env, "proposals", "accept", "20261130-agent", "--force", "--json")
    assert r.exit_code == 1 and js(r)["error"]["code"] == "tampered_proposal"
    assert SECRET in victim.read_text()  # untouched
    shipped(env, "20261130-agent-ok", platform="mcp:claude", task="agent_edit")
    assert cli(env, "proposals", "accept", "20261130-agent-ok", "--force").exit_code == 0
    assert (env.mem / "PROJECT.md").read_text() == "pwned\n"  # a person accepted it: it lands


@pytest.mark.parametrize("toward", ["project", "victim"])
def test_a_broken_config_leaves_a_proposal_unchecked_not_tampered(env, victim, toward):  # noqa: F811
    """A broken ``.memsearch.toml`` made doctor call a pending proposal "tampered …: its
    task's output file is refused: <toml error>". Its target cannot be verified, so it is
    still never read nor applied, but doctor names the config file, not the proposal."""
    target = env.mem / "PROJECT.md" if toward == "project" else victim
    shipped(env, "20261130-rewrite", target=str(target), target_digest=proposals.file_digest(target))
    (env.project / ".memsearch.toml").write_text("[plugins.codex.project_review]\nenabled = [\n", encoding="utf-8")
    checks = doctor(env.project, env.store, home=env.home)
    about = [c for c in checks if c.area == "proposals" and "20261130-rewrite" in c.message]
    assert [c.status for c in about] == ["warn"], about
    assert "not checked until the config loads" in about[0].message and "tampered" not in about[0].message
    assert "reject" not in about[0].fix
    assert any(c.area == "config" and c.status == "problem" and ".memsearch.toml" in c.message for c in checks)
    text = cli(env, "proposals", "list").stdout
    assert "[NOT CHECKED]" in text and "TAMPERED" not in text
    show = cli(env, "proposals", "show", "20261130-rewrite").stdout
    listed = js(cli(env, "proposals", "list", "--json"))["data"]["proposals"][0]["tampered"]
    for out in (text, show, listed):  # said once ("[NOT CHECKED] not checked until…" said it twice)
        assert out.lower().count("not checked") == 1 and "until the config loads" in out, out
        assert out.count("20261130-rewrite") == 1, out  # the row names its id once
        assert "invalid TOML" in out
    r = cli(env, "proposals", "accept", "20261130-rewrite", "--force", "--json")
    assert r.exit_code == 1 and js(r)["error"]["code"] == "config_unreadable"
    assert ".memsearch.toml" in js(r)["error"]["message"]
    diff = cli(env, "proposals", "diff", "20261130-rewrite")
    assert diff.exit_code == 1 and SECRET not in text + diff.stdout + diff.stderr  # never read
    assert not (env.mem / "PROJECT.md").exists() and SECRET in victim.read_text(encoding="utf-8")
