"""``proposals accept --edit``: an edit that is not UTF-8 is refused in one line and kept in
the data folder's ``unsaved/`` (it was lost: the decode error was all that was said)."""

from __future__ import annotations

import sys

from tests.maintenance.conftest import env  # noqa: F401  (fixture)
from tests.maintenance.test_cli import cli, js
from tests.security.test_proposal_tamper import shipped


def test_an_edit_that_is_not_utf8_is_kept_not_lost(env, monkeypatch):  # noqa: F811
    shipped(env, "20261130-edit", target=str(env.mem / "PROJECT.md"))
    editor = env.tmp / "editor.py"
    editor.write_text("import sys, pathlib\npathlib.Path(sys.argv[1]).write_bytes('项目 '.encode('gbk'))\n")
    monkeypatch.setenv("EDITOR", f"{sys.executable} {editor}")
    monkeypatch.delenv("VISUAL", raising=False)
    monkeypatch.setenv("MEMSEARCH_TUI_DATA_DIR", str(env.tmp / "data"))
    r = cli(env, "proposals", "accept", "20261130-edit", "--edit", "--json")
    message = js(r)["error"]["message"]
    assert r.exit_code == 1 and "not UTF-8" in message and "nothing accepted" in message, message
    kept = list((env.tmp / "data" / "unsaved").iterdir())
    assert [k.name.endswith("-PROJECT.md") for k in kept] == [True] and str(kept[0]) in message
    assert kept[0].read_bytes() == "项目 ".encode("gbk")
    assert not (env.mem / "PROJECT.md").exists()
