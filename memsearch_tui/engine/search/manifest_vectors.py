"""The manifest's vector bookkeeping: which chunks still need a vector, which ids Milvus
must drop, the cached own-text vectors, and the generation warm mirrors watch.

Split from :mod:`.manifest` (a mixin over its connection); the vectors themselves live in
Milvus.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING, Any, cast

from memsearch_tui.engine.search.manifest_rows import _CHUNK_COLS, ChunkRow, ManifestDb

if TYPE_CHECKING:
    from numpy.typing import NDArray


class VectorBook(ManifestDb):
    """Vector bookkeeping of :class:`.manifest.Manifest`."""

    def pending_vectors(self, after: int = -1, limit: int = -1) -> list[ChunkRow]:
        """Chunks waiting for a vector, in row order: the first ``limit`` (all: -1) past row ``after``."""
        rows = self.db.execute(
            f"SELECT {_CHUNK_COLS}, embed_text, own_key, own_text, ctx_keys FROM chunks "
            "WHERE embedded=0 AND rid > ? ORDER BY rid LIMIT ?",
            (after, limit),
        ).fetchall()
        return [ChunkRow(*r) for r in rows]

    def count_texts_to_embed(self) -> int:
        """Own texts of waiting chunks without a cached vector (what the model will see)."""
        sql = (
            "SELECT count(DISTINCT own_key) FROM chunks WHERE embedded=0 AND own_key NOT IN (SELECT key FROM textvecs)"
        )
        return cast(int, self.db.execute(sql).fetchone()[0])

    def text_vectors(self, keys: Iterable[str]) -> dict[str, bytes]:
        """Cached own-text vectors (float32 bytes) of these keys, where present."""
        return self._pairs("SELECT key, vec FROM textvecs WHERE key IN ({})", keys)

    def own_texts(self, keys: Iterable[str]) -> dict[str, str]:
        """The own text of chunks with these keys (a neighbour's text, to embed it)."""
        return self._pairs("SELECT own_key, own_text FROM chunks WHERE own_key IN ({})", keys)

    def _pairs(self, sql: str, keys: Iterable[str]) -> dict[str, Any]:
        """``sql``'s (key, value) rows for ``keys``, asked 500 at a time (SQLite's
        bound-parameter limit); ``sql`` has one ``{}`` where the placeholders go."""
        keys = list(keys)
        out: dict[str, Any] = {}
        for i in range(0, len(keys), 500):
            part = keys[i : i + 500]
            out.update(self.db.execute(sql.format(",".join("?" * len(part))), part))
        return out

    def store_text_vectors(self, keys: Sequence[str], vecs: Iterable[NDArray[Any]]) -> None:
        self.db.executemany(
            "INSERT OR REPLACE INTO textvecs(key, vec) VALUES (?, ?)",
            [(k, memoryview(v.astype("float32", copy=False).tobytes())) for k, v in zip(keys, vecs)],
        )

    def prune_text_vectors(self) -> int:
        """Drop cached own-text vectors no chunk refers to any more."""
        cur = self.db.execute("DELETE FROM textvecs WHERE key NOT IN (SELECT own_key FROM chunks)")
        return cur.rowcount

    def count_pending(self) -> tuple[int, int]:
        """(chunks waiting for a vector, ids waiting to be deleted from Milvus)."""
        a = self.db.execute("SELECT count(*) FROM chunks WHERE embedded=0").fetchone()[0]
        b = self.db.execute("SELECT count(*) FROM pending_deletes").fetchone()[0]
        return a, b

    def mark_embedded(self, ids: Sequence[str], vecs: Iterable[NDArray[Any]] | None = None) -> None:
        """Record that these chunks' vectors are in Milvus (and keep a copy for the mirror)."""
        if vecs is None:
            self.db.executemany("UPDATE chunks SET embedded=1 WHERE id=?", [(i,) for i in ids])
        else:
            self.db.executemany(
                "UPDATE chunks SET embedded=1, vec=? WHERE id=?",
                [(memoryview(v.astype("float32", copy=False).tobytes()), i) for i, v in zip(ids, vecs)],
            )
        self.bump_generation()

    def bump_generation(self) -> None:
        """Vectors changed: warm mirrors in any process reload on their next search."""
        import uuid

        self.set_meta("vec_gen", uuid.uuid4().hex)

    def pending_deletes(self) -> list[str]:
        return [r[0] for r in self.db.execute("SELECT id FROM pending_deletes")]

    def clear_deletes(self, ids: Sequence[str]) -> None:
        self.db.executemany("DELETE FROM pending_deletes WHERE id=?", [(i,) for i in ids])
        self.bump_generation()

    def forget_vectors(self) -> None:
        """Every chunk needs a vector again (new model, collection or URI)."""
        self.db.execute("UPDATE chunks SET embedded=0, vec=NULL")
        self.db.execute("DELETE FROM pending_deletes")
        self.db.execute("DELETE FROM textvecs")
        self.bump_generation()

    def counts(self) -> dict[str, int]:
        def q(sql: str) -> int:
            return cast(int, self.db.execute(sql).fetchone()[0])

        return {
            "files": q("SELECT count(*) FROM files"),
            "chunks": q("SELECT count(*) FROM chunks"),
            "embedded": q("SELECT count(*) FROM chunks WHERE embedded=1"),
            "pending_vectors": q("SELECT count(*) FROM chunks WHERE embedded=0"),
            "pending_deletes": q("SELECT count(*) FROM pending_deletes"),
        }
