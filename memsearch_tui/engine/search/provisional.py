"""Meaning search over the vectors a build has embedded so far (issue 36 item 6).

Why: the app builds the index as it opens, and the embedding is most of that time (88 % of
~3 s for ~20 journal days). A meaning search asked meanwhile got only keyword hits until
the build ended. The build commits each batch's own-text vectors to the manifest
(``textvecs``, small batches first: :data:`.indexer.FIRST_BATCH`), so this searcher ranks
by meaning over the chunks whose own text is embedded already, exactly (numpy, in process:
:class:`.dense_mirror.DenseMirror`), and says over how many. A chunk whose neighbours' texts
are embedded too gets the vector the build will store (:func:`.indexer.compose`), so with
the chunks a question needs embedded first (:mod:`..api.warm_share`) its answer during the
build is the final one; a chunk without them ranks under its own text's vector alone, and
the asker searches again once the build ends. Once every chunk has its final vector (the
build's last text embedded, :attr:`ProvisionalMirror.final`), the answer is the one the
finished index gives, before the build has opened and filled the vector store.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from memsearch_tui.engine.search.dense_mirror import DenseMirror
from memsearch_tui.engine.search.indexer import compose
from memsearch_tui.engine.search.searcher import Searcher

if TYPE_CHECKING:
    from memsearch_tui.engine.search.manifest import Manifest
    from memsearch_tui.engine.search.results import SearchRun

#: the note on an answer from part of the vectors (``meaning over 40 of 163 chunks …``)
PARTIAL_NOTE = "meaning over {got} of {total} chunks so far: the rest are being embedded"
_OWN = "FROM chunks c JOIN textvecs t ON t.key = c.own_key"


class ProvisionalMirror(DenseMirror):
    """The chunks whose own text has a vector, each under that vector (L2-normalised)."""

    ROWS = f"SELECT c.id, c.scope, c.kind, c.entry_id, t.vec {_OWN}"

    def __init__(self, manifest: Manifest) -> None:
        super().__init__(manifest)
        self.final = False  # every chunk of the index here, each under its final vector
        if not len(self.ids):
            return
        np = self.np
        norms = np.linalg.norm(self.mat, axis=1, keepdims=True)
        self.mat = self.mat / np.maximum(norms, 1e-12)
        near = {cid: ctx.split() for cid, ctx in manifest.db.execute(f"SELECT c.id, c.ctx_keys {_OWN}")}
        have = manifest.text_vectors({k for keys in near.values() for k in keys})
        own = dict(manifest.db.execute(f"SELECT c.id, t.vec {_OWN}"))
        composed = 0
        for i, cid in enumerate(self.ids):
            keys = near.get(cid, [])
            if all(k in have for k in keys):  # as the build composes it: the final vector
                vec = np.frombuffer(own[cid], dtype=np.float32)
                self.mat[i] = compose(vec, [np.frombuffer(have[k], dtype=np.float32) for k in keys])
                composed += 1
        chunks = manifest.db.execute("SELECT count(*) FROM chunks").fetchone()[0]
        self.final = composed == len(self.ids) == chunks

    def stale(self, manifest: Manifest) -> bool:
        return True  # the build adds a batch at a time: read again for every search


class ProvisionalSearcher(Searcher):
    """A searcher beside a build in this process: it never embeds or opens Milvus (the
    build holds both), and ranks by meaning with :class:`ProvisionalMirror`."""

    def coverage(self) -> tuple[int, int]:
        """(chunks with an own-text vector, chunks in the index)."""
        db = self.manifest.db
        return db.execute(f"SELECT count(*) {_OWN}").fetchone()[0], db.execute(
            "SELECT count(*) FROM chunks"
        ).fetchone()[0]

    def by_meaning(self) -> bool:
        """Can it rank by meaning now: vectors on, searched in process, some embedded."""
        return not self.s.vectors_off and self.s.use_mirror and self.coverage()[0] > 0

    _final: bool | None = None  # since search_final began: no mirror read (None), each read final

    def search_final(self, *args: Any, **kwargs: Any) -> tuple[SearchRun, bool]:
        """:meth:`search`, and whether it ranked every chunk under its final vector (each
        mirror it read, :attr:`ProvisionalMirror.final`): then its answer is the finished
        index's, the vector store not filled yet (issue 36 item 6b)."""
        self._final = None
        run = self.search(*args, **kwargs)
        return run, bool(self._final)

    def _sync_vectors(self) -> None:
        pass  # the build is embedding: rank over what it has committed

    def mirror(self) -> DenseMirror:
        if self._mirror is None or self._mirror.stale(self.manifest):
            mirror = ProvisionalMirror(self.manifest)
            self._final = mirror.final and self._final is not False
            self._mirror = mirror
        return self._mirror
