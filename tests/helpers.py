"""Shared test helpers: the one CLI runner, the one Pilot scaffold, waits that fail loudly.

``run_cli`` runs ``memsearch-tui ARGS`` in-process through the real entry point
(``cli.app.run``: usage errors, the error envelope), capturing what it prints; the ``cli``
fixture (tests/conftest.py) is it bound to the test's store. A test that is about the
process itself (the hook's start-up, a kill, an exit code seen by a shell) runs the
installed command instead.

``make_app``/``run_flow`` (and the ``drive`` fixture of tests/tui/conftest.py) build the app
at ``SIZE`` on the demo with the fixed clock. ``settle`` and ``until`` wait on real
conditions (no worker running, a predicate true) and raise with what they were waiting for
when it does not happen within a generous limit: a test never carries on silently after a
timeout.
"""

from __future__ import annotations

import asyncio
import contextlib
import io
import json
import os
import sys
import time
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from unittest import mock

SIZE = (120, 40)
WAIT_LIMIT = 60.0  # seconds: a wait that takes longer is a hang, and fails the test


@dataclass
class CliResult:
    """What one CLI run gave: its exit code and what it printed on each stream."""

    code: int
    out: str
    err: str

    @property
    def json(self) -> Any:
        return json.loads(self.out)

    # Click's CliRunner names, so a test reads the same either way
    @property
    def exit_code(self) -> int:
        return self.code

    @property
    def stdout(self) -> str:
        return self.out

    @property
    def stderr(self) -> str:
        return self.err

    @property
    def output(self) -> str:
        return self.out + self.err


def run_cli(*args: str, env: Mapping[str, str] | None = None, stdin: str | None = None) -> CliResult:
    """``memsearch-tui ARGS`` in-process, with ``env`` added to the environment and ``stdin``
    as its input for the run only; what it printed is captured (bytes written to
    ``sys.stdout.buffer`` too), nothing of it leaks into the test's output."""
    from memsearch_tui.cli.app import run

    out, err = (io.TextIOWrapper(io.BytesIO(), encoding="utf-8", write_through=True) for _ in range(2))
    given = io.StringIO(stdin) if stdin is not None else sys.stdin
    with (
        mock.patch.dict(os.environ, dict(env or {})),
        mock.patch.object(sys, "stdin", given),
        contextlib.redirect_stdout(out),
        contextlib.redirect_stderr(err),
    ):
        code = run(list(args))
    return CliResult(code, *(s.buffer.getvalue().decode("utf-8", "replace") for s in (out, err)))  # type: ignore[attr-defined]


def shown(widget: Any) -> str:
    """The text a Static (or Label) currently shows, its rich renderable printed to a string
    (or a rich renderable itself, printed)."""
    from rich.console import Console

    console = Console(width=200, file=io.StringIO(), record=True)
    console.print(getattr(widget, "content", widget))
    return console.export_text()


@dataclass(frozen=True)
class Told:
    """One toast the app raised: what ``App.notify`` was given."""

    title: str
    message: str
    severity: str


def record_toasts(monkeypatch: Any) -> None:
    """From now on every toast an app raises is kept on it, for ``told``: the toasts shown
    expire after a few seconds of wall time, so on a loaded machine a check that reads the
    ones shown after a slow reload found the toast already gone (``tests/tui/conftest.py``
    turns it on for every TUI test)."""
    from textual.app import App

    real = App.notify

    def notify(self: Any, message: str, **kw: Any) -> None:
        self.__dict__.setdefault("_tests_told", []).append(
            Told(str(kw.get("title", "")), str(message), str(kw.get("severity", "information")))
        )
        real(self, message, **kw)

    monkeypatch.setattr(App, "notify", notify)


def told(app: Any) -> list[Told]:
    """Every toast ``app`` raised since it started, oldest first, expired or not (``record_toasts``)."""
    return list(app.__dict__.get("_tests_told", []))


def busy_workers(app: Any) -> list[str]:
    return [w.name or w.group for w in app.workers if w.is_running and w.group != "watch"]


async def settle(pilot: Any, app: Any | None = None, limit: float = WAIT_LIMIT) -> None:
    """Wait until no worker runs (except the file watcher) and the screen has caught up.

    Raises AssertionError naming the workers still running after ``limit`` seconds.
    """
    app = app or pilot.app
    deadline = time.monotonic() + limit
    while True:
        await pilot.pause(0.02)
        busy = busy_workers(app)
        if not busy:
            break
        if time.monotonic() > deadline:
            raise AssertionError(f"workers still running after {limit:.0f} s: {busy}")
    await pilot.wait_for_scheduled_animations()
    await pilot.pause()
    await refreshed(pilot, app)


async def refreshed(pilot: Any, app: Any | None = None) -> None:
    """Wait until the screen has refreshed once more and what was queued for after it ran
    (a pane redrawing its tables for the width it just got): an event, not a sleep."""
    done = asyncio.Event()
    (app or pilot.app).call_after_refresh(done.set)
    await asyncio.wait_for(done.wait(), WAIT_LIMIT)
    await pilot.pause()


async def until(pilot: Any, check: Callable[[], Any], what: str, limit: float = WAIT_LIMIT) -> None:
    """Wait until ``check()`` is true; raise AssertionError naming ``what`` if it never is."""
    deadline = time.monotonic() + limit
    while not check():
        if time.monotonic() > deadline:
            raise AssertionError(f"gave up waiting for {what} after {limit:.0f} s")
        await pilot.pause(0.02)


def make_app(demo: tuple[Path, Path], **kw: Any) -> Any:
    from memsearch_tui.tui.app import MemsearchApp

    root, project = demo
    kw.setdefault("watch_files", False)
    kw.setdefault("remember_theme", True)
    kw.setdefault("prepare_index", False)  # the background build at open: only where a test asks for it
    kw.setdefault("panes_ahead", False)  # the other panes made while idle: only where a test asks for it
    return MemsearchApp(root, project, **kw)


Flow = Callable[[Any, Any], Awaitable[None]]


def run_flow(app: Any, flow: Flow, size: tuple[int, int] = SIZE) -> Any:
    """Run ``flow(pilot, app)`` against ``app`` at a fixed terminal size, after the first
    load settled; returns the app (for assertions after it closed)."""

    async def main() -> None:
        async with app.run_test(size=size) as pilot:
            await settle(pilot, app)
            await flow(pilot, app)

    asyncio.run(main())
    return app


def screen_lines(app: Any) -> list[str]:
    """The text of every row of the screen as drawn now (cut, wrapped and clipped as the
    user sees it): for checks that a hint fits the terminal."""
    from tests.textual_private import screen_strips

    return [strip.text for strip in screen_strips(app)]


#: the snapshot suite's terminal sizes (tests/tui/test_snapshots.py), by the name in a
#: snapshot's file name; the README's screenshots are the ``SCREENSHOT_SIZE`` ones
SNAPSHOT_SIZES: dict[str, tuple[int, int]] = {"80x24": (80, 24), "120x36": (120, 36), "160x48": (160, 48)}
SCREENSHOT_SIZE = "120x36"


@contextlib.contextmanager
def entry_reads(root: Path) -> Any:
    """A read spy: yields the list of entry files below ``root`` (``*.md`` but INDEX.md and
    config.md, nothing in a dot-folder) opened by ``open`` or ``os.open`` inside the block."""
    seen: list[str] = []
    real_os_open, real_open = os.open, io.open
    top = str(root)

    def note(path: Any) -> None:
        p = os.fspath(path) if isinstance(path, (str, os.PathLike)) else ""
        name = os.path.basename(p)
        if (
            p.startswith(top)
            and name.endswith(".md")
            and name not in ("INDEX.md", "config.md")
            and "/." not in p[len(top) :]
        ):
            seen.append(p)

    def os_open(path: Any, *a: Any, **kw: Any) -> int:
        note(path)
        return real_os_open(path, *a, **kw)

    def open_(file: Any, *a: Any, **kw: Any) -> Any:
        note(file)
        return real_open(file, *a, **kw)

    with mock.patch("os.open", os_open), mock.patch("builtins.open", open_), mock.patch("io.open", open_):
        yield seen


def hold_index(monkeypatch: Any) -> Any:
    """Hold every ``Searcher.index`` (the vector build) until the returned event is set:
    the one stand-in for tests of what happens *during* a build (the embedding itself is
    not what they test)."""
    import threading

    from memsearch_tui.engine.search.searcher import Searcher

    go = threading.Event()
    real_index = Searcher.index

    def held_index(self: Any, **kw: Any) -> Any:
        assert go.wait(120), "the test never let the build go on"
        return real_index(self, **kw)

    monkeypatch.setattr(Searcher, "index", held_index)
    return go
