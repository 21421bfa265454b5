"""Read each agent-memory file once, bounded, and measure it: size, tokens, what the host
loads at start and cuts, how many secrets it holds.

Every read goes through :func:`~memsearch_tui.engine.core.contained.read_inside`: a link
leading out of the host's folders, a FIFO, a device, a file over :data:`FILE_LIMIT` or a
read slower than :data:`FILE_SECONDS` is named in ``skipped`` and never followed or waited
on; so is a file that is not UTF-8. The whole listing reads at most :data:`TOTAL_LIMIT`
bytes.
"""

from __future__ import annotations

import math
from pathlib import Path

from memsearch_tui.engine.agent_memory import places
from memsearch_tui.engine.agent_memory.places import Candidate
from memsearch_tui.engine.agent_memory.records import AgentMemoryFile, AgentMemoryListing, SkippedFile
from memsearch_tui.engine.core.contained import read_inside
from memsearch_tui.engine.core.errors import InvalidInput, MemsearchError
from memsearch_tui.engine.core.secrets import found_values

FILE_LIMIT = 4_000_000  # Codex's raw_memories.md reaches ~1.4 MB on a busy machine
FILE_SECONDS = 5.0
TOTAL_LIMIT = 64_000_000


def listing(project: Path) -> AgentMemoryListing:
    """Every agent-memory file of ``project``, measured, and every one skipped with why."""
    found, config, codex, (auto, source, off) = places.candidates(project)
    files: list[AgentMemoryFile] = []
    skipped: list[SkippedFile] = []
    budget = TOTAL_LIMIT
    for c in found:
        if c.problem is not None:
            skipped.append(SkippedFile(c.host, c.kind, str(c.path), c.problem))
            continue
        if budget <= 0:
            skipped.append(SkippedFile(c.host, c.kind, str(c.path), f"{c.path}: listing read budget used up; not read"))
            continue
        row = _measure(c, min(FILE_LIMIT, budget))
        if isinstance(row, SkippedFile):
            skipped.append(row)
        else:
            files.append(row)
            budget -= row.bytes
    return AgentMemoryListing(tuple(files), tuple(skipped), str(config), str(codex), str(auto), source, off)


def read(c: Candidate, limit: int = FILE_LIMIT) -> tuple[bytes, str]:
    """The bytes and text of ``c``, read under its host's containment rule; InvalidInput
    (a one-line reason naming the file) when it may not or cannot be read."""
    try:
        data = read_inside(c.roots, c.path, limit, seconds=FILE_SECONDS)
        return data, data.decode("utf-8")
    except UnicodeDecodeError as exc:
        reason = f"{c.path}: not UTF-8 text (byte {exc.start}); not read"
    except MemsearchError as exc:  # outside the roots, a FIFO, a device, too large, too slow
        reason = str(exc)
    except FileNotFoundError:
        reason = f"{c.path}: dangling link or gone; not read"
    except OSError as exc:
        reason = f"{c.path}: cannot be read ({exc.strerror}); not read"
    raise InvalidInput(reason, path=str(c.path))


def _measure(c: Candidate, limit: int) -> AgentMemoryFile | SkippedFile:
    try:
        data, text = read(c, limit)
    except InvalidInput as exc:
        return SkippedFile(c.host, c.kind, str(c.path), str(exc))
    lines = count_lines(text)
    loads, loaded_lines, loaded_bytes = loaded(c.rule, text, data)
    cut_lines = None if loaded_lines is None else lines - loaded_lines
    cut_bytes = None if loaded_bytes is None else len(data) - loaded_bytes
    return AgentMemoryFile(
        host=c.host,
        kind=c.kind,
        path=str(c.path),
        lines=lines,
        bytes=len(data),
        tokens=math.ceil(len(data) / places.BYTES_PER_TOKEN),
        loads=loads,
        loaded_lines=loaded_lines,
        loaded_bytes=loaded_bytes,
        cut_lines=cut_lines,
        cut_bytes=cut_bytes,
        secrets=len({value for _, value in found_values(text)}),
    )


def count_lines(text: str) -> int:
    """Lines as an editor counts them: a last line without ``\\n`` counts too."""
    return text.count("\n") + (1 if text and not text.endswith("\n") else 0)


def loaded(rule: str, text: str, data: bytes) -> tuple[str, int | None, int | None]:
    """(how, lines, bytes) of ``text`` the host loads at session start under ``rule``."""
    if rule == "full" or (rule == "rule" and not _path_scoped(text)):
        return "full", count_lines(text), len(data)
    if rule in ("rule", "on-demand"):
        return "on-demand", 0, 0
    if rule == "off":  # auto memory switched off: the host neither reads nor writes it
        return "off", 0, 0
    if rule == "claude-index":
        return _head(data, places.CLAUDE_INDEX_LINES, places.CLAUDE_INDEX_BYTES)
    if rule == "agents-project":
        return _head(data, None, places.CODEX_PROJECT_DOC_BYTES)
    if rule == "codex-summary":
        return _head_tail(text.strip().encode("utf-8"), places.CODEX_SUMMARY_TOKENS * places.BYTES_PER_TOKEN)
    return "not-measured", None, None


def _head(data: bytes, max_lines: int | None, max_bytes: int) -> tuple[str, int, int]:
    """The first ``max_lines`` lines, then cut back to the last whole line within
    ``max_bytes`` (Claude Code's MEMORY.md rule; Codex's byte cap with no line cap)."""
    kept = data
    if max_lines is not None:
        parts = data.split(b"\n", max_lines)  # the rest of the file is the last part
        if len(parts) > max_lines and parts[max_lines]:
            kept = b"\n".join(parts[:max_lines]) + b"\n"
    if len(kept) > max_bytes:
        cut = kept.rfind(b"\n", 0, max_bytes)
        kept = kept[: cut + 1] if cut > 0 else kept[:max_bytes]
    how = "full" if len(kept) >= len(data) else "head"
    text = kept.decode("utf-8", "ignore")
    return how, count_lines(text), min(len(kept), len(data))


def _head_tail(data: bytes, max_bytes: int) -> tuple[str, int, int]:
    """Codex's token truncation: within budget, all of it; over, the first and last halves
    of the budget with the middle cut (line count of what is kept, partial lines included)."""
    if len(data) <= max_bytes:
        return "full", count_lines(data.decode("utf-8", "ignore")), len(data)
    half = max_bytes // 2
    head, tail = data[:half].decode("utf-8", "ignore"), data[-half:].decode("utf-8", "ignore")
    return "head+tail", count_lines(head) + count_lines(tail), len(head.encode()) + len(tail.encode())


def _path_scoped(text: str) -> bool:
    """Whether a Claude Code rule file names ``paths:`` in its frontmatter (then it is
    loaded only when Claude reads a matching file)."""
    if not text.startswith("---"):
        return False
    end = text.find("\n---", 3)
    head = text[3:end] if end > 0 else ""
    return any(line.startswith("paths:") for line in head.splitlines())
