"""Two devices and a bare remote in temp dirs: the real git CLI, real stores."""

from __future__ import annotations

import shutil
import subprocess
from dataclasses import dataclass
from pathlib import Path

import pytest

from memsearch_tui.engine.store.store import Store
from memsearch_tui.engine.sync import run

pytestmark = pytest.mark.skipif(shutil.which("git") is None, reason="sync runs the git CLI; this machine has none")


@dataclass
class Devices:
    remote: Path
    a: Store
    b: Store

    def sync_all(self, rounds: int = 2) -> None:
        for _ in range(rounds):
            run.sync(self.a.root)
            run.sync(self.b.root)


def make_remote(tmp: Path) -> Path:
    remote = tmp / "remote.git"
    subprocess.run(["git", "init", "-q", "--bare", "-b", "main", str(remote)], check=True)
    return remote


@pytest.fixture
def devices(tmp_path: Path) -> Devices:
    """Device ``a`` made the store and pushed it; ``b`` cloned it."""
    remote = make_remote(tmp_path)
    a = Store(tmp_path / "laptop")
    a.init()
    run.init(a.root, remote=str(remote), device="laptop")
    run.init(tmp_path / "desktop", remote=str(remote), device="desktop")
    return Devices(remote, a, Store(tmp_path / "desktop"))


def synced_files(root: Path) -> dict[str, bytes]:
    """What git carries: every file but .git, the state folder and the trash."""
    skip = {".git", ".memsearch-tui", ".trash"}
    return {
        p.relative_to(root).as_posix(): p.read_bytes()
        for p in sorted(root.rglob("*"))
        if p.is_file() and not skip & set(p.relative_to(root).parts)
    }


def all_text(root: Path) -> str:
    """Every file's text under root but .git (trash, versions, entries), for "nothing lost"."""
    return "\n".join(
        p.read_text("utf-8", "replace")
        for p in root.rglob("*")
        if p.is_file() and ".git" not in p.relative_to(root).parts
    )
