"""A tampered proposal's target is shown as its file writes it, not joined to .memsearch/.

A proposal file kept its target relative to the memsearch folder; one a repository ships
with ``~/.bashrc`` or ``../../etc/passwd`` was refused (tampered), but every face showed the
join: ``…/proj/.memsearch/~/.bashrc`` (a path nobody wrote, read as the project's own file)
and ``…/.memsearch/../../../etc/passwd`` (``..`` unresolved). Now ``proposals list``,
``show`` and ``--json`` name the target exactly as written (quoted, escapes shown, secrets
masked) beside the refusal; it stays refused. Real proposal files in a temp project.
"""

from __future__ import annotations

import json

import pytest

from tests.maintenance.conftest import env  # noqa: F401  (fixture)
from tests.maintenance.test_cli import cli, js
from tests.security.test_proposal_tamper import shipped

TOKEN = "ghp_" + "A1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q7r8"
WRITTEN = {
    "tilde-en": "~/.bashrc",
    "tilde-zh": "~/笔记 私人/日记.md",
    "dots-en": "../../../etc/passwd",
    "dots-zh": "../../笔记/周报.md",
    "dots-inside": "sub/../../PROJECT.md",  # resolves to the project's own PROJECT.md: not the task's file
}
AS_WRITTEN = "(as its proposal file writes it"


@pytest.mark.parametrize("key", list(WRITTEN))
def test_the_cli_names_a_refused_target_as_its_file_writes_it(env, key):  # noqa: F811
    written = WRITTEN[key]
    (env.home / ".bashrc").write_text("export KEEP=1\n", encoding="utf-8")
    shipped(env, "20261130-odd", target=written)
    joined = str(env.mem / written)
    listed = cli(env, "proposals", "list").stdout
    show = cli(env, "proposals", "show", "20261130-odd").stdout
    for out in (listed, show):
        assert f"[TAMPERED] it targets {written!r} {AS_WRITTEN}), but" in out or (
            f"TAMPERED: it targets {written!r} {AS_WRITTEN}), but" in out
        ), out
        assert joined not in out and ".memsearch/~" not in out and ".memsearch/.." not in out, out
    assert f"target:   {written!r} {AS_WRITTEN}: refused)" in show, show
    data = js(cli(env, "proposals", "list", "--json"))["data"]["proposals"][0]
    assert data["target"] == written and repr(written) in data["tampered"], data
    r = cli(env, "proposals", "accept", "20261130-odd", "--force", "--json")
    assert r.exit_code == 1 and js(r)["error"]["code"] == "tampered_proposal"  # still refused
    assert (env.home / ".bashrc").read_text(encoding="utf-8") == "export KEEP=1\n"
    assert not (env.project / "PROJECT.md").exists()


def test_a_written_target_is_escaped_and_masked_where_it_is_shown(env):  # noqa: F811
    written = f"~/笔记/{TOKEN}\x1b]0;pwned.md"
    shipped(env, "20261130-odd", target=written)
    for args in (("proposals", "list"), ("proposals", "show", "20261130-odd")):
        out = cli(env, *args).stdout
        assert "'~/笔记/[redacted: " in out and TOKEN not in out and "\x1b" not in out, out
        assert "\\x1b]0;pwned.md'" in out, out  # the escape shown, not sent
    data = js(cli(env, "proposals", "list", "--json"))["data"]["proposals"][0]
    assert TOKEN not in json.dumps(data)


def test_a_plain_or_absolute_target_is_shown_as_before(env):  # noqa: F811
    """Only a target that joining misleads is shown as written: a plain relative one (the
    engine keeps PROJECT.md relative) is the file it names; an absolute one from ``~``."""
    shipped(env, "20261130-user", target="USER.md")  # another task's file, in the folder
    shipped(env, "20261130-abs", target=str(env.home / "notes.md"))
    listed = cli(env, "proposals", "list").stdout
    assert f"it targets {str(env.mem / 'USER.md')!r}, but" in listed, listed
    assert "it targets '~/notes.md', but" in listed and AS_WRITTEN not in listed, listed
