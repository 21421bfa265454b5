"""Search pane helpers: hit labels with titles, the ``in:category`` scope, title look-up."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from rich.text import Text

from memsearch_tui.tui.text import printable, tone, untrusted


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


def hit_label(widget, h: Any, titles: dict[str, str]) -> Text:
    """Title (or file name) in bold, where it is dim, and the heading it falls under."""
    title = titles.get(h.id) or (h.id if h.source == "store" else Path(h.path).name)
    label = untrusted(title, "bold", keep_newlines=False)
    where = h.id if h.source == "store" else f"{Path(h.path).name}:{h.start}"
    label.append(f"  {h.source}", style=tone(widget, "accent"))
    if where != title:
        label.append(f" · {printable(where, keep_newlines=False)}", style="dim")  # a folder name
    if h.heading:
        label.append("\n")
        label.append_text(untrusted(h.heading, "dim", keep_newlines=False))
    return label


def _as_dict(record: Any) -> dict[str, Any] | None:
    """An explain record as a dict: the API gives dicts, the engine's records have ``as_dict``."""
    if record is None or isinstance(record, dict):
        return record
    out: dict[str, Any] = record.as_dict()
    return out


def _leg_line(name: str, leg: dict[str, Any] | None) -> str:
    if leg is None:
        return f"{name:8} not used"
    if leg.get("rank") is None:
        return f"{name:8} not in its ranking"
    return f"{name:8} #{leg['rank']}  score {leg['score']:.4g}"


def _weights_line(w: dict[str, Any] | None) -> str:
    if w is None:
        return "—"
    if w["method"] in ("convex", "rrf"):
        return f"{w['method']}: vector {w['dense']:g} / keyword {w['keyword']:g} — {w['why']}"
    return f"{w['method']} — {w['why']}"


def explain_text(hit: Any, query_explain: Any, position: int) -> str:
    """Why one hit ranks where it does, one fact per line: the tier, each leg's rank and
    score, the fusion weights and why, the matched terms, a boost (plain text: it quotes
    the query and file text, shown in a read-only viewer)."""
    e = _as_dict(getattr(hit, "explain", None))
    if e is None:
        return "No explanation was recorded for this hit; press Enter in the box to search again."
    q = _as_dict(query_explain)
    matched = ", ".join(e.get("matched") or ()) or "no query term (found by meaning only)"
    lines = [
        f"hit #{position} · score {e['score']:.4g} · found by {e['tier']}",
        "",
        _leg_line("keyword", e.get("keyword")),
        _leg_line("vector", e.get("dense")),
        "",
        f"weights  {_weights_line(e.get('weights'))}",
        f"matched  {matched}",
    ]
    if e.get("boost"):
        lines.append(f"boost    {e['boost']}")
    if q is not None:
        lines += [
            "",
            f"query terms  {', '.join(q['terms']) or '—'} (script: {q['script']})",
            f"model        {q['model']} reads {q['model_languages']}",
        ]
        if q.get("weights") is not None:
            lines.append(f"fusion       {_weights_line(q['weights'])}")
    return "\n".join(lines)
