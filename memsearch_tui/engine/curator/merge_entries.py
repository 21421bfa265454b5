"""Merge one entry into another: the kept entry takes the other's facts it lacks, the other
goes to the trash with a "merged into" note — one logged transaction, so one ``undo``.

The kept entry's file as it was is kept as its ``v{n}`` version (as a person's update
keeps it), the merged text becomes ``v{n+1}``. Both entries must still be at the versions
the merge was planned against: a change since is a Conflict and nothing moves.
"""

from __future__ import annotations

import re
from typing import Any

from memsearch_tui.engine.core import clock
from memsearch_tui.engine.core.errors import Conflict, InvalidInput
from memsearch_tui.engine.core.paths import versions_dir
from memsearch_tui.engine.core.safe_io import read_capped
from memsearch_tui.engine.store.entry import Entry
from memsearch_tui.engine.store.store import Store, check_content
from memsearch_tui.engine.store.trash_index import write_trash_index

SAME_LINE = 0.8  # a line of the other entry whose words are this close to a kept line is already there
_WORD = re.compile(r"[\u3400-\u9fff]|[^\W_\u3400-\u9fff]+")


def line_words(line: str) -> set[str]:
    """The words of a line (each Han character one word), lower-cased."""
    return {w.lower() for w in _WORD.findall(line)}


def merged_body(keep: str, other: str) -> str:
    """``keep`` followed by each line of ``other`` that says something ``keep`` does not."""
    kept = [line_words(ln) for ln in keep.splitlines() if ln.strip()]
    extra = []
    for ln in other.splitlines():
        w = line_words(ln)
        if ln.strip() and not any(w and k and len(w & k) / len(w | k) >= SAME_LINE for k in kept):
            extra.append(ln)
    body = keep.rstrip("\n")
    return body + ("\n\n" + "\n".join(extra) if extra else "") + "\n"


def merge(store: Store, keep_id: str, drop_id: str, body: str, versions: dict[str, int]) -> dict[str, Any]:
    """Write ``body`` as the new text of ``keep_id`` (its old file kept as a version) and
    trash ``drop_id`` noting it was merged into ``keep_id``; one logged transaction."""
    from memsearch_tui.engine.curator.trash import trash_in

    if keep_id == drop_id:
        raise InvalidInput(f"cannot merge {keep_id} into itself")
    with store.edit("merge", f"merge {drop_id} into {keep_id}") as ed:
        keep, drop = store.get(keep_id), store.get(drop_id)  # under the lock: as they are now
        for e in (keep, drop):
            if versions.get(e.id) != e.version:
                raise Conflict(
                    f"{e.id} is at version {e.version}, the merge was planned against version "
                    f"{versions.get(e.id)}; nothing merged"
                )
        assert keep.path is not None
        raw = read_capped(keep.path)
        meta = dict(keep.meta)
        meta.update(version=keep.version + 1, updated=clock.today())
        new = Entry(keep.id, keep.doc.derive(meta, body), keep.path)
        new.validate()
        check_content(new.id, new)
        ed.txn.write(versions_dir(store.root, keep.id) / f"v{keep.version}.md", raw)
        ed.write_entry(new)
        trash_in(store, ed, drop, f"merged into {keep.id}")
        write_trash_index(store.root, ed.txn)
    return {"merged": drop.id, "into": keep.id, "version": keep.version + 1, "kept": f"v{keep.version}"}
