"""Property: install → uninstall gives back every host file byte for byte.

Generated settings files vary whitespace (CRLF, tabs, none), key order, duplicate keys,
``\\u`` escapes, number spellings the JSON round-trip would change (``1e999``,
``1.0000000000000001``, ``-0``), existing hooks and servers. Uninstall is run both with
the backup in place and with it deleted: taking our entries out must not need it. A file
install refuses (an odd shape) must come out unchanged too.
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from memsearch_tui.engine.core.errors import MemsearchError
from memsearch_tui.engine.hosts import Launch, apply, plan_install, plan_uninstall
from tests.hosts.conftest import files_of

EXAMPLES = 100  # per host: 200 generated pairs of files in all


@pytest.fixture(autouse=True)
def _no_fsync(monkeypatch: pytest.MonkeyPatch) -> None:
    """Durability is not what this test is about (the fsyncs of ~2,000 atomic writes)."""
    monkeypatch.setattr(os, "fsync", lambda fd: None)


WS = st.sampled_from(["", " ", "  ", "\n", "\r\n", "\t", "\n  ", "\r\n\t\t", "\n\n"])
NUMBER = st.sampled_from(["0", "-0", "1e999", "1.0000000000000001", "1E+2", "-12.5e-3", "42"])
STRING = st.sampled_from(['"a"', '"caf\\u00e9"', '"\\ud83d\\ude00"', '"tab\\there"', '"é"', '"\\"q\\""', '"\\/"', '""'])
KEY = st.sampled_from(['"model"', '"env"', '"x"', '"dup"', '"\\u00fcn"', '"permissions"'])
SCALAR = st.one_of(NUMBER, STRING, st.sampled_from(["true", "false", "null"]))


@st.composite
def joined(draw: st.DrawFn, items: list[str], open_: str, close: str) -> str:
    if not items:
        return open_ + draw(WS) + close
    out = open_ + draw(WS)
    for i, item in enumerate(items):
        out += item + draw(WS)
        if i < len(items) - 1:
            out += "," + draw(WS)
    return out + close


@st.composite
def member(draw: st.DrawFn, key: st.SearchStrategy[str], value: st.SearchStrategy[str]) -> str:
    return draw(key) + draw(WS) + ":" + draw(WS) + draw(value)


def obj(key: st.SearchStrategy[str], value: st.SearchStrategy[str], max_size: int = 4) -> st.SearchStrategy[str]:
    return st.lists(member(key, value), max_size=max_size).flatmap(lambda ms: joined(ms, "{", "}"))


def arr(value: st.SearchStrategy[str], max_size: int = 3) -> st.SearchStrategy[str]:
    return st.lists(value, max_size=max_size).flatmap(lambda xs: joined(xs, "[", "]"))


VALUE = st.recursive(SCALAR, lambda inner: st.one_of(arr(inner), obj(KEY, inner)), max_leaves=6)
HANDLER = obj(st.sampled_from(['"type"', '"command"', '"timeout"']), st.one_of(STRING, NUMBER), 3)
GROUP = obj(st.sampled_from(['"matcher"', '"hooks"']), st.one_of(STRING, arr(HANDLER, 2)), 2)
EVENT = st.sampled_from(['"Stop"', '"SessionEnd"', '"PostToolUse"'])
HOOKS = obj(EVENT, arr(GROUP, 2), 3)
SERVER = obj(st.sampled_from(['"command"', '"args"', '"type"']), st.one_of(STRING, arr(STRING, 2)), 3)
SERVERS = obj(st.sampled_from(['"github"', '"docs"', '"dup"']), SERVER, 2)
TOP_KEY = st.sampled_from(['"model"', '"hooks"', '"mcpServers"', '"x"', '"dup"', '"caf\\u00e9"'])


@st.composite
def settings_text(draw: st.DrawFn) -> str:
    members = []
    for _ in range(draw(st.integers(0, 5))):
        key = draw(TOP_KEY)
        value = {'"hooks"': HOOKS, '"mcpServers"': SERVERS}.get(key, VALUE)
        members.append(draw(member(st.just(key), value)))
    return draw(WS) + draw(joined(members, "{", "}")) + draw(st.sampled_from(["", "\n", "\r\n"]))


TOML = st.lists(
    st.sampled_from(
        [
            "# a comment",
            'model = "gpt-5"  # trailing',
            "approval_policy = 'never'",
            "[mcp_servers.docs]",
            'command = "docs-mcp"',
            "[profiles.x]",
            "n = 1_000",
            "",
        ]
    ),
    max_size=6,
    unique=True,
)


def _toml(lines: list[str], newline: str) -> str:
    """Unique lines from the pool always make valid TOML (no key or table twice)."""
    return newline.join(lines) + (newline if lines else "")


def _round_trip(tmp: Path, host: str, drop_backup: bool) -> None:
    project, data = tmp / "proj", tmp / "data"
    launch = Launch(("/opt/venv/bin/memsearch-tui",), ("--memory-root", "/srv/memory"))
    before = files_of(project)
    try:
        p = plan_install(host, "project", project=project, home=tmp / "home", data_dir=data, launch=launch)
    except MemsearchError:
        assert files_of(project) == before  # refused: nothing written
        return
    apply(p, data_dir=data)
    if drop_backup:
        for backup in project.rglob("*.memsearch-tui.bak"):
            backup.unlink()
    u = plan_uninstall(host, "project", project=project, home=tmp / "home", data_dir=data, launch=launch)
    apply(u, data_dir=data)
    after = files_of(project)
    assert after == before, {k: (before.get(k), after.get(k)) for k in set(before) | set(after)}


@pytest.mark.slow
@settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(settings=settings_text(), mcp=settings_text(), drop_backup=st.booleans())
def test_claude_code_install_then_uninstall_is_byte_identical(
    tmp_path: Path, settings: str, mcp: str, drop_backup: bool
) -> None:
    tmp = tmp_path / "case"
    shutil.rmtree(tmp, ignore_errors=True)
    (tmp / "proj" / ".claude").mkdir(parents=True)
    (tmp / "proj" / ".claude" / "settings.json").write_bytes(settings.encode("utf-8"))
    (tmp / "proj" / ".mcp.json").write_bytes(mcp.encode("utf-8"))
    _round_trip(tmp, "claude-code", drop_backup)


@pytest.mark.slow
@settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(hooks=settings_text(), toml=TOML, crlf=st.booleans(), drop_backup=st.booleans())
def test_codex_install_then_uninstall_is_byte_identical(
    tmp_path: Path, hooks: str, toml: list[str], crlf: bool, drop_backup: bool
) -> None:
    tmp = tmp_path / "case"
    shutil.rmtree(tmp, ignore_errors=True)
    (tmp / "proj" / ".codex").mkdir(parents=True)
    (tmp / "proj" / ".codex" / "hooks.json").write_bytes(hooks.encode("utf-8"))
    (tmp / "proj" / ".codex" / "config.toml").write_bytes(_toml(toml, "\r\n" if crlf else "\n").encode("utf-8"))
    _round_trip(tmp, "codex", drop_backup)
