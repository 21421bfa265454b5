"""The commands hygiene's notes tell a person to run exist (trial of s12, problem 4: "run
`memsearch-tui index` for vectors" named a group whose only command is ``check``)."""

from __future__ import annotations

import re
from pathlib import Path

import click
import typer

from memsearch_tui.cli.app import app
from memsearch_tui.engine.hygiene.vectors import entry_vectors


def runnable(line: str) -> bool:
    """Whether ``memsearch-tui A B …`` names a command (a leaf, not a group) of the CLI."""
    cmd: click.Command = typer.main.get_command(app)
    ctx = click.Context(cmd)
    for word in line.split()[1:]:
        if word.startswith("-"):
            break
        if not isinstance(cmd, click.Group) or (sub := cmd.get_command(ctx, word)) is None:
            return False
        cmd = sub
    return not isinstance(cmd, click.Group)


def test_the_no_index_note_names_a_real_command(tmp_path: Path) -> None:
    (tmp_path / "memory").mkdir()
    (tmp_path / "proj").mkdir()
    vectors, why = entry_vectors(tmp_path / "memory", tmp_path / "proj")
    assert vectors == {} and "no search index" in why
    hinted = re.findall(r"`(memsearch-tui [^`]+)`", why)
    assert hinted and all(runnable(h) for h in hinted), why
    assert not runnable("memsearch-tui index")  # the check itself can fail: a group is not a command
