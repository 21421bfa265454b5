"""``maintenance status`` reads each day file once, and not at all when nothing changed
(issue 37 item 5: the Maintenance, Notes and Overview panes each ask it; it digested every
task's input folder, twelve tasks reading the same 10,000 days: 8–17 s a pane's first visit).

Reads are counted with an audit hook (the ``open`` event), whatever reads the file.
"""

from __future__ import annotations

import hashlib
import os
import re
import sys
from pathlib import Path

import pytest
from memsearch.maintenance import _input_digest as memsearch_digest

from memsearch_tui.engine.maintenance.run import status
from memsearch_tui.engine.memsearch import state

_OPENED: list[str] | None = None  # the names of the day files opened while a test listens, else None
_DAY = re.compile(r"\d{4}-\d\d-\d\d\.md")


def _hook(event: str, args: tuple[object, ...]) -> None:
    # a day is opened by its name from its folder's descriptor (``state._Folders``): the
    # event's path is then the name alone
    if _OPENED is not None and event == "open" and isinstance(args[0], str) and args[0].endswith(".md"):
        _OPENED.append(os.path.basename(args[0]))


sys.addaudithook(_hook)  # one hook for the process (they cannot be removed): idle unless listened to


def _opened_during(fn):  # type: ignore[no-untyped-def]
    global _OPENED
    _OPENED = []
    try:
        result = fn()
        return result, [p for p in _OPENED if _DAY.fullmatch(p)]
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
    assert sorted(opened) == sorted(p.name for p in memory.glob("*.md"))  # 5dbfd6c: each day once a task
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


# -- the digest kept across processes (digest_kept.py) ---------------------------------------
def _fresh_process(monkeypatch: pytest.MonkeyPatch) -> None:
    """What a new process has: no digest in memory (the kept file on disk is all it finds)."""
    monkeypatch.setattr(state, "_DIGESTS", {}, raising=False)


def _kept_once(env, monkeypatch: pytest.MonkeyPatch, n: int = 4):  # type: ignore[no-untyped-def]
    """Days digested once by an earlier process (their stamps trusted at once), then a new
    process that reads none of them: the kept digest, memsearch's own value."""
    memory = _days(env, n)
    monkeypatch.setattr(state, "RACY_NS", 0, raising=False)
    _fresh_process(monkeypatch)
    first, opened = _opened_during(lambda: state.input_digest(memory))
    assert len(opened) == n + 1
    _fresh_process(monkeypatch)
    second, opened = _opened_during(lambda: state.input_digest(memory))
    assert opened == [] and second == first == memsearch_digest(memory)  # db0d999: every day read again
    return memory, first


def test_a_new_process_reads_no_day_when_none_changed(env, monkeypatch: pytest.MonkeyPatch) -> None:
    import os

    memory, digest = _kept_once(env, monkeypatch)
    kept = list((Path(os.environ["MEMSEARCH_TUI_DATA_DIR"]) / "digests").iterdir())
    assert len(kept) == 1 and digest.encode() in kept[0].read_bytes()  # in the user's data folder
    assert not list(env.project.rglob("*digest*"))  # nothing a repository could ship
    rows, opened = _opened_during(lambda: status(env.project, env.config()))  # status too, in memory now
    assert opened == [] and {r.input_digest for r in rows} == {digest}


def test_a_same_size_edit_with_a_new_ctime_is_read(env, monkeypatch: pytest.MonkeyPatch) -> None:
    import os

    memory, digest = _kept_once(env, monkeypatch)
    day = memory / "2026-10-02.md"
    before = day.stat()
    day.write_text(day.read_text(encoding="utf-8").replace("缓存", "快取"), encoding="utf-8")  # same size
    os.utime(day, ns=(before.st_atime_ns, before.st_mtime_ns))  # mtime put back; ctime moves anyway
    assert day.stat().st_size == before.st_size
    _fresh_process(monkeypatch)
    changed, opened = _opened_during(lambda: state.input_digest(memory))
    assert len(opened) == 5 and changed == memsearch_digest(memory) != digest


def test_a_file_written_within_the_racy_window_is_read(env, monkeypatch: pytest.MonkeyPatch) -> None:
    """The kept digest matches every stamp, but a file is younger than ``RACY_NS``: a coarse
    clock could hide a second write in the same tick, so the files are read."""
    memory, digest = _kept_once(env, monkeypatch)
    monkeypatch.setattr(state, "RACY_NS", 3600 * 10**9, raising=False)  # every file is "just written"
    _fresh_process(monkeypatch)
    again, opened = _opened_during(lambda: state.input_digest(memory))
    assert len(opened) == 5 and again == digest


@pytest.mark.parametrize("damage", ["garbage", "forged", "other-folder", "truncated", "too-big", "fifo"])
def test_a_corrupt_kept_file_is_ignored(env, monkeypatch: pytest.MonkeyPatch, damage: str) -> None:
    import os

    memory, digest = _kept_once(env, monkeypatch)
    (kept,) = (Path(os.environ["MEMSEARCH_TUI_DATA_DIR"]) / "digests").iterdir()
    fields = kept.read_bytes().split(b"\0")
    forged = b"sha256:" + b"0" * 64
    if damage == "garbage":
        kept.write_bytes(b"\xff\xfe not a record \x00\x00")
    elif damage == "forged":  # the digest no longer parses as one, or names another value
        kept.write_bytes(b"\0".join([*fields[:3], b"sha256:../../etc"]))
    elif damage == "other-folder":
        kept.write_bytes(b"\0".join([fields[0], os.fsencode(env.tmp), fields[2], forged]))
    elif damage == "truncated":
        kept.write_bytes(b"\0".join(fields)[:-10])
    elif damage == "too-big":
        kept.write_bytes(b"\0".join(fields) + b"\0" + b"x" * 20_000)
    else:
        if not hasattr(os, "mkfifo"):
            pytest.skip("no FIFOs on this platform")
        kept.unlink()
        os.mkfifo(kept)
    _fresh_process(monkeypatch)
    again, opened = _opened_during(lambda: state.input_digest(memory))
    assert len(opened) == 5 and again == digest == memsearch_digest(memory)


def test_kept_digests_are_bounded_in_number(env, monkeypatch: pytest.MonkeyPatch) -> None:
    import os

    from memsearch_tui.engine.memsearch import digest_kept

    monkeypatch.setattr(state, "RACY_NS", 0, raising=False)
    monkeypatch.setattr(digest_kept, "MAX_KEPT", 3, raising=False)
    for i in range(8):
        folder = env.tmp / f"days-{i}"
        folder.mkdir()
        (folder / "2026-10-01.md").write_text(f"- 第 {i} 天 day {i}\n", encoding="utf-8")
        _fresh_process(monkeypatch)
        assert state.input_digest(folder) == memsearch_digest(folder)
    assert 1 <= len(list((Path(os.environ["MEMSEARCH_TUI_DATA_DIR"]) / "digests").iterdir())) <= 3


def test_a_future_dated_day_does_not_keep_the_folder_unsettled(env, monkeypatch: pytest.MonkeyPatch) -> None:
    """A day whose mtime is tomorrow (``cp -p`` from a machine with a skewed clock, ``touch
    -d``) was "written within ``RACY_NS``" until tomorrow: every ``status`` read every day.
    Its ctime is today's: the folder is digested once, then read no more; a same-size edit
    that puts the future mtime back is still seen (its ctime moves)."""
    import os
    import time

    memory = _days(env, 4)
    tomorrow = time.time_ns() + 24 * 3600 * 10**9
    day = memory / "2026-10-03.md"
    os.utime(day, ns=(tomorrow, tomorrow))
    monkeypatch.setattr(state, "RACY_NS", 0, raising=False)  # the files' ctimes count as old
    _fresh_process(monkeypatch)
    first, opened = _opened_during(lambda: state.input_digest(memory))
    assert len(opened) == 5 and first == memsearch_digest(memory)
    for _ in range(2):
        again, opened = _opened_during(lambda: state.input_digest(memory))
        assert opened == [] and again == first
    _fresh_process(monkeypatch)
    kept, opened = _opened_during(lambda: state.input_digest(memory))
    assert opened == [] and kept == first  # the digest kept on disk too
    day.write_text(day.read_text(encoding="utf-8").replace("warm", "WARM"), encoding="utf-8")  # same size
    os.utime(day, ns=(tomorrow, tomorrow))
    changed, opened = _opened_during(lambda: state.input_digest(memory))
    assert len(opened) == 5 and changed == memsearch_digest(memory) != first


def test_status_without_disabled_digests_stats_no_day_when_no_task_is_enabled(
    env, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The Overview shows no digest, and a disabled task is never due: with every task
    disabled (the default), ``disabled_digests=False`` lists and stats none of the day files
    (10,000 stats at 10,000 days) and opens none; every other field is the full status's."""
    from memsearch_tui.engine.maintenance import run

    _days(env, 5)
    monkeypatch.setattr(state, "_DIGESTS", {}, raising=False)
    digested: list[object] = []
    real = run.input_digest
    monkeypatch.setattr(run, "input_digest", lambda folder: digested.append(folder) or real(folder))
    full = status(env.project, env.config())
    assert not any(r.enabled for r in full) and len(digested) == 1
    digested.clear()
    rows, opened = _opened_during(lambda: status(env.project, env.config(), disabled_digests=False))
    assert digested == [] and opened == []  # dfc9a86: no such argument; the folder digested
    assert {r.input_digest for r in rows} == {""} and {r.input_digest for r in full} != {""}
    keep = [{k: v for k, v in vars(r).items() if k != "input_digest"} for r in rows]
    assert keep == [{k: v for k, v in vars(r).items() if k != "input_digest"} for r in full]


def test_status_without_disabled_digests_still_digests_an_enabled_task(env, monkeypatch: pytest.MonkeyPatch) -> None:
    """An enabled task's ``due`` needs its folder's digest ("input unchanged"): computed,
    once, and the rows are the full status's (a disabled task's digest aside)."""
    from memsearch_tui.engine.maintenance import run

    env.command_provider(env.script("p.sh", "echo ok\n"))  # claude-code.project_review enabled
    _days(env, 3)
    monkeypatch.setattr(state, "_DIGESTS", {}, raising=False)
    digested: list[object] = []
    real = run.input_digest
    monkeypatch.setattr(run, "input_digest", lambda folder: digested.append(folder) or real(folder))
    full = status(env.project, env.config())
    rows = status(env.project, env.config(), disabled_digests=False)
    assert len(digested) == 2  # once per call: the enabled task's folder
    on = [r for r in rows if r.enabled]
    assert [(r.platform, r.task) for r in on] == [("claude-code", "project_review")]
    assert on[0].input_digest == full[[r.enabled for r in full].index(True)].input_digest != ""
    assert on[0].due and on[0].reason == "never run"
    for r, f in zip(rows, full, strict=True):
        assert (r.due, r.reason, r.enabled, r.last_action) == (f.due, f.reason, f.enabled, f.last_action)
        assert r.input_digest == (f.input_digest if r.enabled else "")


def test_status_without_checking_the_input_lists_no_day_even_for_an_enabled_task(
    env, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The Maintenance pane's first draw (``check_input=False``): no digest at all, so the
    journal folder is neither opened nor listed (10,000 stats at 10,000 days, English and
    Chinese days here); an enabled task says ``UNCHECKED``, not due; every other field,
    of every row, is the full status's."""
    from memsearch_tui.engine.maintenance import run

    env.command_provider(env.script("p.sh", "echo ok\n"))  # claude-code.project_review enabled
    memory = _days(env, 4)
    monkeypatch.setattr(state, "_DIGESTS", {}, raising=False)
    walked: list[object] = []
    monkeypatch.setattr(state, "_md_files", lambda *a, real=state._md_files: walked.append(a) or real(*a))
    full = status(env.project, env.config(), disabled_digests=False)
    assert len(walked) == 1 and any(r.enabled and r.input_digest == memsearch_digest(memory) for r in full)
    walked.clear()
    rows, opened = _opened_during(lambda: status(env.project, env.config(), disabled_digests=False, check_input=False))
    assert walked == [] and opened == []  # 6e86c88: no such argument
    for r, f in zip(rows, full, strict=True):
        if r.enabled:
            assert (r.due, r.reason, r.input_digest) == (False, run.UNCHECKED, "") != (f.due, f.reason, f.input_digest)
        changed = {"due", "reason", "input_digest"} if r.enabled else set()
        assert {k: v for k, v in vars(r).items() if k not in changed} == {
            k: v for k, v in vars(f).items() if k not in changed
        }
