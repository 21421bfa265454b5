"""Who decides which files a proposal of a task may write, when a package above review
decides it (agent memory: the files its discovery lists).

A small module of its own so that the API's ``Memory`` can register a check without
importing the proposals machinery (or the package above) before any proposal is read: the
app's first frame reads none. A task with no check registered here is refused as tampered
(:func:`.proposals.tamper_reason`).
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

AGENT_MEMORY_TASK = "agent_memory"  # a host's own memory file curated in place (engine/agent_memory/curate.py)
# task → check(project, proposal) → why the proposal may not write its target ("" if it may)
TARGET_CHECKS: dict[str, Callable[[Path, Any], str]] = {}
