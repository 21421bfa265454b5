"""Store commands: init, add, show, ls, update, edit, index check."""

from __future__ import annotations

import typer


def register(app: typer.Typer) -> None:
    """Add the store commands to the root app."""
