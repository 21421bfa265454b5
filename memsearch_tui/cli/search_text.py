"""How a search result reads in a terminal (shared by the Typer command and the fast path)."""

from __future__ import annotations

from memsearch_tui.engine.api.text import plural  # re only: light enough for the fast path

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (the fast path races grep)
if TYPE_CHECKING:
    from typing import Any


def search_text(res: dict[str, Any]) -> str:
    """Header line (hits, strategy and why, time), then one numbered line + snippet per hit.

    ``res``: a SearchResult as JSON (``to_json``), which both search paths produce; with
    ``explain`` (``search --explain``) a query line and a "why" line per hit."""
    hits = res["hits"]
    lines = [f"{plural(len(hits), 'hit')} · {res['strategy']} ({res['reason']}) · {res['took_ms']:.0f} ms"]
    lines += [f"note: {n}" for n in res["notes"]]
    q = res.get("explain")
    if q is not None:
        terms = ", ".join(q["terms"]) or "—"
        lines.append(
            f"explain: terms {terms} · query script {q['script']} · model {q['model']} reads {q['model_languages']}"
        )
        if q.get("weights") is not None:
            lines.append(f"explain: fusion {_weights(q['weights'])}")
        if q.get("spelling"):
            lines.append(f"explain: spelling {', '.join(q['spelling'])}")
        if q.get("window"):
            lines.append(f"explain: time window {q['window']}")
    for i, h in enumerate(hits, 1):
        start, end = h["lines"]
        where = f"L{start}" if start == end else f"L{start}-{end}"
        head = f"  {h['heading']}" if h["heading"] else ""
        title = h["title"]
        name = f"{h['id']}  “{title}”" if title and title != h["id"] else h["id"]
        lines.append(f"{i:>2}. {name}  {where}{head}  [{h['score']:.3g}]")
        if h["snippet"]:
            lines.append(f"    {h['snippet']}")
        if h.get("explain") is not None:
            lines.append(f"    why: {_why(h['explain'], q['weights'] if q is not None else None)}")
    return "\n".join(lines)


def _leg(name: str, leg: dict[str, Any] | None) -> str:
    if leg is None:
        return ""
    if leg["rank"] is None:
        return f"{name} —"
    return f"{name} #{leg['rank']} ({leg['score']:.3g})"


def _weights(w: dict[str, Any]) -> str:
    if w["method"] in ("convex", "rrf"):
        return f"{w['method']}, vector {w['dense']:g} / keyword {w['keyword']:g} ({w['why']})"
    return f"{w['method']} ({w['why']})"


def _why(e: dict[str, Any], query_weights: dict[str, Any] | None) -> str:
    """One line: the tier, each leg's rank and score, the weights where they differ from
    the query's (a chunk the model cannot read), the matched terms."""
    parts = [e["tier"]] + [p for p in (_leg("keyword", e.get("keyword")), _leg("vector", e.get("dense"))) if p]
    if e.get("weights") is not None and e["tier"] == "hybrid" and e["weights"] != query_weights:
        parts.append(_weights(e["weights"]))
    matched = e.get("matched") or []
    parts.append("matched " + (", ".join(matched) if matched else "no query term (meaning only)"))
    if e.get("boost"):
        parts.append(e["boost"])
    return " · ".join(parts)
