"""``search --batch``: one JSON query per line in, one JSON result per line out.

The model and Milvus are opened once for the whole stream, so scripts, agents and the
evaluation benchmarks pay the start-up cost a single time. A bad line yields an error
object on its own line and the stream goes on. A line's own ``strategy``, ``k``,
``category``, ``source``, ``since``, ``until`` and ``explain`` override the batch's (the
command line's flags), which apply to every other line.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from typing import IO, Any

from memsearch_tui.engine.core.errors import MemsearchError
from memsearch_tui.engine.core.safe_io import loads_json
from memsearch_tui.engine.search.results import SearchRun
from memsearch_tui.engine.search.searcher import Searcher


def run_batch(
    searcher: Searcher,
    lines: IO[str],
    *,
    strategy: str = "auto",
    k: int = 10,
    category: str | None = None,
    source: str = "all",
    since: str | None = None,
    until: str | None = None,
    explain: bool = False,
    render: Callable[[SearchRun], Any],
    check: Callable[[str, Any], object] = lambda name, value: value,
) -> Iterator[dict[str, Any]]:
    """Yield one ``{"id", "ok", "data", "error"}`` dict per non-blank input line
    (``data``: ``render`` of the result; ``engine.api`` passes its own converter;
    ``check(name, value)`` bounds a line's text fields: the caller's limits)."""
    for n, line in enumerate(lines, 1):
        if not line.strip():
            continue
        qid = None
        try:
            obj = loads_json(line)  # deep nesting is a ValueError: that line's error row
            if not isinstance(obj, dict) or not isinstance(obj.get("query"), str):
                raise ValueError('expected an object with a string "query"')
            qid = obj.get("id", n)
            window = {name: obj.get(name, default) for name, default in (("since", since), ("until", until))}
            for name, value in (("query", obj["query"]), *window.items()):
                if value is not None:
                    check(name, value)
            res = searcher.search(
                obj["query"],
                strategy=obj.get("strategy", strategy),
                k=int(obj.get("k", k)),
                category=obj.get("category", category),
                source=obj.get("source", source),
                explain=bool(obj.get("explain", explain)),
                **window,
            )
            yield {"id": qid, "ok": True, "data": render(res), "error": None}
        except MemsearchError as exc:
            yield {"id": qid, "ok": False, "data": None, "error": {"code": exc.code, "message": exc.message}}
        except (ValueError, TypeError) as exc:
            yield {
                "id": qid if qid is not None else n,
                "ok": False,
                "data": None,
                "error": {"code": "invalid", "message": f"line {n}: {exc}"},
            }


def dumps(obj: dict[str, Any]) -> str:
    return json.dumps(obj, ensure_ascii=False)
