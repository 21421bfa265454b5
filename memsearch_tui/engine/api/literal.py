"""The searches as the CLI's fast path runs them: no store, no ``Memory``, no ``typing``.

``search -s grep`` races ``grep -ri``, so :func:`literal_json` imports only the literal
search and writes each hit's values (in :class:`.search.hit.SearchHit`'s field order,
:data:`HIT_FIELDS`) as that record's JSON, without the dataclass machinery;
:func:`indexed_json` runs any other strategy on a one-shot Searcher, as ``mem.search.query``
does, and serialises its ``SearchHit`` records with ``to_json``, without loading the store
or the API's other nouns (a hybrid CLI search's budget is 0.3 s). :func:`titled` is the one
title rule both paths and ``mem.search`` apply.
"""

from __future__ import annotations

from memsearch_tui.engine.search.results import HIT_FIELDS

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing
if TYPE_CHECKING:
    from pathlib import Path
    from typing import Any

    from memsearch_tui.engine.search.hit import SearchHit
    from memsearch_tui.engine.search.results import SearchRun as EngineResult


def change_scan(memory_root: Path) -> object:
    """Start the store's change scan at once, so it runs while the rest of a search loads."""
    from memsearch_tui.engine.search.change_scan import ChangeScan

    return ChangeScan(memory_root)


def literal_json(
    memory_root: Path, project: Path, query: str, k: int, category: str | None, source: str, scan: object = None
) -> dict[str, Any]:
    """A literal search's result as ``to_json`` of the API's SearchResult gives it."""
    from memsearch_tui.engine.api import limits
    from memsearch_tui.engine.search.grep import literal_values
    from memsearch_tui.engine.search.results import SearchRun

    limits.text("query", query, limits.QUERY)  # the API's bound, as ``mem.search.query`` applies it
    query, rows, files, ms = literal_values(memory_root, project, query, k, category, source, scan)  # type: ignore[arg-type]
    fields = result_fields(SearchRun(query, "grep", "grep", "--strategy grep", (), files, ms))
    notes, explain = fields.pop("notes") + no_store(memory_root, source), fields.pop("explain")
    hits = []
    for v in rows:
        hit: dict[str, Any] = dict(zip(HIT_FIELDS, v))
        hit["title"] = hit["title"] or file_title(hit["kind"], hit["path"])
        hit["lines"], hit["explain"] = list(hit["lines"]), None
        hits.append(hit)
    return {**fields, "hits": hits, "notes": notes, "explain": explain}  # the dataclass's order


def indexed_json(
    memory_root: Path, project: Path, query: str, k: int, strategy: str, category: str | None, source: str
) -> dict[str, Any]:
    """``to_json(mem.search.query(…))`` for a strategy other than grep, from a one-shot Searcher."""
    from memsearch_tui.engine.api import limits
    from memsearch_tui.engine.search.searcher import Searcher

    limits.text("query", query, limits.QUERY)
    args = {"query": query, "strategy": strategy, "k": k, "category": category, "source": source}
    served = nothing_here(memory_root, project, query, strategy, source) or _from_owner(memory_root, project, args)
    if served is not None:
        res = served
    else:
        with Searcher(memory_root, project) as searcher:
            res = searcher.search(query, strategy=strategy, k=k, category=category, source=source)
    missing = [h.id for h in res.hits if h.source == "store" and not h.title]
    titles = catalog_titles(memory_root, missing)
    from memsearch_tui.engine.api.serialise import to_json

    fields = result_fields(res)
    notes, explain = fields.pop("notes") + no_store(memory_root, source), fields.pop("explain")
    hits = [to_json(titled(h, titles)) for h in res.hits]
    return {**fields, "hits": hits, "notes": notes, "explain": explain}


def _from_owner(memory_root: Path, project: Path, args: dict[str, Any]) -> EngineResult | None:
    """The answer of the face that owns this project's warm index (the app or the MCP server
    open on it: ``engine.api.warm_share``), the files re-checked first; None: search here."""
    from pathlib import Path

    from memsearch_tui.engine.search.owner_wire import ask_search, owner_key
    from memsearch_tui.engine.search.settings import state_dir_for

    root, proj = Path(memory_root).expanduser().absolute(), Path(project).absolute()  # as Memory names them
    got = ask_search(state_dir_for(root), owner_key(proj), root, proj, args, True)
    return got[0] if got is not None else None


def no_store(memory_root: Path, source: str) -> list[str]:
    """A one-line note when ``memory_root`` holds no store (a mistyped ``--memory-root``,
    a file, a root never initialised), so the search's "0 hits" (or journal hits only) is
    not read as an empty store; [] when it holds one, or only journals were asked for.
    One stat on the one-shot path (``os``, already loaded; no ``pathlib`` call)."""
    if source == "journal":
        return []
    from os import path

    root = str(memory_root)
    if path.isfile(path.join(root, "INDEX.md")):  # engine.core.paths.INDEX
        return []
    why = "no such folder" if not path.exists(root) else "not a folder" if not path.isdir(root) else "no INDEX.md"
    return [f"{root}: no memory store here ({why})"]


def nothing_here(memory_root: Path, project: Path, query: str, strategy: str, source: str) -> EngineResult | None:
    """An empty answer at once when there is nothing to search: ``memory_root`` holds no
    store (:func:`no_store` adds its note) and the project has no journal, PROJECT.md or
    USER.md (or only the store was asked for); None otherwise. A mistyped ``--memory-root``
    loaded the embedding model (~2.5 s) to search 0 files."""
    from memsearch_tui.engine.search.results import SearchRun
    from memsearch_tui.engine.search.sources import project_files

    if not no_store(memory_root, source) or (source != "store" and next(project_files(project), None) is not None):
        return None
    return SearchRun(query, strategy, strategy, "no files to search")


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


def titled(hit: SearchHit, titles: dict[str, str] | None = None) -> SearchHit:
    """``hit`` with a title: its own, else the catalog's (``titles``: id → title), else its file's name."""
    if hit.title:
        return hit
    from dataclasses import replace  # only once a hit lacks its title (the indexed paths load it anyway)

    return replace(hit, title=(titles or {}).get(hit.id) or file_title(hit.kind, hit.path))


def file_title(kind: str, path: str) -> str:
    """What a person calls a file that is not an entry with a title."""
    name = path.replace("\\", "/").rsplit("/", 1)[-1]
    return name if kind in ("project", "user", "index") else name.removesuffix(".md")
