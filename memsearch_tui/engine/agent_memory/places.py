"""Where each host keeps the memory it loads, and how much of each file it loads at start.

Claude Code (its memory docs, https://code.claude.com/docs/en/memory, and its
``memdir/paths.ts``): ``~/.claude/CLAUDE.md`` and ``~/.claude/rules/**/*.md`` for the user;
``CLAUDE.md``, ``.claude/CLAUDE.md``, ``.claude/rules/**/*.md`` and ``CLAUDE.local.md`` in
the project; CLAUDE.md files are loaded in full, a rule with ``paths:`` in its frontmatter
only when Claude reads a matching file. Auto memory lives in ``autoMemoryDirectory`` when
managed (policy), local or user settings name one (never the project's own
``.claude/settings.json``: a cloned repository must not choose where Claude writes),
otherwise in ``~/.claude/projects/<slug>/memory/``, the slug being the canonical git root
(a worktree's main checkout) with every character outside ``[A-Za-z0-9]`` replaced by ``-``
one for one. Only its ``MEMORY.md`` is injected, the first 200 lines or 25,000 bytes,
whichever comes first; topic files are read on demand. ``CLAUDE_CONFIG_DIR`` moves
``~/.claude``.

Codex (openai/codex ``codex-rs/core/src/memories/``, ``ext/memories``): ``$CODEX_HOME``
(default ``~/.codex``) ``/memories/``: ``memory_summary.md`` is injected into the developer
instructions, trimmed and truncated to 2,500 tokens (4 bytes a token, head and tail kept);
``MEMORY.md``, ``raw_memories.md``, ``rollout_summaries/`` and ``skills/`` are read on
demand. AGENTS.md: ``~/.codex/AGENTS.md`` (``AGENTS.override.md`` preferred) in full, the
project's up to ``project_doc_max_bytes`` (32 KiB by default).

memsearch's ``PROJECT.md`` / ``USER.md`` are listed too (not measured as loaded).
"""

from __future__ import annotations

import json
import os
import re
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from memsearch_tui.engine.agent_memory.imports import MAX_IMPORTS, follow, nested
from memsearch_tui.engine.core.contained import real
from memsearch_tui.engine.core.errors import MemsearchError
from memsearch_tui.engine.core.safe_io import read_capped
from memsearch_tui.engine.memsearch.project import memsearch_dir, project_roots

CLAUDE_INDEX_LINES = 200  # MEMORY.md: the first 200 lines ...
CLAUDE_INDEX_BYTES = 25_000  # ... or 25 KB, whichever comes first
CODEX_SUMMARY_TOKENS = 2_500  # codex-rs/ext/memories: MEMORY_TOOL_DEVELOPER_INSTRUCTIONS_SUMMARY_TOKEN_LIMIT
BYTES_PER_TOKEN = 4  # Codex's APPROX_BYTES_PER_TOKEN, also our token estimate
CODEX_PROJECT_DOC_BYTES = 32 * 1024  # Codex's default project_doc_max_bytes
SLUG_MAX = 200  # Claude Code cuts a longer slug here and appends a hash of the path
MAX_FILES_PER_FOLDER = 500
MAX_DEPTH = 4
SETTINGS_BYTES = 1_000_000
MANAGED_SETTINGS = (
    Path("/etc/claude-code/managed-settings.json"),
    Path("/Library/Application Support/ClaudeCode/managed-settings.json"),
)


@dataclass(frozen=True)
class Candidate:
    """A file to measure (``rule``: how the host loads it) or a place that could not be
    listed (``problem``)."""

    host: str
    kind: str
    path: Path
    roots: tuple[str, ...]
    rule: str
    problem: str | None = None


def claude_config_dir() -> Path:
    """``$CLAUDE_CONFIG_DIR`` or ``~/.claude``."""
    env = os.environ.get("CLAUDE_CONFIG_DIR")
    return Path(env).expanduser() if env else Path.home() / ".claude"


def codex_home() -> Path:
    """``$CODEX_HOME`` or ``~/.codex``."""
    env = os.environ.get("CODEX_HOME")
    return Path(env).expanduser() if env else Path.home() / ".codex"


def slug(root: str | Path) -> str:
    """Claude Code's folder name for a project (``$E`` in its 2.1.197 bundle): every
    character outside ``[A-Za-z0-9]`` becomes ``-``, one for one (``/a/b_c.d`` →
    ``-a-b-c-d``); a name over :data:`SLUG_MAX` is cut there and given ``-`` and the
    path's 32-bit string hash in base 36."""
    path = os.fspath(root)
    name = re.sub(r"[^A-Za-z0-9]", "-", path)
    if len(name) <= SLUG_MAX:
        return name
    return f"{name[:SLUG_MAX]}-{_base36(abs(_java_hash(path)))}"


def _java_hash(text: str) -> int:
    """``h = (h << 5) - h + code | 0`` over the UTF-16 code units of ``text`` (int32)."""
    h = 0
    units = text.encode("utf-16-le", "surrogatepass")
    for i in range(0, len(units), 2):
        h = (h * 31 + int.from_bytes(units[i : i + 2], "little")) & 0xFFFFFFFF
    return h - (1 << 32) if h >= 1 << 31 else h


def _base36(n: int) -> str:
    digits = "0123456789abcdefghijklmnopqrstuvwxyz"
    out = ""
    while True:
        n, r = divmod(n, 36)
        out = digits[r] + out
        if n == 0:
            return out


def canonical_git_root(project: Path) -> Path:
    """The git root above ``project``; for a linked worktree, its main checkout (what
    Claude Code keys auto memory on, so every worktree shares one); else ``project``."""
    here = Path(real(project))
    for folder in (here, *here.parents):
        dot = folder / ".git"
        if dot.is_dir():
            return folder
        if dot.is_file():
            return _main_checkout(folder, dot) or folder
    return here


def _main_checkout(folder: Path, dot_git: Path) -> Path | None:
    """The main checkout of the worktree whose ``.git`` file is ``dot_git``, or None."""
    try:
        text = read_capped(dot_git, 4096, seconds=2.0).decode("utf-8", "replace").strip()
        if not text.startswith("gitdir:"):
            return None
        gitdir = (folder / text.split(":", 1)[1].strip()).resolve()
        common = read_capped(gitdir / "commondir", 4096, seconds=2.0).decode("utf-8", "replace").strip()
        common_dir = (gitdir / common).resolve()
    except (OSError, ValueError, MemsearchError):  # no commondir, a FIFO, a huge file: not a worktree we can read
        return None
    return common_dir.parent if common_dir.name == ".git" else None


def _setting(path: Path, key: str) -> str | None:
    """``key`` of the JSON settings file ``path`` when it is a non-empty string, else None
    (a missing, unreadable, huge or malformed file is no setting)."""
    value = _json_value(path, key)
    return value if isinstance(value, str) and value.strip() else None


def _json_value(path: Path, key: str) -> object:
    try:
        data = json.loads(read_capped(path, SETTINGS_BYTES, seconds=2.0))
    except (OSError, ValueError, MemsearchError):  # missing, malformed, a FIFO, huge: it names no folder
        return None
    return data.get(key) if isinstance(data, dict) else None


def auto_memory_off(project: Path, config: Path) -> str:
    """Why Claude Code does not load auto memory for ``project`` (``""``: it does).

    Claude Code 2.1.197: ``CLAUDE_CODE_DISABLE_AUTO_MEMORY`` decides when it is set (1/true/
    yes/on: off; 0/false/no/off: on); else ``autoMemoryEnabled`` from the merged settings,
    managed over local over project over user (a project may switch its own auto memory
    off; a boolean cannot send a read elsewhere); else on."""
    env = os.environ.get("CLAUDE_CODE_DISABLE_AUTO_MEMORY", "").strip().lower()
    if env in ("1", "true", "yes", "on"):
        return "CLAUDE_CODE_DISABLE_AUTO_MEMORY is set"
    if env in ("0", "false", "no", "off"):
        return ""
    sources = [*MANAGED_SETTINGS, project / ".claude" / "settings.local.json", project / ".claude" / "settings.json"]
    for path in [*sources, config / "settings.json"]:
        value = _json_value(path, "autoMemoryEnabled")
        if isinstance(value, bool):
            return "" if value else f"autoMemoryEnabled is false in {path}"
    return ""


def auto_memory_dir(project: Path, config: Path) -> tuple[Path, str]:
    """Claude Code's auto-memory folder for ``project`` and where it came from."""
    sources = [(p, "managed settings") for p in MANAGED_SETTINGS]
    sources += [
        (project / ".claude" / "settings.local.json", "local settings"),
        (config / "settings.json", "user settings"),
    ]
    for path, source in sources:
        value = _setting(path, "autoMemoryDirectory")
        if value is not None:
            chosen = Path(value).expanduser()
            if chosen.is_absolute():
                return chosen, f"autoMemoryDirectory in {source} ({path})"
    return config / "projects" / slug(canonical_git_root(project)) / "memory", "default"


def _folder(
    host: str, kind: str, folder: Path, roots: tuple[str, ...], rule: str, depth: int = 0
) -> Iterator[Candidate]:
    """Every ``*.md`` below ``folder`` (links and odd files included, to be named when
    read; linked folders never entered), at most MAX_FILES_PER_FOLDER, MAX_DEPTH deep."""
    try:
        with os.scandir(folder) as it:
            entries = sorted(it, key=lambda e: e.name)
    except FileNotFoundError:
        return
    except OSError as exc:
        yield Candidate(host, kind, folder, roots, rule, f"{folder}: cannot be listed ({exc.strerror}); not read")
        return
    if len(entries) > MAX_FILES_PER_FOLDER:
        yield Candidate(
            host, kind, folder, roots, rule, f"{folder}: over {MAX_FILES_PER_FOLDER} entries; only the first listed"
        )
        entries = entries[:MAX_FILES_PER_FOLDER]
    for e in entries:
        path = Path(e.path)
        if e.is_dir(follow_symlinks=False):
            if depth < MAX_DEPTH:
                yield from _folder(host, kind, path, roots, rule, depth + 1)
        elif e.name.endswith(".md"):
            yield Candidate(host, kind, path, roots, rule)


def _one(host: str, kind: str, path: Path, roots: tuple[str, ...], rule: str) -> Iterator[Candidate]:
    if os.path.lexists(path):
        yield Candidate(host, kind, path, roots, rule)


def _first(host: str, kind: str, paths: tuple[Path, ...], roots: tuple[str, ...], rule: str) -> Iterator[Candidate]:
    """The first of ``paths`` that exists (AGENTS.override.md before AGENTS.md)."""
    for path in paths:
        if os.path.lexists(path):
            yield Candidate(host, kind, path, roots, rule)
            return


def candidates(project: Path, *, deep: bool = True) -> tuple[list[Candidate], Path, Path, tuple[Path, str, str]]:
    """Every agent-memory file of ``project`` to measure, and the Claude config folder,
    the Codex home and the auto-memory folder (with where it came from, and why it is not
    loaded or "") they were looked for in. ``deep``: also the nested CLAUDE.md files of
    subfolders and the files CLAUDE.md ``@path``-imports (a walk and reads: the hook,
    which only stats, leaves them to ``ls`` and ``diff``)."""
    project = Path(project).absolute()
    config, codex = claude_config_dir(), codex_home()
    auto, source = auto_memory_dir(project, config)
    off = auto_memory_off(project, config)
    proj, cfg, cdx = (real(project),), (real(config),), (real(codex),)
    auto_roots = cfg if auto.is_relative_to(config) else (real(auto),)
    found: list[Candidate] = []
    found += _one("claude-code", "user-instructions", config / "CLAUDE.md", cfg, "full")
    found += _folder("claude-code", "user-rule", config / "rules", cfg, "rule")
    found += _one("claude-code", "project-instructions", project / "CLAUDE.md", proj, "full")
    found += _one("claude-code", "project-instructions", project / ".claude" / "CLAUDE.md", proj, "full")
    found += _folder("claude-code", "project-rule", project / ".claude" / "rules", proj, "rule")
    found += _one("claude-code", "local-instructions", project / "CLAUDE.local.md", proj, "full")
    if deep:
        found += [Candidate("claude-code", "nested-instructions", p, proj, "on-demand") for p in nested(project)]
        found += _imports(found)
    found += _one("claude-code", "auto-memory-index", auto / "MEMORY.md", auto_roots, "off" if off else "claude-index")
    found += [
        c
        for c in _folder("claude-code", "auto-memory-topic", auto, auto_roots, "off" if off else "on-demand", MAX_DEPTH)
        if c.path.name != "MEMORY.md" or c.problem
    ]
    mem = codex / "memories"
    found += _one("codex", "memory-summary", mem / "memory_summary.md", cdx, "codex-summary")
    found += _one("codex", "memory-registry", mem / "MEMORY.md", cdx, "on-demand")
    found += _one("codex", "raw-memories", mem / "raw_memories.md", cdx, "on-demand")
    found += _folder("codex", "rollout-summary", mem / "rollout_summaries", cdx, "on-demand")
    found += _folder("codex", "skill", mem / "skills", cdx, "on-demand")
    found += _first("codex", "user-agents", (codex / "AGENTS.override.md", codex / "AGENTS.md"), cdx, "full")
    found += _first(
        "codex", "project-agents", (project / "AGENTS.override.md", project / "AGENTS.md"), proj, "agents-project"
    )
    ms, ms_roots = memsearch_dir(project), project_roots(project)
    found += _one("memsearch", "project", ms / "PROJECT.md", ms_roots, "not-measured")
    found += _one("memsearch", "user", ms / "USER.md", ms_roots, "not-measured")
    return found, config, codex, (auto, source, off)


IMPORTING = ("user-instructions", "user-rule", "project-instructions", "project-rule", "local-instructions")


def _imports(found: list[Candidate]) -> list[Candidate]:
    """The files the CLAUDE.md files and rules in ``found`` import (``@path``), each once,
    within the home folder (a user file) or the project (a project file)."""
    seen = {real(c.path) for c in found if c.problem is None}
    budget = [MAX_IMPORTS]
    home = (real(Path.home()),)
    out = []
    for c in found:
        if c.problem is None and c.kind in IMPORTING:
            roots = home if c.kind.startswith("user") else c.roots
            rule = "full" if c.rule == "rule" else c.rule
            out += [
                Candidate("claude-code", "import", p, roots, rule, why)
                for p, why in follow(c.path, roots, seen, budget)
            ]
    return out
