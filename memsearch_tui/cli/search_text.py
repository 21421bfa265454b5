"""How a search result reads in a terminal (shared by the Typer command and the fast path)."""

from __future__ import annotations

from memsearch_tui.engine.core.text import plural  # re only: light enough for the fast path


def search_text(res: object) -> str:
    """Header line (hits, strategy and why, time), then one numbered line + snippet per hit.

    ``res`` is an engine ``SearchResult``; not imported here to keep this typing-free.
    """
    lines = [f"{plural(len(res.hits), 'hit')} · {res.strategy} ({res.reason}) · {res.took_ms:.0f} ms"]
    lines += [f"note: {n}" for n in res.notes]
    for i, h in enumerate(res.hits, 1):
        where = f"L{h.start}" if h.start == h.end else f"L{h.start}-{h.end}"
        head = f"  {h.heading}" if h.heading else ""
        title = getattr(h, "title", "")
        name = f"{h.id}  “{title}”" if title and title != h.id else h.id
        lines.append(f"{i:>2}. {name}  {where}{head}  [{h.score:.3g}]")
        if h.snippet:
            lines.append(f"    {h.snippet}")
    return "\n".join(lines)
