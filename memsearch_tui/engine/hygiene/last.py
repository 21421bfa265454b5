"""The last weekly hygiene pass's summary, read back (the Overview's line, ``mem.hygiene.last``).

On its own, away from :mod:`.run`: reading one small JSON file must not import the scan's
checks, the agent-memory tools and the proposal machinery (~30 ms CPU of the Overview's
first draw); :mod:`.run` writes the file and re-exports these names.
"""

from __future__ import annotations

from pathlib import Path

from memsearch_tui.engine.hygiene.records import KINDS, HygieneLast

LAST = "hygiene-last.json"  # in the store's state folder: the last background pass


def last_pass(root: Path) -> HygieneLast | None:
    """The last background pass's summary, or None when none ran (or its file is not
    one: a foreign or broken ``hygiene-last.json`` is as good as none, never an error)."""
    from memsearch_tui.engine.core.safe_io import load_json
    from memsearch_tui.engine.core.state_files import STATE_DIR

    try:
        raw = load_json(Path(root) / STATE_DIR / LAST, 100_000)
    except (OSError, ValueError, UnicodeDecodeError):
        return None
    if not isinstance(raw, dict) or raw.get("result") not in ("done", "error"):
        return None
    got = raw["counts"] if isinstance(raw.get("counts"), dict) else {}
    counts = tuple((k, n if isinstance(n := got.get(k, 0), int) and n >= 0 else 0) for k in KINDS)
    made = raw.get("proposals")
    return HygieneLast(
        str(raw.get("time", ""))[:40],
        raw["result"],
        counts,
        len(made) if isinstance(made, list) else 0,
        str(raw.get("reason", ""))[:500],
    )
