"""Conflict detection and version history: nothing is overwritten without a kept version.

``add_entry`` and ``update_entry`` are what the CLI and TUI call for add/update. When the
new text is for an existing topic (same category and title, or a similar title with
strongly overlapping tags) it is compared with the current text:

* the same (or nearly) → refused as a duplicate, naming the entry;
* it only adds to the current text (or fixes typos) → an ordinary update;
* it drops or replaces something the current text said, flips a negation or changes a
  number → a **conflict**: the previous full file is kept as ``.versions/<id>/v<N>.md``,
  the entry becomes v<N+1>, a line ``- vN (YYYY-MM-DD): summary`` is appended under
  ``## Version history`` and the frontmatter gets ``conflict: {previous: N, detected: …}``
  until ``conflicts confirm ID`` settles it.

``versions``, ``diff`` (unified diff of any two versions, also as hunks for the TUI) and
``restore_version`` (an old version becomes current as a new version) read the same files.
"""

from __future__ import annotations

import difflib
import json
import os
import re
from datetime import date
from pathlib import Path
from typing import Any

from rapidfuzz import fuzz

from memsearch_tui.engine.core import clock
from memsearch_tui.engine.core import frontmatter_io as fmio
from memsearch_tui.engine.core.errors import Conflict, InvalidInput, MemsearchError, NotFound, Refused
from memsearch_tui.engine.core.paths import VERSIONS, versions_dir
from memsearch_tui.engine.core.safe_io import read_capped
from memsearch_tui.engine.core.secrets import clip_masked, redact
from memsearch_tui.engine.core.text import normalise
from memsearch_tui.engine.store.catalog import Catalog
from memsearch_tui.engine.store.checks import check_duplicate
from memsearch_tui.engine.store.entry import Entry
from memsearch_tui.engine.store.store import (
    Change,
    Store,
    check_content,  # size + secrets, the store's own rule
    check_expected,
    clean_title,
    with_newline,
)

HISTORY = "## Version history"
_HISTORY_RE = re.compile(r"^## Version history[ \t]*$", re.MULTILINE)
_LINE_RE = re.compile(r"^- v(\d+) \((\d{4}-\d{2}-\d{2})\): ?(.*)$")
_TOKEN = re.compile(r"[\u3040-\u30ff\u3400-\u9fff\uf900-\ufaff\uac00-\ud7af]|[^\W_]+")
NEGATIONS = {
    "not",
    "no",
    "never",
    "don",
    "doesn",
    "didn",
    "isn",
    "aren",
    "won",
    "cannot",
    "without",
    "avoid",
    "stop",
    "不",
    "别",
    "没",
    "无",
    "勿",
    "非",
}
SAME_RATIO = 95.0
TYPO_RATIO = 75.0
TITLE_RATIO = 80.0


# -- body parts -------------------------------------------------------------------------
def split_history(body: str) -> tuple[str, list[str]]:
    """(content, history lines) of a body; content keeps its own text exactly."""
    matches = list(_HISTORY_RE.finditer(body))
    if not matches:
        return body, []
    m = matches[-1]
    lines = [ln.strip() for ln in body[m.end() :].splitlines() if ln.strip()]
    return body[: m.start()].rstrip("\n") + "\n", lines


def join_history(content: str, lines: list[str]) -> str:
    if not lines:
        return content
    return content.rstrip("\n") + f"\n\n{HISTORY}\n\n" + "\n".join(lines) + "\n"


def short(text: str, n: int = 72) -> str:
    """One-line summary of a text for a history line (the Versions list shows it), the
    whole text masked first: the first line masked alone showed half a wrapped token."""
    masked = redact(text)
    first = next((ln.strip(" #-*>\t") for ln in masked.splitlines() if ln.strip(" #-*>\t")), "")
    return clip_masked(" ".join(first.split()), n)


# -- comparing ---------------------------------------------------------------------------
def tokens(text: str) -> list[str]:
    return _TOKEN.findall(text.lower())


def classify(old: str, new: str) -> dict[str, Any]:
    """Compare two texts: {"kind": same|extends|conflict, "removed": [...], "why": str}."""
    a, b = tokens(old), tokens(new)
    if not a:
        return {"kind": "extends", "removed": [], "why": "the current text is empty"}
    removed: list[str] = []
    reasons: set[str] = set()
    for op, i1, i2, j1, j2 in difflib.SequenceMatcher(None, a, b, autojunk=False).get_opcodes():
        old_part, new_part = a[i1:i2], b[j1:j2]
        if op == "equal":
            continue
        if NEGATIONS & set(old_part + new_part):
            reasons.add("a negation changed")
        if op == "insert":
            continue
        if op == "replace" and len(old_part) == len(new_part) and all(_typo(x, y) for x, y in zip(old_part, new_part)):
            continue
        if any(ch.isdigit() for ch in "".join(old_part + new_part)):
            reasons.add("a number changed")
        removed.append(" ".join(old_part))
        reasons.add("the new text drops or replaces what the current one says")
    if reasons:
        return {"kind": "conflict", "removed": removed, "why": "; ".join(sorted(reasons))}
    if a == b or fuzz.ratio(" ".join(a), " ".join(b)) >= SAME_RATIO:
        return {"kind": "same", "removed": [], "why": "the same text"}
    return {"kind": "extends", "removed": [], "why": "the new text only adds to the current one"}


def _typo(x: str, y: str) -> bool:
    if any(c.isdigit() for c in x + y):
        return x == y
    return len(x) > 2 and fuzz.ratio(x, y) >= TYPO_RATIO


def same_topic(store: Store, category: str, title: str, tags: list[str] | None) -> str | None:
    """The id of an existing entry of ``category`` on the same topic: same title, or a
    similar title with strongly overlapping tags (≥ 2 shared, Jaccard ≥ 0.6).

    Reads the catalog as last refreshed (cheap light rows, no re-stat of a big folder): the
    store re-checks the title under its write lock, so a race ends in a clear refusal.
    """
    cat = store.catalog(under=None) if not Catalog(store.root).populated() else Catalog(store.root)
    exact = sorted(cat.titled(category, title), key=lambda r: (r[2] == "archived", r[0]))
    if exact:
        return str(exact[0][0])
    mine = {t.casefold() for t in tags or []}
    if len(mine) < 2:
        return None
    key = title.casefold()
    for entry_id, other, _status, tags_json in cat.topic_rows(category):
        theirs = {t.casefold() for t in json.loads(tags_json)}
        shared = mine & theirs
        if (
            len(shared) >= 2
            and len(shared) / len(mine | theirs) >= 0.6
            and fuzz.token_set_ratio(key, other.casefold()) >= TITLE_RATIO
        ):
            return str(entry_id)
    return None


# -- add / update ------------------------------------------------------------------------
def add_entry(
    store: Store,
    category: str,
    title: str,
    body: str,
    *,
    tags: list[str] | None = None,
    importance: float | None = None,
    expires: date | None = None,
    related: list[str] | None = None,
) -> dict[str, Any]:
    """Add an entry, or on an existing topic update it / keep both versions.

    Returns {"action": added|updated|conflict, "entry": summary, "conflict": None|{...}, "message"}.
    """
    store.require()
    match = same_topic(store, category, clean_title(title), tags)
    if match is None:
        entry = store.add(category, title, body, tags=tags, importance=importance, expires=expires, related=related)
        return {"action": "added", "entry": entry.summary(), "conflict": None, "message": f"added {entry.id}"}
    existing = store.get(match)
    content, _ = split_history(existing.body)
    new_content, _ = split_history(with_newline(body))
    verdict = classify(content, new_content)
    if verdict["kind"] == "same":
        raise Refused(
            f"duplicate: '{existing.id}' (\"{existing.title}\") already holds this text; nothing added",
            code="duplicate",
        )
    merged_tags = list(dict.fromkeys(existing.tags + list(tags or [])))
    change = Change(
        title=title,
        tags=merged_tags,
        importance=importance,
        expires=expires,
        related=list(dict.fromkeys(existing.related + list(related or []))) if related else None,
    )
    if verdict["kind"] == "extends":
        new = _plain_update(store, existing, new_content, change, f"add to existing topic {existing.id}")
        return {
            "action": "updated",
            "entry": new.summary(),
            "conflict": None,
            "message": f"same topic as {existing.id}: the new text extends it; entry updated",
        }
    return _conflict(store, existing, new_content, change, "add", verdict)


def update_entry(store: Store, entry_id: str, change: Change, *, by_person: bool = False) -> dict[str, Any]:
    """Update an entry; a contradicting body becomes a new kept version instead of an overwrite.

    ``by_person``: the person's own update (CLI, app): the text it replaces is kept as a
    version all the same, but nothing is opened to confirm: a conflict is for a write that
    raced, or came from an agent or another device, not for what someone just typed."""
    store.require()
    existing = store.get(entry_id)
    if change.body is None:
        entry = store.update(existing.id, change)
        return {"action": "updated", "entry": entry.summary(), "conflict": None, "message": f"updated {entry.id}"}
    content, _ = split_history(existing.body)
    new_content, _ = split_history(with_newline(change.body))
    verdict = classify(content, new_content)
    if verdict["kind"] != "conflict":
        new = _plain_update(store, existing, new_content, change, f"update {existing.id}")
        return {"action": "updated", "entry": new.summary(), "conflict": None, "message": f"updated {new.id}"}
    if by_person:
        return _replaced(store, existing, new_content, change)
    return _conflict(store, existing, new_content, change, "update", verdict)


def _replaced(store: Store, old: Entry, content: str, change: Change) -> dict[str, Any]:
    """A person's update that replaces what the entry said: v{n} kept, v{n+1} current, no
    ``conflict:`` (see :func:`update_entry`)."""
    n = old.version
    today = clock.today()
    old_content, lines = split_history(old.body)
    lines = _history_with(old, lines, old_content)
    lines.append(f"- v{n + 1} ({today.isoformat()}): updated, v{n} kept: {short(content)}")
    meta = dict(old.meta)
    change.apply(meta)
    meta.pop("conflict", None)
    meta.update(version=n + 1, updated=today)
    new = _write(store, old, meta, join_history(content, lines), "update", f"update {old.id}: v{n} kept", keep=True)
    message = f"updated {new.id}; the text it replaced is kept as v{n}"
    return {"action": "updated", "entry": new.summary(), "conflict": None, "message": message}


def _write(
    store: Store,
    old: Entry,
    meta: dict[str, Any],
    body: str,
    kind: str,
    summary: str,
    keep: bool,
    expected: bytes | None = None,
    what: str = "",
) -> Entry:
    """Validate and write a new state of ``old`` (keeping its file as vN first if ``keep``);
    ``expected``: the file as the user saw it (``Store.check_expected``)."""
    new = Entry(old.id, old.doc.derive(meta, body), old.path)
    new.validate()
    check_content(new.id, new)
    with store.edit(kind, summary) as ed:
        assert old.path is not None
        check_expected(old.path, expected, what)
        raw = read_capped(old.path)  # kept exactly as it is on disk
        if fmio.parse(raw, str(old.path)) != old.doc:  # read before the lock: no lost update
            raise Conflict(f"{old.path}: changed on disk meanwhile; nothing written, try again")
        if normalise(body) != normalise(old.body):
            check_duplicate(store.root, ed.fresh(old.category), body, ignore=old.id)
        if keep:
            ed.txn.write(versions_dir(store.root, old.id) / f"v{old.version}.md", raw)
        ed.write_entry(new)
    return new


def _plain_update(store: Store, old: Entry, content: str, change: Change, summary: str) -> Entry:
    meta = dict(old.meta)
    change.apply(meta)
    meta["updated"] = clock.today()
    _, lines = split_history(old.body)
    return _write(store, old, meta, join_history(content, lines), "update", summary, keep=False)


def _history_with(old: Entry, lines: list[str], old_content: str) -> list[str]:
    """History lines, with one for the current version added if it has none yet."""
    have = {int(m.group(1)) for ln in lines if (m := _LINE_RE.match(ln))}
    if old.version not in have:
        day = (old.updated or clock.today()).isoformat()
        lines = lines + [f"- v{old.version} ({day}): {short(old_content) or old.title}"]
    return lines


def _conflict(
    store: Store, old: Entry, content: str, change: Change, how: str, verdict: dict[str, Any]
) -> dict[str, Any]:
    n = old.version
    today = clock.today()
    old_content, lines = split_history(old.body)
    lines = _history_with(old, lines, old_content)
    lines.append(f"- v{n + 1} ({today.isoformat()}): conflict with v{n} ({how}): {short(content)}")
    meta = dict(old.meta)
    change.apply(meta)
    meta.update(version=n + 1, updated=today, conflict={"previous": n, "detected": today})
    new = _write(
        store,
        old,
        meta,
        join_history(content, lines),
        how,
        f"{how} {old.id}: conflict, v{n} kept, current v{n + 1}",
        keep=True,
    )
    message = f"conflict detected, both versions kept, current v{n + 1}"
    return {
        "action": "conflict",
        "entry": new.summary(),
        "message": message,
        "conflict": {
            "message": message,
            "previous": f"{old.id}@v{n}",
            "current": f"{old.id}@v{n + 1}",
            "kept": _rel(store, versions_dir(store.root, old.id) / f"v{n}.md"),
            "why": verdict["why"],
            "removed": verdict["removed"][:10],
        },
    }


def _rel(store: Store, path: Path) -> str:
    return path.relative_to(store.root).as_posix()


# -- reading versions --------------------------------------------------------------------
def _version_file(store: Store, entry_id: str, n: int) -> Path:
    return versions_dir(store.root, entry_id) / f"v{n}.md"


def versioned_ids(store: Store) -> list[str]:
    """Ids of the entries that have kept older versions (``.versions/<id>/vN.md``), sorted."""
    base = Path(store.root, VERSIONS)
    out = []
    for dirpath, _dirs, files in os.walk(base):
        if any(f.startswith("v") and f.endswith(".md") for f in files):
            out.append(Path(dirpath).relative_to(base).as_posix())
    return sorted(out)


def list_versions(store: Store, entry_id: str) -> list[dict[str, Any]]:
    """Every version there is to see, oldest first: {"version", "date", "summary", "current",
    "kept", "path"}. A number with no file (a sync conflict renumbers: the winner's own
    earlier number holds the text that is current now) is not listed: nothing to show."""
    entry = store.get(entry_id)
    _, lines = split_history(entry.body)
    notes = {int(m.group(1)): (m.group(2), m.group(3)) for ln in lines if (m := _LINE_RE.match(ln))}
    out = []
    for n in range(1, entry.version + 1):
        current = n == entry.version
        path = entry.path if current else _version_file(store, entry.id, n)
        assert path is not None
        if not current and not path.is_file():
            continue
        day, text = notes.get(n, ("", ""))
        if not day and current:
            day, text = (entry.updated.isoformat() if entry.updated else ""), short(split_history(entry.body)[0])
        out.append(
            {
                "version": n,
                "id": f"{entry.id}@v{n}",
                "date": day,
                "summary": text,
                "current": current,
                "kept": path.is_file(),
                "path": _rel(store, path),
            }
        )
    return out


def version_text(store: Store, entry_id: str, n: int) -> tuple[Entry, str]:
    """(entry as of version n, its content without the history section)."""
    entry = store.get(entry_id)
    if n == entry.version:
        return entry, split_history(entry.body)[0]
    if not 1 <= n < entry.version:
        raise NotFound(f"{entry.id} has versions 1 to {entry.version}; no v{n}")
    path = _version_file(store, entry.id, n)
    if not path.is_file():
        raise NotFound(f"{entry.id}: v{n} was not kept ({_rel(store, path)} is missing)")
    old = Entry(entry.id, fmio.parse(read_capped(path), str(path)), path)
    return old, split_history(old.body)[0]


def diff(store: Store, entry_id: str, a: int | None = None, b: int | None = None, context: int = 3) -> dict[str, Any]:
    """Unified diff between versions ``a`` and ``b`` (default: the last two), plus hunks."""
    entry = store.get(entry_id)
    b = entry.version if b is None else b
    a = (b - 1) if a is None else a
    if a < 1:
        raise Refused(f"{entry.id} has only one version; nothing to compare", code="one_version")
    ea, ta = version_text(store, entry.id, a)
    eb, tb = version_text(store, entry.id, b)
    # each text masked whole before the diff, as the app's DiffView does: masked per line
    # (the CLI's output), a token wrapped over lines printed in clear, and the join took a "-"
    la = redact(f"# {ea.title}\n\n{ta}").splitlines()
    lb = redact(f"# {eb.title}\n\n{tb}").splitlines()
    lines = list(difflib.unified_diff(la, lb, f"{entry.id}@v{a}", f"{entry.id}@v{b}", n=context, lineterm=""))
    hunks: list[dict[str, Any]] = []
    for ln in lines[2:]:
        if ln.startswith("@@"):
            hunks.append({"header": ln, "lines": []})
        elif hunks:
            hunks[-1]["lines"].append({"op": ln[:1] or " ", "text": ln[1:]})
    return {
        "id": entry.id,
        "a": a,
        "b": b,
        "unified": "\n".join(lines) + ("\n" if lines else ""),
        "hunks": hunks,
        "same": not lines,
    }


def restore_version(store: Store, entry_id: str, n: int, *, expected: bytes | None = None) -> dict[str, Any]:
    """``versions ID --restore N``: version N's text becomes current as a new version.

    ``expected``: the current file as the user saw it when choosing (the TUI's Versions
    pane); a change made since is refused (Conflict), not buried under the restored text."""
    entry = store.get(entry_id)
    if n == entry.version:
        raise Refused(f"v{n} is already the current version of {entry.id}", code="current")
    old, content = version_text(store, entry.id, n)
    cur = entry.version
    cur_content, lines = split_history(entry.body)
    lines = _history_with(entry, lines, cur_content)
    today = clock.today()
    lines.append(f"- v{cur + 1} ({today.isoformat()}): restored v{n}: {short(content)}")
    meta = dict(entry.meta)
    meta.pop("conflict", None)
    meta.update(title=old.title, version=cur + 1, updated=today)
    new = _write(
        store,
        entry,
        meta,
        join_history(content, lines),
        "version-restore",
        f"restore {entry.id} v{n} as v{cur + 1}",
        keep=True,
        expected=expected,
        what=f"choosing v{n} to restore",
    )
    return {
        "entry": new.summary(),
        "restored": n,
        "current": cur + 1,
        "message": f"v{n} restored as v{cur + 1}; v{cur} kept",
    }


# -- conflicts ---------------------------------------------------------------------------
def conflicts(store: Store, *, fresh: bool = True) -> list[dict[str, Any]]:
    """Entries whose latest change was a detected conflict, not yet confirmed.

    Only the files the catalog (re-checked against the disk by stat) marks as holding a
    conflict are read: at 100k entries reading every file took seconds of the app's
    start-up (its badges) and of the Overview. ``fresh=False``: the catalog as last saved
    (no stat of every file: a first frame; the marked files are still read as they are)."""
    from memsearch_tui.engine.store.catalog import Catalog

    store.require()
    out = []
    cat = store.catalog() if fresh else Catalog(store.root)
    try:
        marked = cat.conflicted()
    finally:
        cat.close()
    for entry_id in marked:
        path = store.path_of(entry_id)
        try:
            raw = read_capped(path)
        except (OSError, MemsearchError):  # unreadable: `index check` names it
            continue
        if b"\nconflict:" not in raw[:4096]:
            continue
        try:
            meta = fmio.parse(raw, str(path)).meta
        except InvalidInput:
            continue
        c = meta.get("conflict")
        if isinstance(c, dict):
            out.append(
                {
                    "id": entry_id,
                    "title": str(meta.get("title") or entry_id),
                    "version": meta.get("version"),
                    "previous": c.get("previous"),
                    "detected": str(c.get("detected") or ""),
                }
            )
    return sorted(out, key=lambda r: (r["detected"], r["id"]), reverse=True)


def confirm(store: Store, entry_id: str, *, expected: bytes | None = None) -> dict[str, Any]:
    """``conflicts confirm ID``: the current version stands; the conflict mark goes (logged).

    ``expected``: the file as the user saw it; a change made since is refused (Conflict)."""
    entry = store.get(entry_id)
    with store.edit("confirm", f"confirm conflict of {entry.id} (v{entry.version} stands)") as ed:
        check_expected(entry.path, expected, "deciding on its conflict")
        entry = store.get(entry.id)  # re-read under the lock: no change made meanwhile is dropped
        if "conflict" not in entry.meta:
            raise Refused(f"{entry.id} has no open conflict", code="no_conflict")
        meta = {k: v for k, v in entry.meta.items() if k != "conflict"}
        ed.write_entry(Entry(entry.id, entry.doc.derive(meta, entry.body), entry.path))
    return {"confirmed": entry.id, "version": entry.version}
