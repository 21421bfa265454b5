"""A version of each agent-memory file, recorded at the host's Stop/SessionEnd hook, cheaply.

The hook runs after every agent turn, so it must cost next to nothing when no memory file
changed: each file discovery lists is ``stat``-ed and compared with the (size, mtime,
inode, device) noted when it was last recorded (``<data dir>/agent-memory/stats.json``);
a file whose stat is unchanged is not opened. A changed one is read by the same contained,
bounded rule as ``ls`` and kept as a version with the payload's ``session_id``, so
``agent-memory history`` says which session changed it.

:func:`watched` gives the paths whose stat the hook's fast-path record must include, so a
memory file an agent changed sends the next hook call down the full path that records it.
"""

from __future__ import annotations

import json
import os
import re
from pathlib import Path

from memsearch_tui.engine.agent_memory import places, versions
from memsearch_tui.engine.core.atomic import atomic_write_bytes
from memsearch_tui.engine.core.errors import MemsearchError
from memsearch_tui.engine.core.safe_io import read_capped

STATS = "stats.json"
STATS_BYTES = 2_000_000
SESSION = re.compile(r"[A-Za-z0-9._:-]{1,128}")  # a host's session id; anything else is not kept


def record(project: Path, session: object = None) -> list[str]:
    """Record every agent-memory file of ``project`` whose stat changed since it was last
    recorded; the paths recorded. ``session``: the hook payload's ``session_id`` (kept
    only when it looks like one)."""
    found, *_ = places.candidates(project, deep=False)  # imports are found by reading: stat only here
    stats = _load(versions.folder() / STATS)
    changed, now = [], {}
    for c in found:
        if c.problem is not None:
            continue
        try:
            st = os.stat(c.path)  # the file a link names: what a read would get
        except OSError:
            continue
        key = [st.st_size, st.st_mtime_ns, st.st_ino, st.st_dev]
        if stats.get(str(c.path)) != key:
            changed.append(c)
            now[str(c.path)] = key
    if not changed:
        return []
    sid = session if isinstance(session, str) and SESSION.fullmatch(session) else None
    done = versions.record_all(changed, sid)
    stats.update({p: now[p] for p in done})
    atomic_write_bytes(versions.folder() / STATS, json.dumps(stats).encode())
    return done


def watched(project: Path) -> list[Path]:
    """Every path whose change could mean an agent-memory file to record: each file found,
    the files a host would create, the folders a new file would appear in (not ``~/.claude``
    or ``~/.codex`` themselves: the hosts write logs there all the time), the settings
    naming the auto-memory folder."""
    found, config, codex, (auto, *_) = places.candidates(project, deep=False)
    project = Path(project).absolute()
    mem = codex / "memories"
    folders = [config / "rules", project / ".claude" / "rules", auto, mem, mem / "rollout_summaries", mem / "skills"]
    paths = [c.path for c in found] + folders
    paths += [c.path.parent for c in found if any(c.path.is_relative_to(f) for f in folders)]  # nested rule folders
    paths += [config / "CLAUDE.md", config / "settings.json", codex / "AGENTS.md", codex / "AGENTS.override.md"]
    paths += [project / n for n in ("CLAUDE.md", "CLAUDE.local.md", "AGENTS.md", "AGENTS.override.md")]
    paths += [project / ".claude", project / ".claude" / "CLAUDE.md", project / ".claude" / "settings.local.json"]
    paths += list(places.MANAGED_SETTINGS)
    return list(dict.fromkeys(Path(p).absolute() for p in paths))


def _load(path: Path) -> dict[str, list[int]]:
    """The stats noted last time; an unreadable or odd file is no stats (all re-read once)."""
    try:
        data = json.loads(read_capped(path, STATS_BYTES, seconds=2.0))
    except (OSError, ValueError, MemsearchError):  # missing, a FIFO, huge, malformed
        return {}
    if not isinstance(data, dict):
        return {}
    return {k: v for k, v in data.items() if isinstance(v, list) and all(isinstance(n, int) for n in v)}
