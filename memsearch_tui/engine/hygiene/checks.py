"""One function per kind of finding, each reading ``Sources`` and returning ``Finding`` s.

Evidence is what a person needs to judge a finding and nothing more: a sentence is
clipped and has any secret masked; a secret itself is only its rule's name and line.
"""

from __future__ import annotations

import functools
from collections.abc import Iterable
from pathlib import Path

from memsearch_tui.engine.agent_memory.condense import split_at
from memsearch_tui.engine.core.secrets import prepare_batch, redact, secret_spans
from memsearch_tui.engine.hygiene.records import Finding
from memsearch_tui.engine.hygiene.sources import Sources, Unit

CLIP = 200
CACHE_ENTRIES = 8_192  # sentences kept shown (LRU): one scan's evidence repeats them, a long-lived app must not grow
CACHE_CHARS = 1_000  # a longer text (a whole entry) is masked each time, never kept: the cache stays ~10 MB at most


def shown(text: str) -> str:
    """``text`` safe to show: secrets masked, one line, clipped. A sentence is cached (one
    sentence is the evidence of many pairs, and the redactor costs ~0.1 ms a call), in a
    bounded LRU: the app and the MCP server live for days and scan again and again."""
    return _shown_cached(text) if len(text) <= CACHE_CHARS else _shown(text)


@functools.lru_cache(maxsize=CACHE_ENTRIES)
def _shown_cached(text: str) -> str:
    return _shown(text)


def _shown(text: str) -> str:
    one = " ".join(redact(text).split())
    return one if len(one) <= CLIP else one[: CLIP - 1] + "…"


def where(u: Unit, line: int | None = None) -> str:
    at = f" line {line}" if line is not None else ""
    return f"{u.ref}{at}" if u.where == "store" else f"{u.path}{at}"


# -- secret ------------------------------------------------------------------------------
def secrets(units: Iterable[Unit]) -> list[Finding]:
    """A credential stored in a memory: one finding per file, each hit as rule and line."""
    prepare_batch()
    out = []
    for u in units:
        hits = secret_spans(u.text)
        if not hits:
            continue
        lines = [f"{h.kind} on line {u.line0 + u.text.count(chr(10), 0, h.start)}" for h in hits]
        fix = "redact: replace each with [secret removed: <rule>] (a version kept)"
        if u.where != "store":
            fix = "redact it by hand in the file (hygiene proposes store changes only)"
        out.append(Finding("secret", (u.ref,), tuple(lines), fix))
    return out


# -- over-long ---------------------------------------------------------------------------
def over_long(src: Sources) -> list[Finding]:
    """A host file longer than what its host loads at session start: what is cut."""
    out = []
    for u, lines, loaded, nbytes, loaded_bytes in src.over_long:
        if loaded >= lines and loaded_bytes >= nbytes:
            continue
        cut = u.text.splitlines()[loaded:] if loaded < lines else []
        ev = [
            f"{u.host} loads {loaded} of {lines} lines ({loaded_bytes} of {nbytes} bytes) of {u.path}",
            f"never loaded: lines {loaded + 1}–{lines}",
        ]
        first = next((c for c in cut if c.strip()), "")
        if first:
            ev.append(f"first cut line: {shown(first)}")
        if u.title == "auto-memory-index":  # Claude Code follows an index line to a topic file
            split = split_at(u.text.encode("utf-8"))
            moved = split[1] + 1 if split else loaded + 1
            fix = f"condense: move lines {moved}–{lines} into a topic file beside it and leave a pointer line"
            if moved <= loaded:  # the pointer line must itself be among what the host loads
                fix += f" (from line {moved}, not {loaded + 1}: the pointer line needs room in what {u.host} loads)"
        else:
            fix = f"condense by hand: {u.host} follows no pointer out of this file (reported only)"
        out.append(Finding("over-long", (u.path,), tuple(ev), fix))
    return out


# -- stale -------------------------------------------------------------------------------
def stale(root: Path, entries: list[Unit], duplicates: set[frozenset[str]]) -> list[Finding]:
    """Lifecycle's archive and expire moves due now, and an entry superseded by a newer
    one with the same title (not itself a duplicate of it: that is a ``duplicate``)."""
    from memsearch_tui.engine.curator.lifecycle import plan
    from memsearch_tui.engine.store.store import Store

    out = []
    store = Store(root)
    if store.exists():
        for m in plan(store):
            if m["action"] in ("archive", "expire"):
                out.append(Finding("stale", (m["id"],), (str(m["reason"]),), f"{m['action']} {m['id']}"))
    by_title: dict[str, list[Unit]] = {}
    for u in entries:
        if u.status == "active" and u.title.strip():
            by_title.setdefault(" ".join(u.title.casefold().split()), []).append(u)
    for group in by_title.values():
        if len(group) < 2:
            continue
        group.sort(key=lambda u: (u.updated, u.ref))
        newest = group[-1]
        for old in group[:-1]:
            if old.updated >= newest.updated or frozenset((old.ref, newest.ref)) in duplicates:
                continue
            ev = (
                f"{old.ref} (updated {old.updated}) and {newest.ref} (updated {newest.updated}) "
                f"are both titled {shown(newest.title)!r}",
            )
            out.append(Finding("stale", (old.ref, newest.ref), ev, f"archive {old.ref}: superseded by {newest.ref}"))
    return out


def unique(findings: list[Finding]) -> list[Finding]:
    """Each (kind, ids) once, in a stable order."""
    seen: dict[tuple[str, tuple[str, ...]], Finding] = {}
    for f in findings:
        seen.setdefault((f.kind, f.ids), f)
    return sorted(seen.values(), key=lambda f: (f.kind, f.ids))
