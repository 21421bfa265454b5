"""The ``hosts`` noun: plan, show and apply the wiring of memsearch-tui into an agent host.

A thin door over ``engine.hosts`` (where the editing lives): it picks the data folder
for install records and the PATH-independent launcher, and returns the package's frozen
dataclasses (``HostPlan`` with its ``FileEdit``s, ``HostResult``).

``memory_root`` / ``project`` are the options the user gave install (None when not
given): they are written into the host's commands so the hook and the server use the
same store from any shell.
"""

from __future__ import annotations

from pathlib import Path

from memsearch_tui.engine.hosts import HOSTS, SCOPES, FileEdit, HostPlan, HostResult, launch_for
from memsearch_tui.engine.hosts import apply as _apply
from memsearch_tui.engine.hosts import plan_install as _plan_install
from memsearch_tui.engine.hosts import plan_uninstall as _plan_uninstall

__all__ = ["HOSTS", "SCOPES", "FileEdit", "HostPlan", "HostResult", "apply", "plan", "plan_uninstall"]


def _data_dir() -> Path:
    from memsearch_tui.engine.search.settings import data_home

    return data_home()


def plan(
    host: str, scope: str, *, project: Path, home: Path, memory_root: Path | None = None, pin_project: bool = False
) -> HostPlan:
    """Every change ``install`` would make (nothing written)."""
    launch = launch_for(memory_root, project if pin_project else None)
    return _plan_install(host, scope, project=project, home=home, data_dir=_data_dir(), launch=launch)


def plan_uninstall(
    host: str, scope: str, *, project: Path, home: Path, memory_root: Path | None = None, pin_project: bool = False
) -> HostPlan:
    """Every change ``uninstall`` would make: only what install wrote comes out."""
    launch = launch_for(memory_root, project if pin_project else None)
    return _plan_uninstall(host, scope, project=project, home=home, data_dir=_data_dir(), launch=launch)


def apply(p: HostPlan) -> HostResult:
    """Write a plan (each file re-checked just before), keeping backups and records."""
    return _apply(p, data_dir=_data_dir())
