"""What ``agent-memory ls`` reports: one row per file found, and each file skipped with why.

Field names are wire names (``--json`` and MCP): keep them and their order.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class AgentMemoryFile:
    """One memory file a host (or memsearch) keeps.

    ``tokens`` is estimated as ``ceil(bytes / 4)``, the approximation Codex itself uses
    (``APPROX_BYTES_PER_TOKEN = 4``). ``loads`` says how the host reads it at session start:
    ``full``, ``head`` (the first ``loaded_lines`` / ``loaded_bytes``), ``head+tail`` (the
    middle is cut), ``on-demand`` (read by a tool only when needed: 0 loaded; a nested
    CLAUDE.md when Claude works in its folder), ``off`` (auto memory switched off:
    ``autoMemoryEnabled`` false or ``CLAUDE_CODE_DISABLE_AUTO_MEMORY``) or
    ``not-measured`` (``loaded_*`` None). ``cut_lines`` / ``cut_bytes``: what start-up
    leaves out. ``secrets``: how many distinct secrets it holds (counted, never shown).
    ``unreviewed_added`` / ``_removed``: lines changed since the version last marked seen
    (None when it was never marked seen, or either side is over 1 MB).
    """

    host: str
    kind: str
    path: str
    lines: int
    bytes: int
    tokens: int
    loads: str
    loaded_lines: int | None
    loaded_bytes: int | None
    cut_lines: int | None
    cut_bytes: int | None
    secrets: int
    unreviewed_added: int | None = None  # lines added since last marked seen; None: never seen
    unreviewed_removed: int | None = None


@dataclass(frozen=True)
class SkippedFile:
    """A file found where a host keeps memories but not read: a link leading outside the
    host's folders, a FIFO, a device, a file too large or not UTF-8."""

    host: str
    kind: str
    path: str
    reason: str


@dataclass(frozen=True)
class AgentMemoryListing:
    """Every agent-memory file found for one project, and every one skipped."""

    files: tuple[AgentMemoryFile, ...]
    skipped: tuple[SkippedFile, ...]
    claude_config: str
    codex_home: str
    auto_memory: str
    auto_memory_from: str  # "default" or the settings file naming autoMemoryDirectory
    auto_memory_off: str = ""  # why Claude Code does not load auto memory here ("": it does)


@dataclass(frozen=True)
class AgentMemoryVersion:
    """One kept version of an agent-memory file (``version``: the first 12 hex digits of
    its content's SHA-256; ``seen``: the version last marked reviewed; ``session``: the
    host session whose Stop/SessionEnd hook recorded it, when the payload named one)."""

    path: str
    version: str
    time: str
    bytes: int
    lines: int
    seen: bool
    session: str | None = None


@dataclass(frozen=True)
class AgentMemoryDiff:
    """What changed in a file since ``since`` (None: never reviewed, all of it is new);
    ``diff`` is unified, secrets masked."""

    path: str
    since: str | None
    now: str
    added: int
    removed: int
    diff: str
