"""An entry both devices changed: merged when the changes don't overlap, else kept twice.

Frontmatter is merged key by key against the common ancestor (a tag added here, the
importance changed there: both kept); the body is taken from whichever side changed it.
Only when both bodies changed, differently, is it a conflict, kept the way the store keeps
one (:mod:`memsearch_tui.engine.curator.versions`): the text updated last is current, the
other device's whole file becomes ``.versions/<id>/vN.md``, two ``## Version history``
lines say what happened, and ``conflict:`` in the frontmatter lists the entry under
``conflicts`` until a person confirms it. Nothing is dropped and nothing holds markers.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date
from typing import Any

from memsearch_tui.engine.core import frontmatter_io as fmio
from memsearch_tui.engine.core.errors import InvalidInput
from memsearch_tui.engine.core.paths import VERSIONS
from memsearch_tui.engine.curator.versions import join_history, short, split_history

_GONE = object()  # a key one side removed


@dataclass(frozen=True)
class Decided:
    current: bytes
    versions: dict[str, bytes]  # path → bytes of version files to add
    conflict: bool
    note: str


def merge_meta(base: dict[str, Any], ours: dict[str, Any], theirs: dict[str, Any]) -> dict[str, Any]:
    """Key-by-key three-way merge; a key both sides changed differently keeps this device's
    value, except ``updated`` (the later date) and ``version`` (the higher number)."""
    out: dict[str, Any] = {}
    for key in (
        list(ours) + [k for k in theirs if k not in ours] + [k for k in base if k not in ours and k not in theirs]
    ):
        b, o, t = base.get(key, _GONE), ours.get(key, _GONE), theirs.get(key, _GONE)
        if o == t or t == b:
            value = o
        elif o == b:
            value = t
        elif key in {"updated", "version"} and o is not _GONE and t is not _GONE:
            value = max(o, t, key=str if key == "updated" else _as_int)
        else:
            value = o if o is not _GONE else t  # an edit beats a removal
        if value is not _GONE:
            out[key] = value
    return out


def _as_int(value: Any) -> int:
    try:
        return int(value)
    except (TypeError, ValueError):
        return 0


def _parse(data: bytes | None, where: str) -> fmio.ParsedFile | None:
    if data is None:
        return None
    try:
        return fmio.parse(data, where)
    except InvalidInput:
        return None


def merge_config(base: bytes | None, ours: bytes, theirs: bytes) -> bytes:
    """``config.md`` changed on both devices: its keys merged, this device's body kept."""
    o, t = _parse(ours, "config.md"), _parse(theirs, "config.md")
    if o is None or t is None:
        return ours
    b = _parse(base, "config.md")
    meta = merge_meta(b.meta if b else {}, o.meta, t.meta)
    return fmio.dump(o.derive(meta, o.body))


def resolve(
    entry_id: str,
    base: bytes | None,
    ours: bytes,
    theirs: bytes,
    taken: set[int],
    here: str,
    there: str,
    today: date,
) -> Decided:
    """Decide an entry both devices changed; ``taken``: version numbers already on file."""
    where = f"{entry_id}.md"
    o, t, b = _parse(ours, where), _parse(theirs, where), _parse(base, where)
    if o is None or t is None:
        return _keep_both_raw(entry_id, ours, theirs, taken, there)
    meta = merge_meta(b.meta if b else {}, o.meta, t.meta)
    if o.body == t.body or (b is not None and t.body == b.body):
        return Decided(fmio.dump(o.derive(meta, o.body)), {}, False, f"{entry_id}: changed on both devices; merged")
    if b is not None and o.body == b.body:
        return Decided(fmio.dump(o.derive(meta, t.body)), {}, False, f"{entry_id}: changed on both devices; merged")
    return _conflict(entry_id, o, t, ours, theirs, meta, taken, here, there, today)


def _conflict(
    entry_id: str,
    o: fmio.ParsedFile,
    t: fmio.ParsedFile,
    ours: bytes,
    theirs: bytes,
    meta: dict[str, Any],
    taken: set[int],
    here: str,
    there: str,
    today: date,
) -> Decided:
    # The text updated last stays current (a tie: this device's); the other is kept whole.
    ours_newer = str(o.meta.get("updated", "")) >= str(t.meta.get("updated", ""))
    win, lose, lose_raw, lose_dev = (o, t, theirs, there) if ours_newer else (t, o, ours, here)
    n = max(taken | {_as_int(o.meta.get("version")), _as_int(t.meta.get("version"))}) + 1
    win_content, win_lines = split_history(win.body)
    lose_content, lose_lines = split_history(lose.body)
    lines = win_lines + [ln for ln in lose_lines if _number(ln) not in {_number(w) for w in win_lines}]
    day = today.isoformat()
    lines.append(f"- v{n} ({day}): from {lose_dev} (sync): {short(lose_content) or entry_id}")
    lines.append(f"- v{n + 1} ({day}): sync conflict with v{n}: {short(win_content) or entry_id}")
    meta = dict(meta)
    meta.update(version=n + 1, updated=today, conflict={"previous": n, "detected": today})
    current = fmio.dump(win.derive(meta, join_history(win_content, lines)))
    note = f"{entry_id}: changed on both devices; both texts kept, {lose_dev}'s as v{n}, current v{n + 1}"
    return Decided(current, {f"{VERSIONS}/{entry_id}/v{n}.md": lose_raw}, True, note)


def _number(line: str) -> str:
    """A history line's version (``- v2 (…): …`` → ``v2``): one line per version, the
    current text's; the other device's line for that number stays in its kept file."""
    return line[2:].split(" ", 1)[0] if line.startswith("- v") else line


def _keep_both_raw(entry_id: str, ours: bytes, theirs: bytes, taken: set[int], there: str) -> Decided:
    """A side that does not parse: this device's bytes stay, the other's become a version."""
    n = max(taken | {0}) + 1
    note = f"{entry_id}: changed on both devices and one copy is not a valid entry; {there}'s kept as v{n}"
    return Decided(ours, {f"{VERSIONS}/{entry_id}/v{n}.md": theirs}, False, note)
