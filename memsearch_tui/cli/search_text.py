"""How a search result reads in a terminal (shared by the Typer command and the fast path)."""

from __future__ import annotations

from memsearch_tui.engine.api.text import plural  # re only: light enough for the fast path

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (the fast path races grep)
if TYPE_CHECKING:
    from typing import Any


def search_text(res: dict[str, Any]) -> str:
    """Header line (hits, strategy and why, time), then one numbered line + snippet per hit.

    ``res``: a SearchResult as JSON (``to_json``), which both search paths produce."""
    hits = res["hits"]
    lines = [f"{plural(len(hits), 'hit')} · {res['strategy']} ({res['reason']}) · {res['took_ms']:.0f} ms"]
    lines += [f"note: {n}" for n in res["notes"]]
    for i, h in enumerate(hits, 1):
        start, end = h["lines"]
        where = f"L{start}" if start == end else f"L{start}-{end}"
        head = f"  {h['heading']}" if h["heading"] else ""
        title = h["title"]
        name = f"{h['id']}  “{title}”" if title and title != h["id"] else h["id"]
        lines.append(f"{i:>2}. {name}  {where}{head}  [{h['score']:.3g}]")
        if h["snippet"]:
            lines.append(f"    {h['snippet']}")
    return "\n".join(lines)
