"""What a pane says when it has nothing to show: what this means and what to press next.

Every key named here comes from the action registry after the user's keymap
(``actions.key_of``), so a rebound key is named as the user bound it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from rich.text import Text

from memsearch_tui.engine.api.text import plural
from memsearch_tui.tui.actions import PANES, key_of, undoes

if TYPE_CHECKING:
    from memsearch_tui.engine.api.records import TaskStatus

Keymap = dict[str, str] | None


def no_proposals_hint(rows: list[TaskStatus], keymap: Keymap = None) -> Text:
    out = Text("No pending proposals.\n", style="bold")
    enabled = [r for r in rows if r.enabled]
    notes = next(p for p in PANES if p.id == "notes")
    if enabled:
        out.append(
            "Enabled tasks propose a new PROJECT.md / USER.md when they are due (an agent hook runs them); "
            f"{key_of(keymap, 'maintenance.run')} runs the highlighted task now. "
            f"Decided proposals: {notes.title} ({key_of(keymap, 'pane.notes')}).",
            style="dim",
        )
    else:
        out.append(
            "No task is enabled, so nothing will be proposed. "
            f"{key_of(keymap, 'maintenance.detail')} on a task shows how to enable it "
            "and which provider it would use.",
            style="dim",
        )
    return out


def trash_empty(keymap: Keymap = None) -> Text:
    return Text.assemble(
        ("The trash is empty. ", "bold"),
        (
            f"{key_of(keymap, 'index.trash')} in the Index trashes an entry ({undoes(keymap)}); "
            f"{key_of(keymap, 'trash.plan')} here shows what the lifecycle would archive or trash.",
            "dim",
        ),
    )


def no_store(root: str, keymap: Keymap = None) -> Text:
    return Text.assemble(
        (f"No memory store at {root}. ", "bold"),
        (f"Press {key_of(keymap, 'app.init')} to create it (memsearch-tui init).", "dim"),
    )


def empty_store(keymap: Keymap = None) -> Text:
    return Text.assemble(
        ("The store has no entries yet. ", "bold"),
        (
            f"Press {key_of(keymap, 'index.add')} to add one, or {key_of(keymap, 'app.import')} to import notes "
            "(a file or a folder).",
            "dim",
        ),
    )


def no_hits(query: str, filtered: int, keymap: Keymap = None) -> Text:
    out = Text(f"No hits for “{query}”. ", style="bold")
    if filtered:
        out.append(
            f"{plural(filtered, 'hit')} hidden by the filter: {key_of(keymap, 'search.filter')} shows all. ",
            style="dim",
        )
    out.append(
        f"{key_of(keymap, 'search.strategy')} tries another strategy; "
        f"{key_of(keymap, 'search.index')} builds the vector index for meaning search.",
        style="dim",
    )
    return out


def search_start(keymap: Keymap = None, leave: tuple[str, str] = ("Tab", "Esc")) -> Text:
    """The Search pane before a query: what typing does and which keys change the search.
    ``leave``: the box's keys that leave it and clear it (``SearchPane.leave_keys``)."""
    tab, esc = leave
    return Text.assemble(
        ("Type to search both memories. ", "bold"),
        (
            "Keywords search as you type; Enter searches by meaning. In the box every key is text, "
            f"a digit too: {tab} leaves it for the hits, where digits switch panes ({esc} clears the box, "
            f"a second {esc} leaves it); a query that starts with a digit: {key_of(keymap, 'app.search')} first. "
            f"{key_of(keymap, 'search.strategy')} picks the strategy, "
            f"{key_of(keymap, 'search.filter')} where to look (all, store, journal), "
            f"{key_of(keymap, 'search.index')} builds the vector index; "
            "in:CATEGORY in the query keeps store hits to one category (in:projects/web charts).",
            "dim",
        ),
    )


def no_versions(keymap: Keymap = None) -> Text:
    """The Versions pane with no versioned entry: how an entry gets a second version."""
    return Text.assemble(
        ("No entry has more than one version yet. ", "bold"),
        (
            f"Each edit of an entry ({key_of(keymap, 'index.edit_inline')} or {key_of(keymap, 'index.edit')} "
            "in the Index, an agent's update) keeps the old text "
            "as a version here, and an update that contradicts the previous text opens a conflict "
            "to confirm or restore.",
            "dim",
        ),
    )
