"""What this CPU and its math libraries do: native bfloat16, the index precision, BLAS threads.

Moved out of :mod:`.embeddings` as it was (issue 36: one job a module); every encoder asks here.
"""

from __future__ import annotations

import os
from functools import lru_cache
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from threadpoolctl import ThreadpoolController


def resolve_precision(precision: str) -> str:
    """``auto``: bfloat16 where the CPU computes it natively (AVX512-BF16, AMX), else float32.

    Why: on such CPUs bulk encoding runs ~2.2× faster in bfloat16, and the vectors stay at
    cosine ≥ 0.997 to float32 ones (measured on this model); elsewhere bfloat16 on CPU is
    emulated and many times slower than float32. torch's own ``_is_mkldnn_bf16_supported``
    is not the test: it says yes on any AVX512 CPU, emulated or not (on one without
    AVX512-BF16 it made a 1,451-turn index take 10× memsearch's time). The CPU's flags are.
    Queries are always encoded in float32.
    """
    if precision != "auto":
        return precision
    return "bfloat16" if native_bf16() else "float32"


NATIVE_BF16_ENV = "MEMSEARCH_TUI_NATIVE_BF16"  # "1" / "0": decide as if the CPU had (not) native bfloat16


@lru_cache(maxsize=1)
def native_bf16() -> bool:
    """True when the CPU advertises bfloat16 arithmetic (``avx512_bf16`` or ``amx_bf16``).

    ``MEMSEARCH_TUI_NATIVE_BF16=1`` (or ``0``) answers instead of the CPU, so the tests can
    run both branches of every choice made from this on any machine.
    """
    forced = os.environ.get(NATIVE_BF16_ENV, "").strip()
    if forced in ("0", "1"):
        return forced == "1"
    try:
        with open("/proc/cpuinfo", encoding="ascii", errors="replace") as fh:
            for line in fh:
                if line.startswith("flags"):
                    flags = set(line.split(":", 1)[1].split())
                    return bool(flags & {"avx512_bf16", "amx_bf16"})
    except OSError:
        pass
    return False  # unknown (not Linux): float32 is never the slow choice


@lru_cache(maxsize=1)
def blas_pinned() -> bool:
    """OpenBLAS was told to use one thread before it loaded (``OPENBLAS_NUM_THREADS=1``, as
    a one-shot CLI search sets it): no threadpoolctl needed to limit it (~10 ms saved)."""
    return os.environ.get("OPENBLAS_NUM_THREADS") == "1"


def blas_controller() -> ThreadpoolController | None:
    """One threadpoolctl controller, reused: building one scans the loaded libraries (~0.4 ms)."""
    try:
        from threadpoolctl import ThreadpoolController
    except ImportError:  # pragma: no cover
        return None
    return ThreadpoolController()
