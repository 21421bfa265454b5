"""Condense an over-long Claude Code ``MEMORY.md``, by proposal: the tail the host cuts
moves into a topic file beside it and one index line points there.

Claude Code loads the first 200 lines (or 25,000 bytes) of its auto-memory ``MEMORY.md``
and warns "move detail into topic files"; its own prompt (2.1.x) calls ``MEMORY.md`` an
index, one line per memory in the form ``- [Title](file.md) — hook``, and each topic file
a Markdown file with ``name`` / ``description`` frontmatter that it reads on demand. So the
proposal keeps the head that fits (with room for the pointer line), puts the rest, as it
was, in a new topic file with that frontmatter, and ends the index with a pointer to it.

Nothing is written here: the result is a pending agent-memory proposal whose target is the
index and whose ``extra["new_file"]`` is the topic file (a bare name in the same folder,
chosen so it does not exist). ``proposals accept`` writes both in one logged transaction
(``undo`` gives back both files' bytes), only while the index still holds the bytes the
proposal was made from and the topic name is still free (``engine/review/proposals``).
"""

from __future__ import annotations

import hashlib
import os
from pathlib import Path

from memsearch_tui.engine.agent_memory import places, versions
from memsearch_tui.engine.agent_memory.curate import _propose, condensable, split_lines
from memsearch_tui.engine.agent_memory.measure import loaded
from memsearch_tui.engine.core.contained import real
from memsearch_tui.engine.core.errors import InvalidInput
from memsearch_tui.engine.review import proposals as props

TOPIC = "memory-overflow"  # the topic file's stem: memory-overflow.md, -2.md, … while taken
MAX_TRIES = 50


def topic_name(folder: Path) -> str:
    """The first of ``memory-overflow.md``, ``memory-overflow-2.md``, … not in ``folder``
    (``lexists``: a dangling link counts as taken, so none is ever written through)."""
    for n in range(1, MAX_TRIES + 1):
        name = f"{TOPIC}.md" if n == 1 else f"{TOPIC}-{n}.md"
        if not os.path.lexists(folder / name):
            return name
    raise InvalidInput(f"{folder}: {TOPIC}.md … {TOPIC}-{MAX_TRIES}.md all exist; condense by hand")


def pointer(name: str, first: int, last: int) -> str:
    """The index line Claude Code reads: ``- [Title](file.md) — hook`` (under ~150 chars)."""
    return f"- [Older memory index, moved from MEMORY.md]({name}) — lines {first}–{last} that were past what Claude Code loads\n"


def topic_text(name: str, tail: str, first: int, last: int) -> str:
    """The topic file: Claude Code's frontmatter (``name``, ``description``), then the tail as it was."""
    stem = name.removesuffix(".md")
    desc = f"Index lines {first}–{last} moved out of MEMORY.md: past the 200 lines Claude Code loads at start"
    return f"---\nname: {stem}\ndescription: {desc}\n---\n\n{tail}"


def split_at(data: bytes, name: str = f"{TOPIC}.md") -> tuple[list[str], int] | None:
    """(the index's lines, how many stay) for the index ``data``, or None when it is all
    loaded: the head that fits with room for the pointer line (so hygiene's finding names
    the same lines as the proposal)."""
    text = data.decode("utf-8")
    how, kept_lines, _ = loaded("claude-index", text, data)
    if how == "full":
        return None
    rows = split_lines(text)
    keep = min(kept_lines or 0, places.CLAUDE_INDEX_LINES - 1)  # one line for the pointer
    line = pointer(name, keep + 1, len(rows))
    while keep > 0 and len("".join(rows[:keep]).encode()) + len(line.encode()) > places.CLAUDE_INDEX_BYTES:
        keep -= 1
    return rows, keep


def plan(data: bytes, name: str) -> tuple[str, str] | None:
    """(new index, topic file) for the index ``data``, or None when it is all loaded."""
    if (split := split_at(data, name)) is None:
        return None
    rows, keep = split
    line = pointer(name, keep + 1, len(rows))
    head, tail = "".join(rows[:keep]), "".join(rows[keep:])
    if head and not head.endswith("\n"):
        head += "\n"
    return head + line, topic_text(name, tail if tail.endswith("\n") else tail + "\n", keep + 1, len(rows))


def condense(project: Path, path: str | Path, reason: str = "") -> props.ProjectProposal | None:
    """A pending proposal condensing the Claude Code index ``path``; the pending one
    already made from these bytes when there is one; None when the whole file is loaded
    or the person rejected this very proposal before."""
    c = versions.find(project, path)
    if not condensable(c.kind, c.rule):
        raise InvalidInput(
            f"{c.path}: only Claude Code's auto-memory MEMORY.md is condensed (its host follows the pointer)"
        )
    sha, data = versions.keep(c)
    name = topic_name(Path(real(c.path)).parent)
    made = plan(data, name)
    if made is None:
        return None
    index, topic = made
    digest = "sha256:" + hashlib.sha256(f"condense\0{sha}".encode()).hexdigest()  # the same bytes: the same proposal
    for p in props.list_all(project):
        if (
            p.task == props.AGENT_MEMORY_TASK
            and p.input_digest == digest
            and p.status in (props.PENDING, props.REJECTED)
        ):
            return p if p.status == props.PENDING else None
    why = reason or f"condense: lines past what Claude Code loads move to {name}, a pointer stays"
    return _propose(project, c, sha, index, why, "condense", new_file={"name": name, "content": topic}, digest=digest)
