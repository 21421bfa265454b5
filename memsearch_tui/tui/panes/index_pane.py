"""Index pane: root INDEX → nested categories → entries; the selected entry's body and frontmatter.

Big stores stay fast because nothing is drawn or built before it is needed: the tree shows
top-level categories first, a category's children are created when it is expanded, and
its entries arrive in batches of ``BATCH`` with a "load more" row (toolong's rule: draw
only what is visible). Filtering works on the cached summaries, not on files.
"""

from __future__ import annotations

import os
import subprocess
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from rich.table import Table
from rich.text import Text
from textual.app import ComposeResult
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.widgets import Input, Label, Markdown, OptionList, Static, Tree
from textual.widgets.option_list import Option
from textual.widgets.tree import TreeNode

from memsearch_tui.engine.core.errors import MemsearchError, NotFound
from memsearch_tui.engine.store.catalog import Summary
from memsearch_tui.engine.store.entry import Entry
from memsearch_tui.tui.actions import bindings
from memsearch_tui.tui.badges import badge_for
from memsearch_tui.tui.empty_states import empty_store
from memsearch_tui.tui.modals import AddEntryModal, ConfirmModal, TextEditModal
from memsearch_tui.tui.panes.base import Pane, guard

BATCH = 200
ACTIVATION_DELAY = 2.0  # seconds an entry stays on screen before it counts as read
FILTER_LIMIT = 500
STATUS_STYLE = {"archived": "yellow", "expired": "magenta", "invalid": "bold red"}


@dataclass
class NodeData:
    kind: str  # "root" | "cat" | "entry" | "more"
    key: str  # category path or entry id
    offset: int = 0  # for "more": index of the next entry to add
    filled: bool = False


@dataclass
class IndexModel:
    """Categories and entry summaries grouped for the tree (built in a worker)."""

    summaries: dict[str, Summary] = field(default_factory=dict)
    entries_of: dict[str, list[Summary]] = field(default_factory=dict)  # direct entries
    children: dict[str, list[str]] = field(default_factory=dict)  # category → subcategories
    counts: dict[str, int] = field(default_factory=dict)  # recursive entry counts
    flagged: dict[str, int] = field(default_factory=dict)  # recursive non-active counts
    error: str = ""
    partial: bool = False  # first paint from cached counts; entries are fetched per category

    @classmethod
    def from_totals(cls, totals: dict[str, tuple[int, str]], categories: list[str]) -> IndexModel:
        """Counts only, straight from the catalog cache: what the first frame needs."""
        m = cls(partial=True)
        m._add_categories(set(categories) | {c for c in totals if c})
        for category, (count, _updated) in totals.items():
            node = category
            while True:
                m.counts[node] = m.counts.get(node, 0) + count
                if not node:
                    break
                node = node.rsplit("/", 1)[0] if "/" in node else ""
        return m

    def _add_categories(self, cats: set[str]) -> None:
        for c in list(cats):  # every ancestor exists as a category too
            parts = c.split("/")
            cats.update("/".join(parts[:i]) for i in range(1, len(parts)))
        for c in sorted(cats):
            parent = c.rsplit("/", 1)[0] if "/" in c else ""
            self.children.setdefault(parent, []).append(c)

    @classmethod
    def build(cls, summaries: list[Summary], categories: list[str]) -> IndexModel:
        m = cls()
        m._add_categories(set(categories) | {s.category for s in summaries if s.category})
        for s in summaries:
            m.summaries[s.id] = s
            m.entries_of.setdefault(s.category, []).append(s)
            node = s.category
            while True:
                m.counts[node] = m.counts.get(node, 0) + 1
                if s.status != "active":
                    m.flagged[node] = m.flagged.get(node, 0) + 1
                if not node:
                    break
                node = node.rsplit("/", 1)[0] if "/" in node else ""
        for rows in m.entries_of.values():
            sort_rows(rows)
        return m


def sort_rows(rows: list[Summary]) -> None:
    rows.sort(key=lambda s: (s.status != "active", s.title.casefold()))


def entry_label(s: Summary) -> Text:
    text = Text(s.title)
    if s.status != "active":
        text.append(f" [{s.status}]", style=STATUS_STYLE.get(s.status, "dim"))
    if s.updated:
        text.append(f"  {s.updated}", style="dim")
    if (badge := badge_for(s.id)) is not None:  # tui2: open conflict, before the title
        text = Text.assemble(badge, text)
    return text


def category_label(name: str, count: int, flagged: int) -> Text:
    text = Text(name, style="bold")
    text.append(f"  {count}", style="cyan")
    if flagged:
        text.append(f" ({flagged} not active)", style="yellow")
    return text


def meta_table(entry: Entry) -> Table:
    table = Table.grid(padding=(0, 1))
    table.add_column(style="bold dim", no_wrap=True)
    table.add_column()
    status = Text(entry.status, style=STATUS_STYLE.get(entry.status, "green"))
    rows: list[tuple[str, Any]] = [
        ("title", Text(entry.title, style="bold")),
        ("id", entry.id),
        ("status", status),
        ("version", str(entry.version)),
        ("created", str(entry.created or "")),
        ("updated", str(entry.updated or "")),
        ("tags", ", ".join(entry.tags) or "—"),
        ("importance", "—" if entry.importance is None else f"{entry.importance:g}"),
    ]
    if entry.expires:
        rows.append(("expires", str(entry.expires)))
    for k, v in rows:
        table.add_row(k, v)
    return table


class IndexPane(Pane):
    pane_id = "index"
    title = "Index"
    main_widget = "#index-tree"
    BINDINGS = bindings("index")

    def __init__(self, ctx) -> None:
        super().__init__(ctx)
        self.model = IndexModel()
        self.current: str | None = None  # selected entry id
        self._filter_timer = None
        self._filter = ""
        self._activation_timer = None

    def compose(self) -> ComposeResult:
        with Horizontal():
            with Vertical(id="index-left", classes="left"):
                yield Input(placeholder="filter: title, id or tag (f)", id="index-filter")
                tree: Tree[NodeData] = Tree("Memory", id="index-tree")
                tree.show_root = True
                tree.guide_depth = 2
                yield tree
                yield Label("loading…", id="index-status", classes="status")
            with Vertical(id="index-right", classes="right"):
                yield Static(id="entry-meta", classes="meta")
                yield Label("related (Enter follows)", id="related-label", classes="section")
                yield OptionList(id="entry-related")
                with VerticalScroll(id="entry-body-scroll"):
                    yield Markdown("", id="entry-body")

    def on_mount(self) -> None:
        self.query_one("#entry-related").display = False
        self.query_one("#related-label").display = False

    # -- data -----------------------------------------------------------------------
    def _load_then_apply(self) -> None:
        """Two phases: category counts from the catalog cache first (the first frame of a
        100k-entry store), then every summary after the cache is brought up to date."""
        if not self.model.summaries:
            quick = self._quick_model()
            if quick is not None:
                self.app.call_from_thread(self._apply_guarded, quick)
        super()._load_then_apply()

    def _quick_model(self) -> IndexModel | None:
        from memsearch_tui.engine.store.catalog import Catalog

        store = self.ctx.store
        if not store.exists():
            return None
        cat = Catalog(store.root)
        try:
            if not cat.populated():
                return None
            return IndexModel.from_totals(cat.totals(), store.categories())
        finally:
            cat.close()

    def _entries_of(self, category: str) -> list[Summary]:
        """Direct entries of ``category``; fetched from the catalog while the model is partial."""
        rows = self.model.entries_of.get(category)
        if rows is None and self.model.partial:
            from memsearch_tui.engine.store.catalog import Catalog

            cat = Catalog(self.ctx.store.root)
            try:  # the INDEX.md columns only: no tags to decode (the full model brings those)
                rows = [Summary(i, t, st, "", up, [], 0, 0) for i, t, st, up in cat.index_rows(category)]
            finally:
                cat.close()
            sort_rows(rows)
            self.model.entries_of[category] = rows
            self.model.summaries.update((r.id, r) for r in rows)
        return rows or []

    def load(self) -> IndexModel:
        store = self.ctx.store
        try:
            summaries = store.list()
        except NotFound as exc:
            return IndexModel(error=f"{exc}\n\nCreate it with: memsearch-tui --memory-root {self.ctx.memory_root} init")
        return IndexModel.build(summaries, store.categories())

    def apply(self, model: IndexModel) -> None:
        tree = self.tree
        keep = self.current
        expanded = self._expanded_keys()
        line = tree.scroll_offset
        self.model = model
        if model.error:
            tree.clear()
            self.status(model.error)
            return
        self._fill_root()
        if self._filter:
            self._apply_filter(self._filter)
        else:
            for key in sorted(expanded, key=lambda k: k.count("/")):
                node = self._find_cat(key)
                if node is not None:
                    node.expand()
                    self._populate(node)
            if keep and keep in model.summaries:
                self.select_entry(keep, focus=False)
            tree.scroll_to(y=line.y, animate=False)
        if keep and keep not in model.summaries and not model.partial:
            self.current = None
            self._clear_detail()
        total = model.counts.get("", 0)
        if not total and not model.partial:  # tui2: an empty store says what to press
            self.query_one("#entry-meta", Static).update(empty_store())
        self.status(
            f"{total} entries in {sum(1 for _ in self._all_cats())} categories"
            + (" · loading details…" if model.partial else "")
        )
        focused = self.app.focused
        shown = self.app.query_one("#tabs").active == self.pane_id
        if shown and (focused is None or not (focused is tree or self in focused.ancestors)):
            tree.focus()  # only while this pane is on screen: focusing it would switch tabs

    def _all_cats(self):
        for rows in self.model.children.values():
            yield from rows

    @property
    def tree(self) -> Tree[NodeData]:
        return self.query_one("#index-tree", Tree)

    def status(self, text: str) -> None:
        self.query_one("#index-status", Label).update(text)

    # -- tree building (lazy) -------------------------------------------------------
    def _fill_root(self) -> None:
        tree = self.tree
        tree.clear()
        m = self.model
        tree.root.set_label(category_label("INDEX", m.counts.get("", 0), m.flagged.get("", 0)))
        tree.root.data = NodeData("root", "", filled=True)
        self._add_children(tree.root, "")
        tree.root.expand()

    def _add_children(self, node: TreeNode[NodeData], category: str) -> None:
        m = self.model
        for child in m.children.get(category, []):
            name = child.rsplit("/", 1)[-1]
            node.add(
                category_label(name, m.counts.get(child, 0), m.flagged.get(child, 0)),
                NodeData("cat", child),
                allow_expand=True,
            )
        if category:
            self._add_batch(node, category, 0)

    def _add_batch(self, node: TreeNode[NodeData], category: str, start: int) -> None:
        rows = self._entries_of(category)
        for s in rows[start : start + BATCH]:
            node.add_leaf(entry_label(s), NodeData("entry", s.id))
        rest = len(rows) - (start + BATCH)
        if rest > 0:
            node.add_leaf(
                Text(f"… {rest} more (Enter loads {min(rest, BATCH)})", style="italic cyan"),
                NodeData("more", category, offset=start + BATCH),
            )

    def _populate(self, node: TreeNode[NodeData]) -> None:
        data = node.data
        if data is None or data.kind != "cat" or data.filled:
            return
        data.filled = True
        self._add_children(node, data.key)

    def _load_more(self, node: TreeNode[NodeData]) -> TreeNode[NodeData] | None:
        data = node.data
        parent = node.parent
        if data is None or parent is None:
            return None
        node.remove()
        before = len(parent.children)
        self._add_batch(parent, data.key, data.offset)
        return parent.children[before] if len(parent.children) > before else None

    def _find_cat(self, key: str, *, expand: bool = False) -> TreeNode[NodeData] | None:
        """The tree node of category ``key``, creating (and optionally expanding) its ancestors."""
        node = self.tree.root
        if not key:
            return node
        parts = key.split("/")
        for i in range(1, len(parts) + 1):
            want = "/".join(parts[:i])
            self._populate(node)
            if expand:
                node.expand()
            node = next((c for c in node.children if c.data and c.data.kind == "cat" and c.data.key == want), None)
            if node is None:
                return None
        return node

    def _expanded_keys(self) -> set[str]:
        out: set[str] = set()
        stack = list(self.tree.root.children)
        while stack:
            node = stack.pop()
            if node.data and node.data.kind == "cat" and node.is_expanded:
                out.add(node.data.key)
                stack.extend(node.children)
        return out

    def select_entry(self, entry_id: str, *, focus: bool = True) -> bool:
        """Reveal ``entry_id`` in the tree (expanding and loading batches) and select it."""
        s = self.model.summaries.get(entry_id)
        if s is None and self.model.partial:
            self.current = entry_id  # selected when the full model lands
            return False
        if s is None:
            self.app.notify(f"no entry '{entry_id}' in this store", severity="warning")
            return False
        if self._filter:
            self.query_one("#index-filter", Input).value = ""
            self._filter = ""
            self._fill_root()
        node = self._find_cat(s.category, expand=True)
        if node is None:
            return False
        self._populate(node)
        node.expand()
        target = None
        while target is None:
            target = next(
                (c for c in node.children if c.data and c.data.kind == "entry" and c.data.key == entry_id), None
            )
            more = next((c for c in node.children if c.data and c.data.kind == "more"), None)
            if target is None and more is None:
                return False
            if target is None and more is not None:
                self._load_more(more)
        _ = self.tree.last_line  # rebuilds the tree's line map so the new node has its line number
        self.tree.move_cursor(target)
        self.tree.scroll_to_node(target, animate=False)
        self.show_entry(entry_id)
        if focus:
            self.tree.focus()
        return True

    # -- events ---------------------------------------------------------------------
    @guard
    def on_tree_node_expanded(self, event: Tree.NodeExpanded[NodeData]) -> None:
        if event.node.tree is self.tree:
            self._populate(event.node)

    @guard
    def on_tree_node_highlighted(self, event: Tree.NodeHighlighted[NodeData]) -> None:
        if event.node.tree is not self.tree or event.node.data is None:
            return
        data = event.node.data
        if data.kind == "entry":
            self.show_entry(data.key)
        elif data.kind in ("cat", "root"):
            self.show_category(data.key)

    @guard
    def on_tree_node_selected(self, event: Tree.NodeSelected[NodeData]) -> None:
        if event.node.tree is not self.tree or event.node.data is None:
            return
        if event.node.data.kind == "more":
            nxt = self._load_more(event.node)
            if nxt is not None:
                self.tree.move_cursor(nxt)

    @guard
    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        if event.option_list.id == "entry-related" and event.option.id:
            self.select_entry(event.option.id)

    def on_input_changed(self, event: Input.Changed) -> None:
        if event.input.id != "index-filter":
            return
        if self._filter_timer is not None:
            self._filter_timer.stop()
        value = event.value
        self._filter_timer = self.set_timer(0.12, lambda: self._apply_filter(value))

    def on_input_submitted(self, event: Input.Submitted) -> None:
        if event.input.id == "index-filter":
            self.tree.focus()

    # -- detail ---------------------------------------------------------------------
    def show_entry(self, entry_id: str) -> None:
        if entry_id == self.current and self.query_one("#entry-meta", Static).visual:
            return
        try:
            entry = self.ctx.store.get(entry_id)
        except MemsearchError as exc:
            self.current = entry_id
            self.query_one("#entry-meta", Static).update(Text(str(exc), style="red"))
            self.query_one("#entry-body", Markdown).update("")
            return
        self.current = entry_id
        self.query_one("#entry-meta", Static).update(meta_table(entry))
        related = self.query_one("#entry-related", OptionList)
        related.clear_options()
        for rid in entry.related:
            s = self.model.summaries.get(rid)
            label = Text(rid) if s is None else Text.assemble((s.title, "bold"), ("  " + rid, "dim"))
            related.add_option(Option(label, id=rid))
        related.display = bool(entry.related)
        self.query_one("#related-label").display = bool(entry.related)
        self.query_one("#entry-body", Markdown).update(entry.body)
        self.query_one("#entry-body-scroll").scroll_home(animate=False)
        self._schedule_activation(entry_id)

    def _schedule_activation(self, entry_id: str) -> None:
        """Reading counts as activation (lifecycle): recorded once the entry stayed on screen."""
        if self._activation_timer is not None:
            self._activation_timer.stop()

        def fire() -> None:
            if self.current == entry_id:
                self.run_worker(
                    lambda: self._activate(entry_id),
                    thread=True,
                    group="activate",
                    exit_on_error=False,
                    name="record access",
                )

        self._activation_timer = self.set_timer(ACTIVATION_DELAY, fire)

    def _activate(self, entry_id: str) -> None:
        try:
            from memsearch_tui.engine.curator.lifecycle import touch_accessed
        except ImportError:
            return
        touch_accessed(self.ctx.store, entry_id)

    def show_category(self, key: str) -> None:
        self.current = None
        m = self.model
        name = key or "INDEX (root)"
        table = Table.grid(padding=(0, 1))
        table.add_column(style="bold dim")
        table.add_column()
        table.add_row("category", Text(name, style="bold"))
        here = len(m.entries_of[key]) if key in m.entries_of else "…"
        table.add_row("entries", f"{m.counts.get(key, 0)} (here: {here})")
        subs = m.children.get(key, [])
        table.add_row("subcategories", ", ".join(c.rsplit("/", 1)[-1] for c in subs) or "—")
        if m.flagged.get(key):
            table.add_row("not active", str(m.flagged[key]))
        self.query_one("#entry-meta", Static).update(table)
        self.query_one("#entry-related").display = False
        self.query_one("#related-label").display = False
        self.query_one("#entry-body", Markdown).update("")

    def _clear_detail(self) -> None:
        self.query_one("#entry-meta", Static).update("")
        self.query_one("#entry-body", Markdown).update("")

    # -- filter ---------------------------------------------------------------------
    def _apply_filter(self, text: str) -> None:
        self._filter = text.strip()
        q = self._filter.casefold()
        if not q:
            self._fill_root()
            self.status(f"{len(self.model.summaries)} entries")
            return
        tree = self.tree
        tree.clear()
        tree.root.data = NodeData("root", "", filled=True)
        hits: dict[str, list[Summary]] = {}
        n = 0
        for s in self.model.summaries.values():
            if q in s.title.casefold() or q in s.id.casefold() or any(q in t.casefold() for t in s.tags):
                hits.setdefault(s.category, []).append(s)
                n += 1
                if n >= FILTER_LIMIT:
                    break
        tree.root.set_label(Text(f"filter “{self._filter}”: {n}{'+' if n >= FILTER_LIMIT else ''} matches"))
        for cat in sorted(hits):
            node = tree.root.add(
                category_label(cat or "(root)", len(hits[cat]), 0), NodeData("cat", cat, filled=True), expand=True
            )
            for s in sorted(hits[cat], key=lambda s: s.title.casefold()):
                node.add_leaf(entry_label(s), NodeData("entry", s.id))
        tree.root.expand()
        self.status(f"{n} matching entries" if n else "no entry matches")
        first = next((c.children[0] for c in tree.root.children if c.children), None)
        if first is not None:
            _ = tree.last_line  # line numbers for the new nodes
            tree.move_cursor(first)

    # -- actions --------------------------------------------------------------------
    def action_focus_filter(self) -> None:
        self.query_one("#index-filter", Input).focus()

    def action_cursor(self, where: str) -> None:
        tree = self.tree
        tree.focus()
        {
            "down": tree.action_cursor_down,
            "up": tree.action_cursor_up,
            "top": tree.action_scroll_home,
            "bottom": tree.action_scroll_end,
        }[where]()
        if where == "top":
            tree.move_cursor(tree.root)
        elif where == "bottom":
            tree.cursor_line = tree.last_line

    def _selected_category(self) -> str:
        node = self.tree.cursor_node
        if node is None or node.data is None:
            return ""
        if node.data.kind == "entry":
            s = self.model.summaries.get(node.data.key)
            return s.category if s else ""
        return node.data.key if node.data.kind in ("cat", "more") else ""

    def _require_entry(self) -> str | None:
        if not self.current:
            self.app.notify("select an entry first", severity="warning")
            return None
        return self.current

    @guard
    def action_follow_related(self) -> None:
        related = self.query_one("#entry-related", OptionList)
        if not related.display or related.option_count == 0:
            self.app.notify("this entry has no related entries", severity="information")
            return
        related.focus()
        if related.highlighted is None:
            related.highlighted = 0

    @guard
    def action_add_entry(self) -> None:
        if not self.ctx.store.exists():  # tui2: first run, no store to add to: offer init first
            return self.app.offer_init()

        def done(result: dict[str, Any] | None) -> None:
            if result:
                self.app.call_later(self._add, result)

        self.app.push_screen(AddEntryModal(self._selected_category()), done)

    @guard
    def _add(self, data: dict[str, Any]) -> None:
        from memsearch_tui.engine.curator import versions

        out = versions.add_entry(self.ctx.store, data["category"], data["title"], data["body"], tags=data["tags"])
        entry_id = out["entry"]["id"]
        msg = f"added {entry_id}"
        if out.get("conflict"):
            msg = str(out["conflict"].get("message") or "conflict detected, both versions kept")
        self.app.notify(msg, title="Index")
        self.current = entry_id
        self.app.refresh_panes()

    @guard
    def action_edit_inline(self) -> None:
        entry_id = self._require_entry()
        if entry_id is None:
            return
        entry = self.ctx.store.get(entry_id)
        text = entry.to_bytes().decode("utf-8", errors="replace")

        def done(result: str | None) -> None:
            if result is not None and result != text:
                self.app.call_later(self._save_raw, entry_id, result.encode("utf-8"))

        self.app.push_screen(TextEditModal(f"Edit {entry_id}", text), done)

    @guard
    def _save_raw(self, entry_id: str, data: bytes) -> None:
        self.ctx.store.replace_raw(entry_id, data)
        self.app.notify(f"saved {entry_id}", title="Index")
        self.current = None
        self.show_entry(entry_id)
        self.app.refresh_panes()

    @guard
    def action_edit_external(self) -> None:
        entry_id = self._require_entry()
        if entry_id is None:
            return
        entry = self.ctx.store.get(entry_id)
        original = entry.to_bytes()
        editor = os.environ.get("VISUAL") or os.environ.get("EDITOR") or "vi"
        with tempfile.NamedTemporaryFile("wb", suffix=".md", prefix="memsearch-", delete=False) as tmp:
            tmp.write(original)
        path = Path(tmp.name)
        try:
            with self.app.suspend():
                subprocess.run([*editor.split(), str(path)], check=False)
            edited = path.read_bytes()
        except OSError as exc:
            self.app.notify(f"could not run {editor!r}: {exc}", severity="error")
            path.unlink(missing_ok=True)
            return
        if edited == original:
            path.unlink(missing_ok=True)
            self.app.notify("no changes")
            return
        try:
            self.ctx.store.replace_raw(entry_id, edited)
        except MemsearchError as exc:
            self.app.notify(f"{exc}\nYour text is kept in {path}", severity="error", timeout=15)
            return
        path.unlink(missing_ok=True)
        self.app.notify(f"saved {entry_id}", title="Index")
        self.current = None
        self.show_entry(entry_id)
        self.app.refresh_panes()

    @guard
    def action_archive_entry(self) -> None:
        entry_id = self._require_entry()
        if entry_id is None:
            return
        try:
            from memsearch_tui.engine.curator import lifecycle
        except ImportError:
            self.app.notify("archiving is not available yet in this engine", severity="warning")
            return

        def done(ok: bool | None) -> None:
            if ok:
                self.app.call_later(self._archive, lifecycle, entry_id)

        self.app.push_screen(
            ConfirmModal("Archive entry", f"Move {entry_id} to archived/? (u undoes)", confirm="Archive", danger=False),
            done,
        )

    @guard
    def _archive(self, lifecycle, entry_id: str) -> None:
        lifecycle.archive(self.ctx.store, entry_id)
        self.app.notify(f"archived {entry_id}", title="Index")
        self.app.refresh_panes()

    @guard
    def action_trash_entry(self) -> None:
        entry_id = self._require_entry()
        if entry_id is None:
            return
        try:
            from memsearch_tui.engine.curator import trash
        except ImportError:
            self.app.notify("trash is not available yet in this engine", severity="warning")
            return

        def done(ok: bool | None) -> None:
            if ok:
                self.app.call_later(self._trash, trash, entry_id)

        self.app.push_screen(
            ConfirmModal(
                "Move to trash", f"Move {entry_id} to the trash? It can be restored from the Trash pane (or u undoes)."
            ),
            done,
        )

    @guard
    def _trash(self, trash, entry_id: str) -> None:
        trash.trash(self.ctx.store, entry_id, reason="trashed in the TUI")
        self.app.notify(f"moved {entry_id} to the trash", title="Index")
        self.current = None
        self.app.refresh_panes()
