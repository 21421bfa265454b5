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

One collection on a server is shared by many indexes (users, machines, memory roots):
every row carries ``owner``, the index's own id (made once, kept in its state folder),
declared the collection's *partition key* so Milvus keeps each owner's rows together;
its primary key is ``<owner>/<chunk id>`` (two owners' equal chunks never overwrite each
other); and every search, count and delete is filtered on it. "Drop" on a server deletes
our rows, never the collection. A collection made before the key (``chunks-v1``) is ours
alone on Lite (one data dir per index) and is used as it is; on a server it is refused
(code ``legacy_collection``) with what to do, since its rows cannot be told apart.

Reads use Session consistency (Strong for counts): a search right after this process's
own write, forget or purge sees it; every call has a timeout and is retried a bounded
number of times when the server is unreachable (:data:`CALL_TIMEOUT`, :data:`RETRIES`).
"""

from __future__ import annotations

import functools
import logging
import re
import time
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path
from typing import Any, Concatenate, ParamSpec, TypeVar

from memsearch_tui.engine.core.errors import LockTimeout, MemsearchError, Refused
from memsearch_tui.engine.core.locking import flock_held

_OPEN_LITE: set[str] = set()  # Lite data dirs this process holds (its own lock never blocks it)
TEXT_FIELDS = {"path": 2048, "scope": 1024, "kind": 16, "entry_id": 1024, "heading": 1024}
OUR_FIELDS = frozenset({"id", "vec", *TEXT_FIELDS, "start_line", "end_line"})
MARKER_KEY, MARKER, LEGACY_MARKER = "memsearch_tui.schema", "chunks-v2", "chunks-v1"
OWNER = "owner"  # the partition key: one value per index (state folder)
OWNER_FILE = "owner"  # in the state folder: the owner id, kept across `vectors reset`
CALL_TIMEOUT = 20.0  # seconds for one call (an index build waits longer: CREATE_TIMEOUT)
CREATE_TIMEOUT = 120.0
CONNECT_TIMEOUT = 5.0  # a server that is down is reported within this, not waited for
RETRIES = 2  # further tries of an idempotent call after the server was unreachable


_P = ParamSpec("_P")
_R = TypeVar("_R")


def _unreachable(exc: BaseException) -> bool:
    """The server could not be reached (down, restarting, timed out): worth another try."""
    text = f"{type(exc).__name__} {getattr(exc, 'code', '')} {exc}".lower()
    return any(w in text for w in ("unavailable", "deadline", "timeout", "timed out", "connect", "not ready"))


def _milvus_errors(
    fn: Callable[Concatenate[MilvusVectors, _P], _R],
) -> Callable[Concatenate[MilvusVectors, _P], _R]:
    """Turn pymilvus' exceptions into a MemsearchError naming the URI and collection; a call
    that failed because the server was unreachable is tried again, ``RETRIES`` times at most
    (every call here is idempotent: upserts, deletes by key, reads)."""

    @functools.wraps(fn)
    def wrapper(self: MilvusVectors, /, *args: _P.args, **kwargs: _P.kwargs) -> _R:
        for attempt in range(RETRIES + 1):
            try:
                return fn(self, *args, **kwargs)
            except MemsearchError:
                raise
            except Exception as exc:
                if not type(exc).__module__.startswith(("pymilvus", "grpc", "milvus_lite")):
                    raise
                if attempt < RETRIES and not self.is_lite and _unreachable(exc):
                    time.sleep(0.5 * (attempt + 1))
                    continue
                msg = (getattr(exc, "message", None) or str(exc)).splitlines()[0][:300]
                raise MemsearchError(
                    f"Milvus at {self.uri} (collection {self.collection!r}): {msg}", code="milvus"
                ) from None
        raise AssertionError("unreachable")  # pragma: no cover - the loop returns or raises

    return wrapper


def lite_locked(data_dir: Path) -> bool:
    """True when another process holds the Milvus Lite data dir's LOCK."""
    if str(Path(data_dir).absolute()) in _OPEN_LITE:
        return False
    return flock_held(Path(data_dir) / "LOCK")


def owner_id(state_dir: Path, *, create: bool) -> str:
    """This index's owner id (``<host>-<12 hex>``), made once in its state folder; "" when
    there is none yet and ``create`` is false (a read-only status creates nothing)."""
    path = Path(state_dir) / OWNER_FILE
    try:
        text = path.read_text(encoding="ascii").strip()
        if re.fullmatch(r"[A-Za-z0-9_-]{1,48}", text):
            return text
    except (OSError, UnicodeDecodeError):
        pass
    if not create:
        return ""
    import socket
    import uuid

    from memsearch_tui.engine.core.atomic import atomic_write_text

    host = re.sub(r"[^A-Za-z0-9_-]+", "-", socket.gethostname())[:20] or "host"
    made = f"{host}-{uuid.uuid4().hex[:12]}"
    path.parent.mkdir(parents=True, exist_ok=True)
    atomic_write_text(path, made + "\n")
    return made


class MilvusVectors:
    """One collection of chunk vectors; on a server, only this index's (owner's) rows of it."""

    def __init__(
        self, uri: str, token: str, collection: str, state_dir: Path | None = None, *, lock_wait: float = 3.0
    ) -> None:
        self.uri, self.token, self.collection = uri, token, collection
        self.state_dir = state_dir
        logging.getLogger("pymilvus").setLevel(logging.CRITICAL)  # errors reach the user as MemsearchError
        self.is_lite = "://" not in uri
        if self.is_lite:
            Path(uri).parent.mkdir(parents=True, exist_ok=True)
            self._wait_for_lock(Path(uri), lock_wait)
        try:
            from pymilvus import MilvusClient

            kw: dict[str, Any] = {} if self.is_lite else {"timeout": CONNECT_TIMEOUT}
            self.client = MilvusClient(uri=uri, token=token, **kw) if token else MilvusClient(uri=uri, **kw)
        except Exception as exc:  # pymilvus raises many types; the user needs the URI and cause
            if self.is_lite and lite_locked(Path(uri)):
                raise LockTimeout(f"Milvus Lite data dir {uri} is held by another process", path=uri) from None
            cause = (getattr(exc, "message", None) or str(exc)).splitlines()[0][:300]
            raise MemsearchError(f"cannot reach Milvus at {uri}: {cause}", code="milvus") from None
        if self.is_lite:
            _OPEN_LITE.add(str(Path(uri).absolute()))
        self._loaded = False
        self._ours = False
        self._keyed = True  # the collection has the owner key (False: a chunks-v1 collection on Lite)
        self._owner = ""

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

    def _t(self, slow: bool = False) -> dict[str, Any]:
        """The timeout of one call (Lite is in-process: pymilvus' own default)."""
        return {} if self.is_lite else {"timeout": CREATE_TIMEOUT if slow else CALL_TIMEOUT}

    # -- the owner ------------------------------------------------------------------------
    def owner(self, *, create: bool = False) -> str:
        """This index's partition-key value ("" when none was made yet and ``create`` is false)."""
        if not self._owner:
            self._owner = owner_id(self.state_dir, create=create) if self.state_dir is not None else "local"
        return self._owner

    def _mine(self) -> str:
        """The filter selecting this index's rows ("" on a chunks-v1 Lite collection: all are ours)."""
        if not self._keyed:
            return ""
        return f"{OWNER} == {quote(self.owner() or '-')}"

    def _pk(self, chunk_id: str) -> str:
        return f"{self.owner(create=True)}/{chunk_id}" if self._keyed else chunk_id

    # -- collection -------------------------------------------------------------------
    @_milvus_errors
    def exists(self) -> bool:
        return bool(self.client.has_collection(self.collection, **self._t()))

    def _check_ours(self, desc: dict[str, Any] | None = None) -> dict[str, Any]:
        """Refuse a collection memsearch-tui did not create; returns its description."""
        if self._ours and desc is None:
            return {}
        desc = desc or self.client.describe_collection(self.collection, **self._t())
        if self._ours:
            return desc
        props = desc.get("properties") or {}
        names = {str(f.get("name")) for f in desc.get("fields", [])}
        if props.get(MARKER_KEY) == MARKER and OWNER in names:
            self._keyed = True
        elif props.get(MARKER_KEY) == LEGACY_MARKER or names == OUR_FIELDS:
            if not self.is_lite:
                raise Refused(
                    f"collection {self.collection!r} at {self.uri} was made by an older memsearch-tui without the "
                    f"{OWNER!r} key, so its rows cannot be told apart by project or user; it is left as it is. Set "
                    "[tui.search] collection to a new name in ~/.memsearch/config.toml and run `memsearch-tui vectors "
                    "index` (if no one else ever wrote to it, drop it with your Milvus tools first)",
                    code="legacy_collection",
                )
            self._keyed = False  # Lite: one data dir per index, every row is ours
        else:
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
        self._ours = False  # read the description afresh
        desc = self._check_ours()
        for f in desc.get("fields", []):
            params = f.get("params") or {}
            if "dim" in params:
                return int(params["dim"])
        return None

    @property
    def keyed(self) -> bool:
        """Whether rows carry the owner key (False only for a chunks-v1 collection on Lite)."""
        return self._keyed

    @_milvus_errors
    def server_version(self) -> str:
        """The server's version ("" for Lite, or when the server does not say)."""
        if self.is_lite:
            return ""
        return str(self.client.get_server_version(**self._t()) or "")

    @_milvus_errors
    def ensure(self, dim: int) -> None:
        """Create the collection, or check its dimension against the model's."""
        have = self.dim()
        if have is None:
            self._create(dim)
        elif have != dim:
            raise Refused(
                f"collection {self.collection!r} at {self.uri} holds {have}-dimensional vectors but the "
                f"embedding model gives {dim}; "
                + (
                    "run `memsearch-tui vectors reset --yes` and index again"
                    if self.is_lite
                    else "it is shared, so set [tui.search] collection to a new name for this model"
                )
            )
        self._load()

    def _create(self, dim: int) -> None:
        from pymilvus import DataType

        schema = self.client.create_schema(auto_id=False, enable_dynamic_field=False)
        schema.add_field("id", DataType.VARCHAR, is_primary=True, max_length=128)
        schema.add_field(OWNER, DataType.VARCHAR, max_length=64, is_partition_key=True)
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
        try:
            self.client.create_collection(
                self.collection, schema=schema, properties={MARKER_KEY: MARKER}, **self._t(slow=True)
            )
        except Exception:
            if not self.exists():  # another index created it at the same moment: use theirs
                raise
        self._ours, self._keyed = True, True
        # Milvus Lite lacks AllocTimestamp, which a synchronous index wait calls; it builds
        # its index per segment anyway, so do not wait there.
        try:
            self.client.create_index(self.collection, index, sync=not self.is_lite, **self._t(slow=True))
        except Exception:
            if not self.client.list_indexes(self.collection):
                raise
        self.client.load_collection(self.collection, **self._t(slow=True))

    def _load(self) -> None:
        """Load the collection if it was released (e.g. after a reopen or a server restart)."""
        if self._loaded:
            return
        state = self.client.get_load_state(self.collection, **self._t())
        if "Loaded" not in str(state.get("state", "")):
            self.client.load_collection(self.collection, **self._t(slow=True))
        self._loaded = True

    @_milvus_errors
    def drop(self) -> None:
        """Remove this index's rows: on a server, delete them (other owners' rows stay);
        on Lite (one data dir per index) drop the collection."""
        if self.exists():
            self._ours = False
            self._check_ours()
            if self.is_lite or not self._keyed:
                self.client.drop_collection(self.collection, **self._t())
            elif self.owner():
                self._load()
                self.client.delete(self.collection, filter=self._mine(), **self._t(slow=True))
        self._loaded = False
        self._ours = False

    # -- data --------------------------------------------------------------------------
    @_milvus_errors
    def holds_none(self) -> bool:
        """True on a server when none of this index's rows are stored (a first index, or one
        after a reset): its inserts need no delete first (see :meth:`insert`). Lite upserts."""
        return not self.is_lite and self.count() == 0

    @_milvus_errors
    def insert(self, rows: Sequence[dict[str, Any]], *, fresh: bool = False) -> None:
        """Write ``rows``; ``fresh``: the caller knows none of their ids is stored (no delete).

        Why ``fresh`` matters: Milvus 2.3 logs a delete of every id even when nothing has it;
        a first index that deleted each batch before inserting it had as many deletes as rows,
        so the server compacted each sealed segment and built its vector index twice (server
        CPU at 40,960 rows: see benchmarks/README.md, Session 14)."""
        self._check_ours()
        clean = []
        for r in rows:
            row = dict(r)
            for name, size in TEXT_FIELDS.items():
                row[name] = _clip(str(row.get(name, "")), size)
            if self._keyed:
                row["id"] = self._pk(str(row["id"]))
                row[OWNER] = self.owner(create=True)
            clean.append(row)
        if self.is_lite:
            self.client.upsert(self.collection, clean)
            return
        # Milvus 2.3's upsert routes rows to another partition than the key's (a query on
        # the key then misses them): delete the ids, then insert. Both are idempotent, so
        # a batch written again after a crash leaves one row per chunk, never two.
        if not fresh:
            self.client.delete(self.collection, ids=[r["id"] for r in clean], **self._t(slow=True))
        self.client.insert(self.collection, clean, **self._t(slow=True))

    @_milvus_errors
    def delete(self, ids: Sequence[str]) -> None:
        if ids:
            self._check_ours()
        for i in range(0, len(ids), 1000):
            self.client.delete(self.collection, ids=[self._pk(x) for x in ids[i : i + 1000]], **self._t(slow=True))

    @_milvus_errors
    def flush(self) -> None:
        flush = getattr(self.client, "flush", None)
        if flush is not None and self.exists():
            self._check_ours()
            flush(self.collection, **self._t(slow=True))

    @_milvus_errors
    def count(self) -> int:
        """This index's rows (Strong: every write so far is counted)."""
        if not self.exists():
            return 0
        self._check_ours()
        if self._keyed and not self.owner():
            return 0  # no owner id yet: nothing of ours was ever written
        self._load()
        res = self.client.query(
            self.collection, filter=self._mine(), output_fields=["count(*)"], consistency_level="Strong", **self._t()
        )
        return int(res[0]["count(*)"]) if res else 0

    @_milvus_errors
    def search(self, vector: Iterable[float], k: int, filter_expr: str = "") -> list[tuple[str, float]]:
        """(chunk id, cosine similarity) best first, among this index's rows; nothing when no
        vectors were ever stored. Session consistency: this process's writes are seen."""
        if not self._loaded and not self.exists():
            return []
        self._check_ours()
        if self._keyed and not self.owner():
            return []
        self._load()
        expr = " and ".join(f"({e})" for e in (self._mine(), filter_expr) if e)
        res = self.client.search(
            self.collection,
            data=[[float(x) for x in vector]],
            limit=k,
            filter=expr,
            output_fields=[],
            search_params={"metric_type": "COSINE", "params": {"ef": max(64, k * 2)}},
            consistency_level="Session",
            **self._t(),
        )
        cut = len(self.owner()) + 1 if self._keyed else 0
        return [(str(h["id"])[cut:], float(h["distance"])) for h in (res[0] if res else [])]

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
