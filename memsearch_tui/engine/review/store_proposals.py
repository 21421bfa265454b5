"""Proposals for the store itself: lifecycle moves and category splits, waiting for review.

Automatic archiving and splitting can misjudge, so ``--run-due`` and ``lifecycle apply``
(with ``[tui] review = true``) write the list of moves plus why to
``<memory root>/.memsearch-tui/proposals/<id>.json``. Accepting one carries the moves out
through the same logged transaction as the direct commands, so ``undo`` reverts it.
(Proposals for PROJECT.md/USER.md rewrites live in the project: ``engine/proposals.py``.)
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable
from pathlib import Path
from typing import Any

from memsearch_tui.engine.core import clock
from memsearch_tui.engine.core.atomic import atomic_write_text
from memsearch_tui.engine.core.errors import Conflict, InvalidInput, NotFound, Refused
from memsearch_tui.engine.core.safe_io import load_json
from memsearch_tui.engine.core.state_files import PROPOSALS, STATE_DIR
from memsearch_tui.engine.core.text import plural
from memsearch_tui.engine.store.store import Store

KINDS = ("lifecycle", "split")


def proposals_dir(root: Path) -> Path:
    return Path(root) / STATE_DIR / PROPOSALS


def _path(root: Path, pid: str) -> Path:
    if not pid or "/" in pid or "\\" in pid or pid.startswith("."):
        raise InvalidInput(f"proposal id {pid!r} is not valid")
    return proposals_dir(root) / f"{pid}.json"


def _save(root: Path, prop: dict[str, Any]) -> None:
    atomic_write_text(_path(root, prop["id"]), json.dumps(prop, indent=2, ensure_ascii=False))


def _new(root: Path, kind: str, summary: str, why: str, payload: dict[str, Any]) -> dict[str, Any]:
    """Store a pending proposal, unless the same pending one already exists (returned then)."""
    for p in _listing(root):
        if p.get("status") == "pending" and p.get("kind") == kind and p.get("payload") == payload:
            return dict(p)
    stamp = clock.now().strftime("%Y%m%d-%H%M%S")
    n = 1
    while _path(root, f"{kind}-{stamp}-{n}").exists():
        n += 1
    prop = {
        "id": f"{kind}-{stamp}-{n}",
        "kind": kind,
        "created": clock.iso_z(),
        "status": "pending",
        "summary": summary,
        "why": why,
        "payload": payload,
    }
    _save(root, prop)
    return prop


def propose_lifecycle(root: Path, moves: list[dict[str, Any]]) -> dict[str, Any]:
    counts = {a: sum(m["action"] == a for m in moves) for a in ("archive", "expire", "trash", "purge")}
    summary = "lifecycle: " + ", ".join(f"{n} {a}" for a, n in counts.items() if n)
    why = "Entries past the thresholds of config.md (archive_after_days, forget_after_days, trash_retention_days)."
    return _new(root, "lifecycle", summary, why, {"moves": moves})


def propose_split(store: Store, category: str, by: str | None = None) -> dict[str, Any]:
    from memsearch_tui.engine.curator import split

    p = split.plan(store, category, by)
    entries, groups = (
        plural(len(p["moves"]), "entry", "entries"),
        plural(len(p["groups"]), "subcategory", "subcategories"),
    )
    summary = f"split {category} by {p['by']}: {entries} into {groups}"
    why = f"{category} holds {plural(p['entries'], 'entry', 'entries')}, over split_threshold {p['threshold']}."
    return _new(
        store.root,
        "split",
        summary,
        why,
        {"category": p["category"], "by": p["by"], "groups": p["groups"], "moves": p["moves"]},
    )


def list_proposals(root: Path, status: str | None = None) -> list[dict[str, Any]]:
    """Proposals, newest first (``status``: pending, accepted, rejected, or all); the
    caller gets its own top-level dicts."""
    return [dict(p) for p in _listing(root) if status is None or p.get("status") == status]


def pending_count(root: Path, author: str) -> int:
    """How many pending proposals ``author`` (an agent's ``mcp:<client>``) has waiting."""
    return sum(
        1
        for p in _listing(root)
        if p.get("status") == "pending" and isinstance(p.get("payload"), dict) and p["payload"].get("author") == author
    )


_PARSED: dict[str, tuple[int, dict[str, Any] | None]] = {}  # path → (inode, parsed)


def _listing(root: Path) -> list[dict[str, Any]]:
    """Every readable proposal, newest first, shared (never mutate).

    A long-running server lists on every agent write (the duplicate check, the per-client
    cap), so a call reads the folder and nothing else: each file is parsed once and kept
    under its inode, which the directory listing gives for free — every write here is an
    atomic rename, a new inode. ``show`` and ``accept`` always read the file itself; a file
    edited in place (same inode) is seen by them, and ``forget_cached`` drops the stale copy
    when they find it differs.
    """
    folder = proposals_dir(root)
    try:
        with os.scandir(folder) as it:
            files = sorted(((de.name, de) for de in it if de.name.endswith(".json")), reverse=True)
    except (FileNotFoundError, NotADirectoryError):
        return []
    return [p for p in (_parsed(de) for _, de in files) if p is not None]


def _parsed(de: os.DirEntry[str]) -> dict[str, Any] | None:
    """The proposal file ``de`` as parsed, from the cache while its inode is the same."""
    hit = _PARSED.get(de.path)
    if hit is not None and hit[0] == de.inode():
        return hit[1]
    try:
        data = load_json(de.path)
    except (OSError, ValueError):
        data = None
    prop = data if isinstance(data, dict) else None
    _PARSED[de.path] = (de.inode(), prop)
    return prop


def forget_cached(root: Path, pid: str) -> None:
    """Drop the cached copy of proposal ``pid`` (it was found changed in place)."""
    _PARSED.pop(str(_path(root, pid)), None)


def show(root: Path, pid: str) -> dict[str, Any]:
    try:
        prop: dict[str, Any] = load_json(_path(root, pid))
        return prop
    except FileNotFoundError:
        raise NotFound(f"no store proposal '{pid}' in {proposals_dir(root)}") from None
    except ValueError as exc:
        raise InvalidInput(f"{_path(root, pid)}: damaged proposal file ({exc})") from None


def accept(
    store: Store,
    pid: str,
    *,
    progress: Callable[[int, int], None] | None = None,
    expected: dict[str, Any] | None = None,
) -> dict[str, Any]:
    """Carry out a pending proposal (logged, undoable); moves gone stale are skipped and listed.

    ``progress(done, total)`` is passed on to the lifecycle or split step (a UI's progress bar).
    ``expected``: the proposal as the user saw it (as ``list_proposals`` returned it); if
    its file says anything else now, Conflict and nothing moves.
    """
    prop = show(store.root, pid)
    if expected is not None and prop != expected:
        forget_cached(store.root, pid)  # the next listing shows the file as it is now
        path = _path(store.root, pid)
        raise Conflict(f"{path}: the proposal changed since it was shown; nothing applied", path=str(path))
    check_shape(pid, prop)
    if prop["status"] != "pending":
        raise Refused(f"proposal {pid} is already {prop['status']}", code="not_pending")
    if prop["kind"] == "lifecycle":
        from memsearch_tui.engine.curator import lifecycle

        result = lifecycle.apply(
            store, prop["payload"]["moves"], summary=f"accept {pid}: {prop['summary']}", progress=progress
        )
    elif prop["kind"] == "split":
        from memsearch_tui.engine.curator import split

        pl = prop["payload"]
        result = split.apply_moves(
            store, pl["category"], pl["moves"], summary=f"accept {pid}: {prop['summary']}", progress=progress
        )
    elif prop["kind"] in ("merge", "redact", "fix-reference"):  # hygiene's fixes
        from memsearch_tui.engine.review import hygiene_proposals

        result = hygiene_proposals.apply(store, prop)
    elif prop["kind"] in ("remember", "revise", "forget"):  # an agent's write (MCP, review mode)
        from memsearch_tui.engine.review import agent_proposals

        result = agent_proposals.apply(store, prop)
    else:
        raise InvalidInput(f"proposal {pid}: unknown kind {prop['kind']!r}")
    prop.update(status="accepted", decided=clock.iso_z())
    _save(store.root, prop)
    return {"proposal": pid, "result": result}


_ACTIONS = ("archive", "expire", "trash", "purge")


def check_shape(pid: str, prop: Any) -> None:
    """A store proposal may only name store entries (ids that stay in the memory root) in the
    shape we write; anything else is a tampered proposal, refused before anything moves."""
    from memsearch_tui.engine.core.paths import check_parts

    def bad(why: str) -> Refused:
        return Refused(f"tampered proposal {pid}: {why}; refused", code="tampered_proposal")

    from memsearch_tui.engine.review import hygiene_proposals
    from memsearch_tui.engine.review.agent_proposals import KINDS as AGENT_KINDS

    if (
        not isinstance(prop, dict)
        or prop.get("kind") not in (*KINDS, *AGENT_KINDS, *hygiene_proposals.KINDS)
        or not isinstance(prop.get("payload"), dict)
    ):
        raise bad("not a lifecycle, split, agent or hygiene proposal")
    payload = prop["payload"]
    if prop["kind"] in hygiene_proposals.KINDS:
        try:
            ids = hygiene_proposals.ids(prop)
        except InvalidInput as exc:
            raise bad(exc.message) from None
    elif prop["kind"] in AGENT_KINDS:  # every write check runs again on accept; the ids must be store ids
        key = "category" if prop["kind"] == "remember" else "id"
        if not isinstance(payload.get(key), str):
            raise bad(f"an agent's {prop['kind']} needs a {key}")
        ids = [payload[key]]
    elif prop["kind"] == "lifecycle":
        moves = payload.get("moves")
        if not isinstance(moves, list) or not all(
            isinstance(m, dict) and m.get("action") in _ACTIONS and isinstance(m.get("id"), str) for m in moves
        ):
            raise bad("moves must be {action, id} records")
        ids = [m["id"] for m in moves]
    else:
        moves = payload.get("moves")
        if not isinstance(payload.get("category"), str) or not isinstance(moves, dict):
            raise bad("a split needs a category and a moves table")
        if not all(isinstance(k, str) and isinstance(v, str) for k, v in moves.items()):
            raise bad("split moves must map entry ids to entry ids")
        ids = [payload["category"], *moves, *moves.values()]
    for value in ids:
        try:
            check_parts(value, "id")
        except Refused as exc:
            raise bad(exc.message) from None


def reject(root: Path, pid: str, *, note: str = "") -> dict[str, Any]:
    """Drop a pending proposal, keeping ``note`` (why) with it as a rewrite's reject does."""
    prop = show(root, pid)
    if prop["status"] != "pending":
        raise Refused(f"proposal {pid} is already {prop['status']}", code="not_pending")
    prop.update(status="rejected", decided=clock.iso_z())
    if note:
        prop["note"] = note
    _save(root, prop)
    return {"proposal": pid, "status": "rejected"}
