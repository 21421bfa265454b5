"""``mem.hygiene.last``: the last background pass's counts, read from what that pass wrote
(the real ``background`` run here), and a broken or foreign summary taken as no pass."""

from __future__ import annotations

from memsearch_tui.engine.api import Memory
from memsearch_tui.engine.core.state_files import STATE_DIR
from memsearch_tui.engine.hygiene.run import LAST, background

from .conftest import World


def test_last_reads_what_the_background_pass_wrote(world: World) -> None:
    with Memory(world.root, world.project) as mem:
        assert mem.hygiene.last() is None
    world.entry("ops/staging", "Staging resets on Monday.", updated="2026-10-01")
    world.entry("team/staging", "周会之后 Staging resets on Friday.")
    world.entry("team/staging-copy", "周会之后 Staging resets on Friday.")
    done = background(world.root, world.project)
    assert done["result"] == "done"
    with Memory(world.root, world.project) as mem:
        last = mem.hygiene.last()
    assert last is not None and last.result == "done" and last.time == done["time"]
    assert dict(last.counts) == done["counts"] and [k for k, _ in last.counts] == list(done["counts"])
    assert last.proposals == len(done["proposals"]) > 0


def test_a_broken_or_foreign_summary_is_no_pass(world: World) -> None:
    path = world.root / STATE_DIR / LAST
    path.parent.mkdir(parents=True, exist_ok=True)
    for raw in (
        "{not json",
        "[1, 2]",
        '{"result": "maybe"}',
        "[" * 100_000,
        '{"result": "done", "counts": {"duplicate": -3, "secret": "x"}}',
    ):
        path.write_text(raw, encoding="utf-8")
        with Memory(world.root, world.project) as mem:
            last = mem.hygiene.last()
        assert last is None or dict(last.counts) == dict.fromkeys(dict(last.counts), 0), raw
