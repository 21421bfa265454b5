"""Issue 31 item 11: ``--help`` shows the square brackets its texts hold (``[redacted]``,
``[tui] review``): Rich reads ``[word]`` as markup and dropped them, so "Replace a pattern by
[redacted]" printed as "Replace a pattern by  in a turn"."""

from __future__ import annotations

import re

import click
import pytest
import typer

from memsearch_tui.cli.app import app
from tests.helpers import run_cli

_BRACKETED = re.compile(r"\[[a-z][a-z _:=.-]*\]")  # escaped (``\\[``) or not: both must show


def _commands() -> list[tuple[list[str], click.Command]]:
    root = typer.main.get_command(app)
    out: list[tuple[list[str], click.Command]] = []

    def walk(path: list[str], cmd: click.Command) -> None:
        out.append((path, cmd))
        if isinstance(cmd, click.Group):
            for name, sub in sorted(cmd.commands.items()):
                walk([*path, name], sub)

    walk([], root)
    return out


CASES = [
    (path, text)
    for path, cmd in _commands()
    for text in [cmd.help or "", *(getattr(p, "help", None) or "" for p in cmd.params)]
    if _BRACKETED.search(text)
]


def test_the_texts_with_brackets_are_found() -> None:
    assert any(path == ["journal", "redact"] for path, _ in CASES)


@pytest.mark.parametrize(("path", "text"), CASES, ids=[" ".join(p) or "(top)" for p, _ in CASES])
def test_help_shows_the_brackets_it_holds(path: list[str], text: str) -> None:
    r = run_cli(*path, "--help")
    shown = " ".join(r.out.replace("│", " ").split())
    assert r.code == 0
    for word in _BRACKETED.findall(text):
        assert word in shown, (word, shown[:400])


def test_journal_help_lists_redact_with_its_brackets() -> None:
    r = run_cli("journal", "--help")
    assert r.code == 0
    assert "Replace a pattern by [redacted] in a turn" in " ".join(r.out.split())
