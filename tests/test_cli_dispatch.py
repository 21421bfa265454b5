"""The CLI builds only the command group a run needs; the map of commands must stay complete."""

from __future__ import annotations

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
