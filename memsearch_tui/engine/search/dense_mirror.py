"""An in-process copy of the vectors for exact cosine search with numpy.

Why: Milvus Lite 3.x is pure Python; its search builds per-row masks in Python, which
costs ~45 ms per query at 100k rows inside the engine and ~250–400 ms through its gRPC
front end (measured, see benchmarks/results/search.md). Milvus servers are fast, so a
server URI searches on the server. For the embedded Lite backend the warm Searcher keeps
the vectors in one float32 matrix, loaded from the manifest (which records every vector
it wrote to Milvus) and reloaded when the manifest's vector generation changes. An exact
scan of 100k × 384 floats is a few milliseconds, and results equal brute-force cosine.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from numpy.typing import ArrayLike, NDArray

    from memsearch_tui.engine.search.manifest import Manifest


class DenseMirror:
    """Vectors of the embedded chunks plus the columns the filters need."""

    #: the rows mirrored: (id, scope, kind, entry_id, float32 vector bytes)
    ROWS = "SELECT id, scope, kind, entry_id, vec FROM chunks WHERE embedded=1 AND vec IS NOT NULL"

    def __init__(self, manifest: Manifest) -> None:
        import numpy as np

        self.np = np
        self.generation = manifest.get_meta("vec_gen")
        ids, scopes, kinds, entries, blobs = [], [], [], [], []
        for cid, scope, kind, entry_id, blob in manifest.db.execute(self.ROWS):
            ids.append(cid)
            scopes.append(scope)
            kinds.append(kind)
            entries.append(entry_id)
            blobs.append(blob)
        self.ids = ids
        dim = len(blobs[0]) // 4 if blobs else 0
        self.mat = (
            np.frombuffer(b"".join(blobs), dtype=np.float32).reshape(len(blobs), dim)
            if blobs
            else np.zeros((0, 0), np.float32)
        )
        self.scope_names = sorted(set(scopes))  # filter on small ints, not 100k strings
        code = {name: i for i, name in enumerate(self.scope_names)}
        self.scopes = np.array([code[x] for x in scopes], dtype=np.int32)
        self.is_entry = np.array([k == "entry" for k in kinds], dtype=bool)
        self.entries = np.array(entries, dtype=str) if entries else np.array([], dtype=str)

    def stale(self, manifest: Manifest) -> bool:
        return manifest.get_meta("vec_gen") != self.generation

    def search(
        self, vec: ArrayLike, k: int, scopes: Sequence[str], category: str | None = None
    ) -> list[tuple[str, float]]:
        np = self.np
        if not self.ids:
            return []
        wanted = [i for i, name in enumerate(self.scope_names) if name in set(scopes)]
        sims = _matvec(self.mat, np.asarray(vec, dtype=np.float32))
        if len(wanted) == len(self.scope_names) and not category:
            n = len(self.ids)  # every row qualifies: no mask to build (the usual unfiltered search)
        else:
            mask = np.isin(self.scopes, wanted)
            if category:
                mask &= self.is_entry & np.char.startswith(self.entries, category + "/")
            sims = np.where(mask, sims, -np.inf)
            n = int(mask.sum())
        if n == 0:
            return []
        k = min(k, n)
        top = np.argpartition(-sims, k - 1)[:k]
        top = top[np.argsort(-sims[top])]
        return [(self.ids[i], float(sims[i])) for i in top]


def _matvec(mat: NDArray[Any], vec: NDArray[Any]) -> NDArray[Any]:
    """``mat @ vec`` on one BLAS thread: the scan is memory-bound, and a second OpenBLAS
    thread only adds hand-off cost (measured 6.1 vs 8.0 ms at 100k × 384, idle machine).

    With OpenBLAS already pinned to one thread (``OPENBLAS_NUM_THREADS=1``: the one-shot CLI
    search and the MCP server set it before numpy loads) no limit is needed: importing
    threadpoolctl and building a controller cost a one-shot search ~4 ms. Otherwise one
    controller, built on first use, is kept (building one scans every loaded library: 1–2 ms
    a query in the MCP server, where pydantic's and the SDK's libraries are loaded)."""
    from memsearch_tui.engine.search.cpu import blas_pinned

    limiter = None if blas_pinned() else _controller()
    if limiter is None:
        plain: NDArray[Any] = mat @ vec
        return plain
    with limiter.limit(limits=1, user_api="blas"):
        limited: NDArray[Any] = mat @ vec
        return limited


_CONTROLLER: list[Any] = []  # [ThreadpoolController | None] once built


def _controller() -> Any:
    """The kept threadpoolctl controller (None without threadpoolctl). It knows the BLAS
    libraries loaded when it was built: numpy's, loaded before any mirror exists."""
    if not _CONTROLLER:
        from memsearch_tui.engine.search.cpu import blas_controller

        _CONTROLLER.append(blas_controller())
    return _CONTROLLER[0]
