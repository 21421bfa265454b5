"""Search pane helpers: hit labels with titles, the ``in:category`` scope."""

from __future__ import annotations

from pathlib import Path

from rich.text import Text
from textual.widget import Widget

from memsearch_tui.engine.api.types import SearchHit
from memsearch_tui.tui.text import printable, tone, untrusted


def split_scope(query: str) -> tuple[str, str | None]:
    """``in:projects/web charts`` → ("charts", "projects/web"): a category filter typed inline."""
    words = query.split()
    scope = next((w[3:] for w in words if w.startswith("in:") and len(w) > 3), None)
    return " ".join(w for w in words if not w.startswith("in:")), scope.strip("/") if scope else None


def hit_label(widget: Widget, h: SearchHit, titles: dict[str, str]) -> Text:
    """Title (or file name) in bold, where it is dim, and the heading it falls under."""
    title = titles.get(h.id) or (h.id if h.source == "store" else Path(h.path).name)
    label = untrusted(title, "bold", keep_newlines=False)
    where = h.id if h.source == "store" else f"{Path(h.path).name}:{h.lines[0]}"
    label.append(f"  {h.source}", style=tone(widget, "accent"))
    if where != title:
        label.append(f" · {printable(where, keep_newlines=False)}", style="dim")  # a folder name
    if h.heading:
        label.append("\n")
        label.append_text(untrusted(h.heading, "dim", keep_newlines=False))
    return label
