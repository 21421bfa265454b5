"""``journal conflicts --merge``: one proposal per day that a sync tool left copies of.

The merged text is the curator's (:func:`day_copies.merged_day`); here it becomes a pending
proposal a person reviews as a diff against the day, like every automated change. Accepting
it (``proposals.accept``) writes the day and moves the copies to the trash in one logged
transaction (:func:`day_copies.accept`).
"""

from __future__ import annotations

from collections import defaultdict
from pathlib import Path

from memsearch_tui.engine.core.errors import MemsearchError
from memsearch_tui.engine.core.text import plural
from memsearch_tui.engine.curator import day_copies
from memsearch_tui.engine.review import proposals as pr

DAY_MERGE_TASK = pr.DAY_MERGE_TASK
PLATFORM = "sync"


def propose(project: Path, memory_root: Path | None = None) -> tuple[list[pr.ProjectProposal], list[str]]:
    """A pending merge proposal per day with copies (an identical pending one is kept);
    the proposals and the days that could not be proposed, each with why. ``memory_root``:
    the store whose trash says which turns were forgotten or redacted (left out)."""
    by_day: dict[str, list[day_copies.DayCopy]] = defaultdict(list)
    for c in day_copies.list_copies(project):
        by_day[c.day].append(c)
    made, problems = [], []
    pending = {
        (p.target, tuple(sorted(p.extra.get("copies", {}).items()))): p
        for p in pr.list_pending(project)
        if p.task == DAY_MERGE_TASK
    }
    for day, group in sorted(by_day.items()):
        try:
            made.append(_propose_day(project, day, group, pending, memory_root))
        except (MemsearchError, OSError) as exc:
            problems.append(f"{day}: {getattr(exc, 'message', None) or exc}")
    return made, problems


def _propose_day(
    project: Path,
    day: str,
    group: list[day_copies.DayCopy],
    pending: dict[tuple[str, tuple[tuple[str, str], ...]], pr.ProjectProposal],
    memory_root: Path | None,
) -> pr.ProjectProposal:
    day_path = group[0].day_path
    day_text = day_copies.read_day(day_path)  # a FIFO or a link out: refused, named (never blocks)
    raw = {c.path.name: day_copies.read_bounded(c.path) for c in group}
    digests = {name: day_copies.digest(data) for name, data in raw.items()}
    same = pending.get((str(day_path), tuple(sorted(digests.items()))))
    if same is not None:
        return same
    removed = day_copies.removed_from(memory_root, project, day)
    merged = day_copies.merge_day(day_text, [d.decode("utf-8", "replace") for d in raw.values()], day, removed)
    tools = sorted({c.tool for c in group})
    reason = f"{plural(len(group), 'conflicted copy', 'conflicted copies')} of {day} ({', '.join(tools)}) merged turn by turn"
    if merged.clashes:
        reason += (
            f"; {plural(len(merged.clashes), 'turn')} of a copy share an anchor with the day but differ in text, "
            f"both kept: {', '.join(merged.clashes)}"
        )
    if merged.left_out:
        reason += (
            f"; {plural(len(merged.left_out), 'turn')} forgotten or redacted since the copy was made, left out: "
            f"{', '.join(merged.left_out)}"
        )
    return pr.create(
        project,
        platform=PLATFORM,
        task=DAY_MERGE_TASK,
        target=day_path,
        content=merged.text,
        reason=reason,
        input_digest=day_copies.digest("".join(sorted(digests.values())).encode()),
        extra={"copies": digests, "clashes": list(merged.clashes), "left_out": list(merged.left_out)},
    )
