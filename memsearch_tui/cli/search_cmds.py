"""``search`` and ``vectors index|status|reset``: the command-line face of engine.search.

The engine does the work; this module only parses options and prints. Nothing heavy is
imported here: the keyword strategies run without torch or pymilvus.
"""

from __future__ import annotations

import sys
from pathlib import Path

import typer

from memsearch_tui.cli.output import JsonOpt, emit, fail, handles_errors, settings
from memsearch_tui.cli.search_options import BATCH, CATEGORY, EXPLAIN, SOURCE, STRATEGY, TOP, TOP_MAX
from memsearch_tui.cli.search_text import search_text
from memsearch_tui.engine.core.text import plural


def register(app: typer.Typer) -> None:
    """Add ``search`` and the ``vectors`` group to the root app."""

    @app.command("search")
    @handles_errors
    def search_cmd(
        ctx: typer.Context,
        query: str | None = typer.Argument(None, help="Words to look for (omit with --batch)."),
        strategy: str = typer.Option(STRATEGY.default, *STRATEGY.flags, help=STRATEGY.help),
        k: int = typer.Option(TOP.default, *TOP.flags, min=1, max=TOP_MAX, help=TOP.help),
        category: str | None = typer.Option(CATEGORY.default, *CATEGORY.flags, help=CATEGORY.help),
        source: str = typer.Option(SOURCE.default, *SOURCE.flags, help=SOURCE.help),
        batch: str | None = typer.Option(BATCH.default, *BATCH.flags, help=BATCH.help),
        explain: bool = typer.Option(EXPLAIN.default, *EXPLAIN.flags, help=EXPLAIN.help),
        json_out: bool = JsonOpt,
    ) -> None:
        """Search both memories: literal grep, keyword index, vectors, or hybrid (fused)."""
        from memsearch_tui.engine.search import Searcher

        s = settings(ctx)
        json_mode = json_out or s.json
        if batch is not None:
            _run_batch(s, batch, strategy, k, category, source)
            return
        if not query or not query.strip():
            fail("usage", "give a QUERY (or --batch FILE)", json_mode=json_mode, exit_code=2)
        with Searcher(s.memory_root, s.project) as searcher:
            res = searcher.search(query, strategy=strategy, k=k, category=category, source=source, explain=explain)
        emit(ctx, res.as_dict(), search_text(res), json_flag=json_out)

    vectors = typer.Typer(help="The vector index: build it, inspect it, start over.", no_args_is_help=True)
    app.add_typer(vectors, name="vectors")

    @vectors.command("index")
    @handles_errors
    def vectors_index(
        ctx: typer.Context,
        force: bool = typer.Option(False, "--force", help="Re-chunk and re-embed everything."),
        json_out: bool = JsonOpt,
    ) -> None:
        """Index store entries, journals, PROJECT.md and USER.md (incremental)."""
        from memsearch_tui.cli.progress import bar
        from memsearch_tui.engine.search import Searcher

        s = settings(ctx)
        with (
            bar("opening the index…", json_mode=json_out or s.json) as report,
            Searcher(s.memory_root, s.project) as searcher,
        ):
            rep = searcher.index(force=force, progress=report, phase=report.phase if report else None)
        d = rep.as_dict()
        text = (
            f"{plural(d['files'], 'file')}: {d['changed_files']} changed, {d['removed_files']} removed; "
            f"{plural(d['new_chunks'], 'new chunk')}, {d['embedded']} embedded, "
            f"{plural(d['deleted_vectors'], 'vector')} deleted"
        )
        for msg in d["skipped"]:
            text += f"\nskipped {msg}"
        emit(ctx, d, text, json_flag=json_out)

    @vectors.command("status")
    @handles_errors
    def vectors_status(ctx: typer.Context, json_out: bool = JsonOpt) -> None:
        """Backend, URI, collection, model, dims, counts and drift."""
        from memsearch_tui.engine.search import status

        s = settings(ctx)
        st = status(s.memory_root, s.project)
        emit(ctx, st, _status_text(st), json_flag=json_out)

    @vectors.command("reset")
    @handles_errors
    def vectors_reset(
        ctx: typer.Context,
        yes: bool = typer.Option(False, "--yes", help="Really drop the collection and the manifest."),
        json_out: bool = JsonOpt,
    ) -> None:
        """Drop the vector collection and the manifest (the Markdown files are untouched)."""
        from memsearch_tui.engine.core.errors import Refused
        from memsearch_tui.engine.search import reset

        s = settings(ctx)
        if not yes:
            raise Refused("vectors reset drops the whole vector collection and manifest; add --yes to confirm")
        out = reset(s.memory_root, s.project)
        emit(
            ctx,
            out,
            f"dropped collection {out['collection']} at {out['uri']}; run `vectors index` to rebuild",
            json_flag=json_out,
        )


def _run_batch(s, batch: str, strategy: str, k: int, category: str | None, source: str) -> None:
    from memsearch_tui.cli.envelope import dumps  # redacted, control characters escaped
    from memsearch_tui.engine.core.errors import NotFound
    from memsearch_tui.engine.search import Searcher
    from memsearch_tui.engine.search.batch import run_batch

    if batch == "-":
        stream = sys.stdin
    else:
        path = Path(batch).expanduser()
        if not path.is_file():
            raise NotFound(f"{path}: no such batch file")
        stream = path.open(encoding="utf-8")
    try:
        with Searcher(s.memory_root, s.project) as searcher:
            for out in run_batch(searcher, stream, strategy=strategy, k=k, category=category, source=source):
                print(dumps(out), flush=True)
    finally:
        if stream is not sys.stdin:
            stream.close()


def _maybe(n: int | None, noun: str) -> str:
    """A count that may be unknown (Milvus not reachable): "? nouns"."""
    return f"? {noun}s" if n is None else plural(n, noun)


def _status_text(st: dict) -> str:
    d = st["drift"]
    out = [
        f"backend     {st['backend']}",
        f"uri         {st['uri']}",
        f"collection  {st['collection']}",
        f"model       {st['model']} ({st['dims']} dims)",
        f"files       {st['files']}",
        f"chunks      {st['chunks']} (vectors in Milvus: {st['vectors'] if st['vectors'] is not None else '?'})",
        f"drift       {plural(d['unindexed_files'], 'unindexed file')}, {plural(d['removed_files'], 'removed file')}, "
        f"{plural(d['pending_vectors'], 'chunk')} without vectors, {_maybe(d['orphan_chunks'], 'orphan chunk')}, "
        f"{_maybe(d['missing_vectors'], 'missing vector')}",
    ]
    if not st.get("built", True):
        out.append("index       not built yet: run `memsearch-tui vectors index`")
    for key in ("milvus_error", "model_error"):
        if key in st:
            out.append(f"warning     {st[key]}")
    return "\n".join(out)
