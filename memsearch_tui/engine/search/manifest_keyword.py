"""The manifest's keyword ranking: FTS5's BM25 over the chunks, and the change log a warm
ranker (:mod:`.keyword_index`) catches up from.

Split from :mod:`.manifest` (a mixin over its connection), which fills the ``fts`` table.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, cast

from memsearch_tui.engine.search.manifest_rows import _CHUNK_COLS, ChunkRow, ManifestDb
from memsearch_tui.engine.search.tokenize import query_tokens

FTS_LOG_KEEP = 100_000  # change-log rows kept; a resident ranker further behind rebuilds

# BM25 column weights: heading/title words count most, neighbouring-turn context least.
HEAD_WEIGHT, BODY_WEIGHT, CTX_WEIGHT = 2.0, 1.0, 0.3


class KeywordBook(ManifestDb):
    """Keyword ranking and the FTS change log of :class:`.manifest.Manifest`."""

    def new_fts_epoch(self) -> None:
        """The keyword index restarted from nothing: resident rankers must rebuild, not catch up."""
        import uuid

        self.db.execute("DELETE FROM fts_log")
        self.db.execute("DELETE FROM meta WHERE key='fts_log_floor'")
        self.set_meta("fts_epoch", uuid.uuid4().hex)

    def fts_position(self) -> tuple[str, int, int]:
        """(epoch, last change-log seq, highest seq already trimmed away)."""
        seq = self.db.execute("SELECT max(seq) FROM fts_log").fetchone()[0]
        return (
            self.get_meta("fts_epoch") or "",
            int(seq or self.get_meta("fts_log_floor") or 0),
            int(self.get_meta("fts_log_floor") or 0),
        )

    def trim_fts_log(self, keep: int = FTS_LOG_KEEP) -> None:
        """Keep the newest ``keep`` change-log rows (called by the indexer before it commits)."""
        last = self.db.execute("SELECT max(seq) FROM fts_log").fetchone()[0]
        if last is not None and last - keep > int(self.get_meta("fts_log_floor") or 0):
            self.db.execute("DELETE FROM fts_log WHERE seq <= ?", (last - keep,))
            self.set_meta("fts_log_floor", str(last - keep))

    def chunk_count(self, where: str = "", args: Sequence[Any] = ()) -> int:
        return cast(
            int,
            self.db.execute(
                f"SELECT count(*) FROM chunks c {('WHERE ' + where) if where else ''}", list(args)
            ).fetchone()[0],
        )

    def keyword(
        self,
        query: str,
        k: int,
        where: str = "",
        args: Sequence[Any] = (),
        weights: tuple[float, float, float] | None = None,
    ) -> list[tuple[ChunkRow, float]]:
        """BM25 ranking of chunks for ``query`` (best first; score is -bm25, higher is better)."""
        toks = query_tokens(query)
        if not toks:
            return []
        match = " OR ".join('"' + t.replace('"', '""') + '"' for t in toks)
        w = weights or (HEAD_WEIGHT, BODY_WEIGHT, CTX_WEIGHT)
        sql = (
            f"SELECT {', '.join('c.' + c.strip() for c in _CHUNK_COLS.split(','))}, bm25(fts, ?, ?, ?) AS s "
            "FROM fts JOIN chunks c ON c.rid = fts.rowid WHERE fts MATCH ?"
            + (f" AND {where}" if where else "")
            + " ORDER BY s LIMIT ?"
        )
        rows = self.db.execute(sql, [*w, match, *args, k]).fetchall()
        return [(ChunkRow(*r[:10]), -float(r[10])) for r in rows]
