"""memsearch 0.4.23 itself (the ``test`` extra installs it beside us): its CLI and API on
files we wrote, and ours on files it wrote. Each memsearch call is a subprocess with the
test's HOME, so its ``~/.memsearch`` is the test's too."""

from __future__ import annotations

import json
import os
import select
import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from pathlib import Path

import pytest

from tests.maintenance.conftest import Env
from tests.maintenance.conftest import env as env  # the shared project fixture

BIN = Path(sys.executable).parent
MEMSEARCH = BIN / "memsearch"


def memsearch(e: Env, *args: str, cwd: Path | None = None, check: bool = True) -> subprocess.CompletedProcess[str]:
    """Run memsearch's own CLI in ``cwd`` (the project) with the test's HOME."""
    proc = _run(e, [str(MEMSEARCH), *args], cwd, {"args": list(args)})
    if check and proc.returncode != 0:
        raise AssertionError(f"memsearch {' '.join(args)} exited {proc.returncode}:\n{proc.stderr[-3000:]}")
    return proc


def memsearch_py(e: Env, code: str, *args: str, cwd: Path | None = None) -> object:
    """Run ``code`` against memsearch's Python API; it prints one JSON value last."""
    proc = _run(e, [sys.executable, "-c", code, *args], cwd, {"code": code, "argv": list(args)})
    if proc.returncode != 0:
        raise AssertionError(f"memsearch API side failed:\n{proc.stderr[-3000:]}")
    return json.loads(proc.stdout.strip().splitlines()[-1])


def _run(e: Env, argv: list[str], cwd: Path | None, request: dict[str, object]) -> subprocess.CompletedProcess[str]:
    """``argv`` in a new process, or ``request`` in the test's one memsearch process (``served``)."""
    where = cwd or e.project
    process = _SERVED.get(id(e))
    if process is not None:
        return process.call(argv, where, request)
    return subprocess.run(argv, cwd=str(where), env=_env(e), capture_output=True, text=True, timeout=240)


#: The loop of ``served``'s process: a request per line (its folder, and memsearch's CLI
#: arguments or Python code), a JSON reply per line. Run by memsearch's console script's own
#: entry point (``memsearch.cli:cli``), as the ``memsearch`` command runs it.
SERVE = r"""
import contextlib, io, json, os, sys, traceback
from memsearch.cli import cli
replies = os.fdopen(os.dup(1), "w")  # the replies' own channel: what writes to fd 1 goes to stderr
os.dup2(2, 1)
for line in sys.stdin:
    request = json.loads(line)
    os.chdir(request["cwd"])
    out, err, code = io.StringIO(), io.StringIO(), 0
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            if "code" in request:
                sys.argv = ["-c", *request["argv"]]
                exec(compile(request["code"], "<string>", "exec"), {"__name__": "__main__"})
            else:
                cli.main(request["args"], prog_name="memsearch")
        except SystemExit as stop:
            code = stop.code if isinstance(stop.code, int) else (0 if stop.code is None else 1)
        except BaseException:
            traceback.print_exc()
            code = 1
    replies.write(json.dumps({"code": code, "out": out.getvalue(), "err": err.getvalue()}) + "\n")
    replies.flush()
"""


class _Served:
    """One memsearch process answering a test's calls in turn (see ``served``)."""

    def __init__(self, e: Env) -> None:
        self.proc = subprocess.Popen(
            [sys.executable, "-c", SERVE],
            cwd=str(e.project),
            env=_env(e),
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
        )

    def call(self, argv: list[str], cwd: Path, request: dict[str, object]) -> subprocess.CompletedProcess[str]:
        assert self.proc.stdin is not None and self.proc.stdout is not None
        self.proc.stdin.write(json.dumps({**request, "cwd": str(cwd)}) + "\n")
        self.proc.stdin.flush()
        if not select.select([self.proc.stdout], [], [], 240)[0]:  # as the 240 s of a subprocess
            self.proc.kill()
            raise AssertionError(f"memsearch {request} did not answer in 240 s")
        line = self.proc.stdout.readline()
        if not line:
            raise AssertionError(f"the memsearch process exited {self.proc.wait(timeout=30)}")
        reply = json.loads(line)
        return subprocess.CompletedProcess(argv, reply["code"], reply["out"], reply["err"])

    def close(self) -> None:
        assert self.proc.stdin is not None
        with suppress(BrokenPipeError):  # it exited already: its error is the test's
            self.proc.stdin.close()
        self.proc.wait(timeout=60)


_SERVED: dict[int, _Served] = {}


@contextmanager
def served(e: Env) -> Iterator[None]:
    """Within the block, ``memsearch`` and ``memsearch_py`` for ``e`` run in one memsearch
    process, one call after the other: each new process imported memsearch, and its ``local``
    embedding provider sentence-transformers (sklearn, scipy, pandas: ~6 s of CPU of a 7.5 s
    ``memsearch index``). Each call still opens and closes memsearch's Milvus Lite (its LOCK
    is free between two, as after a ``memsearch`` command) and reads its config again."""
    _SERVED[id(e)] = _Served(e)
    try:
        yield
    finally:
        _SERVED.pop(id(e)).close()


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
