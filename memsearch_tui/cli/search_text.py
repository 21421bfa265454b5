"""How a search result reads in a terminal (shared by the Typer command and the fast path)."""

from __future__ import annotations

from memsearch_tui.engine.core.text import plural  # re only: light enough for the fast path


def search_text(res: object) -> str:
    """Header line (hits, strategy and why, time), then one numbered line + snippet per hit.

    ``res`` is an engine ``SearchResult``; not imported here to keep this typing-free.
    """
    lines = [f"{plural(len(res.hits), 'hit')} · {res.strategy} ({res.reason}) · {res.took_ms:.0f} ms"]
    lines += [f"note: {n}" for n in res.notes]
    q = getattr(res, "explain", None)
    if q is not None:
        lines.append(
            f"explain: terms {', '.join(q.terms) or '—'} · query script {q.script} · model {q.model} reads {q.model_languages}"
        )
        if q.weights is not None:
            lines.append(f"explain: fusion {_weights(q.weights)}")
    for i, h in enumerate(res.hits, 1):
        where = f"L{h.start}" if h.start == h.end else f"L{h.start}-{h.end}"
        head = f"  {h.heading}" if h.heading else ""
        title = getattr(h, "title", "")
        name = f"{h.id}  “{title}”" if title and title != h.id else h.id
        lines.append(f"{i:>2}. {name}  {where}{head}  [{h.score:.3g}]")
        if h.snippet:
            lines.append(f"    {h.snippet}")
        if getattr(h, "explain", None) is not None:
            lines.append(f"    why: {_why(h.explain, q.weights if q is not None else None)}")
    return "\n".join(lines)


def _leg(name: str, leg: object) -> str:
    if leg is None:
        return ""
    if leg.rank is None:
        return f"{name} —"
    return f"{name} #{leg.rank} ({leg.score:.3g})"


def _weights(w: object) -> str:
    if w.method in ("convex", "rrf"):
        return f"{w.method}, vector {w.dense:g} / keyword {w.keyword:g} ({w.why})"
    return f"{w.method} ({w.why})"


def _why(e: object, query_weights: object) -> str:
    """One line: the tier, each leg's rank and score, the weights where they differ from
    the query's (a chunk the model cannot read), the matched terms."""
    parts = [e.tier] + [p for p in (_leg("keyword", e.keyword), _leg("vector", e.dense)) if p]
    if e.weights is not None and e.tier == "hybrid" and e.weights != query_weights:
        parts.append(_weights(e.weights))
    parts.append("matched " + (", ".join(e.matched) if e.matched else "no query term (meaning only)"))
    if getattr(e, "boost", ""):
        parts.append(e.boost)
    return " · ".join(parts)
