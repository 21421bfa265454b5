"""The searches as the CLI's fast path runs them: no store, no ``Memory``, no ``typing``.

``search -s grep`` races ``grep -ri``, so :func:`literal_json` imports only the literal
search and builds the result's JSON without the dataclass machinery; :func:`indexed_json`
runs any other strategy on a one-shot Searcher, as ``mem.search.query`` does, without
loading the store or the API's other nouns (a hybrid CLI search's budget is 0.3 s).
:func:`hit_fields` is the one mapping of an engine hit to the API's fields:
:func:`.search.result` builds its ``SearchHit`` from the same dict, so both paths give
every face the same fields.
"""

from __future__ import annotations

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing
if TYPE_CHECKING:
    from pathlib import Path
    from typing import Any

    from memsearch_tui.engine.search.results import Hit
    from memsearch_tui.engine.search.results import SearchRun as EngineResult


def change_scan(memory_root: Path) -> object:
    """Start the store's change scan at once, so it runs while the rest of a search loads."""
    from memsearch_tui.engine.search.change_scan import ChangeScan

    return ChangeScan(memory_root)


def literal_json(
    memory_root: Path, project: Path, query: str, k: int, category: str | None, source: str, scan: object = None
) -> dict[str, Any]:
    """A literal search's result as ``to_json`` of the API's SearchResult gives it."""
    from memsearch_tui.engine.search.grep import literal_search

    res = literal_search(memory_root, project, query, k, category, source, scan)  # type: ignore[arg-type]
    fields = result_fields(res)
    notes, explain = fields.pop("notes"), fields.pop("explain")
    return {
        **fields,
        "hits": [hit_fields(h) for h in res.hits],
        "notes": notes,
        "explain": explain,
    }  # the dataclass's order


def indexed_json(
    memory_root: Path, project: Path, query: str, k: int, strategy: str, category: str | None, source: str
) -> dict[str, Any]:
    """``to_json(mem.search.query(…))`` for a strategy other than grep, from a one-shot Searcher."""
    from memsearch_tui.engine.api import limits
    from memsearch_tui.engine.search.searcher import Searcher

    limits.text("query", query, limits.QUERY)
    with Searcher(memory_root, project) as searcher:
        res = searcher.search(query, strategy=strategy, k=k, category=category, source=source)
    missing = [h.id for h in res.hits if h.source == "store" and not h.title]
    titles = catalog_titles(memory_root, missing)
    fields = result_fields(res)
    notes, explain = fields.pop("notes"), fields.pop("explain")
    return {**fields, "hits": [hit_fields(h, titles) for h in res.hits], "notes": notes, "explain": explain}


def catalog_titles(memory_root: Path, ids: list[str]) -> dict[str, str]:
    """id → title for the ids the store's catalog knows (search hits); {} if it cannot say."""
    if not ids:
        return {}
    from memsearch_tui.engine.core.errors import MemsearchError
    from memsearch_tui.engine.core.paths import INDEX
    from memsearch_tui.engine.store.catalog import Catalog

    if not (memory_root / INDEX).is_file():
        return {}
    cat = Catalog(memory_root)
    try:
        entries = cat.entries
        return {i: entries[i].title for i in ids if i in entries}
    except (MemsearchError, OSError, KeyError, ValueError):
        return {}
    finally:
        cat.close()


def result_fields(res: EngineResult) -> dict[str, Any]:
    """The API SearchResult's fields but ``hits``, in its order."""
    return {
        "query": res.query,
        "strategy": res.strategy,
        "requested": res.requested,
        "reason": res.reason,
        "files": res.files,
        "took_ms": round(res.took_ms, 1),
        "notes": list(res.notes),
        "explain": res.explain.as_dict() if res.explain is not None else None,
    }


def hit_fields(h: Hit, titles: dict[str, str] | None = None) -> dict[str, Any]:
    """An engine hit as the API SearchHit's fields (``lines`` a list, as JSON has it)."""
    title = h.title or (titles or {}).get(h.id) or file_title(h.kind, h.path)
    return {
        "id": h.id,
        "path": h.path,
        "source": h.source,
        "kind": h.kind,
        "title": title,
        "heading": h.heading or "",
        "lines": [int(h.start), int(h.end)],
        "snippet": h.snippet or "",
        "score": float(h.score),
        "turn": h.turn or "",
        "chunk_id": h.chunk_id or "",
        "explain": h.explain.as_dict() if h.explain is not None else None,
    }


def file_title(kind: str, path: str) -> str:
    """What a person calls a file that is not an entry with a title."""
    name = path.replace("\\", "/").rsplit("/", 1)[-1]
    return name if kind in ("project", "user", "index") else name.removesuffix(".md")
