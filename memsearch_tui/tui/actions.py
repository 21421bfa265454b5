"""The one action registry: bindings, footer, help screen and command palette come from here.

Every user action is declared once as an ``ActionSpec``. Panes and the app build their
``BINDINGS`` from it (each with a binding id, so a user keymap can rebind it through
Textual's ``set_keymap``), the footer shows those bindings, the F1 help screen lists the
registry, and the command palette offers every entry. Adding an action = one line here plus
the ``action_*`` method on the pane.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from textual.binding import Binding

APP = "app"
PANES: tuple[tuple[str, str], ...] = (
    ("index", "Index"),
    ("journal", "Journal"),
    ("versions", "Versions"),
    ("trash", "Trash"),
    ("maintenance", "Maintenance"),
    ("search", "Search"),
    ("notes", "Notes"),
)
PANE_TITLES = dict(PANES) | {"overview": "Overview"}


@dataclass(frozen=True)
class ActionSpec:
    """One user action. ``id`` is the binding id a keymap uses (``index.edit = "ctrl+e"``)."""

    id: str
    keys: str
    action: str
    description: str
    scope: str = APP
    footer: bool = True
    palette: bool = True
    priority: bool = False

    def binding(self, keys: str | None = None) -> Binding:
        return Binding(
            keys or self.keys, self.action, self.description, show=self.footer, id=self.id, priority=self.priority
        )


REGISTRY: tuple[ActionSpec, ...] = (
    # -- everywhere ---------------------------------------------------------------------
    *(
        ActionSpec(f"pane.{pid}", str(n), f"switch_pane('{pid}')", f"Go to {title}", footer=False)
        for n, (pid, title) in enumerate(PANES, 1)
    ),
    ActionSpec("pane.overview", "0", "switch_pane('overview')", "Go to Overview", footer=False),
    ActionSpec("app.init", "i", "offer_init", "Create the memory store (first run)", footer=False),
    ActionSpec("app.import", "ctrl+o", "import_notes", "Import notes (file or folder)…", footer=False),
    ActionSpec("app.undo", "u,ctrl+z", "undo", "Undo last change"),
    ActionSpec("app.search", "slash", "focus_search", "Search", footer=True),
    ActionSpec("app.help", "f1,question_mark", "help", "Help"),
    ActionSpec("app.palette", "ctrl+p", "command_palette", "Commands", footer=False, palette=False),
    ActionSpec("app.theme", "ctrl+t", "cycle_theme", "Next theme", footer=False),
    ActionSpec("app.refresh", "ctrl+r", "reload", "Reload all panes", footer=False),
    ActionSpec("app.quit", "q", "quit", "Quit"),
    # -- index ---------------------------------------------------------------------------
    ActionSpec("index.filter", "f", "focus_filter", "Filter", scope="index"),
    ActionSpec("index.add", "a", "add_entry", "Add entry", scope="index"),
    ActionSpec("index.edit", "e", "edit_external", "Edit in $EDITOR", scope="index"),
    ActionSpec("index.edit_inline", "E", "edit_inline", "Edit here", scope="index"),
    ActionSpec("index.related", "r", "follow_related", "Related", scope="index", footer=False),
    ActionSpec("index.archive", "A", "archive_entry", "Archive", scope="index", footer=False),
    ActionSpec("index.trash", "d,delete", "trash_entry", "Trash", scope="index"),
    ActionSpec("index.down", "j", "cursor('down')", "Down", scope="index", footer=False, palette=False),
    ActionSpec("index.up", "k", "cursor('up')", "Up", scope="index", footer=False, palette=False),
    ActionSpec("index.top", "g", "cursor('top')", "First", scope="index", footer=False, palette=False),
    ActionSpec("index.bottom", "G", "cursor('bottom')", "Last", scope="index", footer=False, palette=False),
    # -- journal -------------------------------------------------------------------------
    ActionSpec("journal.open", "o", "open_transcript", "Open transcript", scope="journal"),
    ActionSpec("journal.down", "j", "cursor('down')", "Down", scope="journal", footer=False, palette=False),
    ActionSpec("journal.up", "k", "cursor('up')", "Up", scope="journal", footer=False, palette=False),
    ActionSpec("journal.top", "g", "cursor('top')", "First", scope="journal", footer=False, palette=False),
    ActionSpec("journal.bottom", "G", "cursor('bottom')", "Last", scope="journal", footer=False, palette=False),
    # -- versions ------------------------------------------------------------------------
    ActionSpec("versions.pick", "space", "pick_version", "Compare with", scope="versions"),
    ActionSpec("versions.restore", "R", "restore_version", "Restore version", scope="versions"),
    ActionSpec("versions.confirm", "c", "confirm_conflict", "Confirm conflict", scope="versions"),
    ActionSpec("versions.layout", "s", "toggle_layout", "Side by side / unified", scope="versions"),
    # -- trash ---------------------------------------------------------------------------
    ActionSpec("trash.restore", "R", "restore", "Restore", scope="trash"),
    ActionSpec("trash.purge", "P", "purge", "Purge…", scope="trash"),
    ActionSpec("trash.plan", "p", "plan", "Lifecycle plan", scope="trash"),
    ActionSpec("trash.apply", "ctrl+a", "apply_plan", "Apply plan…", scope="trash"),
    # -- maintenance ---------------------------------------------------------------------
    ActionSpec("maintenance.run", "ctrl+g", "run_task", "Run task now", scope="maintenance"),
    ActionSpec("maintenance.accept", "y", "accept", "Accept proposal", scope="maintenance"),
    ActionSpec("maintenance.edit", "e", "edit_accept", "Edit, then accept", scope="maintenance"),
    ActionSpec("maintenance.reject", "x", "reject", "Reject proposal", scope="maintenance"),
    # -- search --------------------------------------------------------------------------
    ActionSpec("search.strategy", "ctrl+s", "cycle_strategy", "Strategy", scope="search"),
    ActionSpec("search.index", "ctrl+b", "build_index", "Build vector index", scope="search"),
    ActionSpec("search.filter", "ctrl+f", "cycle_filter", "Filter: all / store / journal / notes", scope="search"),
    # -- overview, notes, task detail (tui2) ---------------------------------------------
    ActionSpec("overview.open", "enter", "open_line", "Open its pane", scope="overview", palette=False),
    ActionSpec("overview.down", "j", "cursor('down')", "Down", scope="overview", footer=False, palette=False),
    ActionSpec("overview.up", "k", "cursor('up')", "Up", scope="overview", footer=False, palette=False),
    ActionSpec("notes.down", "j", "cursor('down')", "Down", scope="notes", footer=False, palette=False),
    ActionSpec("notes.up", "k", "cursor('up')", "Up", scope="notes", footer=False, palette=False),
    ActionSpec("maintenance.detail", "t,enter", "task_detail", "Task detail (error, fix)", scope="maintenance"),
    ActionSpec("trash.preview", "v", "preview", "Preview entry", scope="trash"),
)

BY_ID = {spec.id: spec for spec in REGISTRY}


def specs(scope: str) -> list[ActionSpec]:
    return [s for s in REGISTRY if s.scope == scope]


def bindings(scope: str) -> list[Binding]:
    """``BINDINGS`` for the app (scope ``app``) or one pane."""
    return [s.binding() for s in specs(scope)]


def keys_for(spec: ActionSpec, keymap: dict[str, str] | None) -> str:
    """The keys in effect for ``spec`` after the user's keymap."""
    return (keymap or {}).get(spec.id, spec.keys)


def clean_keymap(raw: Any) -> tuple[dict[str, str], list[str]]:
    """A user ``[tui.keymap]`` table → {binding id: keys}; unknown ids are reported."""
    if not isinstance(raw, dict):
        return {}, ([f"[tui.keymap] must be a table, got {type(raw).__name__}"] if raw else [])
    keymap: dict[str, str] = {}
    problems: list[str] = []
    for key, value in raw.items():
        if key not in BY_ID:
            problems.append(f"[tui.keymap] {key}: no such action (see F1 for ids)")
        elif not isinstance(value, str) or not value.strip():
            problems.append(f'[tui.keymap] {key}: keys must be a string like "ctrl+e"')
        else:
            keymap[key] = value.strip()
    return keymap, problems


def pretty_keys(keys: str) -> str:
    names = {"slash": "/", "question_mark": "?", "space": "space", "delete": "del"}
    return " ".join(names.get(k.strip(), k.strip()) for k in keys.split(","))
