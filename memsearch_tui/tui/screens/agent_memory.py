"""The hosts' own memories (Claude Code, Codex, memsearch's notes) in one screen: ``M``.

Left: every agent-memory file, grouped by host, with badges — lines changed since the last
review, what the host cuts at session start, secrets counted. Right, for the file under the
cursor: the diff since it was last marked seen (secrets masked), or (``l``) the file as the
host loads it with the cut tail greyed and a line cursor (``↑``/``↓``, ``j``/``k``; ``v`` or
``space`` starts a selection the cursor extends), or (``h``) its kept versions with the diff
between the pinned one (``space``) and the highlighted one. ``s`` marks it seen; ``p``
proposes pruning the selected lines (or lines typed as ``A-B``), ``e`` proposes an edit in $EDITOR: both go to ``proposals accept`` (the
Maintenance pane), nothing here writes a host's file.
"""

from __future__ import annotations

import subprocess
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from rich.console import Group
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.geometry import Region
from textual.widgets import Input, Label, OptionList, Static
from textual.widgets.option_list import Option

from memsearch_tui.engine.api.errors import MemsearchError
from memsearch_tui.engine.api.text import plural, redact_text
from memsearch_tui.tui.actions import bindings
from memsearch_tui.tui.diffview import DiffView
from memsearch_tui.tui.screens.modal import Modal
from memsearch_tui.tui.text import Squeezed, home_relative, printable, tone
from memsearch_tui.tui.widgets.keys import KeyFooter

if TYPE_CHECKING:
    from memsearch_tui.engine.api import Memory
    from memsearch_tui.engine.api.agent_memory import AgentMemoryFile, AgentMemoryListing, AgentMemoryVersion

HOSTS = {"claude-code": "Claude Code", "codex": "Codex", "memsearch": "memsearch"}


def grouped(found: AgentMemoryListing) -> list[tuple[str, list[AgentMemoryFile]]]:
    """The files by host, in the hosts' order, each host's files as listed."""
    out: dict[str, list[AgentMemoryFile]] = {}
    for f in found.files:
        out.setdefault(f.host, []).append(f)
    return [(h, out[h]) for h in (*HOSTS, *sorted(set(out) - set(HOSTS))) if h in out]


def badges(f: AgentMemoryFile) -> list[tuple[str, str]]:
    """(text, theme colour) of each badge: unreviewed changes, cut by the host, secrets."""
    out = []
    if f.unreviewed_added or f.unreviewed_removed:
        out.append((f"+{f.unreviewed_added} -{f.unreviewed_removed}", "warning"))
    elif f.unreviewed_added is None:
        out.append(("unreviewed", "warning"))
    if f.cut_lines and f.loads in ("head", "head+tail"):
        out.append((f"cut {f.cut_lines}", "error"))
    if f.loads == "off":
        out.append(("off", "secondary"))
    if f.secrets:
        out.append((plural(f.secrets, "secret"), "error"))
    return out


def loaded_split(text: str, f: AgentMemoryFile) -> tuple[str, str]:
    """(what the host loads, what it cuts) of ``text``: the head it keeps by bytes; for a
    ``head+tail`` cut, the middle is what goes (returned as the second part's whole)."""
    data = text.encode("utf-8")
    if f.loads in ("full",) or f.loaded_bytes is None:
        return text, ""
    if f.loads in ("on-demand", "off"):
        return "", text
    kept = data[: f.loaded_bytes].decode("utf-8", "ignore")
    return kept, text[len(kept) :]


def numbered(kept: str, cut: str, cut_style: str) -> Text:
    """The file with line numbers (what ``p`` asks for), the part the host cuts in
    ``cut_style``; a line the cut splits is numbered once."""
    out = Text()
    n = 0
    for part, style in ((kept, ""), (cut, cut_style)):
        for line in part.splitlines(keepends=True):
            if not out.plain or out.plain.endswith("\n"):
                n += 1
                out.append(f"{n:>5} ", style="dim")
            out.append(printable(line.rstrip("\r\n")) + ("\n" if line.endswith("\n") else ""), style=style)
    return out


def lit(text: Text, line: int, anchor: int | None, cursor: str, chosen: str) -> Text:
    """A copy of ``numbered``'s text with line ``line`` (1-based) in ``cursor`` style and, when
    a selection was started at ``anchor``, every line from there to ``line`` in ``chosen``."""
    out = text.copy()
    first, last = sorted((line, line if anchor is None else anchor))
    at = 0
    for n, row in enumerate(out.plain.split("\n"), start=1):
        if anchor is not None and first <= n <= last:
            out.stylize(chosen, at, at + len(row))
        if n == line:
            out.stylize(cursor, at, at + len(row))
        at += len(row) + 1
    return out


@dataclass
class DetailView:
    """What the right side shows: ``diff`` (since the last review), ``loads`` or ``history``;
    in ``loads``, the line cursor and where a selection started (both 1-based)."""

    mode: str = "diff"
    versions: list[AgentMemoryVersion] = field(default_factory=list)
    pinned: str | None = None  # a version id: the history diff's base
    line: int = 1
    anchor: int | None = None
    count: int = 0  # lines in the loads view
    shown: Text = field(default_factory=Text)  # the loads view before the cursor is drawn

    def selected(self) -> tuple[int, int] | None:
        """The selected lines (first, last), or None when no selection was started."""
        if self.anchor is None:
            return None
        first, last = sorted((self.anchor, self.line))
        return first, last


class LineView(Static, can_focus=True):
    """The numbered file of the loads view: the arrows and ``j``/``k`` move a line cursor,
    ``space`` starts or drops a selection (as ``v`` does on the screen)."""

    BINDINGS = [
        Binding("down,j", "screen.line(1)", "Next line", show=False),
        Binding("up,k", "screen.line(-1)", "Previous line", show=False),
        Binding("space", "screen.select", "Select lines", show=False),
    ]


class AgentMemoryScreen(Modal[None]):
    """Every agent-memory file grouped by host; review, mark seen, propose a prune or an edit."""

    BINDINGS = bindings("agent_memory")

    def __init__(self, mem: Memory) -> None:
        super().__init__(classes="modal")
        self.mem = mem
        self.found: AgentMemoryListing | None = None
        self.view = DetailView()
        self.path: str | None = None

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog editor", id="agent-memory"):
            yield Label("Agent memories · what Claude Code and Codex load", classes="dialog-title")
            with Horizontal():
                with Vertical(classes="left-narrow"):
                    yield OptionList(id="am-list")
                with Vertical(classes="right"):
                    yield Static(id="am-head", classes="meta")
                    yield OptionList(id="am-versions")
                    yield Input(
                        placeholder="lines A or A-B, then a reason: 3-5 wrong", id="am-prune", select_on_focus=False
                    )
                    with VerticalScroll(id="am-scroll"):
                        yield DiffView(id="am-diff")
                        yield LineView(id="am-text")
            yield KeyFooter(id="am-footer")

    def on_mount(self) -> None:
        self.query_one("#am-versions").display = False
        self.query_one("#am-prune").display = False
        self.reload()
        self.query_one("#am-list", OptionList).focus()

    # -- data ---------------------------------------------------------------------------
    def reload(self) -> None:
        self.found = self.mem.agent_memory.ls()
        lst = self.query_one("#am-list", OptionList)
        lst.clear_options()
        first = None
        for host, files in grouped(self.found):
            lst.add_option(Option(Text(HOSTS.get(host, host), style=tone(self, "primary", "bold")), disabled=True))
            for f in files:
                label = Text(f"{f.kind:<21}", style="dim")
                label.append(home_relative(f.path).rsplit("/", 1)[-1], style="bold")
                for text, colour in badges(f):
                    label.append("  ")
                    label.append(text, style=tone(self, colour))
                lst.add_option(Option(label, id=f.path))
                first = first or f.path
        if first is None:
            lst.add_option(Option(Text("no agent-memory files found", style="dim"), disabled=True))
        for s in self.found.skipped:
            lst.add_option(
                Option(Text(f"skipped: {printable(s.reason, keep_newlines=False)}", style="dim"), disabled=True)
            )
        if self.found.auto_memory_off:
            lst.add_option(Option(Text(f"auto memory off: {self.found.auto_memory_off}", style="dim"), disabled=True))
        want = self.path if self.path and any(o.id == self.path for o in lst.options) else first
        if want is not None:
            lst.highlighted = next(n for n, o in enumerate(lst.options) if o.id == want)
            self.show(want)

    def file(self) -> AgentMemoryFile | None:
        assert self.found is not None
        return next((f for f in self.found.files if f.path == self.path), None)

    # -- drawing ------------------------------------------------------------------------
    def show(self, path: str) -> None:
        if path != self.path:
            self.view.line, self.view.anchor = 1, None
        self.path = path
        f = self.file()
        if f is None:
            return
        try:
            self._draw(f)
        except MemsearchError as exc:
            self.query_one("#am-diff", DiffView).show_note(printable(exc.message))

    def _draw(self, f: AgentMemoryFile) -> None:
        mode = self.view.mode
        head = Text(f"{HOSTS.get(f.host, f.host)} · {f.kind} · {f.lines} lines · {f.bytes} B · ~{f.tokens} tokens")
        if f.loaded_lines is not None:
            head.append(f"\nloads {f.loads}: {f.loaded_lines} of {f.lines} lines", style="dim")
        self.query_one("#am-head", Static).update(Group(Squeezed(home_relative(f.path), "bold"), head))
        diff, text = self.query_one("#am-diff", DiffView), self.query_one("#am-text", Static)
        versions = self.query_one("#am-versions", OptionList)
        versions.display = mode == "history"
        diff.display, text.display = mode != "loads", mode == "loads"
        if mode == "loads":
            kept, cut = loaded_split(redact_text(self.mem.agent_memory.text(f.path)), f)
            self.view.shown = numbered(kept, cut, tone(self, "secondary", "dim strike"))
            self.view.count = len(self.view.shown.plain.splitlines())
            self.view.line = min(self.view.line, max(self.view.count, 1))
            self._draw_lines()
        elif mode == "history":
            self._history(f)
        else:
            d = self.mem.agent_memory.diff(f.path)
            old = "" if d.since is None else self.mem.agent_memory.text(f.path, d.since)
            now = self.mem.agent_memory.text(f.path)
            if d.added == d.removed == 0 and d.since is not None:
                diff.show_note(f"no change since you marked it seen ({d.since})")
            else:
                diff.show(redact_text(old), redact_text(now), left=d.since or "never reviewed", right=f"now {d.now}")

    def _draw_lines(self) -> None:
        """The loads view with its cursor and selection, the cursor line scrolled into view."""
        v = self.view
        self.query_one("#am-text", Static).update(
            lit(v.shown, v.line, v.anchor, "reverse", tone(self, "primary", "reverse"))
        )
        region = Region(0, v.line - 1, 1, 1)
        self.query_one("#am-scroll", VerticalScroll).scroll_to_region(region, animate=False, immediate=True)

    def _history(self, f: AgentMemoryFile) -> None:
        rows = list(self.mem.agent_memory.history(f.path))
        self.view.versions = rows
        lst = self.query_one("#am-versions", OptionList)
        at = lst.highlighted
        lst.clear_options()
        for v in reversed(rows):
            label = Text(f"{'*' if v.seen else ' '} {v.version}  {v.time}  {v.lines} lines")
            if v.session:
                label.append(f"  {v.session}", style="dim")
            if v.version == self.view.pinned:
                label.append("  base", style=tone(self, "primary"))
            lst.add_option(Option(label, id=v.version))
        lst.highlighted = at if at is not None and at < len(rows) else 0
        self._version_diff()

    def _version_diff(self) -> None:
        lst = self.query_one("#am-versions", OptionList)
        if self.path is None or lst.highlighted is None or not self.view.versions:
            return
        newer = lst.options[lst.highlighted].id
        order = [v.version for v in self.view.versions]
        base = self.view.pinned or (order[order.index(newer) - 1] if newer and order.index(newer) > 0 else None)
        old = "" if base is None else self.mem.agent_memory.text(self.path, base)
        new = self.mem.agent_memory.text(self.path, newer)
        self.query_one("#am-diff", DiffView).show(
            redact_text(old), redact_text(new), left=base or "nothing", right=newer or ""
        )

    # -- events and keys ------------------------------------------------------------------
    def on_option_list_option_highlighted(self, event: OptionList.OptionHighlighted) -> None:
        if event.option_list.id == "am-list" and event.option.id:
            self.show(event.option.id)
        elif event.option_list.id == "am-versions":
            self._version_diff()

    #: the keys that act in one view only: the footer offers them there and nowhere else
    VIEW_ONLY = {"pin": "history", "select": "loads", "line": "loads"}

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        return self.VIEW_ONLY.get(action, self.view.mode) == self.view.mode

    def _mode(self, mode: str) -> None:
        self.view.mode = "diff" if self.view.mode == mode else mode
        self.view.pinned, self.view.line, self.view.anchor = None, 1, None
        self.refresh_bindings()
        if self.path:
            self.show(self.path)

    def action_loads(self) -> None:
        self._mode("loads")
        self.query_one("#am-text" if self.view.mode == "loads" else "#am-list").focus()

    def action_line(self, step: int) -> None:
        """Move the loads view's line cursor (a started selection follows it)."""
        if self.view.mode == "loads" and self.view.count:
            self.view.line = max(1, min(self.view.count, self.view.line + step))
            self._draw_lines()

    def action_select(self) -> None:
        """Start a selection at the cursor line, or drop the one started."""
        if self.view.mode == "loads":
            self.view.anchor = self.view.line if self.view.anchor is None else None
            self._draw_lines()

    def action_history(self) -> None:
        self._mode("history")
        if self.view.mode == "history":
            self.query_one("#am-versions", OptionList).focus()
        else:
            self.query_one("#am-list", OptionList).focus()

    def action_pin(self) -> None:
        lst = self.query_one("#am-versions", OptionList)
        if self.view.mode == "history" and lst.highlighted is not None and self.path:
            self.view.pinned = lst.options[lst.highlighted].id
            self.show(self.path)

    def action_seen(self) -> None:
        if self.path is None:
            return
        try:
            done = self.mem.agent_memory.seen([self.path])
        except MemsearchError as exc:
            self.app.notify(printable(exc.message), title="Mark seen", severity="error")
            return
        self.app.notify(f"seen {done[0].version}", title="Mark seen")
        self.reload()

    def action_prune(self) -> None:
        if self.path is None:
            return
        box = self.query_one("#am-prune", Input)
        chosen = self.view.selected() if self.view.mode == "loads" else None
        if chosen is not None:  # the lines are chosen: only the reason is left to type
            box.value = f"{chosen[0]}-{chosen[1]} "
            box.cursor_position = len(box.value)
        box.display = True
        box.focus()

    def on_input_submitted(self, event: Input.Submitted) -> None:
        if event.input.id != "am-prune" or self.path is None:
            return
        lines, _, reason = event.value.strip().partition(" ")
        try:
            made = self.mem.agent_memory.prune(self.path, lines, reason.strip() or f"pruned lines {lines} in the app")
        except MemsearchError as exc:
            self.app.notify(printable(exc.message), title="Prune", severity="error")
            return
        event.input.value, event.input.display = "", False
        if self.view.anchor is not None:
            self.view.anchor = None
            self._draw_lines()
        self.query_one("#am-list", OptionList).focus()
        self.app.notify(f"proposal {made.id}: accept it in Maintenance (5)", title="Prune")

    def action_edit(self) -> None:
        if self.path is None:
            return
        try:
            with self.app.suspend():
                made = self.mem.agent_memory.edit(self.path, subprocess.call)
        except MemsearchError as exc:
            self.app.notify(printable(exc.message), title="Edit", severity="error")
            return
        except Exception as exc:  # SuspendNotSupported: a terminal that cannot hand over
            self.app.notify(f"cannot run $EDITOR here ({type(exc).__name__})", title="Edit", severity="warning")
            return
        note = "no change" if made is None else f"proposal {made.id}: accept it in Maintenance (5)"
        self.app.notify(note, title="Edit")
