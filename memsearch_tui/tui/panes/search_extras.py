"""Search pane helpers: hit labels with titles, the ``in:category`` scope."""

from __future__ import annotations

from pathlib import Path

from rich.console import Group, RenderableType
from textual.widget import Widget

from memsearch_tui.engine.api.types import SearchHit
from memsearch_tui.tui.text import Squeezed, tone, untrusted


def split_scope(query: str) -> tuple[str, str | None]:
    """``in:projects/web charts`` → ("charts", "projects/web"): a category filter typed inline."""
    words = query.split()
    scope = next((w[3:] for w in words if w.startswith("in:") and len(w) > 3), None)
    return " ".join(w for w in words if not w.startswith("in:")), scope.strip("/") if scope else None


#: what a hit is, by its kind: PROJECT.md and USER.md are notes (the Notes pane), not a journal
KIND_LABEL = {"entry": "store", "journal": "journal", "project": "note", "user": "note"}


def hit_kind(h: SearchHit) -> str:
    """``store``, ``journal`` or ``note`` (PROJECT.md, USER.md): what the hit is."""
    return KIND_LABEL.get(h.kind, h.source)


def hit_label(widget: Widget, h: SearchHit, titles: dict[str, str]) -> RenderableType:
    """Title (or file name) in bold and what it is; where it is, dim (an id or path loses
    its middle to fit one line); the heading it falls under."""
    title = titles.get(h.id) or (h.id if h.source == "store" else Path(h.path).name)
    label = untrusted(title, "bold", keep_newlines=False)
    where = h.id if h.source == "store" else f"{Path(h.path).name}:{h.lines[0]}"
    label.append(f"  {hit_kind(h)}", style=tone(widget, "accent"))
    parts: list[RenderableType] = [label]
    if where != title:
        parts.append(Squeezed(where, "dim"))  # a folder name
    if h.heading:
        parts.append(untrusted(h.heading, "dim", keep_newlines=False))
    return Group(*parts)
