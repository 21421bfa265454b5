"""The hygiene pass: read every memory once, run the checks asked for, report.

Read-only by construction: the sources are read with capped reads, the index's manifest
opened ``mode=ro``, the lifecycle only planned. ``python -m memsearch_tui.engine.hygiene.run
ROOT PROJECT`` runs it in a child process (the weekly due task) and saves the counts.
"""

from __future__ import annotations

from collections.abc import Collection
from pathlib import Path
from typing import TYPE_CHECKING, Any

from memsearch_tui.engine.core.errors import InvalidInput
from memsearch_tui.engine.hygiene import checks, similar
from memsearch_tui.engine.hygiene.deadref import dead_references, project_tree
from memsearch_tui.engine.hygiene.last import LAST, last_pass  # noqa: F401 (``run.last_pass``, as before)
from memsearch_tui.engine.hygiene.llm_check import UnsettledPair, confirm, wanted
from memsearch_tui.engine.hygiene.records import KINDS, Finding, HygieneReport
from memsearch_tui.engine.hygiene.sources import gather

if TYPE_CHECKING:
    from memsearch_tui.engine.memsearch.config import Config


def check_kinds(kinds: Collection[str] | None) -> tuple[str, ...]:
    """The kinds asked for (all when None), refusing an unknown one by name."""
    if not kinds:
        return KINDS
    bad = [k for k in kinds if k not in KINDS]
    if bad:
        raise InvalidInput(f"hygiene: unknown kind {bad[0]!r} (one of {', '.join(KINDS)})")
    return tuple(k for k in KINDS if k in kinds)


def scan(root: Path, project: Path, kinds: Collection[str] | None = None, *, llm: bool = True) -> HygieneReport:
    """Every finding of ``kinds`` over the store at ``root``, ``project``'s journals and
    the hosts' memory files; nothing is written. ``llm`` False: never the LLM check, even
    when configured (an agent's call must not spend the person's budget)."""
    wanted = check_kinds(kinds)
    src = gather(Path(root), Path(project))
    notes = list(src.skipped[:20])
    if len(src.skipped) > 20:
        notes.append(f"… and {len(src.skipped) - 20} more files not read")
    found: list[Finding] = []
    if "secret" in wanted:
        found += checks.secrets([*src.entries, *src.journals, *src.host])
    if "over-long" in wanted:
        found += checks.over_long(src)
    if "dead-reference" in wanted:
        tree = project_tree(Path(project))
        if tree.how:
            found += dead_references([*src.entries, *src.host], tree)
        else:
            notes.append(f"{project}: no project files listed; dead references not checked")
    vectors: dict[str, Any] = {}
    dup_pairs: set[frozenset[str]] = set()
    if "duplicate" in wanted or "stale" in wanted:
        from memsearch_tui.engine.hygiene.vectors import entry_vectors

        vectors, note = entry_vectors(Path(root), Path(project)) if src.entries else ({}, "")
        if note:
            notes.append(note)
        dups = similar.entry_duplicates(src.entries, vectors)
        dup_pairs = {frozenset(f.ids) for f in dups}
        if "duplicate" in wanted:
            found += dups
    if "duplicate" in wanted or "contradiction" in wanted:
        config = _llm_config(Path(project), notes) if "contradiction" in wanted and llm else None
        unsettled: list[UnsettledPair] | None = [] if config is not None else None  # collected only when asked for
        found += [f for f in similar.sentence_pairs(src.entries, src.host, unsettled) if f.kind in wanted]
        if config is not None and unsettled:
            confirmed, said = confirm(Path(project), config, unsettled)
            found += confirmed
            notes += said
    if "stale" in wanted:
        found += checks.stale(Path(root), src.entries, dup_pairs)
    return HygieneReport(
        tuple(checks.unique(found)),
        len(src.entries),
        len(src.host),
        len(src.journals),
        bool(vectors),
        tuple(notes),
    )


def _llm_config(project: Path, notes: list[str]) -> Config | None:
    """The config when the user's own turns the LLM contradiction check on, else None."""
    from memsearch_tui.engine.memsearch.config import load_config

    try:
        config = load_config(project)
    except InvalidInput as exc:  # an unreadable config: the check stays off, said once
        notes.append(f"LLM contradiction check off: {exc.message}")
        return None
    return config if wanted(config) is not None else None


LOCK = "hygiene.lock"


def background(root: Path, project: Path) -> dict[str, Any]:
    """The weekly pass the hook hands off: scan, file each fix as a proposal, and keep what
    was found in ``hygiene-last.json`` (one runner at a time: a second exits at once)."""
    import fcntl
    import json

    from memsearch_tui.engine.core import clock
    from memsearch_tui.engine.core.atomic import atomic_write_text
    from memsearch_tui.engine.core.state_files import STATE_DIR
    from memsearch_tui.engine.hygiene.propose import propose
    from memsearch_tui.engine.store.store import Store

    state = Path(root) / STATE_DIR
    state.mkdir(parents=True, exist_ok=True)
    with open(state / LOCK, "a+b") as lock:
        try:
            fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            return {"result": "skip", "reason": "another hygiene pass is running"}
        try:
            report = propose(Store(root), scan(root, project), Path(project))
            made = sorted({f.proposal for f in report.findings if f.proposal})
            out: dict[str, Any] = {
                "time": clock.iso_z(),
                "result": "done",
                "counts": report.counts(),
                "proposals": made,
            }
        except Exception as exc:  # a background pass reports, never raises
            out = {"time": clock.iso_z(), "result": "error", "reason": f"{type(exc).__name__}: {exc}"[:500]}
        atomic_write_text(state / LAST, json.dumps(out, indent=2))
        return out


if __name__ == "__main__":  # the hook's background runner: python -m memsearch_tui.engine.hygiene.run ROOT PROJECT
    import sys

    if len(sys.argv) != 3:
        sys.exit("usage: python -m memsearch_tui.engine.hygiene.run MEMORY_ROOT PROJECT")
    sys.exit(0 if background(Path(sys.argv[1]), Path(sys.argv[2]))["result"] != "error" else 1)
