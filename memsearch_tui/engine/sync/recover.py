"""After a killed sync, and after an undone one: put back only what sync wrote, lose no text.

**A killed sync.** Before its first write, a merge records in ``sync.json`` every path it
will write and the blob id each gets (``in_progress["wrote"]``). The next sync (after the
store's own intent journal has rolled back a transaction killed half-way) looks at each of
those paths only: one that holds what the merge wrote gets this device's committed bytes
back; one that holds anything else was written since (by a person, an agent) and is left
as it is. Nothing else in the store is touched. Then the merge runs again.

**An undone sync.** ``undo`` after ``sync`` puts this device's files back, so the next
sync would send them as this device's edit and the other device's text would leave every
device. Before that commit, every text the undone sync brought (an entry, a version file)
that is no longer on disk is kept as a version of its entry, with a history line naming it.
"""

from __future__ import annotations

from pathlib import Path, PurePosixPath

from memsearch_tui.engine.core import clock
from memsearch_tui.engine.core import frontmatter_io as fmio
from memsearch_tui.engine.core.contained import write_reason
from memsearch_tui.engine.core.errors import InvalidInput, MemsearchError
from memsearch_tui.engine.core.paths import VERSIONS, versions_dir
from memsearch_tui.engine.curator.versions import join_history, short, split_history
from memsearch_tui.engine.history import oplog
from memsearch_tui.engine.store.index_files import IndexWriter
from memsearch_tui.engine.store.store import Store
from memsearch_tui.engine.sync import state as st
from memsearch_tui.engine.sync import threeway
from memsearch_tui.engine.sync.commit import blob_id, read_file
from memsearch_tui.engine.sync.git import Git

KEEP_SEEN = 200  # undone syncs remembered as handled


def recover(root: Path, g: Git, state: st.DeviceState) -> str:
    """Put back the paths an interrupted merge wrote (see the module doc); a note."""
    ip = state.in_progress
    ours, started = str(ip.get("ours", "")), str(ip.get("started", "") or "earlier")
    raw = ip.get("wrote")
    wrote: dict[str, object] = raw if isinstance(raw, dict) else {}
    head = g.rev("HEAD")
    if ours and head and head != g.rev(ours):  # the merge commit landed: the files are the merge's
        state.in_progress = {}
        st.save(root, state)
        return f"the sync started {started} was interrupted after its merge was committed; it is finished now"
    files = {p: s for p, s in g.tree(ours or None).items() if p in wrote}
    data = g.blobs(set(files.values()))
    left: list[str] = []
    store = Store(root)
    with store.edit(
        "sync", "put this device's files back after an interrupted sync"
    ) as ed:  # rolls back a killed txn first
        for rel, planned in sorted(wrote.items()):
            if threeway.is_index(rel) or not isinstance(planned, str):
                continue
            if write_reason(root, rel) is not None:  # sync.json is a file too: never outside the store
                left.append(rel)
                continue
            want = data[files[rel]] if rel in files else None
            now = read_file(root / rel)
            if now == want:
                continue
            if (blob_id(now) if now is not None else "") != planned:
                left.append(rel)  # written since the kill: not ours to put back
            elif want is None:
                ed.txn.delete(root / rel)
            else:
                ed.txn.write(root / rel, want)
        ed.cat.refresh(full=True)
        IndexWriter(root, ed.cat).write_all(ed.txn)
    state.in_progress = {}
    st.save(root, state)
    note = f"the sync started {started} was interrupted; the files it had written were put back and merged again"
    if left:
        note += f" ({', '.join(left[:5])} changed since and left as they are)"
    return note


def _owner(rel: str) -> str | None:
    """The entry a synced file belongs to: itself (an entry) or the entry of a version file."""
    if threeway.is_entry(rel):
        return rel[:-3]
    parts = PurePosixPath(rel).parts
    if len(parts) >= 3 and parts[0] == VERSIONS and parts[-1].startswith("v") and parts[-1].endswith(".md"):
        return "/".join(parts[1:-1])
    return None


def keep_undone_texts(root: Path, state: st.DeviceState) -> list[str]:
    """Keep, as versions, the texts of undone syncs that left the disk; notes (call under
    the root lock, before this device commits)."""
    notes: list[str] = []
    lost: dict[str, list[tuple[str, bytes]]] = {}
    for rec in oplog.records(root):
        if rec.kind != "sync" or not rec.undone or rec.seq in state.undone_kept:
            continue
        state.undone_kept = [*state.undone_kept, rec.seq][-KEEP_SEEN:]
        for f in rec.files:
            try:
                rel = Path(f["path"]).relative_to(root).as_posix()
            except (ValueError, KeyError, TypeError):
                continue
            owner = _owner(rel)
            after = oplog.after_bytes(root, f) if owner else None
            now = read_file(root / rel) if owner else None
            if owner and after is not None and now != after:
                version_file = rel != f"{owner}.md" and now is None  # put back where it was
                lost.setdefault(owner, []).append((rel if version_file else "", after))
    if not lost:
        return notes
    store = Store(root)
    with store.edit("version", "keep the texts an undone sync had brought") as ed:
        for entry_id, texts in sorted(lost.items()):
            try:
                entry = store.get(entry_id)
            except MemsearchError:  # the undone sync had brought it: gone here, it goes to the other's trash
                notes.append(
                    f"{entry_id}: the undone sync had brought it from the other device; the next sync removes it "
                    "there too, where it is kept in the trash (`trash list`)"
                )
                continue
            assert entry.path is not None
            for rel, text in texts:
                if rel:  # a version file the undo removed: back at its number
                    ed.txn.write(root / rel, text)
            current = entry.path.read_bytes()
            kept = _kept(store, entry_id) | {t for rel, t in texts if rel}
            fresh = [t for rel, t in dict.fromkeys(texts) if not rel and t != current and t not in kept]
            if not fresh:
                continue
            n = max([entry.version, *_numbers(store, entry_id)]) + 1
            day = clock.today().isoformat()
            lines = []
            for i, text in enumerate(fresh):
                ed.txn.write(versions_dir(root, entry_id) / f"v{n + i}.md", text)
                lines.append(
                    f"- v{n + i} ({day}): from the other device, kept when its sync was undone: {_summary(text)}"
                )
            doc = fmio.parse(current, entry_id)
            content, history = split_history(doc.body)
            top = n + len(fresh)
            lines.append(f"- v{top} ({day}): this device's text, after undo: {short(content) or entry_id}")
            meta = {**doc.meta, "version": top}
            ed.txn.write(entry.path, fmio.dump(doc.derive(meta, join_history(content, history + lines))))
            notes.append(
                f"{entry_id}: the undone sync's text is kept as v{n}"
                + (f"–v{top - 1}" if len(fresh) > 1 else "")
                + " (`versions` shows it), so the next sync does not drop it"
            )
        ed.cat.refresh(full=True)
        IndexWriter(root, ed.cat).write_all(ed.txn)
    return notes


def _numbers(store: Store, entry_id: str) -> list[int]:
    folder = versions_dir(store.root, entry_id)
    if not folder.is_dir():
        return []
    return [int(p.stem[1:]) for p in folder.glob("v*.md") if p.stem[1:].isdigit()]


def _kept(store: Store, entry_id: str) -> set[bytes]:
    folder = versions_dir(store.root, entry_id)
    return {data for p in folder.glob("v*.md") if (data := read_file(p)) is not None} if folder.is_dir() else set()


def _summary(text: bytes) -> str:
    try:
        return short(split_history(fmio.parse(text, "version").body)[0])
    except InvalidInput:
        return "(not a valid entry)"
