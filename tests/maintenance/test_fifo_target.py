"""A proposal's target that is a FIFO is refused, named, and never blocks: making the
proposal (``create`` read the target whole for its digest and its secrets), listing, showing,
diffing, accepting and rejecting it, from the engine, the CLI and the MCP server's ``propose``.
Each call runs in a thread with a bounded join, so a regression fails instead of hanging."""

from __future__ import annotations

import json
import os
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from memsearch_tui.engine.api import Memory
from memsearch_tui.engine.core.errors import InvalidInput
from memsearch_tui.engine.review import proposals
from memsearch_tui.engine.review.stale_mark import text_is_back
from tests.maintenance.test_cli import cli

pytestmark = pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs on this platform")
NAMES = ["PROJECT.md", "项目 笔记.md"]


def _bounded(fifo: Path, call: Callable[[], Any]) -> Any:
    """``call()``'s result (or the exception it raised) within 20 s; a call still blocked on
    ``fifo`` then is released (a writer opens and closes it) and the test fails."""
    out: list[Any] = []

    def run() -> None:
        try:
            out.append(call())
        except BaseException as exc:  # handed to the test
            out.append(exc)

    worker = threading.Thread(target=run, daemon=True)
    worker.start()
    worker.join(20)
    blocked = worker.is_alive()
    for _ in range(3):  # a reader blocked in open() or read() gets EOF
        try:
            os.close(os.open(fifo, os.O_WRONLY | os.O_NONBLOCK))
        except OSError:
            break
        worker.join(2)
    assert not blocked, f"blocked on the FIFO {fifo.name}"
    return out[0]


def _make(project: Path, target: Path) -> proposals.ProjectProposal:
    return proposals.create(
        project,
        platform="claude-code",
        task="project_review",
        target=target,
        content="# 项目\n- new\n",
        reason="r",
        input_digest="d",
    )


@pytest.mark.parametrize("name", NAMES)
def test_making_a_proposal_for_a_fifo_is_refused_at_once(tmp_path: Path, name: str) -> None:
    project = tmp_path / "proj"
    target = project / ".memsearch" / name
    target.parent.mkdir(parents=True)
    target.write_text("old\n", encoding="utf-8")
    older = _make(project, target)
    target.unlink()
    os.mkfifo(target)
    got = _bounded(target, lambda: _make(project, target))
    assert isinstance(got, InvalidInput), got
    assert name in got.message and "FIFO" in got.message and "\n" not in got.message
    assert [p.id for p in proposals.list_pending(project)] == [older.id]  # refused: nothing superseded
    got = _bounded(target, lambda: proposals.file_digest(target))
    assert isinstance(got, InvalidInput) and name in got.message


@pytest.mark.parametrize("folder", ["proj", "项目 笔记"])
def test_a_pending_proposal_whose_target_became_a_fifo(tmp_path: Path, folder: str) -> None:
    """Listed as changed; diff, current bytes and accept (even forced) refused naming the file;
    reject still works. (Its target is the task's own PROJECT.md: any other is tampered, never read.)"""
    project = tmp_path / folder
    target = project / ".memsearch" / "PROJECT.md"
    target.parent.mkdir(parents=True)
    target.write_text("old\n", encoding="utf-8")
    made = _make(project, target)
    target.unlink()
    os.mkfifo(target)
    [listed] = _bounded(target, lambda: proposals.list_pending(project))
    assert _bounded(target, lambda: proposals.target_changed(listed)) is True
    for call in (
        lambda: proposals.diff(project, made.id),
        lambda: proposals.current_bytes(listed),
        lambda: proposals.current_text(listed),
        lambda: proposals.check_target(target, b"old\n"),
        lambda: proposals.accept(project, made.id, memory_root=None, force=True),  # type: ignore[arg-type]
        lambda: proposals.refuse_added_secrets(target, "x\n", "the text"),
    ):
        got = _bounded(target, call)
        assert isinstance(got, InvalidInput) and str(target) in got.message and "FIFO" in got.message, got
    assert _bounded(target, lambda: proposals.reject(project, made.id)).status == proposals.REJECTED


@pytest.mark.parametrize("name", NAMES)
def test_the_stale_marks_day_file_as_a_fifo_is_not_read(tmp_path: Path, name: str) -> None:
    """A stale mark's day file comes from the proposal file: a FIFO there is "not back"."""
    fifo = tmp_path / name
    os.mkfifo(fifo)
    assert _bounded(fifo, lambda: text_is_back({"file": str(fifo), "lines": 1, "sha256": "0" * 64})) is False


@pytest.mark.parametrize("name", ["PROJECT.md", "USER.md"])
def test_cli_and_mcp_propose_never_block_on_a_fifo_note(env, name: str) -> None:
    """``proposals list/show/diff/accept`` give a one-line error (or the listing) at once; the
    MCP ``propose`` tool (``mem.proposals.propose``) refuses naming the file."""
    target = env.mem / name
    target.write_text("旧的 notes\n", encoding="utf-8")
    mem = Memory(env.tmp / "store", env.project, writes="review", actor="mcp:probe")
    made = mem.proposals.propose(name, "# 新的\n", "r")
    target.unlink()
    os.mkfifo(target)
    refused = _bounded(target, lambda: mem.proposals.propose(name, "# 又一个\n", "r"))
    assert isinstance(refused, InvalidInput) and name in refused.message and "FIFO" in refused.message
    listed = _bounded(target, lambda: cli(env, "proposals", "list", "--json"))
    assert [p["id"] for p in json.loads(listed.stdout)["data"]["proposals"]] == [made.id]
    shown = _bounded(target, lambda: cli(env, "proposals", "show", made.id))
    assert shown.exit_code == 0 and "(changed since the proposal)" in shown.stdout
    for args in (("diff", made.id), ("accept", made.id, "--force")):
        r = _bounded(target, lambda: cli(env, "proposals", *args))  # noqa: B023 - called at once
        said = (r.stdout + r.stderr).strip()
        assert r.exit_code == 1 and name in said and "FIFO" in said and len(said.splitlines()) == 1, said


def test_a_maintenance_run_for_a_fifo_output_file_is_an_error_before_the_model(env) -> None:
    """The prompt quoted the output file with a plain read: ``maintenance run`` blocked on a
    FIFO PROJECT.md. Now the task is an error naming it, and the model is never asked."""
    from memsearch_tui.engine.maintenance import run_tasks
    from tests.maintenance.conftest import answer_script

    target = env.mem / "PROJECT.md"
    os.mkfifo(target)
    asked = env.tmp / "asked"
    env.command_provider(answer_script(env, '{"action": "none", "reason": "r"}'))
    script = env.tmp / "bin" / "answer"
    script.write_text(
        script.read_text(encoding="utf-8").replace("cat > /dev/null", f"touch '{asked}'; cat > /dev/null")
    )
    results = _bounded(target, lambda: run_tasks(env.project, env.config(), memory_root=env.store))
    [r] = [x for x in results if x.task == "project_review"]
    assert r.result == "error" and str(target) in r.reason and "FIFO" in r.reason, r
    assert not asked.exists() and proposals.list_pending(env.project) == []
