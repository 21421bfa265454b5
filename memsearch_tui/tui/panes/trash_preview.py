"""The Trash pane's preview: a trashed entry's frontmatter and body, before restoring it."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from memsearch_tui.tui.actions import key_of, undoes
from memsearch_tui.tui.text import Squeezed, printable, tone, untrusted

if TYPE_CHECKING:
    from memsearch_tui.engine.api.records import TrashItem, TrashPreview
    from memsearch_tui.tui.panes.base import Pane

SHOWN_KEYS = ("title", "status", "created", "updated", "tags", "archived")


def preview_parts(
    widget: Pane, item: TrashItem | None, p: TrashPreview | None = None
) -> tuple[RenderableType, str, Text]:
    """What the preview shows for ``item`` (None: nothing selected): the head (title,
    frontmatter, problem), the body as Markdown source (drawn like the Index's detail),
    and the keys that act on it. ``p``: its ``mem.trash.preview`` when the caller
    already read it."""
    if item is None:
        return Text("Nothing to preview.", style="dim"), "", Text("")
    p = p if p is not None else widget.ctx.mem.trash.preview(item)
    meta = Table.grid(padding=(0, 1))
    meta.add_column(style="bold dim", no_wrap=True)
    meta.add_column()
    meta.add_row("from", Squeezed(item.original_id))
    meta.add_row("trashed", f"{item.trashed} · purge after {item.purge_after}")
    if item.reason:
        meta.add_row("reason", untrusted(item.reason, keep_newlines=False))
    for key in SHOWN_KEYS:
        if key in p.meta and key != "title":
            value = p.meta[key]
            meta.add_row(
                key, untrusted(", ".join(map(str, value)) if isinstance(value, list) else value, keep_newlines=False)
            )
    parts: list[Any] = [untrusted(p.meta.get("title") or item.title, "bold", keep_newlines=False), meta]
    if p.problem:
        parts.append(untrusted(p.problem, tone(widget, "warning"), keep_newlines=False))
    keymap = widget.app.keymap
    keys = Text(
        f"{key_of(keymap, 'trash.restore')} restores it ({undoes(keymap)}) · "
        f"{key_of(keymap, 'trash.purge')} purges it for good",
        style="dim",
    )
    return Group(*parts), printable(p.body), keys
