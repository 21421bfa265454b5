"""Search pane helpers: hit labels with titles, the ``in:category`` scope, title look-up."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from rich.console import Group, RenderableType

from memsearch_tui.tui.text import Squeezed, tone, untrusted


def split_scope(query: str) -> tuple[str, str | None]:
    """``in:projects/web charts`` → ("charts", "projects/web"): a category filter typed inline."""
    words = query.split()
    scope = next((w[3:] for w in words if w.startswith("in:") and len(w) > 3), None)
    return " ".join(w for w in words if not w.startswith("in:")), scope.strip("/") if scope else None


def titles_for(store, hits: list[Any]) -> dict[str, str]:
    """Entry titles of the store hits, from the catalog (no file is parsed); worker thread."""
    ids = [h.id for h in hits if h.source == "store" and not getattr(h, "title", "")]
    out = {h.id: h.title for h in hits if getattr(h, "title", "")}
    if not ids or not store.exists():
        return out
    from memsearch_tui.engine.store.catalog import Catalog

    cat = Catalog(store.root)
    try:
        for entry_id in ids:
            row = cat.index_row(entry_id)
            if row is not None:
                out[entry_id] = row[0]
    finally:
        cat.close()
    return out


#: what a hit is, by its kind: PROJECT.md and USER.md are notes (the Notes pane), not a journal
KIND_LABEL = {"entry": "store", "journal": "journal", "project": "note", "user": "note"}


def hit_kind(h: Any) -> str:
    """``store``, ``journal`` or ``note`` (PROJECT.md, USER.md): what the hit is."""
    return KIND_LABEL.get(getattr(h, "kind", ""), h.source)


def hit_label(widget: Any, h: Any, titles: dict[str, str]) -> RenderableType:
    """Title (or file name) in bold and what it is; where it is, dim (an id or path loses
    its middle to fit one line); the heading it falls under."""
    title = titles.get(h.id) or (h.id if h.source == "store" else Path(h.path).name)
    label = untrusted(title, "bold", keep_newlines=False)
    where = h.id if h.source == "store" else f"{Path(h.path).name}:{h.start}"
    label.append(f"  {hit_kind(h)}", style=tone(widget, "accent"))
    parts: list[RenderableType] = [label]
    if where != title:
        parts.append(Squeezed(where, "dim"))  # a folder name
    if h.heading:
        parts.append(untrusted(h.heading, "dim", keep_newlines=False))
    return Group(*parts)
