"""Two devices and a bare remote in temp dirs: the real git CLI, real stores."""

from __future__ import annotations

import shutil
import subprocess
from dataclasses import dataclass
from pathlib import Path

import pytest

from memsearch_tui.engine.core.errors import Refused
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


def git(repo: Path, *args: str, data: bytes | None = None, name: str = "memsearch-tui (laptop)") -> str:
    """Plain git in ``repo`` (a bare remote or a work tree), as a device would sign."""
    env = {
        "GIT_AUTHOR_NAME": name,
        "GIT_AUTHOR_EMAIL": "x@x.invalid",
        "GIT_COMMITTER_NAME": name,
        "GIT_COMMITTER_EMAIL": "x@x.invalid",
        "PATH": "/usr/bin:/bin:/usr/local/bin",
        "HOME": str(repo),
    }
    done = subprocess.run(["git", "-C", str(repo), *args], input=data, capture_output=True, env=env, check=True)
    return done.stdout.decode().strip()


def forge(remote: Path, extra: dict[str, tuple[str, bytes]], *, branch: str = "main", name: str = "") -> str:
    """A commit on ``remote``'s ``branch`` holding its tip's files plus ``extra`` (path →
    (mode, bytes); a gitlink's bytes are the commit id), built with ``mktree`` so names git
    itself would never check out (``..``, ``.git``) can be made: what a hostile remote holds."""
    tip = git(remote, "rev-parse", f"refs/heads/{branch}")
    files: dict[str, tuple[str, str]] = {}
    for line in git(remote, "ls-tree", "-r", "--full-tree", tip).splitlines():
        head, path = line.split("\t", 1)
        mode, _, sha = head.split(" ")
        files[path] = (mode, sha)
    for path, (mode, data) in extra.items():
        sha = data.decode() if mode == "160000" else git(remote, "hash-object", "-w", "--stdin", data=data)
        files[path] = (mode, sha)
    tree = _mktree(remote, files)
    args = ["commit-tree", tree, "-p", tip, "-m", "forged"]
    commit = git(remote, *args, name=name or "memsearch-tui (laptop)")
    git(remote, "update-ref", f"refs/heads/{branch}", commit)
    return commit


def _mktree(remote: Path, files: dict[str, tuple[str, str]]) -> str:
    here: dict[str, tuple[str, str]] = {}
    sub: dict[str, dict[str, tuple[str, str]]] = {}
    for path, entry in files.items():
        head, _, rest = path.partition("/")
        if rest:
            sub.setdefault(head, {})[rest] = entry
        else:
            here[head] = entry
    lines = []
    for name, (mode, sha) in here.items():
        kind = {"160000": "commit"}.get(mode, "blob")
        lines.append(f"{mode} {kind} {sha}\t{name}")
    for name, inner in sub.items():
        lines.append(f"040000 tree {_mktree(remote, inner)}\t{name}")
    return git(remote, "mktree", "--missing", data=("\n".join(lines) + "\n").encode())


def refused_nothing_written(root: Path, named: str) -> None:
    """``sync`` of ``root`` is refused naming ``named``: its files as they were, no sync half-done."""
    before = synced_files(root)
    with pytest.raises(Refused, match="nothing written") as err:
        run.sync(root)
    assert named in err.value.message
    assert synced_files(root) == before
    assert run.status(root).interrupted is False


def refused_whole(devices: Devices, extra: dict[str, tuple[str, bytes]], named: str) -> None:
    """The remote gains ``extra`` (see :func:`forge`); device ``b``'s sync refuses it whole."""
    forge(devices.remote, extra)
    refused_nothing_written(devices.b.root, named)
