"""A temp home, project and data folder for install tests, and the CLI run in-process."""

from __future__ import annotations

import subprocess
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import pytest

from tests.helpers import run_cli


@dataclass
class HostEnv:
    home: Path
    project: Path
    data: Path
    memory: Path
    cli: Callable[..., tuple[int, str]]

    def plain(self, *args: str) -> tuple[int, str]:
        """The CLI without --memory-root (nothing pinned into the host's commands)."""
        return self.cli(*args, pin=False)


@pytest.fixture
def host_env(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> HostEnv:
    home, project = tmp_path / "home", tmp_path / "proj"
    home.mkdir()
    (project / ".git").mkdir(parents=True)
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.setenv("MEMSEARCH_TUI_DATA_DIR", str(tmp_path / "data"))
    monkeypatch.delenv("MEMSEARCH_TUI_MEMORY_ROOT", raising=False)
    monkeypatch.chdir(project)

    def cli(*args: str, pin: bool = True) -> tuple[int, str]:
        pinned = ["--memory-root", str(tmp_path / "memory")] if pin else []
        r = run_cli(*pinned, *args)
        return r.code, r.out

    return HostEnv(home, project, tmp_path / "data", tmp_path / "memory", cli)


def snapshot(folder: Path) -> dict[str, bytes]:
    """Every file and folder below ``folder``: folders as b"/", files as their bytes."""
    return {
        p.relative_to(folder).as_posix(): (b"/" if p.is_dir() else p.read_bytes()) for p in sorted(folder.rglob("*"))
    }


def files_of(folder: Path) -> dict[str, bytes]:
    """Every file below ``folder`` (folders left out), by relative path."""
    return {p.relative_to(folder).as_posix(): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}


def run_hook(command: str, env: dict[str, str], cwd: Path) -> subprocess.CompletedProcess[str]:
    """A written hook command run as the host runs it: through /bin/sh, an empty payload on stdin."""
    return subprocess.run(
        ["/bin/sh", "-c", command], env=env, input="{}", cwd=cwd, capture_output=True, text=True, timeout=120
    )
