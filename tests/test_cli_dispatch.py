"""The CLI builds only the command group a run needs; the map of commands must stay complete."""

from __future__ import annotations

import os

from memsearch_tui.cli.app import ALL_MODULES, COMMAND_MODULES, build_app, modules_for


def test_every_registered_command_is_in_the_dispatch_map() -> None:
    app = build_app(ALL_MODULES)
    names = {c.name or c.callback.__name__ for c in app.registered_commands}
    names |= {g.name for g in app.registered_groups}
    assert names == set(COMMAND_MODULES)
    for module in ALL_MODULES:
        single = build_app([module])
        own = {c.name or c.callback.__name__ for c in single.registered_commands} | {
            g.name for g in single.registered_groups
        }
        assert all(COMMAND_MODULES[n] == module for n in own)


def test_global_options_are_skipped_when_finding_the_command() -> None:
    assert modules_for(["--memory-root", "ls", "add", "x"]) == ["store_cmds"]
    assert modules_for(["--json", "--project", "/p", "vectors", "status"]) == ["search_cmds"]
    assert modules_for(["--help"]) == ALL_MODULES
    assert modules_for(["frobnicate"]) == ALL_MODULES
    assert modules_for([]) == []


def test_the_hook_is_only_a_leading_run_due() -> None:
    from memsearch_tui.cli.argv import command_word, is_hook

    assert is_hook(["--run-due"]) and is_hook(["--memory-root", "/m", "--run-due", "--hook", "claude-code"])
    assert is_hook(["--hook", "codex", "--run-due"])
    assert not is_hook(["search", "-s", "grep", "--", "--run-due"])
    assert not is_hook(["search", "--run-due"]) and not is_hook(["--", "--run-due"])
    assert command_word(["--project", "/p", "--json", "trash", "list"]) == "trash"
    assert command_word(["--", "search"]) is None


def test_a_search_for_the_text_run_due_is_a_search(tmp_path, capsys) -> None:
    from memsearch_tui.cli import main
    from memsearch_tui.engine.store.store import Store

    store = Store(tmp_path / "memory")
    store.init()
    store.add("notes", "Hook flags", "Agents call memsearch-tui with --run-due after a session.\n")
    try:
        main(["--memory-root", str(store.root), "--project", str(tmp_path), "search", "-s", "index", "--", "--run-due"])
    except SystemExit as exc:
        assert exc.code == 0
    out = capsys.readouterr().out
    assert "notes/hook-flags" in out


def test_version_is_printed_before_any_command(tmp_path) -> None:
    import subprocess
    import sys

    from memsearch_tui import __version__
    from memsearch_tui.cli.argv import wants_version

    for flag in ("--version", "-V"):
        out = subprocess.run(
            [sys.executable, "-c", "from memsearch_tui.cli import main; main()", flag],
            capture_output=True,
            text=True,
            check=False,
        )
        assert out.returncode == 0 and out.stdout.strip() == f"memsearch-tui {__version__}"
    assert not wants_version(["search", "-s", "grep", "--", "--version"])
    assert not wants_version(["search", "--version"])  # a command's own option, not ours


def test_the_app_is_launched_with_grpc_quiet(tmp_path, monkeypatch) -> None:
    """gRPC's C core writes to fd 2, straight over the app's screen: a Milvus Lite connection
    left idle two minutes (the app keeps the index it built at open) printed "Got goaway …
    too_many_pings" across its top rows. The launcher silences it unless the user chose a
    level; the app is a stand-in here (what it draws is not what this is about)."""
    import memsearch_tui.tui.app as tui_app
    from memsearch_tui.cli.output import Settings
    from memsearch_tui.cli.tui_launch import launch

    seen: list[str | None] = []
    monkeypatch.setattr(tui_app, "run_app", lambda **_kw: seen.append(os.environ.get("GRPC_VERBOSITY")))
    monkeypatch.delenv("GRPC_VERBOSITY", raising=False)
    monkeypatch.setenv("MEMSEARCH_TUI_FACE", "cli")  # launch sets it; monkeypatch puts it back
    launch(Settings(tmp_path / "memory", tmp_path))
    monkeypatch.setenv("GRPC_VERBOSITY", "DEBUG")  # the user's own choice stands
    launch(Settings(tmp_path / "memory", tmp_path))
    assert seen == ["NONE", "DEBUG"]


def test_every_command_runs_with_grpc_quiet(monkeypatch, capsys) -> None:
    """The commands too, not only the app: `vectors index` on a 4,800-turn journal printed
    gRPC's "Got goaway … too_many_pings" lines between its progress and its summary."""
    import pytest

    from memsearch_tui.cli import main

    monkeypatch.setenv("MEMSEARCH_TUI_FACE", "cli")  # main sets it; monkeypatch puts it back
    seen = []
    for chosen in (None, "DEBUG"):  # the user's own choice stands
        if chosen is None:
            monkeypatch.delenv("GRPC_VERBOSITY", raising=False)
        else:
            monkeypatch.setenv("GRPC_VERBOSITY", chosen)
        with pytest.raises(SystemExit):
            main(["doctor", "--help"])
        seen.append(os.environ.get("GRPC_VERBOSITY"))
    assert seen == ["NONE", "DEBUG"]


def test_an_argument_that_is_not_utf8_is_named_in_a_short_line() -> None:
    """The usage error quotes the bad argument around its first bad byte, not all of it (a
    128 KB query was echoed whole); a short one is shown whole, bytes as \\xNN."""
    from memsearch_tui.cli import _undecodable

    assert _undecodable(["search", os.fsdecode(b"deploy \xff x")]) == "deploy \\xff x"
    assert _undecodable(["search", "部署"]) is None
    long = os.fsdecode("上周 deploy ".encode() * 10_000 + b"\xed\xa0\x80" + b"tail " * 10_000)
    shown = _undecodable(["search", long])
    assert shown is not None and len(shown) < 200 and "\\xed\\xa0\\x80tail" in shown
    assert shown.startswith("…") and shown.endswith("…")
