"""Write one SVG per pane into screenshots/, from the real app on the demo memory.

    python scripts/screenshots.py [--out screenshots] [--size 120x36]

Seeds the demo memory (``memsearch_tui.demo``) in a temporary folder with the demo's fixed
clock, drives the app headless with Textual's Pilot and saves what each pane shows.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import tempfile
from pathlib import Path

from memsearch_tui.demo import DEMO_NOW, seed


async def _settle(pilot) -> None:
    for _ in range(250):
        await pilot.pause(0.02)
        if not [w for w in pilot.app.workers if w.is_running and w.group != "watch"]:
            break
    await pilot.pause(0.1)


async def shoot(root: Path, project: Path, out: Path, size: tuple[int, int]) -> list[Path]:
    from memsearch_tui.tui.app import MemsearchApp
    from memsearch_tui.tui.panes.index.pane import IndexPane

    app = MemsearchApp(root, project, watch_files=False, remember_theme=False)
    written: list[Path] = []
    async with app.run_test(size=size) as pilot:

        async def save(name: str) -> None:
            await _settle(pilot)
            path = out / f"{name}.svg"
            app.save_screenshot(filename=path.name, path=str(out))
            written.append(path)

        await _settle(pilot)
        app.query_one(IndexPane).select_entry("projects/web/alpha-dashboard")
        await save("1-index")
        await pilot.press("2")
        await _settle(pilot)
        await pilot.press("enter", "j", "enter", "j")
        await save("2-journal")
        await pilot.press("3")
        await save("3-versions")
        await pilot.press("4")
        await _settle(pilot)
        await pilot.press("p")
        await save("4-trash")
        await pilot.press("5")
        await save("5-maintenance")
        await pilot.press("6")
        await _settle(pilot)
        await pilot.press(*"ECharts", "enter")
        await save("6-search")
        await pilot.press("f1")
        await save("help")
    return written


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=Path(__file__).resolve().parent.parent / "screenshots")
    parser.add_argument("--size", default="120x36", help="terminal size, WIDTHxHEIGHT")
    args = parser.parse_args()
    width, height = (int(v) for v in args.size.lower().split("x"))
    os.environ["MEMSEARCH_TUI_NOW"] = DEMO_NOW
    args.out.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(prefix="memsearch-demo-") as tmp:
        os.environ["MEMSEARCH_TUI_CONFIG_DIR"] = str(Path(tmp) / "config")
        root, project, _ = seed(Path(tmp) / "demo")
        for path in asyncio.run(shoot(root, project, args.out, (width, height))):
            print(path)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
