"""Search pane helpers: hit labels with titles, the ``in:category`` scope."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from rich.console import Group, RenderableType
from textual.widget import Widget

from memsearch_tui.engine.api.types import SearchHit

if TYPE_CHECKING:
    from memsearch_tui.engine.api.records import Leg, QueryExplain, Weights
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


def _leg_line(name: str, leg: Leg | None) -> str:
    if leg is None:
        return f"{name:8} not used"
    if leg.rank is None:
        return f"{name:8} not in its ranking"
    return f"{name:8} #{leg.rank}  score {leg.score:.4g}"


def _weights_line(w: Weights | None) -> str:
    if w is None:
        return "—"
    if w.method in ("convex", "rrf"):
        return f"{w.method}: vector {w.dense:g} / keyword {w.keyword:g} — {w.why}"
    return f"{w.method} — {w.why}"


def explain_text(hit: SearchHit, query_explain: QueryExplain | None, position: int) -> str:
    """Why one hit ranks where it does, one fact per line: the tier, each leg's rank and
    score, the fusion weights and why, the matched terms, a boost (plain text: it quotes
    the query and file text, shown in a read-only viewer)."""
    e = hit.explain
    if e is None:
        return "No explanation was recorded for this hit; press Enter in the box to search again."
    q = query_explain
    matched = ", ".join(e.matched) or "no query term (found by meaning only)"
    lines = [
        f"hit #{position} · score {e.score:.4g} · found by {e.tier}",
        "",
        _leg_line("keyword", e.keyword),
        _leg_line("vector", e.dense),
        "",
        f"weights  {_weights_line(e.weights)}",
        f"matched  {matched}",
    ]
    if e.boost:
        lines.append(f"boost    {e.boost}")
    if q is not None:
        lines += ["", f"query terms  {', '.join(q.terms) or '—'} (script: {q.script})"]
        if q.model:  # none for a literal search as you type: it reads no model
            lines.append(f"model        {q.model} reads {q.model_languages}")
        if q.weights is not None:
            lines.append(f"fusion       {_weights_line(q.weights)}")
    return "\n".join(lines)
