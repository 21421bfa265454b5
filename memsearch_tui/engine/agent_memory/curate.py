"""Curate a host's memory file in place, by proposal: prune lines, an edit in $EDITOR, a
kept version restored.

Nothing here writes the host's file. Each verb reads the file by the same contained,
bounded rule as ``ls`` (only a path discovery lists; a link leading out is refused), keeps
its current content as a version, and makes a pending proposal (``engine/review``) whose
digest is that of the very bytes the new text was built from. ``proposals accept`` then
writes atomically, in a logged transaction (``undo`` restores the old bytes exactly), and
only while the file still holds those bytes: a line number counted in other bytes would
cut the wrong line, so even ``--force`` is refused there.

The review layer cannot list the hosts' files (it sits below this package), so this module
registers the check that a proposal's target is one of them (:func:`target_problem`); a
proposal file naming any other path is refused as tampered.
"""

from __future__ import annotations

import hashlib
import re
from pathlib import Path

from memsearch_tui.engine.agent_memory import places, versions
from memsearch_tui.engine.agent_memory.measure import FILE_LIMIT
from memsearch_tui.engine.agent_memory.places import Candidate
from memsearch_tui.engine.core.contained import real, within
from memsearch_tui.engine.core.errors import InvalidInput
from memsearch_tui.engine.review import proposals as props
from memsearch_tui.engine.store.editor import RunProgram, edit_bytes, keep_unsaved

TASK = props.AGENT_MEMORY_TASK
SAFE_NAME = re.compile(r"[a-z0-9][a-z0-9-]{0,60}\.md")  # a new topic file's name: no folder, no dot-file


def condensable(kind: str, rule: str) -> bool:
    """Whether a file of this kind is condensed by a pointer its host follows: Claude Code's
    auto-memory index only (Codex and AGENTS.md read no index links)."""
    return kind == "auto-memory-index" and rule == "claude-index"


def split_lines(text: str) -> list[str]:
    """``text`` as lines, each with its own ending (``\\r\\n`` kept whole); only ``\\n``
    ends a line, as ``ls`` counts them."""
    parts = text.split("\n")
    return [p + "\n" for p in parts[:-1]] + ([parts[-1]] if parts[-1] else [])


def parse_lines(spec: str) -> tuple[int, int]:
    """``A`` or ``A-B`` (1-based, inclusive) as (A, B)."""
    first, _, last = spec.strip().partition("-")
    try:
        a, b = int(first), int(last or first)
    except ValueError:
        raise InvalidInput(f"--lines {spec!r}: give A or A-B (line numbers, from 1)") from None
    if a < 1 or b < a:
        raise InvalidInput(f"--lines {spec!r}: give A or A-B with 1 <= A <= B")
    return a, b


def prune(project: Path, path: str | Path, lines: str, reason: str) -> props.ProjectProposal:
    """A proposal removing lines ``lines`` (``A`` or ``A-B``) of the agent-memory file ``path``."""
    a, b = parse_lines(lines)
    c = versions.find(project, path)
    sha, data = versions.keep(c)
    rows = split_lines(data.decode("utf-8"))
    if b > len(rows):
        raise InvalidInput(
            f"{c.path}: --lines {lines} goes past its {len(rows)} lines; nothing proposed", path=str(c.path)
        )
    new = "".join(rows[: a - 1] + rows[b:])
    return _propose(project, c, sha, new, reason or f"prune lines {a}-{b}", "prune")


def edit(project: Path, path: str | Path, run: RunProgram, reason: str) -> props.ProjectProposal | None:
    """A proposal of what the person saved in $EDITOR (run on a copy of ``path``); None
    when they saved it unchanged."""
    c = versions.find(project, path)
    sha, data = versions.keep(c)
    edited = edit_bytes(data, c.path.name, run)
    if edited == data:
        return None
    if len(edited) > FILE_LIMIT:
        raise InvalidInput(
            f"{c.path}: the edit is over {FILE_LIMIT} bytes; nothing proposed; kept in {keep_unsaved(edited, c.path.name)}"
        )
    try:
        text = edited.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise InvalidInput(
            f"{c.path}: the edit is not UTF-8 (byte {exc.start}); nothing proposed; kept in {keep_unsaved(edited, c.path.name)}"
        ) from None
    return _propose(project, c, sha, text, reason or "edited by hand", "edit")


def restore(project: Path, path: str | Path, version: str, reason: str) -> props.ProjectProposal:
    """A proposal putting back the kept ``version`` of ``path`` (see ``agent-memory history``)."""
    c, old_sha, old = versions.content(project, path, version)
    sha, data = versions.keep(c)
    if old == data:
        raise InvalidInput(f"{c.path}: already holds version {version}; nothing proposed", path=str(c.path))
    return _propose(project, c, sha, old.decode("utf-8"), reason or f"restore version {old_sha[:12]}", "restore")


def _propose(
    project: Path,
    c: Candidate,
    sha: str,
    new: str,
    reason: str,
    action: str,
    *,
    new_file: dict[str, str] | None = None,
    digest: str = "",
) -> props.ProjectProposal:
    """The pending proposal replacing ``c`` (whose bytes hashed to ``sha``) with ``new``;
    ``new_file``: a file created beside it in the same accept (``{"name", "content"}``)."""
    target = Path(real(c.path))  # a link inside the host's folder: the file it names is written
    extra: dict[str, object] = {"action": action, "path": str(c.path), "kind": c.kind}
    if new_file is not None:
        extra[props.NEW_FILE] = new_file
    return props.create(
        project,
        platform=c.host,
        task=TASK,
        target=target,
        content=new,
        reason=reason,
        input_digest=digest or "sha256:" + hashlib.sha256(f"{action}\0{sha}\0{new}".encode()).hexdigest(),
        extra=extra,
        target_digest="sha256:" + sha,
    )


def target_problem(project: Path, prop: props.ProjectProposal) -> str:
    """Why ``prop`` may not write its target (``""``: it may): the target must be, once
    resolved, a file agent-memory discovery lists for ``project``, inside its host's folders."""
    found, *_ = places.candidates(project)
    hit = next(
        (c for c in found if c.problem is None and within(c.roots, c.path) and real(c.path) == real(prop.target)),
        None,
    )
    if not prop.target or hit is None:
        return (
            f"tampered proposal {prop.id}: {props.target_as_written(prop)} is not an agent-memory file of this project"
        )
    extra = prop.extra.get(props.NEW_FILE)
    if extra is None:
        return ""
    name = extra.get("name") if isinstance(extra, dict) else None
    if not condensable(hit.kind, hit.rule) or not isinstance(name, str) or not SAFE_NAME.fullmatch(name):
        return (
            f"tampered proposal {prop.id}: its new file {str(name)[:80]!r} is not a topic file beside {hit.path.name}"
        )
    if not isinstance(extra.get("content"), str):
        return f"tampered proposal {prop.id}: its new file has no text"
    return ""


props.TARGET_CHECKS[TASK] = target_problem
