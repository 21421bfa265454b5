"""Whether a task's provider can run here: one rule for ``doctor`` and the task status.

A task can be due and still unable to run (its provider is not configured, or the native
provider's CLI is not on PATH); the Maintenance pane and ``maintenance status`` say so next
to "due", and ``doctor`` reports it with the fix, from this one check.
"""

from __future__ import annotations

import shutil
from dataclasses import dataclass

from memsearch_tui.engine.core.errors import MemsearchError
from memsearch_tui.engine.memsearch.config import Config

# The host agent's CLI that the ``native`` provider runs, per platform.
NATIVE_EXE = {"claude-code": "claude", "codex": "codex", "opencode": "opencode", "openclaw": "openclaw"}


@dataclass(frozen=True)
class ProviderProblem:
    """Why a task's provider cannot run, and what fixes it."""

    problem: str
    fix: str


def provider_problem(config: Config, platform: str, task: str, name: str) -> ProviderProblem | None:
    """None when provider ``name`` can run ``platform``'s task here."""
    enable = f"memsearch-tui maintenance enable {task} --platform {platform} --provider NAME"
    for key in ("api_key", "base_url", "model"):  # the provider is fine; its variable is not set here
        var = config.unresolved.get(f"llm.providers.{name}.{key}")
        if var:
            return ProviderProblem(
                f"[llm.providers.{name}] {key} refers to ${var}, which is not set", f"export {var}=…"
            )
    try:
        provider = config.provider(name)
    except MemsearchError as exc:
        return ProviderProblem(exc.message, enable)
    exe = NATIVE_EXE.get(platform, platform)
    if provider.type == "native" and not shutil.which(exe):
        return ProviderProblem(
            f"native provider needs `{exe}` on PATH", f"install {exe}, or configure [llm.providers.NAME] and `{enable}`"
        )
    return None
