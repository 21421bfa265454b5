"""What a pane says when it has nothing to show: what this means and what to press next."""

from __future__ import annotations

from typing import Any

from rich.text import Text


def no_proposals_hint(rows: list[Any]) -> Text:
    out = Text("No pending proposals.\n", style="bold")
    enabled = [r for r in rows if r.enabled]
    if enabled:
        out.append(
            "Enabled tasks propose a new PROJECT.md / USER.md when they are due (an agent hook runs them); "
            "ctrl+g runs the highlighted task now. Decided proposals: Notes (7).",
            style="dim",
        )
    else:
        out.append(
            "No task is enabled, so nothing will be proposed. Enter on a task shows how to enable it "
            "and which provider it would use.",
            style="dim",
        )
    return out


def trash_empty() -> Text:
    return Text.assemble(
        ("The trash is empty. ", "bold"),
        ("d in the Index trashes an entry (u undoes); p here shows what the lifecycle would archive or trash.", "dim"),
    )


def no_store(root: str) -> Text:
    return Text.assemble(
        (f"No memory store at {root}. ", "bold"), ("Press i to create it (memsearch-tui init).", "dim")
    )


def empty_store() -> Text:
    return Text.assemble(
        ("The store has no entries yet. ", "bold"),
        ("Press a to add one, or import notes with `memsearch-tui import PATH`.", "dim"),
    )


def no_hits(query: str, filtered: int) -> Text:
    out = Text(f"No hits for “{query}”. ", style="bold")
    if filtered:
        out.append(f"{filtered} hit(s) hidden by the filter: ctrl+f shows all. ", style="dim")
    out.append("ctrl+s tries another strategy; ctrl+b builds the vector index for meaning search.", style="dim")
    return out
