"""``maintenance status`` reads each day file once, and not at all when nothing changed
(issue 37 item 5: the Maintenance, Notes and Overview panes each ask it; it digested every
task's input folder, twelve tasks reading the same 10,000 days: 8–17 s a pane's first visit).

Reads are counted with an audit hook (the ``open`` event), whatever reads the file.
"""

from __future__ import annotations

import hashlib
import sys
from pathlib import Path

import pytest

from memsearch_tui.engine.maintenance.run import status
from memsearch_tui.engine.memsearch import state

_OPENED: list[str] | None = None  # the paths opened while a test listens, else None


def _hook(event: str, args: tuple[object, ...]) -> None:
    if _OPENED is not None and event == "open" and isinstance(args[0], str) and args[0].endswith(".md"):
        _OPENED.append(args[0])


sys.addaudithook(_hook)  # one hook for the process (they cannot be removed): idle unless listened to


def _opened_during(fn):  # type: ignore[no-untyped-def]
    global _OPENED
    _OPENED = []
    try:
        result = fn()
        return result, [p for p in _OPENED if "/memory/" in p]
    finally:
        _OPENED = None


def _days(env, n: int) -> Path:  # type: ignore[no-untyped-def]
    memory = env.project / ".memsearch" / "memory"
    for i in range(n):
        body = "- 缓存预热的竞态\n" if i % 2 else "- the cache warm-up race\n"
        (memory / f"2026-10-{1 + i:02d}.md").write_text(f"# 2026-10-{1 + i:02d}\n### 10:00\n{body}", encoding="utf-8")
    return memory


def test_status_reads_each_day_once_then_none_until_one_changes(env, monkeypatch: pytest.MonkeyPatch) -> None:
    memory = _days(env, 20)  # 21 days with the fixture's
    monkeypatch.setattr(
        state, "RACY_NS", 0, raising=False
    )  # the files were written just now: trust their stamps anyway
    monkeypatch.setattr(state, "_DIGESTS", {}, raising=False)
    rows, opened = _opened_during(lambda: status(env.project, env.config()))
    assert len(rows) >= 6 and len({r.input_dir for r in rows}) == 1  # every task digests the same folder
    assert sorted(opened) == sorted(str(p) for p in memory.glob("*.md"))  # 5dbfd6c: each day once a task
    again, opened = _opened_during(lambda: status(env.project, env.config()))
    assert opened == [] and [r.input_digest for r in again] == [r.input_digest for r in rows]
    day = memory / "2026-10-05.md"
    day.write_text(day.read_text(encoding="utf-8").replace("race", "RACE"), encoding="utf-8")  # same size
    changed, opened = _opened_during(lambda: status(env.project, env.config()))
    assert len(opened) == 21 and changed[0].input_digest != rows[0].input_digest
    h = hashlib.sha256()  # memsearch's digest, recomputed here
    for path in sorted(memory.rglob("*.md")):
        h.update(str(path.relative_to(memory)).encode() + b"\0" + path.read_bytes() + b"\0")
    assert changed[0].input_digest == "sha256:" + h.hexdigest()


def test_a_folder_written_just_now_is_read_again(env, monkeypatch: pytest.MonkeyPatch) -> None:
    """git's "racy" rule: a file written within ``RACY_NS`` may change again within one tick
    of a coarse clock, size and stamps equal: its digest is not kept."""
    memory = _days(env, 3)
    monkeypatch.setattr(state, "_DIGESTS", {}, raising=False)
    first, opened = _opened_during(lambda: state.input_digest(memory))
    second, again = _opened_during(lambda: state.input_digest(memory))
    assert first == second and len(opened) == len(again) == 4
