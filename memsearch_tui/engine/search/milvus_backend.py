"""Vectors in Milvus through ``pymilvus.MilvusClient`` (embedded Lite or a server by URI).

The same code talks to an embedded Milvus Lite data dir (a local path ending in ``.db``)
and to Milvus standalone/distributed or Zilliz Cloud (``http(s)://`` plus a token).
Milvus Lite lets one process hold a data dir at a time (an ``flock`` on ``<dir>/LOCK``):
we probe that lock first, wait briefly, and then raise :class:`LockTimeout` naming the
path, so a hook can defer its work instead of failing. A collection that was released
(after a restart of a server) is loaded again; a model whose dimension differs from the
collection's is refused with a pointer to ``vectors reset``.

We only ever touch a collection we created: ``_create`` records ``MARKER`` in the
collection's properties, and every read, write, count or drop first checks for it (or for
our exact field set, for indexes built before the marker existed). Anything else — say
a memsearch collection on the same server — is refused with :class:`Refused` (code
``foreign_collection``) and left exactly as it was.
"""

from __future__ import annotations

import functools
import logging
import time
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path
from typing import Any, Concatenate, ParamSpec, TypeVar

from memsearch_tui.engine.core.errors import LockTimeout, MemsearchError, Refused
from memsearch_tui.engine.core.locking import flock_held

_OPEN_LITE: set[str] = set()  # Lite data dirs this process holds (its own lock never blocks it)
TEXT_FIELDS = {"path": 2048, "scope": 1024, "kind": 16, "entry_id": 1024, "heading": 1024}
OUR_FIELDS = frozenset({"id", "vec", *TEXT_FIELDS, "start_line", "end_line"})
MARKER_KEY, MARKER = "memsearch_tui.schema", "chunks-v1"


_P = ParamSpec("_P")
_R = TypeVar("_R")


def _milvus_errors(
    fn: Callable[Concatenate[MilvusVectors, _P], _R],
) -> Callable[Concatenate[MilvusVectors, _P], _R]:
    """Turn pymilvus' exceptions into a MemsearchError naming the URI and collection."""

    @functools.wraps(fn)
    def wrapper(self: MilvusVectors, /, *args: _P.args, **kwargs: _P.kwargs) -> _R:
        try:
            return fn(self, *args, **kwargs)
        except MemsearchError:
            raise
        except Exception as exc:
            if type(exc).__module__.startswith(("pymilvus", "grpc", "milvus_lite")):
                msg = getattr(exc, "message", None) or str(exc)
                raise MemsearchError(
                    f"Milvus at {self.uri} (collection {self.collection!r}): {msg}", code="milvus"
                ) from None
            raise

    return wrapper


def lite_locked(data_dir: Path) -> bool:
    """True when another process holds the Milvus Lite data dir's LOCK."""
    if str(Path(data_dir).absolute()) in _OPEN_LITE:
        return False
    return flock_held(Path(data_dir) / "LOCK")


class MilvusVectors:
    """One collection of chunk vectors."""

    def __init__(self, uri: str, token: str, collection: str, *, lock_wait: float = 3.0) -> None:
        self.uri, self.token, self.collection = uri, token, collection
        logging.getLogger("pymilvus").setLevel(logging.CRITICAL)  # errors reach the user as MemsearchError
        self.is_lite = "://" not in uri
        if self.is_lite:
            Path(uri).parent.mkdir(parents=True, exist_ok=True)
            self._wait_for_lock(Path(uri), lock_wait)
        try:
            from pymilvus import MilvusClient

            self.client = MilvusClient(uri=uri, token=token) if token else MilvusClient(uri=uri)
        except Exception as exc:  # pymilvus raises many types; the user needs the URI and cause
            if self.is_lite and lite_locked(Path(uri)):
                raise LockTimeout(f"Milvus Lite data dir {uri} is held by another process", path=uri) from None
            raise MemsearchError(f"cannot open Milvus at {uri}: {exc}", code="milvus") from None
        if self.is_lite:
            _OPEN_LITE.add(str(Path(uri).absolute()))
        self._loaded = False
        self._ours = False

    @staticmethod
    def _wait_for_lock(data_dir: Path, wait: float) -> None:
        deadline = time.monotonic() + wait
        while lite_locked(data_dir):
            if time.monotonic() >= deadline:
                raise LockTimeout(
                    f"Milvus Lite data dir {data_dir} is locked by another process (the TUI or a running "
                    "index); the work was left for the next run",
                    path=str(data_dir),
                )
            time.sleep(0.1)

    # -- collection -------------------------------------------------------------------
    @_milvus_errors
    def exists(self) -> bool:
        return bool(self.client.has_collection(self.collection))

    def _check_ours(self, desc: dict[str, Any] | None = None) -> dict[str, Any]:
        """Refuse a collection memsearch-tui did not create; returns its description."""
        desc = desc or self.client.describe_collection(self.collection)
        if self._ours:
            return desc
        props = desc.get("properties") or {}
        names = {str(f.get("name")) for f in desc.get("fields", [])}
        if props.get(MARKER_KEY) != MARKER and names != OUR_FIELDS:
            raise Refused(
                f"collection {self.collection!r} at {self.uri} was not created by memsearch-tui (its fields: "
                f"{', '.join(sorted(names))[:200]}); it is never written, counted or dropped — set [tui.search] "
                "collection to a name of its own in ~/.memsearch/config.toml",
                code="foreign_collection",
            )
        self._ours = True
        return desc

    @_milvus_errors
    def dim(self) -> int | None:
        """The vector dimension of the existing collection, or None."""
        if not self.exists():
            return None
        desc = self._check_ours()
        for f in desc.get("fields", []):
            params = f.get("params") or {}
            if "dim" in params:
                return int(params["dim"])
        return None

    @_milvus_errors
    def ensure(self, dim: int) -> None:
        """Create the collection, or check its dimension against the model's."""
        have = self.dim()
        if have is None:
            self._create(dim)
        elif have != dim:
            raise Refused(
                f"collection {self.collection!r} at {self.uri} holds {have}-dimensional vectors but the "
                f"embedding model gives {dim}; run `memsearch-tui vectors reset --yes` and index again"
            )
        self._load()

    def _create(self, dim: int) -> None:
        from pymilvus import DataType

        schema = self.client.create_schema(auto_id=False, enable_dynamic_field=False)
        schema.add_field("id", DataType.VARCHAR, is_primary=True, max_length=64)
        schema.add_field("vec", DataType.FLOAT_VECTOR, dim=dim)
        for name, size in TEXT_FIELDS.items():
            schema.add_field(name, DataType.VARCHAR, max_length=size)
        schema.add_field("start_line", DataType.INT64)
        schema.add_field("end_line", DataType.INT64)
        index = self.client.prepare_index_params()
        if self.is_lite:
            index.add_index("vec", index_type="HNSW", metric_type="COSINE", params={"M": 16, "efConstruction": 128})
        else:
            index.add_index("vec", index_type="AUTOINDEX", metric_type="COSINE")
        self.client.create_collection(self.collection, schema=schema, properties={MARKER_KEY: MARKER})
        self._ours = True
        # Milvus Lite lacks AllocTimestamp, which a synchronous index wait calls; it builds
        # its index per segment anyway, so do not wait there.
        self.client.create_index(self.collection, index, sync=not self.is_lite)
        self.client.load_collection(self.collection)

    def _load(self) -> None:
        """Load the collection if it was released (e.g. after a reopen or a server restart)."""
        if self._loaded:
            return
        state = self.client.get_load_state(self.collection)
        if "Loaded" not in str(state.get("state", "")):
            self.client.load_collection(self.collection)
        self._loaded = True

    @_milvus_errors
    def drop(self) -> None:
        if self.exists():
            self._check_ours()
            self.client.drop_collection(self.collection)
        self._loaded = False
        self._ours = False

    # -- data --------------------------------------------------------------------------
    @_milvus_errors
    def insert(self, rows: Sequence[dict[str, Any]]) -> None:
        clean = []
        for r in rows:
            row = dict(r)
            for name, size in TEXT_FIELDS.items():
                row[name] = _clip(str(row.get(name, "")), size)
            clean.append(row)
        self._check_ours()
        self.client.upsert(self.collection, clean)

    @_milvus_errors
    def delete(self, ids: Sequence[str]) -> None:
        if ids:
            self._check_ours()
        for i in range(0, len(ids), 1000):
            self.client.delete(self.collection, ids=list(ids[i : i + 1000]))

    @_milvus_errors
    def flush(self) -> None:
        flush = getattr(self.client, "flush", None)
        if flush is not None and self._check_ours():
            flush(self.collection)

    @_milvus_errors
    def count(self) -> int:
        if not self.exists():
            return 0
        self._check_ours()
        self._load()
        res = self.client.query(self.collection, filter="", output_fields=["count(*)"])
        return int(res[0]["count(*)"]) if res else 0

    @_milvus_errors
    def search(self, vector: Iterable[float], k: int, filter_expr: str = "") -> list[tuple[str, float]]:
        """(chunk id, cosine similarity) best first; nothing when no vectors were ever stored."""
        if not self._loaded and not self.exists():
            return []
        self._check_ours()
        self._load()
        res = self.client.search(
            self.collection,
            data=[[float(x) for x in vector]],
            limit=k,
            filter=filter_expr,
            output_fields=[],
            search_params={"metric_type": "COSINE", "params": {"ef": max(64, k * 2)}},
        )
        return [(str(h["id"]), float(h["distance"])) for h in (res[0] if res else [])]

    def close(self) -> None:
        """Close the client; for Lite also stop the in-process server so its LOCK is freed."""
        try:
            self.client.close()
        except Exception:  # closing is best effort
            pass
        if self.is_lite:
            try:
                from milvus_lite.server_manager import server_manager_instance

                server_manager_instance.release_server(self.uri)
            except Exception:
                pass
            _OPEN_LITE.discard(str(Path(self.uri).absolute()))


def _clip(text: str, size: int) -> str:
    """Milvus VARCHAR max_length counts bytes: cut on a character boundary."""
    data = text.encode("utf-8")
    if len(data) <= size:
        return text
    return data[:size].decode("utf-8", "ignore")


def quote(value: str) -> str:
    """A string literal for a Milvus filter expression."""
    return '"' + value.replace("\\", "\\\\").replace('"', '\\"') + '"'
