"""Human names for what the engine keys by id: ``claude-code.project_review`` is shown as
"Claude Code · project review", a trash key ``2026-11-24/decisions/x`` as the entry's id with
the day it was trashed. The keys stay in the CLI commands a pane prints (they are typed)."""

from __future__ import annotations

import re

from memsearch_tui.tui.text import printable

PLATFORM_NAMES = {"claude-code": "Claude Code", "codex": "Codex", "opencode": "OpenCode", "openclaw": "OpenClaw"}
_TRASH_KEY = re.compile(r"(\d{4}-\d{2}-\d{2})/(.+)")


def platform_name(platform: str) -> str:
    """ "Claude Code" for ``claude-code``; an unknown platform as written, dashes as spaces."""
    # an unknown one comes from a file (a proposal a repository shipped): its escapes shown, never sent
    return PLATFORM_NAMES.get(platform) or printable(platform.replace("-", " "), keep_newlines=False)


def task_words(task: str) -> str:
    """ "project review" for ``project_review``."""
    return printable(task.replace("_", " "), keep_newlines=False)


def task_name(platform: str, task: str) -> str:
    """ "Claude Code · project review" for ``claude-code`` and ``project_review``."""
    return f"{platform_name(platform)} · {task_words(task)}"


def trash_name(key: str) -> str:
    """ "decisions/old-logging-library (trashed 2026-11-24)" for the trash key
    ``2026-11-24/decisions/old-logging-library``; any other id as it is."""
    m = _TRASH_KEY.fullmatch(key)
    return f"{m.group(2)} (trashed {m.group(1)})" if m else key
