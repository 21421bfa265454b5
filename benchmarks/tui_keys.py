"""Per-key latency of the app (issue 21, item 6): every key from press to its frame, median of N.

    python benchmarks/tui_keys.py [--runs 7]      (also: python benchmarks/tui_bench.py --keys)
    python benchmarks/tui_keys.py --root R --project P [--only "6,/,e"]   (an index of your own)

Seeds the demo memory in a temp dir and drives the real app headless (120x40); with
``--root``/``--project``, that memory instead (its config and index as the environment
names them: ``cost_curve.py``'s 1M-chunk server index, issue 37).

What is timed, and why this way (session 7): the clock starts when the key event is handed
to the app (as a terminal's input thread hands it) and stops at the **frame** that shows
the key's result: every frame the app writes passes ``App._display``, which the bench wraps
to note its time (after rendering the frame's escape sequences, the work a headless run
skips and a terminal run pays). A key is done at the last frame it causes: the bench waits
until the key's own check holds (a modal's list drawn, a pane's data applied), no worker but
the file watcher runs, nothing is pending a repaint, and no frame came for ``QUIET``
seconds; the time of the last frame before that quiet is the key's latency. The bench's
own waiting costs nothing in the number (the old bench stopped the clock after Pilot's
idle waits, a ~100 ms "floor" of 20 ms sleeps no user waits for; it is gone). The "first
frame" column is the first frame written after the key (the first sign on screen).

Left out of "the last frame", on purpose:

* the tab bar's underline sliding to the new tab (~300 ms of frames that touch only the
  underline's row, after the new pane is already drawn): a pane switch is done when its
  pane is drawn; the slide is a decoration that keys do not wait for. The "slide" column
  says when the slide's last frame came, for reference.
* the text cursor's blink in an input box (a frame every 0.5 s that no key causes): the
  bench keeps the cursor shown instead.

"u in the undo history" is ``u`` pressed in the open list (opened, untimed, by ``u``): done
when the undo has run and the list is drawn again (its note, and the pane behind, are the
last frames); the list's ``r`` then redoes it, untimed, so each press undoes the same change.

"/ then a letter" is two keys, each timed on its own (a human types the letter after the
box is there; sent at once, the letter would reach the widget focused before the box): ``/``
is done when the box has the focus and is drawn; ``e`` typed in the box has two times: "e on
screen", the first frame showing the letter in the box, and "its hits drawn", the last
frame, after the search as you type has waited ``TYPE_DELAY`` (0.12 s since session 8, was
0.2 s; on purpose: no search per letter of a fast typist) and drawn its hits. Prints a Markdown table and the load average before and after (the
machine is shared: quote both).

``--first`` times each pane key's FIRST visit instead (issue 37: the Journal pane's first
visit at 10,000 days was 412 ms where later ones took ~150): one fresh process per run (the
pane's import, mount and load are in the number, as a user's first press pays them), the
keys of ``--only`` pressed in order once the start-up workers are done; "data shown" is the
first frame after the pane's first ``apply``, the last frame as above (a pane's follow-up
workers, the Journal's older day rows and drawn rows' counts, included). The Overview's
first ``apply`` is its quick draw, all of it read from disk now: the journal chart (turns
of the last 56 days), the store's counts as the catalog last saved them, sync, proposals,
hygiene and the hooks' tasks; its lifecycle forecast ("counting from the catalog…") and
its open conflicts ("reading…") come in the two draws after, in the last frame only.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import shutil
import statistics
import sys
import tempfile
import time
import unicodedata
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

TARGET_MS = 300
WAIT_LIMIT = 20.0  # seconds: a key whose result never shows is a bug, not a slow key
QUIET = 0.3  # seconds with no frame, nothing dirty and no worker: the key has shown everything
POLL = 0.01  # seconds between the bench's checks (the frames carry their own times)


class Frames:
    """Every frame the app writes: its time, and whether it changed only the tab underline."""

    def __init__(self, app: Any) -> None:
        from textual._compositor import ChopsUpdate, CompositorUpdate
        from textual.widgets._tabs import Underline

        self.app = app
        self.log: list[tuple[float, bool]] = []  # (time, only the tab bar's underline changed)
        self.seen: Callable[[], bool] | None = None  # first frame where this holds → ``seen_at``
        self.seen_at: float | None = None
        underline = app.query_one("#tabs").query_one(Underline)
        original = app._display

        def underline_only(update: Any) -> bool:
            if not isinstance(update, ChopsUpdate) or app.screen is not underline.screen:
                return False
            r = underline.region
            return all(r.y <= y < r.bottom and x1 >= r.x and x2 <= r.right + 1 for y, x1, x2 in update.spans)

        def display(screen: Any, renderable: Any) -> None:
            original(screen, renderable)
            if renderable is None or app._batch_count:
                return
            if isinstance(renderable, CompositorUpdate):
                renderable.render_segments(app.console)  # a terminal run's bytes (headless skips them)
            now = time.perf_counter()
            self.log.append((now, underline_only(renderable)))
            if self.seen is not None and self.seen_at is None and self.seen():
                self.seen_at = now

        app._display = display

    def last(self, since: float, *, underline: bool) -> float | None:
        times = [t for t, only in self.log if t >= since and (underline or not only)]
        return times[-1] if times else None

    def first(self, since: float) -> float | None:
        return next((t for t, _only in self.log if t >= since), None)


def send(app: Any, key: str) -> None:
    """Hand one key to the app as the driver's input thread does (no waiting, unlike Pilot)."""
    from textual import events
    from textual.keys import REPLACED_KEYS, _character_to_key, _get_unicode_name_from_key

    if len(key) == 1 and not key.isalnum():
        key = _character_to_key(key)
    original = REPLACED_KEYS.get(key, key)
    try:
        char: str | None = unicodedata.lookup(_get_unicode_name_from_key(original))
    except KeyError:
        char = key if len(key) == 1 else None
    event = events.Key(key, char)
    event.set_sender(app)
    app._driver.send_message(event)


def busy(app: Any) -> bool:
    """A worker (not the file watcher) runs, or the screen has a repaint or layout pending."""
    s = app.screen
    return (
        any(w.is_running and w.group != "watch" for w in app.workers)
        or bool(s._dirty_widgets)
        or s._layout_required
        or s._repaint_required
    )


async def settle(app: Any, frames: Frames, start: float, done: Callable[[], bool] | None) -> None:
    """Wait until ``done`` holds, nothing is busy and no frame came for ``QUIET`` seconds."""
    while True:
        await asyncio.sleep(POLL)
        now = time.perf_counter()
        if now - start > WAIT_LIMIT:
            workers = [w.name for w in app.workers if w.is_running]
            recent = len([t for t, _ in frames.log if t > now - 1])
            raise SystemExit(
                f"what the key should show never came ({WAIT_LIMIT:.0f} s): done={done is None or done()} "
                f"workers={workers} dirty={app.screen._dirty_widgets} frames in the last second={recent}"
            )
        if (done is not None and not done()) or busy(app):
            continue
        last = frames.last(start, underline=True) or start
        if now - last >= QUIET:
            return


@dataclass
class Step:
    name: str
    keys: tuple[str, ...]
    done: Callable[[], bool] | None = None
    back: tuple[str, ...] = ()  # keys that undo the state afterwards
    seen: Callable[[], bool] | None = None  # also time the first frame where this holds
    seen_name: str = ""
    before: Callable[[], None] | None = None  # run just before the keys are sent
    setup: tuple[str, ...] = ()  # keys pressed (and settled) before the clock starts
    times: list[float] = field(default_factory=list)
    slide: list[float] = field(default_factory=list)  # last frame, the underline's slide included
    first: list[float] = field(default_factory=list)  # the first frame after the key
    seen_times: list[float] = field(default_factory=list)
    failed: str = ""  # why the key's result never came (within --wait)


async def press(app: Any, frames: Frames, keys: tuple[str, ...]) -> None:
    """Keys one at a time, each settled: a focus change lands before the next key."""
    for key in keys:
        send(app, key)
        await settle(app, frames, time.perf_counter(), None)


async def timed(app: Any, frames: Frames, step: Step) -> None:
    app.clear_notifications()  # a toast timing out later would be a frame of the next key
    await settle(app, frames, time.perf_counter(), None)
    await press(app, frames, step.setup)
    frames.seen, frames.seen_at = step.seen, None
    if step.before is not None:
        step.before()
    t = time.perf_counter()
    for key in step.keys:
        send(app, key)
    await settle(app, frames, t, step.done)
    last = frames.last(t, underline=False) or t
    step.times.append((last - t) * 1000)
    step.slide.append(((frames.last(t, underline=True) or t) - t) * 1000)
    step.first.append(((frames.first(t) or t) - t) * 1000)
    if step.seen is not None:
        step.seen_times.append(((frames.seen_at or last) - t) * 1000)
    frames.seen = None
    await press(app, frames, step.back)


def pane_steps(app: Any) -> list[Step]:
    """The pane keys, each done when its tab is the active one."""
    out: list[Step] = []
    for key, pid in (("2", "journal"), ("3", "versions"), ("4", "trash"), ("5", "maintenance"), ("6", "search"),
                     ("7", "notes"), ("0", "overview")):  # fmt: skip
        back = ("escape", "1") if pid == "search" else ("1",)  # 6 lands in the (empty) query box: Esc leaves it
        out.append(Step(f"{key} ({pid})", (key,), lambda p=pid: app.query_one("#tabs").active == p, back))
    return out


def steps(app: Any) -> list[Step]:
    from memsearch_tui.tui.modals import HelpScreen, UndoModal

    def modal(cls: type, drawn: str | None = None) -> Callable[[], bool]:
        def check() -> bool:
            s = app.screen
            return isinstance(s, cls) and (drawn is None or bool(getattr(s, drawn)))

        return check

    out = pane_steps(app)
    search: Any = app.pane("search")
    box = app.query_one("#search-input")
    asked = [0]

    def answered() -> bool:  # the typed search for "e" ran (its worker's end is ``busy``)
        return box.value == "e" and search._asked > asked[0] and search._type_timer is None

    def note_asked() -> None:
        asked[0] = search._asked

    undone_from: list[Any] = [None]  # the newest operation in effect when u was pressed in the list

    def note_newest() -> None:
        undone_from[0] = app.screen.newest().seq

    def undone() -> bool:  # the undo ran and the list is drawn again (its note: the last frames)
        s = app.screen
        return isinstance(s, UndoModal) and s.newest() is not None and s.newest().seq != undone_from[0]

    out += [
        Step("j (Index tree)", ("j",), None, ("k",)),
        Step("ctrl+t (theme)", ("ctrl+t",), None, ()),
        Step("u (undo history)", ("u",), modal(UndoModal, "records"), ("escape",)),
        Step(
            "u in the undo history (undo the newest)",
            ("u",),
            undone,
            ("r", "escape"),  # redone (not timed): each press undoes the same change
            before=note_newest,
            setup=("u",),
        ),
        Step("? (help)", ("question_mark",), modal(HelpScreen), ("escape",)),
        Step("ctrl+p (palette)", ("ctrl+p",), lambda: "Palette" in app.screen.__class__.__name__, ("escape",)),
        Step("/ (search box)", ("slash",), lambda: box.has_focus, ("escape", "1")),
        Step(
            "e typed in the box: its hits drawn",
            ("e",),
            answered,
            ("escape", "escape", "1"),
            seen=lambda: box.value == "e",
            seen_name="e on screen",
            before=note_asked,
            setup=("slash",),
        ),
    ]
    return out


async def run(root: Path, project: Path, runs: int, only: str = "", first: bool = False) -> list[Step]:
    from textual.widgets import Input

    from memsearch_tui.tui.app import MemsearchApp

    Input._toggle_cursor = lambda self: None  # type: ignore[method-assign]  # no blink: no key's frame
    app = MemsearchApp(root, project, watch_files=False, remember_theme=False)
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        for pid in () if first else ("journal", "versions", "trash", "maintenance", "search", "notes", "overview"):
            app.action_switch_pane(pid)  # first visits (each pane's first load) are not what is timed
            await pilot.pause()
            while any(w.is_running and w.group != "watch" for w in app.workers):
                await pilot.pause(0.01)
        if not first:
            app.action_switch_pane("index")
        await pilot.pause()
        while any(w.is_running and w.group != "watch" for w in app.workers):
            await pilot.pause(0.01)
        await pilot.wait_for_scheduled_animations()
        frames = Frames(app)
        made = pane_steps(app) if first else steps(app)  # steps() makes the Search pane: not a first visit
        if first:
            made.append(
                Step("ctrl+p (palette)", ("ctrl+p",), lambda: "Palette" in app.screen.__class__.__name__, ("escape",))
            )
        all_steps = [s for s in made if not only or any(s.name.startswith(o) for o in only.split(","))]
        if first:
            runs = 1
            for s in all_steps:
                if s.name[:1].isdigit():  # a pane key: also the first frame showing its data
                    s.seen, s.seen_name = shows_data(app, s.name.split("(")[1].rstrip(")")), "data shown"
        for step in all_steps:
            print(f"timing {step.name}…", file=sys.stderr, flush=True)
            try:
                for _ in range(runs):
                    await timed(app, frames, step)
            except SystemExit as exc:  # this key never showed its result: say so, keep what was timed
                step.failed = str(exc)
                break
        await app.action_quit()  # as ``q``: a pane being made ahead is mounted first (its on_mount
        # found no children while the harness closed the app: --first runs died at exit, times lost)
    return [s for s in all_steps if s.times or s.failed]


def shows_data(app: Any, pid: str) -> Callable[[], bool]:
    """The pane ``pid`` is the active tab and its first load is applied (looked up only
    then: a pane is made by its first key, the check must not make it)."""
    from memsearch_tui.tui.panes.base import Pane

    def check() -> bool:
        if app.query_one("#tabs").active != pid:
            return False
        p = app.pane(pid)
        return p.is_mounted and (p._data is not None or type(p).load is Pane.load)

    return check


def first_visits(args: argparse.Namespace) -> list[Step]:
    """``--first``: each run a fresh process (``--first-once``), its times gathered here."""
    import subprocess

    merged: dict[str, Step] = {}
    for _ in range(args.runs):
        out = Path(tempfile.mkdtemp(prefix="tui-keys-first-")) / "times.json"
        cmd = [
            sys.executable,
            __file__,
            "--first-once",
            "--json",
            str(out),
            "--only",
            args.only,
            "--wait",
            str(args.wait),
        ]
        if args.root is not None and args.project is not None:
            cmd += ["--root", str(args.root), "--project", str(args.project)]
        try:
            subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL)
            raw = json.loads(out.read_text(encoding="utf-8"))
        finally:  # each run's folder: ~800 were left in /tmp in one session
            shutil.rmtree(out.parent, ignore_errors=True)
        for name, times in raw.items():
            base, _, tail = name.rpartition(" (")
            if tail in ("first frame)", "data shown)"):
                step = merged.setdefault(base, Step(base, ()))
                (step.first if tail == "first frame)" else step.seen_times).extend(times)
                if tail == "data shown)":
                    step.seen, step.seen_name = (lambda: True), "data shown"
            else:
                step = merged.setdefault(name, Step(name, ()))
                step.times.extend(times)
                step.slide.extend(times)  # not told apart here: no slide column
    return list(merged.values())


def table(
    results: list[Step], runs: int, load: tuple[tuple[float, ...], tuple[float, ...]], memory: str = "demo memory"
) -> str:
    lines = [
        f"median of {runs} presses each, {memory}, 120x40 headless, key to frame; load average "
        f"{' '.join(f'{x:.2f}' for x in load[0])} before, {' '.join(f'{x:.2f}' for x in load[1])} after "
        f"on {os.cpu_count()} cores\n",
        "| key (action) | median (last frame) | min | max | ≤ 300 ms | first frame | slide's last frame |",
        "| --- | --- | --- | --- | --- | --- | --- |",
    ]

    def row(name: str, xs: list[float], first: str, slide: str) -> str:
        med = statistics.median(xs)
        ok = "yes" if med <= TARGET_MS else "no"
        return f"| {name} | {med:.0f} ms | {min(xs):.0f} ms | {max(xs):.0f} ms | {ok} | {first} | {slide} |"

    for s in results:
        if s.failed:
            lines.append(
                f"| {s.name} | **not shown within {WAIT_LIMIT:.0f} s** ({len(s.times)} presses done) | | | no | | |"
            )
            continue
        if s.seen is not None:
            lines.append(row(f"{s.name.split(':')[0]}: {s.seen_name}", s.seen_times, "", ""))
        slid = statistics.median(s.slide)
        slide = f"{slid:.0f} ms" if slid > statistics.median(s.times) + 1 else ""
        lines.append(row(s.name, s.times, f"{statistics.median(s.first):.0f} ms", slide))
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    global WAIT_LIMIT
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=7)
    ap.add_argument("--only", default="", help="comma-separated name prefixes: time only those keys")
    ap.add_argument("--json", type=Path, help="also write every press's time here (for side-by-side runs)")
    ap.add_argument("--wait", type=float, default=WAIT_LIMIT, help="seconds a key may take before it is a failure")
    ap.add_argument("--root", type=Path, help="drive this memory root instead of the demo (with --project)")
    ap.add_argument("--project", type=Path, help="the project of --root (e.g. cost_curve.py's 1M index)")
    ap.add_argument("--first", action="store_true", help="time each pane key's first visit (a fresh process a run)")
    ap.add_argument("--first-once", action="store_true", help=argparse.SUPPRESS)  # one run of --first
    args = ap.parse_args(argv)
    WAIT_LIMIT = args.wait
    tmp = Path(tempfile.mkdtemp(prefix="tui-keys-"))
    os.environ.setdefault("MEMSEARCH_TUI_CONFIG_DIR", str(tmp / "config"))
    if args.root is not None and args.project is not None:
        root, project = args.root, args.project
    else:
        from memsearch_tui.demo import DEMO_NOW, seed

        os.environ.setdefault("MEMSEARCH_TUI_NOW", DEMO_NOW)
        root, project, _notes = seed(tmp / "demo")
    before = os.getloadavg()
    try:
        if args.first:
            results = first_visits(args)
        else:
            results = asyncio.run(run(root, project, args.runs, args.only, args.first_once))
    finally:  # the config and the demo made for this run
        shutil.rmtree(tmp, ignore_errors=True)
    print(table(results, args.runs, (before, os.getloadavg()), "demo memory" if args.root is None else str(root)))
    if args.json:
        raw = {s.name: s.times for s in results} | {
            f"{s.name} ({s.seen_name})": s.seen_times for s in results if s.seen
        }
        raw |= {f"{s.name} (first frame)": s.first for s in results}
        args.json.write_text(json.dumps(raw, indent=1) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
