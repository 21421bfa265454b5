"""memsearch 0.4.23 itself (the ``test`` extra installs it beside us): its CLI and API on
files we wrote, and ours on files it wrote. Each memsearch call is a subprocess with the
test's HOME, so its ``~/.memsearch`` is the test's too."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.maintenance.conftest import Env
from tests.maintenance.conftest import env as env  # the shared project fixture

BIN = Path(sys.executable).parent
MEMSEARCH = BIN / "memsearch"


def memsearch(e: Env, *args: str, cwd: Path | None = None, check: bool = True) -> subprocess.CompletedProcess[str]:
    """Run memsearch's own CLI in ``cwd`` (the project) with the test's HOME."""
    proc = subprocess.run(
        [str(MEMSEARCH), *args],
        cwd=str(cwd or e.project),
        env=_env(e),
        capture_output=True,
        text=True,
        timeout=240,
    )
    if check and proc.returncode != 0:
        raise AssertionError(f"memsearch {' '.join(args)} exited {proc.returncode}:\n{proc.stderr[-3000:]}")
    return proc


def memsearch_py(e: Env, code: str, *args: str, cwd: Path | None = None) -> object:
    """Run ``code`` against memsearch's Python API; it prints one JSON value last."""
    proc = subprocess.run(
        [sys.executable, "-c", code, *args],
        cwd=str(cwd or e.project),
        env=_env(e),
        capture_output=True,
        text=True,
        timeout=240,
    )
    if proc.returncode != 0:
        raise AssertionError(f"memsearch API side failed:\n{proc.stderr[-3000:]}")
    return json.loads(proc.stdout.strip().splitlines()[-1])


def _env(e: Env) -> dict[str, str]:
    out = {k: v for k, v in os.environ.items() if not k.startswith(("GIT_", "MEMSEARCH"))}
    out.update(HOME=str(e.home), TQDM_DISABLE="1", HF_HUB_OFFLINE="1", TRANSFORMERS_OFFLINE="1")
    return out


def git(repo: Path, *args: str) -> str:
    return subprocess.run(
        ["git", "-c", "user.name=t", "-c", "user.email=t@t", *args],
        cwd=str(repo),
        capture_output=True,
        text=True,
        check=True,
        env={k: v for k, v in os.environ.items() if not k.startswith("GIT_")},
    ).stdout


@pytest.fixture()
def git_project(env: Env) -> Env:
    """``env``'s project as a real git repository with one commit and an untracked ``.env``."""
    (env.project / ".git").rmdir()
    git(env.project, "init", "-q")
    (env.project / "README.md").write_text("app\n", encoding="utf-8")
    git(env.project, "add", "README.md")
    git(env.project, "commit", "-q", "-m", "initial")
    (env.project / ".env").write_text("API_KEY=do-not-commit\n", encoding="utf-8")
    return env
