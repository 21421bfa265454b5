"""Search settings from the memsearch-compatible config, and where the index lives.

``[milvus] uri token`` and ``[embedding] model`` are memsearch's own keys, so one config
file drives both tools (our collection is ``[tui.search] collection``: memsearch's
``[milvus] collection`` holds its own schema); a URI of ``http(s)://…`` reaches Milvus standalone,
distributed or Zilliz Cloud with no code change. Our own knobs sit under ``[tui.search]``.
Where the vectors go is the user's decision alone: ``load_config`` ignores ``[milvus]`` and
``[embedding]`` in an untrusted project file. A bad value in one of these sections
disables the vectors only (``vectors_off`` names the file, key and line): the literal and
keyword searches need neither Milvus nor a model and keep working, ``hybrid`` and ``auto``
fall back to the keyword index saying why, ``vector`` is refused, and every way to Milvus
(:meth:`SearchSettings.milvus_args`) refuses with that reason instead of guessing a
default URI. A bad ``[tui]``/``[tui.search]`` value (chunk sizes, fusion) refuses search.
A config file that cannot be read at all (not TOML, not UTF-8, a FIFO) does not stop a
search: an untrusted project file sets no search setting, so it is left out and nothing
changes; the user's own file (or a trusted project's) held settings we now do not know,
so the vectors are off as for a bad ``[milvus]`` value and the keyword index keeps the
chunking it was built with (defaults when there is none: re-chunking from guessed sizes
would rebuild it, and again once the file is fixed). ``config_note`` names the file and
the problem, once per result.
By default the index (the SQLite manifest and an embedded Milvus Lite data dir) lives
under the platform's user data dir, one folder per memory root.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from memsearch_tui.engine.core.data_dir import DATA_ENV as DATA_ENV
from memsearch_tui.engine.core.data_dir import data_home as _data_home
from memsearch_tui.engine.core.errors import InvalidInput
from memsearch_tui.engine.core.record import record

DEFAULT_COLLECTION = "memsearch_tui_chunks"
MEMSEARCH_COLLECTION = "memsearch_chunks"
LOCAL_PROVIDERS = {"", "local", "sentence-transformers", "sentence_transformers", "huggingface"}


@record
class SearchSettings:
    """Everything the index and search need to know, resolved once."""

    memory_root: Path
    project: Path | None
    state_dir: Path
    uri: str
    token: str
    collection: str
    model: str
    chunk_size: int = 1500
    chunk_overlap: int = 2
    context_turns: int = 2
    dense_search: str = "auto"  # auto | milvus | memory
    fusion: str = "convex"  # convex | rrf
    keyword_weight: float = 0.5  # share of the keyword score in the convex fusion
    index_precision: str = "auto"  # auto | float32 | bfloat16: bulk (index) encoding only
    vectors_off: str = ""  # why vectors are disabled (a bad [milvus]/[embedding] value), or ""
    provider: str = (
        "local"  # local (sentence-transformers folders) | onnx (onnxruntime), memsearch's [embedding] provider
    )
    model_reason: str = ""  # why this model, when [embedding] model is unset (``auto: 83 % CJK``)
    config_note: str = ""  # a config file left out because it cannot be read, and what that changes

    @property
    def model_label(self) -> str:
        """The model as people see it in status, doctor and explain."""
        if self.provider == "onnx":
            return f"{self.model or 'gpahal/bge-m3-onnx-int8'} (onnx)"
        from memsearch_tui.engine.search.model_names import DEFAULT_MODEL

        why = f"; {self.model_reason}" if self.model_reason else ""
        return (
            f"{self.model} ({self.model_reason})"
            if self.model and why
            else self.model or f"{DEFAULT_MODEL} (bundled{why})"
        )

    def require_vectors(self) -> None:
        """InvalidInput saying why, when the vectors are disabled by a bad config value."""
        if self.vectors_off:
            raise InvalidInput(self.vectors_off)

    def milvus_args(self) -> tuple[str, str, str, Path]:
        """(uri, token, collection, state dir: where the owner id is kept) for ``MilvusVectors``:
        the one way to Milvus, refused when a bad ``[milvus]``/``[embedding]`` value disabled the vectors."""
        self.require_vectors()
        return self.uri, self.token, self.collection, self.state_dir

    @property
    def use_mirror(self) -> bool:
        """Search vectors in-process (Lite: its pure-Python search is slow) or on the server."""
        return self.dense_search == "memory" or (self.dense_search == "auto" and self.is_lite)

    @property
    def manifest_path(self) -> Path:
        return self.state_dir / "manifest.sqlite3"

    @property
    def is_lite(self) -> bool:
        return not re.match(r"^(https?|tcp|grpc|unix)://", self.uri)

    @property
    def backend(self) -> str:
        return "milvus-lite" if self.is_lite else "milvus"


def data_home() -> Path:
    """The user's data folder (``engine/core/data_dir.py``: the one rule)."""
    return _data_home()


def _sha1_hex(data: bytes) -> str:
    """``hashlib.sha1(data).hexdigest()`` from CPython's own SHA-1 when it has one: importing
    hashlib loads its OpenSSL binding, ~2 % of a one-shot search, for one short string."""
    try:
        from _sha1 import sha1  # type: ignore[import-not-found]  # CPython's module: no stub
    except ImportError:  # pragma: no cover - a Python built without it
        from hashlib import sha1
    digest: str = sha1(data).hexdigest()
    return digest


def state_dir_for(memory_root: Path) -> Path:
    """``<data>/index/<name>-<hash>``: one folder per memory root."""
    root = Path(memory_root).expanduser().absolute()
    digest = _sha1_hex(str(root).encode())[:10]
    name = re.sub(r"[^A-Za-z0-9_.-]+", "_", root.name or "root")[:40]
    return data_home() / "index" / f"{name}-{digest}"


def load_settings(
    memory_root: Path, project: Path | None, raw: dict[str, Any] | None = None, *, auto_model: bool = True
) -> SearchSettings:
    """Resolve settings; ``raw`` is the merged config dict (read from the project when None).

    An unset (or ``auto``) local ``[embedding] model`` is chosen by what the memory is written
    in (:mod:`.model_auto`); ``auto_model=False`` skips that for callers that need only the
    state folder (the hook's inputs), leaving the default model."""
    if raw is None:
        raw = _read_config(project)
    state = state_dir_for(memory_root)
    vectors_off, note, chunking = _unread(raw, state)
    for section, message in (raw.get("_problems") or {}).items():
        if section in ("tui", "tui.search"):
            raise InvalidInput(f"search is disabled by a bad [{section}] value: {message}")
        if section.split(".")[0] in ("milvus", "embedding") and not vectors_off:
            vectors_off = f"vectors are disabled by a bad [{section}] value: {message}"
    milvus = raw.get("milvus") or {}
    emb = raw.get("embedding") or {}
    ours = {**((raw.get("tui") or {}).get("search") or {}), **chunking}
    uri = str(milvus.get("uri") or "").strip()
    if not uri or _is_memsearch_default(uri):
        uri = str(state / "milvus.db")
    elif "://" not in uri:
        uri = str(Path(uri).expanduser().absolute())
    # Ours, under [tui.search]: [milvus] collection names memsearch's own chunks (its
    # schema), so sharing that key made a custom memsearch collection block our vectors.
    model = str(emb.get("model") or "") if _provider(emb) in (*LOCAL_PROVIDERS, "onnx") else ""
    provider = "onnx" if _provider(emb) == "onnx" else "local"
    reason = ""
    if model.strip() in ("", "auto") and provider == "local":
        model = ""
        if auto_model and not vectors_off:
            from memsearch_tui.engine.search.model_auto import choose
            from memsearch_tui.engine.search.model_names import MINILM_MODEL

            choice = choose(Path(memory_root), Path(project) if project else None, state)
            model = "" if choice.model == MINILM_MODEL else choice.model  # MiniLM: as every earlier index
            reason = choice.reason
    collection = str(ours.get("collection") or model_collection(model, provider))
    if collection == MEMSEARCH_COLLECTION:  # memsearch's own schema lives there: never share it
        collection = DEFAULT_COLLECTION
    if not re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]{0,254}", collection):
        raise InvalidInput(
            f"[tui.search] collection = {collection!r}: letters, digits and _ only, not starting with a digit"
        )
    return SearchSettings(
        memory_root=Path(memory_root).absolute(),
        project=Path(project).absolute() if project else None,
        state_dir=state,
        uri=uri,
        token=str(milvus.get("token") or ""),
        collection=collection,
        model=model,
        provider=provider,
        model_reason=reason,
        chunk_size=_int(ours, "chunk_size", 1500, 200),
        chunk_overlap=_int(ours, "chunk_overlap", 2, 0),
        context_turns=_int(ours, "context_turns", 2, 0),
        dense_search=_choice(ours, "dense_search", ("auto", "milvus", "memory")),
        fusion=_choice(ours, "fusion", ("convex", "rrf")),
        keyword_weight=_weight(ours.get("keyword_weight", 0.5)),
        index_precision=_choice(ours, "index_precision", ("auto", "float32", "bfloat16")),
        vectors_off=vectors_off,
        config_note=note,
    )


def model_collection(model: str, provider: str = "local") -> str:
    """The collection a model's vectors go to when ``[tui.search] collection`` is unset: each
    model its own (issue 36), so switching models never mixes their vectors (a switch
    re-embeds into the new model's collection; the manifest's marker, :func:`.indexer.vector_identity`,
    names the model). all-MiniLM-L6-v2 keeps :data:`DEFAULT_COLLECTION`, the one every
    index before the multilingual model was built in."""
    from memsearch_tui.engine.search.model_names import MINILM_MODEL, model_key

    key = model_key(model) if provider == "local" else f"onnx_{model or 'default'}"
    if key == MINILM_MODEL:
        return DEFAULT_COLLECTION
    slug = re.sub(r"[^A-Za-z0-9]+", "_", key.rsplit("/", 1)[-1]).strip("_").lower()[:40]
    if key not in _SHORT_NAMES:  # a path or hub name: its slug alone could name two models
        slug += "_" + _sha1_hex(key.encode())[:8]
    return f"{DEFAULT_COLLECTION}_{slug}"


_SHORT_NAMES = frozenset({"multilingual-e5-small", "onnx_default"})


def _provider(emb: dict[str, Any]) -> str:
    return str(emb.get("provider") or "").strip().lower()


def _weight(value: Any) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not 0 <= value <= 1:
        raise InvalidInput(f"[tui.search] keyword_weight = {value!r}: expected a number from 0 to 1")
    return float(value)


def _choice(table: dict[str, Any], key: str, options: tuple[str, ...]) -> str:
    value = table.get(key, options[0])
    if not isinstance(value, str) or value not in options:  # only a str can equal an option
        raise InvalidInput(f"[tui.search] {key} = {value!r}: expected one of {', '.join(options)}")
    return value


def _is_memsearch_default(uri: str) -> bool:
    """memsearch's own default Lite file is not ours to write into."""
    return uri.rstrip("/").endswith(".memsearch/milvus.db")


def _int(table: dict[str, Any], key: str, default: int, low: int) -> int:
    value = table.get(key, default)
    if not isinstance(value, int) or isinstance(value, bool) or value < low:
        raise InvalidInput(f"[tui.search] {key} = {value!r}: expected an integer >= {low}")
    return value


def config_files(project: Path) -> tuple[Path, Path]:
    """The home and project config files :func:`..memsearch.config.load_config` merges."""
    return Path.home() / ".memsearch" / "config.toml", Path(project) / ".memsearch.toml"


def _read_config(project: Path | None) -> dict[str, Any]:
    # Neither file: the merged config is the defaults, which resolve to the same settings
    # as {} (tested), and a one-shot search does not load the config module (~5 ms).
    if project is None or not any(p.exists() for p in config_files(project)):
        return {}
    try:
        from memsearch_tui.engine.memsearch.config import load_config
    except ImportError:  # pragma: no cover - config module is part of the package
        return {}
    config = load_config(Path(project), unreadable_ok=True)
    return {**config.raw, "_problems": config.problems, "_unreadable": config.unreadable}


def _unread(raw: dict[str, Any], state: Path) -> tuple[str, str, dict[str, int]]:
    """(vectors_off, note, chunking) for the config files left out as unreadable: see the
    module's docstring. ``chunking``: the keyword index's own, when the user's file is out."""
    unread = raw.get("_unreadable") or ()
    notes = [
        f"{u.message} ({'search goes on without it: no vectors until it is fixed' if u.user else 'left out: a project file sets no search setting'})"
        for u in unread
    ]
    users = [u for u in unread if u.user]
    if not users:
        return "", "; ".join(notes), {}
    return f"vectors are off while {users[0].path} cannot be read", "; ".join(notes), _index_chunking(state)


def _index_chunking(state: Path) -> dict[str, int]:
    """The chunking the keyword index was built with (``indexer._check_params``), read-only;
    {} when there is no index (or it cannot be read: the defaults then)."""
    import sqlite3
    from contextlib import closing

    path = state / "manifest.sqlite3"
    if not path.is_file():
        return {}
    try:
        with closing(sqlite3.connect(f"{path.absolute().as_uri()}?mode=ro", uri=True, timeout=2)) as db:
            row = db.execute("SELECT value FROM meta WHERE key='chunking'").fetchone()
    except sqlite3.Error:
        return {}
    parts = str(row[0] if row else "").split(":")[:3]
    if len(parts) < 3 or not all(p.isdigit() for p in parts):
        return {}
    return dict(zip(("chunk_size", "chunk_overlap", "context_turns"), map(int, parts), strict=True))
