"""Everything hygiene reads, once and bounded: the store's live entries, the project's
journals and the hosts' own memory files, each as a ``Unit`` of text with where it is.

Entries are read from their files with the frontmatter split off but not parsed (the
catalog already holds title, status and dates), so 10k entries cost a file read each.
Every read is capped in size and time; a file that cannot be read is named in
``skipped`` and left out.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from memsearch_tui.engine.core.errors import MemsearchError
from memsearch_tui.engine.core.frontmatter_io import body_of
from memsearch_tui.engine.core.safe_io import read_capped

ENTRY_BYTES = 1_000_000  # an entry larger than this is not a memory a person wrote
JOURNAL_BYTES = 4_000_000
MAX_JOURNALS = 400  # newest first: a year of days is plenty for secrets and dead paths
READ_SECONDS = 5.0


@dataclass(frozen=True)
class Unit:
    """One memory: a store entry (``where`` "store", ``ref`` its id), a host memory file
    or a journal day (``ref`` its path). ``line0``: the file line its ``text`` starts at."""

    where: str
    ref: str
    text: str
    title: str = ""
    status: str = "active"
    updated: str = ""
    line0: int = 1
    host: str = ""
    path: str = ""


@dataclass
class Sources:
    entries: list[Unit] = field(default_factory=list)
    host: list[Unit] = field(default_factory=list)
    journals: list[Unit] = field(default_factory=list)
    skipped: list[str] = field(default_factory=list)
    over_long: list[tuple[Unit, int, int, int, int]] = field(default_factory=list)  # unit, lines, loaded, bytes, loaded


def store_units(root: Path, skipped: list[str]) -> list[Unit]:
    """Every live entry (active, expired, archived) of the store at ``root``."""
    from memsearch_tui.engine.store.store import Store

    store = Store(root)
    if not store.exists():
        return []
    out: list[Unit] = []
    for s in store.catalog().in_category("", recursive=True):
        if s.error:
            skipped.append(f"{s.id}: {s.error}")
            continue
        path = store.path_of(s.id)
        try:
            raw = read_capped(path, ENTRY_BYTES, seconds=READ_SECONDS)
            body = body_of(raw, str(path))
        except (OSError, MemsearchError) as exc:
            skipped.append(_skip(path, exc))
            continue
        line0 = raw[: len(raw) - len(body.encode("utf-8"))].count(b"\n") + 1 if body else 1
        out.append(Unit("store", s.id, body, s.title, s.status, s.updated, line0, path=str(path)))
    return out


def _skip(path: Path, exc: Exception) -> str:
    """ "PATH: why", naming the path once (an engine error's message already starts with it)."""
    why = str(exc)
    return why if why.startswith(f"{path}:") else f"{path}: {why}"


def journal_units(project: Path, skipped: list[str]) -> list[Unit]:
    """The project's memsearch journal days, newest first, at most :data:`MAX_JOURNALS`."""
    from memsearch_tui.engine.memsearch.journal import journal_files
    from memsearch_tui.engine.memsearch.project import memsearch_dir

    out: list[Unit] = []
    for p in journal_files(memsearch_dir(project) / "memory")[:MAX_JOURNALS]:
        try:
            text = read_capped(p, JOURNAL_BYTES, seconds=READ_SECONDS).decode("utf-8")
        except (OSError, MemsearchError, UnicodeDecodeError) as exc:
            skipped.append(_skip(p, exc))
            continue
        out.append(Unit("journal", str(p), text, path=str(p)))
    return out


def host_units(project: Path, src: Sources) -> None:
    """The hosts' memory files (``engine/agent_memory``: found, read under each host's
    containment rule, measured for what the host loads at start)."""
    from memsearch_tui.engine.agent_memory import places
    from memsearch_tui.engine.agent_memory.measure import FILE_LIMIT, count_lines, loaded, read
    from memsearch_tui.engine.core.errors import InvalidInput

    found = places.candidates(project)[0]
    for c in found:
        if c.problem is not None:
            src.skipped.append(c.problem)
            continue
        try:
            data, text = read(c, FILE_LIMIT)
        except InvalidInput as exc:
            src.skipped.append(str(exc))
            continue
        unit = Unit("host", str(c.path), text, c.kind, host=c.host, path=str(c.path))
        src.host.append(unit)
        how, lines, nbytes = loaded(c.rule, text, data)
        if how in ("head", "head+tail") and lines is not None and nbytes is not None:
            src.over_long.append((unit, count_lines(text), lines, len(data), nbytes))


def gather(root: Path, project: Path) -> Sources:
    src = Sources()
    src.entries = store_units(root, src.skipped)
    src.journals = journal_units(project, src.skipped)
    host_units(project, src)
    return src
