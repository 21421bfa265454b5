"""The Index pane's right side: the selected entry (frontmatter, related ids, Markdown body)
or the selected category (counts, subcategories).

The body's ``Markdown`` widget is made when a first entry with a body is shown: the app
opens on a category, and Textual's Markdown (with its parser, markdown-it) was ~45 ms of
CPU imported, built and mounted before the first frame, for an empty body (issue 37 item 5).
"""

from __future__ import annotations

from collections.abc import Awaitable, Sequence
from typing import TYPE_CHECKING, Any

from rich.table import Table
from rich.text import Text
from textual.app import ComposeResult
from textual.containers import Vertical, VerticalScroll
from textual.widgets import Label, OptionList, Static
from textual.widgets.option_list import Option

from memsearch_tui.engine.api.types import EntrySummary, FullEntry
from memsearch_tui.tui.palette import PALETTE, status_style
from memsearch_tui.tui.panes.index.model import IndexModel
from memsearch_tui.tui.text import Squeezed, home_relative, printable, untrusted

if TYPE_CHECKING:
    from textual.widgets import Markdown


def meta_table(entry: FullEntry) -> Table:
    table = Table.grid(padding=(0, 1))
    table.add_column(style="bold dim", no_wrap=True)
    table.add_column()
    rows: list[tuple[str, Any]] = [
        ("title", untrusted(entry.title, "bold", keep_newlines=False)),
        ("id", Squeezed(entry.id)),  # loses its middle, never wraps mid-word
        ("status", Text(entry.status, style=status_style(entry.status))),
        ("version", str(entry.version)),
        ("created", str(entry.created or "")),
        ("updated", str(entry.updated or "")),
        ("tags", untrusted(", ".join(entry.tags) or "—", keep_newlines=False)),
        ("importance", "—" if entry.importance is None else f"{entry.importance:g}"),
    ]
    if entry.expires:
        rows.append(("expires", str(entry.expires)))
    for k, v in rows:
        table.add_row(k, v)
    return table


def category_table(model: IndexModel, key: str) -> Table:
    table = Table.grid(padding=(0, 1))
    table.add_column(style="bold dim")
    table.add_column()
    table.add_row("category", untrusted(key or "INDEX (root)", "bold", keep_newlines=False))
    here = model.direct.get(key, 0)
    table.add_row("entries", f"{model.counts.get(key, 0)} (here: {here})")
    subs = model.children.get(key, [])
    table.add_row("subcategories", untrusted(", ".join(c.rsplit("/", 1)[-1] for c in subs) or "—", keep_newlines=False))
    if model.flagged.get(key):
        table.add_row("not active", str(model.flagged[key]))
    return table


def error_table(entry_id: str, message: str, path: str) -> Table:
    """Why an entry cannot be shown: its file (home-relative) and the reader's reason."""
    head, sep, rest = message.partition(": ")
    if sep and head.startswith("/") and (not path or head == path):  # the reason names the file first
        path, message = head, rest
    table = Table.grid(padding=(0, 1))
    table.add_column(style="bold dim", no_wrap=True)
    table.add_column()
    table.add_row("id", Squeezed(entry_id))
    table.add_row("status", Text("invalid: not readable as an entry", style=f"bold {PALETTE.error}"))
    if path:
        table.add_row("file", Squeezed(home_relative(path)))
    table.add_row("problem", untrusted(message, PALETTE.error))
    table.add_row("fix", Text("edit the file; `memsearch-tui index check` lists every invalid one", style="dim"))
    return table


class EntryDetail(Vertical):
    """What the tree's cursor is on; ``shown`` says which (``entry:<id>`` / ``cat:<key>``)."""

    def __init__(self, **kw: Any) -> None:
        super().__init__(**kw)
        self.shown = ""
        self._drawn = b""  # the entry bytes on screen
        self._body = ""  # the Markdown body shown (or to show once its widget is mounted)
        self._markdown: Markdown | None = None  # made for the first body (``_show_body``)

    def compose(self) -> ComposeResult:
        yield Static(id="entry-meta", classes="meta")
        yield Label("related (Enter follows)", id="related-label", classes="section")
        yield OptionList(id="entry-related")
        yield VerticalScroll(id="entry-body-scroll")

    def on_mount(self) -> None:
        self._related([], {})

    def show_entry(self, entry: FullEntry, drawn: bytes, summaries: dict[str, EntrySummary]) -> None:
        """Draw ``entry`` (parsed from ``drawn``, its file's bytes); the same entry unchanged
        is left as it is (a reload caused by some other file must not scroll the text the
        user is reading back to the top)."""
        same_entry = self.shown == f"entry:{entry.id}"
        if same_entry and drawn == self._drawn:
            return
        self.shown, self._drawn = f"entry:{entry.id}", drawn
        self.query_one("#entry-meta", Static).update(meta_table(entry))
        self._related(entry.related, summaries)
        self._show_body(printable(entry.body))  # a hand-edited file may hold a secret: masked, as Notes shows
        if not same_entry:
            self.query_one("#entry-body-scroll").scroll_home(animate=False)

    def show_error(self, entry_id: str, message: str, path: str = "") -> None:
        self.shown, self._drawn = f"entry:{entry_id}", b""
        self.query_one("#entry-meta", Static).update(error_table(entry_id, message, path))
        self._related([], {})
        self._show_body("")

    def show_category(self, model: IndexModel, key: str) -> None:
        self.shown, self._drawn = f"cat:{key}", b""
        self.query_one("#entry-meta", Static).update(category_table(model, key))
        self._related([], {})
        self._show_body("")

    def clear(self) -> None:
        self.shown, self._drawn = "", b""
        self.query_one("#entry-meta", Static).update("")
        self._related([], {})
        self._show_body("")

    def _show_body(self, text: str) -> None:
        """The body's Markdown: made and mounted for the first body; a body shown while it
        is being mounted is drawn once it is (``_mounted_body``)."""
        self._body = text
        if self._markdown is None:
            if text:
                from textual.widgets import Markdown

                self._markdown = Markdown(text, id="entry-body")
                waiting = self.query_one("#entry-body-scroll").mount(self._markdown)
                self.run_worker(self._mounted_body(waiting, text), group="entry-body", exit_on_error=False)
        elif self._markdown.is_mounted:
            self._markdown.update(text)

    async def _mounted_body(self, waiting: Awaitable[object], text: str) -> None:
        await waiting  # the widget drew ``text`` as it mounted
        if self._markdown is not None and self._body != text:
            self._markdown.update(self._body)

    def _related(self, ids: Sequence[str], summaries: dict[str, EntrySummary]) -> None:
        related = self.query_one("#entry-related", OptionList)
        related.clear_options()
        for rid in ids:
            s = summaries.get(rid)
            title = None if s is None else untrusted(f"{s.title}  ", "bold", keep_newlines=False)
            label = Squeezed(rid, "dim" if title else "", lead=title)
            related.add_option(Option(label, id=rid))
        related.display = bool(ids)
        self.query_one("#related-label").display = bool(ids)
