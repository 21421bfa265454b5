"""The one action registry: panes, bindings, footer, help, command palette and docs come from here.

Every pane is declared once in ``PANES`` and every user action once as an ``ActionSpec``.
The app builds its tabs from ``PANES``; panes and the app build their ``BINDINGS`` from the
registry (each with a binding id, so a user keymap can rebind it through Textual's
``set_keymap``); the footer shows the bindings in ``rank`` order, as many as fit; the F1 help
screen, the command palette, the key hints in labels and docs/tui.md's key table (see
``markdown_table``) are generated from it too. Adding an action = one line here plus the
``action_*`` method on the pane.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from textual.binding import Binding, BindingType

APP = "app"


@dataclass(frozen=True)
class PaneSpec:
    """One tab: its id (CSS id ``pane-<id>``), title, the digit that shows it, its class."""

    id: str
    title: str
    key: str
    cls: str  # "module:Class", imported by the app when it composes the tabs

    def load(self) -> type:
        import importlib

        module, _, name = self.cls.partition(":")
        cls: type = getattr(importlib.import_module(module), name)
        return cls


_P = "memsearch_tui.tui.panes."
PANES: tuple[PaneSpec, ...] = (
    PaneSpec("index", "Index", "1", _P + "index.pane:IndexPane"),
    PaneSpec("journal", "Journal", "2", _P + "journal_pane:JournalPane"),
    PaneSpec("versions", "Versions", "3", _P + "versions_pane:VersionsPane"),
    PaneSpec("trash", "Trash", "4", _P + "trash_pane:TrashPane"),
    PaneSpec("maintenance", "Maintenance", "5", _P + "maintenance_pane:MaintenancePane"),
    PaneSpec("search", "Search", "6", _P + "search_pane:SearchPane"),
    PaneSpec("notes", "Notes", "7", _P + "notes_pane:NotesPane"),
    PaneSpec("overview", "Overview", "0", _P + "overview_pane:OverviewPane"),
)
PANE_SPECS = {p.id: p for p in PANES}
PANE_TITLES = {**{p.id: p.title for p in PANES}, "agent_memory": "Agent memories (M)", "hygiene": "Hygiene (H)"}

#: keys a terminal multiplexer takes for itself (tmux, screen): never a default binding
MULTIPLEXER_PREFIXES = frozenset({"ctrl+a", "ctrl+b"})


@dataclass(frozen=True)
class ActionSpec:
    """One user action. ``id`` is the binding id a keymap uses (``index.edit = "ctrl+e"``).

    ``rank`` orders the footer: the lowest ranks are shown first and kept when the
    terminal is narrow. A pane's first actions rank 10, 20; Help 25; Undo 45; Quit 65.
    """

    id: str
    keys: str
    action: str
    description: str
    scope: str = APP
    footer: bool = True
    palette: bool = True
    priority: bool = False
    rank: int = 100

    def binding(self, keys: str | None = None) -> Binding:
        return Binding(
            keys or self.keys, self.action, self.description, show=self.footer, id=self.id, priority=self.priority
        )


REGISTRY: tuple[ActionSpec, ...] = (
    # -- everywhere ---------------------------------------------------------------------
    *(ActionSpec(f"pane.{p.id}", p.key, f"show_pane('{p.id}')", f"Go to {p.title}", footer=False) for p in PANES),
    ActionSpec("app.search", "slash", "focus_search", "Search", rank=55),
    ActionSpec("app.undo", "u,ctrl+z", "undo", "Undo…", rank=45),
    ActionSpec("app.help", "f1,question_mark", "help", "Help", rank=25),
    ActionSpec("app.quit", "q", "quit", "Quit", rank=65),
    ActionSpec("app.palette", "ctrl+p", "command_palette", "Commands", rank=90, palette=False),
    ActionSpec("app.init", "i", "offer_init", "Create the memory store (first run)", footer=False),
    ActionSpec("app.import", "I", "import_notes", "Import notes (file or folder)…", footer=False),
    ActionSpec("app.theme", "ctrl+t", "cycle_theme", "Next theme", footer=False),
    ActionSpec("app.refresh", "ctrl+r", "reload", "Reload all panes", footer=False),
    ActionSpec("app.agent_memory", "M", "agent_memory", "Agent memories (Claude Code, Codex)…", footer=False),
    ActionSpec("app.hygiene", "H", "hygiene", "Hygiene: duplicates, contradictions, dead references…", footer=False),
    # motion: the same keys in every list, table and tree (and scrolling text)
    ActionSpec("nav.down", "j", "motion('down')", "Down", footer=False, palette=False),
    ActionSpec("nav.up", "k", "motion('up')", "Up", footer=False, palette=False),
    ActionSpec("nav.top", "g,home", "motion('top')", "First", footer=False, palette=False),
    ActionSpec("nav.bottom", "G,end", "motion('bottom')", "Last", footer=False, palette=False),
    ActionSpec("nav.page_down", "pagedown", "motion('page_down')", "Page down", footer=False, palette=False),
    ActionSpec("nav.page_up", "pageup", "motion('page_up')", "Page up", footer=False, palette=False),
    # -- index ---------------------------------------------------------------------------
    ActionSpec("index.filter", "f", "focus_filter", "Filter", scope="index", rank=10),
    ActionSpec("index.add", "a", "add_entry", "Add", scope="index", rank=20),
    ActionSpec("index.edit_inline", "E", "edit_inline", "Edit here", scope="index", rank=30),
    ActionSpec("index.edit", "e", "edit_external", "$EDITOR", scope="index", rank=40),
    ActionSpec("index.trash", "d,delete", "trash_entry", "Trash", scope="index", rank=50),
    ActionSpec("index.archive", "A", "archive_entry", "Archive", scope="index", rank=60),
    ActionSpec("index.related", "r", "follow_related", "Related", scope="index", rank=70),
    # -- journal -------------------------------------------------------------------------
    ActionSpec("journal.open", "o", "open_transcript", "Open transcript", scope="journal", rank=10),
    ActionSpec("journal.forget", "d", "forget_turn", "Forget turn…", scope="journal", rank=11),
    ActionSpec("journal.redact", "x", "redact_turn", "Redact in turn…", scope="journal", rank=12),
    # -- versions ------------------------------------------------------------------------
    ActionSpec("versions.restore", "R", "restore_version", "Restore version", scope="versions", rank=10),
    ActionSpec("versions.pick", "space", "pick_version", "Pin as base", scope="versions", rank=20),
    ActionSpec("versions.confirm", "c", "confirm_conflict", "Confirm conflict", scope="versions", rank=30),
    ActionSpec("versions.layout", "s", "toggle_layout", "Layout", scope="versions", rank=40),
    # -- trash ---------------------------------------------------------------------------
    ActionSpec("trash.restore", "R", "restore", "Restore", scope="trash", rank=10),
    ActionSpec("trash.purge", "P", "purge", "Purge…", scope="trash", rank=20),
    ActionSpec("trash.plan", "p", "plan", "Lifecycle plan", scope="trash", rank=30),
    ActionSpec("trash.apply", "a", "apply_plan", "Apply plan…", scope="trash", rank=40),
    # -- maintenance ---------------------------------------------------------------------
    ActionSpec("maintenance.accept", "y", "accept", "Accept", scope="maintenance", rank=10),
    ActionSpec("maintenance.reject", "x", "reject", "Reject…", scope="maintenance", rank=20),
    ActionSpec("maintenance.edit", "e", "edit_accept", "Edit+accept", scope="maintenance", rank=30),
    ActionSpec("maintenance.run", "ctrl+g", "run_task", "Run task", scope="maintenance", rank=40),
    # -- search --------------------------------------------------------------------------
    ActionSpec("search.strategy", "ctrl+s", "cycle_strategy", "Strategy", scope="search", rank=10),
    ActionSpec("search.index", "ctrl+o", "build_index", "Build vectors", scope="search", rank=20),
    ActionSpec("search.filter", "ctrl+f", "cycle_filter", "Filter: all / store / journal", scope="search", rank=30),
    ActionSpec(
        "search.explain", "ctrl+n", "explain_hit", "Why this hit (legs, weights, terms)", scope="search", rank=40
    ),
    # -- overview, notes, task detail, trash preview ----------------------------------------
    ActionSpec("overview.open", "enter", "open_line", "Open its pane", scope="overview", rank=10, palette=False),
    ActionSpec("overview.day_prev", "left,h", "day(-1)", "Previous day", scope="overview", rank=20, palette=False),
    ActionSpec("overview.day_next", "right,l", "day(1)", "Next day", scope="overview", rank=21, palette=False),
    ActionSpec(
        "maintenance.detail", "t,enter", "task_detail", "Task detail (error, fix)", scope="maintenance", rank=40
    ),
    ActionSpec("trash.preview", "v", "preview", "Preview entry", scope="trash", rank=40),
    # -- agent memories (the ``M`` screen) ------------------------------------------------
    ActionSpec("agent_memory.close", "escape,q", "dismiss", "Close", scope="agent_memory", rank=5, palette=False),
    ActionSpec("agent_memory.seen", "s", "seen", "Mark seen", scope="agent_memory", rank=10, palette=False),
    ActionSpec("agent_memory.loads", "l", "loads", "What the host loads", scope="agent_memory", rank=20, palette=False),
    ActionSpec("agent_memory.history", "h", "history", "History", scope="agent_memory", rank=30, palette=False),
    ActionSpec("agent_memory.pin", "space", "pin", "Pin as base", scope="agent_memory", rank=35, palette=False),
    ActionSpec("agent_memory.select", "v", "select", "Select lines (↑↓)", scope="agent_memory", rank=38, palette=False),
    ActionSpec("agent_memory.prune", "p", "prune", "Prune lines…", scope="agent_memory", rank=40, palette=False),
    ActionSpec("agent_memory.edit", "e", "edit", "$EDITOR", scope="agent_memory", rank=50, palette=False),
    # -- hygiene findings (the ``H`` screen) -----------------------------------------------
    ActionSpec("hygiene.close", "escape,q", "dismiss", "Close", scope="hygiene", rank=5, palette=False),
    ActionSpec("hygiene.rescan", "r", "rescan", "Scan again", scope="hygiene", rank=10, palette=False),
)

BY_ID = {spec.id: spec for spec in REGISTRY}
ORDER = {spec.id: n for n, spec in enumerate(REGISTRY)}


def specs(scope: str) -> list[ActionSpec]:
    return [s for s in REGISTRY if s.scope == scope]


def bindings(scope: str) -> list[BindingType]:
    """``BINDINGS`` for the app (scope ``app``) or one pane."""
    return [s.binding() for s in specs(scope)]


def footer_rank(binding_id: str | None) -> tuple[int, int]:
    """Sort key of a binding in the footer (bindings not in the registry go last)."""
    spec = BY_ID.get(binding_id or "")
    return (spec.rank, ORDER[spec.id]) if spec else (99, 0)


def keys_for(spec: ActionSpec, keymap: dict[str, str] | None) -> str:
    """The keys in effect for ``spec`` after the user's keymap."""
    return (keymap or {}).get(spec.id, spec.keys)


def key_of(keymap: dict[str, str] | None, spec_id: str) -> str:
    """The first key of an action, as shown to the user ('R', 'ctrl+g', '/')."""
    return pretty_keys(keys_for(BY_ID[spec_id], keymap)).split()[0]


def hint(keymap: dict[str, str] | None, *ids: str) -> str:
    """'R restore · P purge…' for labels, from the registry and the user's keymap."""
    return " · ".join(f"{key_of(keymap, i)} {BY_ID[i].description.lower()}" for i in ids)


def undoes(keymap: dict[str, str] | None) -> str:
    """'u undoes': the tail of every note about a write that the undo history can revert."""
    return f"{key_of(keymap, 'app.undo')} undoes"


def bound_key(bindings: Any, action: str) -> str:
    """The first key of a screen's own binding for ``action`` ('y', 'Esc', 'ctrl+s').

    Modal screens keep their keys in their ``BINDINGS`` (not in the registry, not in a
    keymap): hints about them are read from there, so a hint cannot name a key the
    screen does not bind.
    """
    for b in bindings:
        if b.action == action:
            return pretty_keys(b.key).split()[0]
    raise KeyError(f"no binding for {action!r}")


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


KEY_NAMES = {
    "slash": "/",
    "question_mark": "?",
    "space": "space",
    "delete": "del",
    "pagedown": "PgDn",
    "pageup": "PgUp",
    "home": "Home",
    "end": "End",
    "escape": "Esc",
    "enter": "Enter",
    "tab": "Tab",
    "shift+tab": "shift+Tab",
    "left": "←",
    "right": "→",
}


def pretty_keys(keys: str) -> str:
    return " ".join(KEY_NAMES.get(k.strip(), k.strip()) for k in keys.split(","))


def markdown_table() -> str:
    """docs/tui.md's key table (a test checks that the doc holds this text)."""
    lines = ["| Where | Keys | Action | Id |", "| --- | --- | --- | --- |"]
    for spec in REGISTRY:
        where = "everywhere" if spec.scope == APP else PANE_TITLES.get(spec.scope, spec.scope)
        keys = " ".join(f"`{k}`" for k in pretty_keys(spec.keys).split())
        lines.append(f"| {where} | {keys} | {spec.description} | `{spec.id}` |")
    return "\n".join(lines) + "\n"


DOC_START, DOC_END = "<!-- keys:start (generated: python -m memsearch_tui.tui.actions) -->", "<!-- keys:end -->"


def rewrite_doc(text: str) -> str:
    """``text`` with the part between the key-table markers replaced by ``markdown_table``."""
    head, start, rest = text.partition(DOC_START)
    _old, end, tail = rest.partition(DOC_END)
    if not start or not end:
        raise ValueError("docs/tui.md lacks the key-table markers")
    return f"{head}{DOC_START}\n{markdown_table()}{DOC_END}{tail}"


if __name__ == "__main__":  # python -m memsearch_tui.tui.actions: regenerate docs/tui.md's key table
    from pathlib import Path

    doc = Path(__file__).resolve().parents[2] / "docs" / "tui.md"
    doc.write_text(rewrite_doc(doc.read_text(encoding="utf-8")), encoding="utf-8")
    print(f"wrote the key table into {doc}")
