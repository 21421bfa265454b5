"""The hook's answer when nothing changed, given from a stat of its inputs (no engine import).

Why: agents' hooks call ``memsearch-tui --run-due`` after every turn, and most calls find
nothing due. Learning that the long way imports config, maintenance, search settings and
the store (~100 ms) to conclude what the last call concluded. So a quiet run (every task
skipped or disabled, upkeep "skip"/"none", no config warning, nothing written) records:

* a **key**: the arguments, the working folder, the payload's ``cwd``, the environment and
  the package version — another question gets another record;
* a **watch list** (:mod:`.hook_inputs` builds it from the config the run loaded): every
  file and folder whose change could make something due — the user's and the project's
  config, the memsearch folder (state file, journals, PROJECT.md, USER.md), each task's
  input folder, the store's INDEX.md, upkeep and purge state, the vector manifest and,
  when a vector index exists, every file of the store; the folders from the working
  folder up to the project root (a new ``.git`` moves the project);
* the **signature** of the watch list: (mode, inode, device, size, mtime, ctime) of each
  path, each entry of each watched tree, symlinks followed too;
* **valid until**: the first moment a time rule could make a task due (a task's
  ``min_interval_hours`` running out, the weekly lifecycle review, the daily split
  check), and never more than :data:`MAX_AGE_S` ahead;
* the text that run printed.

The next call with the same key re-stats the watch list; if the signature matches and the
time has not come, it prints that text and exits. Anything else takes the full path.

Racy writes (git's "racy index" problem): a file changed while the run read it could keep
its old signature in the record. So a record is written only when every watched path's
ctime (which nothing but the kernel sets) is older than the run's start minus
:data:`RACY_S`; a run that finds a fresher file answers normally and records nothing.

Records live in the user's cache folder (``$XDG_CACHE_HOME`` or ``~/.cache``, then
``memsearch-tui/hook``), never in a project a repository could ship. The key is hashed
(the environment can hold secrets; they never reach the disk).
"""

from __future__ import annotations

import os
import stat
import time

from memsearch_tui.engine.core.errors import InvalidInput
from memsearch_tui.engine.core.safe_io import loads_json, read_capped, read_stream

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (this is the hook's first import)
if TYPE_CHECKING:
    from typing import Any, TextIO

FORMAT = b"memsearch-tui hook record 1"
MAX_AGE_S = 3600.0  # a record is trusted at most this long (insurance against an input we did not foresee)
RACY_S = 1.0  # a watched file changed this close to the run's start may have been read half-way (1 s: the coarsest timestamps in use)
MAX_ENTRIES = 50_000  # a watch list walking more than this is not worth a record
MAX_RECORD_BYTES = 4_000_000
MAX_RECORDS = 64  # records kept per user (one per key); the oldest go first
PAYLOAD_LIMIT = 1_000_000
PAYLOAD_SECONDS = 2.0  # the whole stdin payload, however it trickles in
PAYLOAD_FIRST_BYTE_S = 0.3  # a pipe silent this long is an idle one (some hosts leave it open): no payload
# Environment variables that differ between identical calls and that nothing reads.
VOLATILE_ENV = frozenset({"_", "OLDPWD", "SHLVL", "PWD", "MEMSEARCH_TUI_NOW"})
FILE, TREE, STORE = b"F", b"T", b"S"  # watch kinds: one path; a folder's whole tree; a store's entry files


class Unwatchable(Exception):
    """The inputs cannot be watched by a stat (too many files, a symlinked folder inside a tree)."""


# -- the stdin payload ---------------------------------------------------------------------
def read_payload(stdin: TextIO | None) -> tuple[dict[str, Any], str]:
    """``(the host's JSON object, a note for stderr or "")``: read once, bounded in size and
    in time, parsed without a RecursionError. A terminal or an idle pipe gives ``{}``."""
    try:
        if stdin is None or stdin.isatty():
            return {}, ""
        fd = stdin.fileno()
    except (OSError, ValueError):
        return {}, ""
    raw, problem = read_stream(fd, PAYLOAD_LIMIT, PAYLOAD_SECONDS, PAYLOAD_FIRST_BYTE_S)
    if problem:
        return {}, (f"memsearch-tui: ignoring hook payload on stdin: {problem}" if raw.strip() else "")
    if not raw.strip():
        return {}, ""
    try:
        data = loads_json(raw.decode("utf-8"))
    except ValueError as exc:  # UnicodeDecodeError and "nested too deeply" are ValueErrors
        from memsearch_tui.engine.core.terminal import printable

        return {}, printable(f"memsearch-tui: ignoring malformed hook payload on stdin ({exc})")
    if not isinstance(data, dict):
        return {}, "memsearch-tui: ignoring hook payload that is not a JSON object"
    return data, ""


# -- the record ----------------------------------------------------------------------------
def key_of(args: list[str], payload_cwd: str, environ: dict[str, str] | None = None) -> str:
    """The hashed question: arguments, working folder, payload cwd, environment, version."""
    from memsearch_tui import __version__

    env = environ if environ is not None else os.environ
    parts = [
        FORMAT,
        __version__.encode(),
        os.fsencode(os.getcwd()),
        os.fsencode(payload_cwd),
        b"\0".join(os.fsencode(a) for a in args),
    ]
    parts += sorted(os.fsencode(f"{k}={v}") for k, v in env.items() if k not in VOLATILE_ENV)
    return _digest(b"\1".join(parts))


def cached_answer(key: str) -> tuple[int, str, str] | None:
    """``(exit code, "out" | "err", text)`` a quiet run recorded for ``key``, if it still holds."""
    try:
        data = read_capped(os.path.join(records_dir(), key), MAX_RECORD_BYTES)
    except (OSError, InvalidInput):  # missing, a FIFO, too big: ask the long way
        return None
    fields = data.split(b"\0")
    if len(fields) < 7 or fields[0] != FORMAT or fields[1] != key.encode():
        return None
    try:
        valid_until, code = float(fields[2]), int(fields[4])
        stream, text = fields[5].decode("ascii"), fields[6].decode("utf-8")
    except ValueError:
        return None
    if now() >= valid_until or stream not in ("out", "err") or not _printable_text(text):
        return None
    try:
        sig, _ = signature(fields[7:])
    except (Unwatchable, OSError):
        return None
    return (code, stream, text) if sig == fields[3] else None


def write_record(
    key: str, watch: list[bytes], valid_until: float, started: float, answer: tuple[int, str, str]
) -> bool:
    """Record a quiet run's answer; False (and any older record removed) when it must not be."""
    path = os.path.join(records_dir(), key)
    code, stream, text = answer
    try:
        sig, newest = signature(watch)
    except (Unwatchable, OSError):
        sig, newest = b"", float("inf")
    if not sig or newest >= started - RACY_S or "\0" in text or not _printable_text(text):
        forget(key)
        return False
    until = min(valid_until, now() + MAX_AGE_S)
    data = b"\0".join(
        [
            FORMAT,
            key.encode(),
            repr(until).encode(),
            sig,
            str(code).encode(),
            stream.encode(),
            text.encode("utf-8"),
            *watch,
        ]
    )
    try:
        os.makedirs(records_dir(), mode=0o700, exist_ok=True)
        tmp = f"{path}.{os.getpid()}.tmp"
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
        os.replace(tmp, path)
        _prune()
    except OSError:
        return False
    return True


def forget(key: str) -> None:
    try:
        os.unlink(os.path.join(records_dir(), key))
    except OSError:
        pass


def records_dir() -> str:
    """``$XDG_CACHE_HOME/memsearch-tui/hook`` (``~/.cache`` when unset): the user's own."""
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return os.path.join(base, "memsearch-tui", "hook")


def now() -> float:
    """Seconds since the epoch; ``MEMSEARCH_TUI_NOW`` freezes it, as for the rest of the engine."""
    frozen = os.environ.get("MEMSEARCH_TUI_NOW")
    if not frozen:
        return time.time()
    from memsearch_tui.engine.core.clock import now as clock_now  # datetime: only under a frozen clock

    return clock_now().timestamp()


# -- the signature -------------------------------------------------------------------------
def signature(watch: list[bytes]) -> tuple[bytes, float]:
    """(digest of every watched path's stat, the newest ctime among them, in seconds)."""
    lines: list[bytes] = []
    newest = [0.0]
    count = [0]
    for item in watch:
        kind, path = item[:1], item[1:]
        if kind == FILE:
            lines.append(item + b"=" + _stat_line(path, newest))
        elif kind in (TREE, STORE):
            lines.append(item + b"=" + _stat_line(path, newest))
            _walk(path, lines, newest, count, store=kind == STORE)
        else:
            raise Unwatchable(f"unknown watch kind {kind!r}")
    return _digest(b"\n".join(lines)).encode(), newest[0]


def _stat_line(path: bytes, newest: list[float]) -> bytes:
    try:
        st = os.lstat(path)
    except OSError as exc:
        return b"!%d" % (exc.errno or 0)
    line = _fields(st, newest)
    if stat.S_ISLNK(st.st_mode):
        try:
            line += b">" + _fields(os.stat(path), newest)
        except OSError as exc:
            line += b">!%d" % (exc.errno or 0)
    return line


def _fields(st: os.stat_result, newest: list[float]) -> bytes:
    newest[0] = max(newest[0], st.st_ctime)
    return b"%o %d %d %d %d %d" % (st.st_mode, st.st_ino, st.st_dev, st.st_size, st.st_mtime_ns, st.st_ctime_ns)


def _walk(root: bytes, lines: list[bytes], newest: list[float], count: list[int], store: bool) -> None:
    """Every entry below ``root``. ``store``: by the store walker's rule (``walk_entry_paths``:
    dot-names skipped at every depth, symlinked folders never entered), so the state folder,
    ``.trash`` and a synced store's ``.git`` are not inputs; a plain tree is walked whole,
    and a symlinked folder in it cannot be watched."""
    stack = [root]
    while stack:
        folder = stack.pop()
        try:
            with os.scandir(folder) as it:
                entries = sorted(it, key=lambda e: e.name)
        except NotADirectoryError:
            continue
        except OSError as exc:
            lines.append(folder + b"/!%d" % (exc.errno or 0))
            continue
        for entry in entries:
            if store and entry.name.startswith(b"."):
                continue
            count[0] += 1
            if count[0] > MAX_ENTRIES:
                raise Unwatchable(f"more than {MAX_ENTRIES:,} files to watch")
            line = _stat_line(entry.path, newest)
            lines.append(entry.path + b"=" + line)
            if entry.is_symlink():
                if entry.is_dir() and not store:  # a change deep inside a linked folder moves no stat we take
                    raise Unwatchable(f"{os.fsdecode(entry.path)}: a symlinked folder")
            elif entry.is_dir():
                stack.append(entry.path)


def _digest(data: bytes) -> str:
    try:
        from _blake2 import blake2b  # the C module itself: hashlib would load OpenSSL (~4 ms)
    except ImportError:  # pragma: no cover - a Python built without it
        from hashlib import blake2b
    return blake2b(data, digest_size=20).hexdigest()


def _prune() -> None:
    folder = records_dir()
    try:
        names = [n for n in os.listdir(folder) if not n.endswith(".tmp")]
        if len(names) <= MAX_RECORDS:
            return
        by_age = sorted(names, key=lambda n: os.stat(os.path.join(folder, n)).st_mtime)
        for name in by_age[: len(names) - MAX_RECORDS]:
            os.unlink(os.path.join(folder, name))
    except OSError:
        pass


def _printable_text(text: str) -> bool:
    """Only our own one-line summaries are replayed: printable text and newlines."""
    return all(c.isprintable() or c == "\n" for c in text)
