"""``search`` and ``vectors index|status|reset``: the command-line face of ``mem.search`` and ``mem.vectors``.

The engine does the work; this module only parses options and prints. Nothing heavy is
imported here: the keyword strategies run without torch or pymilvus.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import TYPE_CHECKING

import typer

from memsearch_tui.cli.output import JsonOpt, Settings, emit, fail, handles_errors, settings
from memsearch_tui.cli.search_options import BATCH, CATEGORY, EXPLAIN, SINCE, SOURCE, STRATEGY, TOP, TOP_MAX, UNTIL
from memsearch_tui.cli.search_text import search_text
from memsearch_tui.engine.api.text import plural

if TYPE_CHECKING:
    from memsearch_tui.engine.api import VectorStatus

#: Ctrl-C during `vectors index` (one line, exit 130): every batch embedded and written is
#: committed whole, so nothing is lost and the next run embeds only what was left.
INDEX_INTERRUPTED = (
    "memsearch-tui: interrupted: the vectors embedded so far are kept; `vectors index` goes on from there"
)


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
        since: str | None = typer.Option(SINCE.default, *SINCE.flags, help=SINCE.help),
        until: str | None = typer.Option(UNTIL.default, *UNTIL.flags, help=UNTIL.help),
        json_out: bool = JsonOpt,
    ) -> None:
        """Search both memories: literal grep, keyword index, vectors, or hybrid (fused)."""
        from memsearch_tui.engine.api import to_json

        s = settings(ctx)
        json_mode = json_out or s.json
        if strategy not in STRATEGY.help.split("|"):  # a bad option value is a usage error (exit 2), as Click's are
            fail("usage", f"--strategy must be one of {STRATEGY.help}", json_mode=json_mode, exit_code=2)
        if batch is not None:
            _run_batch(s, batch, strategy, k, category, source, since=since, until=until, explain=explain)
            return
        if not query or not query.strip():
            fail("usage", "give a QUERY (or --batch FILE)", json_mode=json_mode, exit_code=2)
        with s.memory() as mem:
            res = to_json(
                mem.search.query(
                    query,
                    k=k,
                    strategy=strategy,
                    source=source,
                    category=category,
                    explain=explain,
                    since=since,
                    until=until,
                )
            )
        emit(ctx, res, search_text(res), json_flag=json_out)

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

        s = settings(ctx)
        try:
            with bar("opening the index…", json_mode=json_out or s.json) as report, s.memory() as mem:
                d = mem.vectors.index(force=force, progress=report, phase=report.phase if report else None)
        except KeyboardInterrupt:  # Ctrl-C: each batch is committed whole, the rest still pending
            print(INDEX_INTERRUPTED, file=sys.stderr)
            raise SystemExit(130) from None  # the shell's 128 + SIGINT, as the CLI's own handler
        text = (
            f"{plural(d.files, 'file')}: {d.changed_files} changed, {d.removed_files} removed; "
            f"{plural(d.new_chunks, 'new chunk')}, {d.embedded} embedded, "
            f"{plural(d.deleted_vectors, 'vector')} deleted"
        )
        for msg in d.skipped:
            text += f"\nskipped {msg}"
        emit(ctx, d, text, json_flag=json_out)

    @vectors.command("status")
    @handles_errors
    def vectors_status(ctx: typer.Context, json_out: bool = JsonOpt) -> None:
        """Backend, URI, collection, model, dims, counts and drift."""
        with settings(ctx).memory() as mem:
            st = mem.vectors.status()
        emit(ctx, st, _status_text(st), json_flag=json_out)

    @vectors.command("reset")
    @handles_errors
    def vectors_reset(
        ctx: typer.Context,
        yes: bool = typer.Option(
            False, "--yes", help="Really drop the collection (on a server: this index's rows) and the manifest."
        ),
        json_out: bool = JsonOpt,
    ) -> None:
        """Drop the vector collection (on a server: this index's rows) and the manifest (the Markdown files are untouched)."""
        with settings(ctx).memory() as mem:
            out = mem.vectors.reset(yes=yes)
        emit(
            ctx,
            out,
            (
                f"deleted this index's rows from collection {out.collection} at {out.uri} (other indexes' rows stay)"
                if "://" in out.uri
                else f"dropped collection {out.collection} at {out.uri}"
            )
            + "; run `vectors index` to rebuild",
            json_flag=json_out,
        )


def _run_batch(
    s: Settings,
    batch: str,
    strategy: str,
    k: int,
    category: str | None,
    source: str,
    *,
    since: str | None,
    until: str | None,
    explain: bool,
) -> None:
    """One JSON line per query line; the flags apply to every line that does not name its own."""
    from memsearch_tui.cli.envelope import dumps  # redacted, control characters escaped
    from memsearch_tui.engine.api import to_json
    from memsearch_tui.engine.api.errors import NotFound

    if batch == "-":
        stream = sys.stdin
    else:
        path = Path(batch).expanduser()
        if not path.is_file():
            raise NotFound(f"{path}: no such batch file")
        stream = path.open(encoding="utf-8")
    try:
        with s.memory() as mem:
            for out in mem.search.batch(
                stream,
                strategy=strategy,
                k=k,
                category=category,
                source=source,
                since=since,
                until=until,
                explain=explain,
            ):
                print(dumps(to_json(out)), flush=True)
    finally:
        if stream is not sys.stdin:
            stream.close()


def _maybe(n: int | None, noun: str) -> str:
    """A count that may be unknown (Milvus not reachable): "? nouns"."""
    return f"? {noun}s" if n is None else plural(n, noun)


def _status_text(st: VectorStatus) -> str:
    d = st.drift
    out = [
        f"backend     {st.backend}",
        f"uri         {st.uri}",
        f"collection  {st.collection}",
        *([f"server      Milvus {st.server_version}"] if st.server_version else []),
        *(
            [f"key         {st.partition_key} (the rows counted, searched and reset are this index's)"]
            if st.partition_key
            else []
        ),
        f"model       {st.model} ({st.dims} dims)",
        f"files       {st.files}",
        f"chunks      {st.chunks} (vectors in Milvus: {st.vectors if st.vectors is not None else '?'})",
        f"drift       {plural(d.unindexed_files, 'unindexed file')}, {plural(d.removed_files, 'removed file')}, "
        f"{plural(d.pending_vectors, 'chunk')} without vectors, {_maybe(d.orphan_chunks, 'orphan chunk')}, "
        f"{_maybe(d.missing_vectors, 'missing vector')}",
    ]
    if not st.built and not st.files:  # `vectors index` would build an empty index
        out.append("index       nothing to index: no store entries and no project journals here")
    elif not st.built:
        out.append("index       not built yet: run `memsearch-tui vectors index`")
    for problem in (st.milvus_error, st.model_error):
        if problem:
            out.append(f"warning     {problem}")
    return "\n".join(out)
