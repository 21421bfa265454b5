"""``Memory``: the typed engine API every face calls (CLI, TUI, MCP server).

One object per (memory root, project). It keeps a warm :class:`Searcher` for repeated
queries and applies the write policy of its face: ``direct`` (a person, or an agent
trusted with ``[tui.mcp] writes = "direct"``: writes land at once, each logged for undo
and marked with ``actor``), ``review`` (an agent's remember/revise/forget become pending
proposals a person accepts or rejects) or ``read-only`` (writes refused).

No rule is re-implemented here: writes go through ``curator.versions`` (pre-write checks,
duplicates, conflicts kept as versions), ``curator.trash`` (forget never purges) and the
two proposal stores in ``review``. Results are the dataclasses of :mod:`.types`.
"""

from __future__ import annotations

import copy
import hashlib
import re
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Any

from memsearch_tui.engine.api import limits
from memsearch_tui.engine.api.types import (
    WRITE_MODES,
    Category,
    Document,
    EntrySummary,
    HistoryItem,
    JournalDay,
    JournalSession,
    JournalTurn,
    Proposal,
    SearchHit,
    SearchResult,
    WriteResult,
)
from memsearch_tui.engine.core.errors import Conflict, InvalidInput, MemsearchError, NotFound, Refused
from memsearch_tui.engine.core.paths import INDEX, category_path, inside
from memsearch_tui.engine.core.secrets import refuse_secrets
from memsearch_tui.engine.core.text import plural
from memsearch_tui.engine.history.txn import ACTOR
from memsearch_tui.engine.memsearch.project import memsearch_dir
from memsearch_tui.engine.store.store import Change, Store, clean_title

if TYPE_CHECKING:
    from memsearch_tui.engine.memsearch.journal import Session
    from memsearch_tui.engine.review.proposals import Proposal as ProjectProposal
    from memsearch_tui.engine.search.searcher import Searcher

# A query as the background refresh re-runs it: (query, strategy, k, category, source).
_Query = tuple[str, str, int, "str | None", str]

_DAY = re.compile(r"^(?:memory/)?(\d{4}-\d{2}-\d{2})(?:\.md)?$")
BEHIND_STALENESS = 60.0  # seconds a freshness check holds when refresh-behind keeps it current
QUIET = 0.5  # seconds without a query before the background re-check runs
SPECIAL = {"project.md": "PROJECT.md", "project": "PROJECT.md", "user.md": "USER.md", "user": "USER.md"}


class _Warm:
    """What stays loaded between calls: the Searcher (model, Milvus, keyword index).

    With ``refresh_behind`` (the MCP server) the Searcher trusts its last freshness check
    for ``BEHIND_STALENESS`` seconds, and once queries pause (``QUIET``) the last one runs
    again in the background with the check forced: the files are re-checked off the
    critical path, so the next query (usually seconds later) is warm instead of paying a
    re-stat of every file. A change made by another process is seen from the query after
    the next one at the latest (or after ``BEHIND_STALENESS``); writes through this API
    invalidate at once.
    """

    def __init__(self, refresh_behind: bool = False) -> None:
        self.searcher: Searcher | None = None
        self.lock = threading.Lock()
        self.refresh_behind = refresh_behind
        self._thread: threading.Thread | None = None
        self._pending: _Query | None = None
        self._last = 0.0

    def staleness(self) -> float:
        return BEHIND_STALENESS if self.refresh_behind else 2.0

    def schedule(self, args: _Query) -> None:
        """After ``QUIET`` seconds without a query, re-run the last one with a forced re-check.

        Waiting for a quiet moment keeps a burst of queries from queueing behind a re-check.
        """
        if not self.refresh_behind:
            return
        self._pending, self._last = args, time.monotonic()
        if self._thread is None or not self._thread.is_alive():
            self._thread = threading.Thread(target=self._refresh, name="memsearch-refresh", daemon=True)
            self._thread.start()

    def _refresh(self) -> None:
        while (idle := time.monotonic() - self._last) < QUIET:
            time.sleep(QUIET - idle)
        if self._pending is None:  # schedule() sets it before starting this thread
            return
        query, strategy, k, category, source = self._pending
        with self.lock:
            if self.searcher is None:
                return
            try:
                self.searcher.invalidate()
                self.searcher.search(query, strategy=strategy, k=k, category=category, source=source)
            except (MemsearchError, OSError):
                pass  # the next foreground query checks again and reports any real problem

    def wait(self, timeout: float = 60.0) -> None:
        """Let a running background refresh finish (tests, close)."""
        if self._thread is not None:
            self._thread.join(timeout)


class Memory:
    """The engine API for one memory root and one project."""

    def __init__(
        self, memory_root: Path, project: Path, *, writes: str = "direct", actor: str = "", refresh_behind: bool = False
    ) -> None:
        if writes not in WRITE_MODES:
            raise InvalidInput(f"writes = {writes!r}: expected one of {', '.join(WRITE_MODES)}")
        self.store = Store(Path(memory_root))
        self.root = self.store.root
        self.project = Path(project).absolute()
        self.writes = writes
        self.actor = actor
        self._warm = _Warm(refresh_behind)  # shared by the copies ``with_actor`` makes

    def close(self) -> None:
        self._warm.wait()
        with self._warm.lock:
            if self._warm.searcher is not None:
                self._warm.searcher.close()
                self._warm.searcher = None

    def __enter__(self) -> Memory:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    @property
    def memsearch_dir(self) -> Path:
        return memsearch_dir(self.project)

    # -- searching and reading -----------------------------------------------------------
    def search(
        self,
        query: str,
        k: int = 10,
        strategy: str = "auto",
        source: str = "all",
        category: str | None = None,
        explain: bool = False,
    ) -> SearchResult:
        """Search both memories; the result says which strategy ran and why (``explain``:
        and why each hit ranks where it does)."""
        limits.text("query", query, limits.QUERY)
        from memsearch_tui.engine.search.searcher import Searcher  # the search stack loads on first use

        with self._warm.lock:
            if self._warm.searcher is None:
                self._warm.searcher = Searcher(self.root, self.project, max_staleness=self._warm.staleness())
            res = self._warm.searcher.search(
                query, strategy=strategy, k=k, category=category, source=source, explain=explain
            )
        if strategy != "grep":  # the literal search keeps its own index, checked every time
            self._warm.schedule((query, strategy, k, category, source))
        titles = self._titles([h.id for h in res.hits if h.source == "store"])
        hits = tuple(
            SearchHit(
                id=h.id,
                path=h.path,
                source=h.source,
                kind=h.kind,
                title=titles.get(h.id) or _file_title(h.kind, h.path),
                heading=h.heading or "",
                lines=(int(h.start), int(h.end)),
                snippet=h.snippet or "",
                score=float(h.score),
                explain=h.explain.as_dict() if h.explain is not None else None,
            )
            for h in res.hits
        )
        return SearchResult(
            res.query,
            res.strategy,
            res.requested,
            res.reason,
            res.files,
            round(res.took_ms, 1),
            hits,
            tuple(res.notes),
            res.explain.as_dict() if res.explain is not None else None,
        )

    def invalidate(self) -> None:
        """Files changed: the next search re-checks them (after a write through this object)."""
        if self._warm.searcher is not None:
            self._warm.searcher.invalidate()

    def _titles(self, ids: list[str]) -> dict[str, str]:
        if not ids or not self.store.exists():
            return {}
        from memsearch_tui.engine.store.catalog import Catalog

        cat = Catalog(self.root)
        try:
            entries = cat.entries
            return {i: entries[i].title for i in ids if i in entries}
        except (MemsearchError, OSError, KeyError, ValueError):
            return {}
        finally:
            cat.close()

    def read(self, ref: str, lines: tuple[int, int] | None = None) -> Document:
        """An entry (by id), a journal day, PROJECT.md, USER.md or an INDEX.md, whole or a line range."""
        limits.text("id_or_path", ref, limits.REF)
        ref = ref.strip()
        if not ref:
            raise InvalidInput("which file? give an entry id, a day YYYY-MM-DD, PROJECT.md or USER.md")
        kind, path, name = self._resolve(ref)
        return self._document(kind, path, name, lines)

    def _document(self, kind: str, path: Path, name: str, lines: tuple[int, int] | None) -> Document:
        try:
            text = path.read_bytes().decode("utf-8", errors="replace")
        except FileNotFoundError:
            raise NotFound(f"{name}: no such file") from None
        all_lines = text.splitlines(keepends=True)
        total = len(all_lines)
        start, end = _line_range(lines, total)
        chunk = "".join(all_lines[start - 1 : end])
        if len(chunk) > limits.READ:
            chunk = chunk[: limits.READ]
            end = start + chunk.count("\n") - 1 if chunk.count("\n") else start
        if kind == "entry":
            entry = self.store.get(name)
            if self.writes != "read-only":
                _record_access(self.store, entry.id)
            return Document(
                "entry", entry.id, str(path), entry.title, chunk, (start, end), total,
                entry.version, entry.status, tuple(entry.tags),
            )  # fmt: skip
        return Document(kind, name, str(path), _file_title(kind, str(path)), chunk, (start, end), total)

    def _resolve(self, ref: str) -> tuple[str, Path, str]:
        """(kind, file, name) for a reference; refuses anything outside the two memories."""
        mdir = self.memsearch_dir
        special = SPECIAL.get(ref.lower())
        if special:
            return ("project" if special == "PROJECT.md" else "user"), mdir / special, special
        day = _DAY.match(ref)
        if day:
            path = mdir / "memory" / f"{day.group(1)}.md"
            return "journal", path, f"memory/{day.group(1)}.md"
        p = Path(ref).expanduser()
        if p.is_absolute():
            if inside(mdir, p) and p.suffix == ".md":
                rel = p.resolve().relative_to(mdir.resolve()).as_posix()
                kind = {"PROJECT.md": "project", "USER.md": "user"}.get(rel, "journal")
                if kind == "journal" and not rel.startswith("memory/"):
                    raise Refused(f"{ref}: not a journal, PROJECT.md or USER.md", code="unsafe_path")
                return kind, p, rel
            if inside(self.root, p):
                return self._resolve(p.resolve().relative_to(self.root.resolve()).as_posix())
            raise Refused(f"{ref}: outside the memory root and the project's .memsearch", code="unsafe_path")
        parts = Path(ref).parts
        if ".." in parts or any(part.startswith(".") for part in parts):  # .trash, .versions, state
            raise Refused(f"{ref}: not a memory file", code="unsafe_path")
        if Path(ref).name == INDEX:
            path = self.root / ref
            if not inside(self.root, path):
                raise Refused(f"{ref}: resolves outside the memory root", code="unsafe_path")
            return "index", path, Path(ref).as_posix()
        entry_id = ref.removesuffix(".md")
        path = self.store.path_of(entry_id)  # refuses unsafe ids and symlinks out of the root
        if not path.is_file():
            raise NotFound(f"no entry '{entry_id}' in {self.root}")
        return "entry", path, entry_id

    def store_file(self, rel: str) -> Document:
        """An INDEX.md or an entry by its path under the memory root (``memory://`` resources).

        Nothing else: no hidden folders (trash, versions, state), no other file types, and
        the resolved path (symlinks followed) must stay inside the root.
        """
        limits.text("path", rel, limits.REF)
        parts = Path(rel).parts
        if not rel or Path(rel).is_absolute() or ".." in parts or any(p.startswith(".") for p in parts):
            raise Refused(f"{rel!r}: not a file of the memory store", code="unsafe_path")
        if not rel.endswith(".md"):
            raise Refused(f"{rel!r}: only INDEX.md files and entries are resources", code="unsafe_path")
        path = self.root / rel
        if not inside(self.root, path):
            raise Refused(f"{rel!r}: resolves outside the memory root", code="unsafe_path")
        if Path(rel).name == INDEX:
            return self._document("index", path, Path(rel).as_posix(), None)
        entry_id = rel.removesuffix(".md")
        if not self.store.path_of(entry_id).is_file():
            raise NotFound(f"no entry '{entry_id}' in {self.root}")
        return self._document("entry", self.store.path_of(entry_id), entry_id, None)

    def with_actor(self, actor: str) -> Memory:
        """The same API (sharing the warm searcher) acting for ``actor`` (one client's call)."""
        other = copy.copy(self)
        other.actor = actor
        return other

    def list_entries(self, category: str | None = None, status: str | None = None) -> tuple[EntrySummary, ...]:
        """Entries of a category and below (all with no category), sorted by id."""
        if status is not None and status not in ("active", "archived", "expired", "invalid"):
            raise InvalidInput(f"status {status!r}: expected active, archived, expired or invalid")
        return tuple(
            EntrySummary(r.id, r.title, r.status, r.category, r.updated or None, tuple(r.tags), None, r.error)
            for r in self.store.list(category or None, status)
        )

    def categories(self) -> tuple[Category, ...]:
        """Every category and how many entries it holds (with its subcategories)."""
        self.store.require()
        names = self.store.categories()
        rows = self.store.list()
        counts = dict.fromkeys(names, 0)
        for r in rows:
            parts = r.category.split("/")
            for i in range(1, len(parts) + 1):
                key = "/".join(parts[:i])
                if key in counts:
                    counts[key] += 1
        return tuple(Category(n, counts[n]) for n in names)

    def journal(self, day: str | None = None, session: str | None = None) -> JournalDay:
        """One day's sessions and turns (the newest day by default), optionally one session."""
        from memsearch_tui.engine.memsearch.journal import journal_files, load_journal

        files = journal_files(self.memsearch_dir / "memory")
        days = tuple(f.stem for f in files)
        if not files:
            raise NotFound(f"no journals in {self.memsearch_dir / 'memory'}")
        if day:
            limits.text("day", day, 40)
            m = _DAY.match(day.strip())
            wanted = m.group(1) if m else day.strip()
            chosen = next((f for f in files if f.stem == wanted or f.stem.startswith(wanted)), None)
            if chosen is None:
                raise NotFound(f"no journal for {day!r}; days: {', '.join(days[:10])}")
        else:
            chosen = files[0]
        parsed = load_journal(chosen)
        sessions = tuple(_session(s) for s in parsed.sessions)
        if session:
            sessions = tuple(s for s in sessions if session in (s.time, *s.session_ids))
            if not sessions:
                raise NotFound(f"no session {session!r} in {chosen.name}")
        return JournalDay(parsed.date or chosen.stem, str(chosen), sessions, days)

    # -- writing -------------------------------------------------------------------------
    def remember(
        self,
        category: str,
        title: str,
        body: str,
        tags: list[str] | None = None,
        importance: float | None = None,
        *,
        reason: str = "",
    ) -> WriteResult:
        """A new entry (or, on an existing topic, an update or a kept conflicting version)."""
        self._writable("remember")
        tags = limits.tags(tags)
        limits.text("category", category, limits.REF)
        limits.text("body", body, limits.BODY)
        limits.text("reason", reason, limits.REASON)
        importance = limits.importance(importance)
        title = clean_title(title)
        category = category.strip().strip("/")
        self.store.require()
        category_path(self.root, category)  # refuses unsafe category names now
        refuse_secrets(f"{category}/{title}", category, title, body, " ".join(tags), reason)
        if self.writes == "review":
            from memsearch_tui.engine.store.checks import check_duplicate

            cat = self.store.catalog()
            try:
                check_duplicate(self.root, cat, body)
            finally:
                cat.close()
            payload = {"category": category, "title": title, "body": body, "tags": tags, "importance": importance}
            return self._proposed("remember", f"{category}/{title}", payload, reason)
        from memsearch_tui.engine.curator import versions

        with self._as_actor():
            out = versions.add_entry(self.store, category, title, body, tags=tags, importance=importance)
        return self._written(out)

    def revise(
        self,
        entry_id: str,
        *,
        title: str | None = None,
        body: str | None = None,
        tags: list[str] | None = None,
        importance: float | None = None,
        expected: int | None = None,
        reason: str = "",
    ) -> WriteResult:
        """Change an entry; a contradicting body is kept as a new version, never lost.

        ``expected``: the version the caller read; if the entry moved on since, refused.
        """
        self._writable("revise")
        limits.text("id", entry_id, limits.REF)
        limits.text("reason", reason, limits.REASON)
        if body is not None:
            limits.text("body", body, limits.BODY)
        if title is not None:
            title = clean_title(title)
        tags = None if tags is None else limits.tags(tags)
        importance = limits.importance(importance)
        if all(v is None for v in (title, body, tags, importance)):
            raise InvalidInput("nothing to change: give a title, body, tags or importance")
        entry = self.store.get(entry_id)
        if expected is not None and entry.version != expected:
            raise Conflict(
                f"{entry.id} is at version {entry.version}, not {expected}: read it again and revise that",
                code="conflict",
            )
        refuse_secrets(entry.id, title or "", body or "", " ".join(tags or []), reason)
        if self.writes == "review":
            if body is not None:
                from memsearch_tui.engine.store.checks import check_duplicate

                cat = self.store.catalog()
                try:
                    check_duplicate(self.root, cat, body, ignore=entry.id)
                finally:
                    cat.close()
            payload = {
                "id": entry.id,
                "title": title,
                "body": body,
                "tags": tags,
                "importance": importance,
                "expected_version": entry.version,
            }
            return self._proposed("revise", entry.id, payload, reason)
        from memsearch_tui.engine.curator import versions

        with self._as_actor():
            out = versions.update_entry(
                self.store, entry.id, Change(title=title, body=body, tags=tags, importance=importance)
            )
        return self._written(out)

    def forget(self, entry_id: str, reason: str) -> WriteResult:
        """Move an entry to the trash (restorable; nothing is ever purged from here)."""
        self._writable("forget")
        limits.text("id", entry_id, limits.REF)
        limits.text("reason", reason, limits.REASON)
        refuse_secrets("reason", reason)
        entry = self.store.get(entry_id)
        if self.writes == "review":
            return self._proposed("forget", entry.id, {"id": entry.id}, reason)
        from memsearch_tui.engine.curator import trash

        with self._as_actor():
            out = trash.trash(self.store, entry.id, reason or (f"forgotten by {self.actor}" if self.actor else ""))
        self.invalidate()
        return WriteResult("trashed", f"moved {out['trashed']} to the trash ({out['key']})", None)

    def propose(self, target: str, new_text: str, reason: str) -> Proposal:
        """A pending rewrite of PROJECT.md/USER.md or of an entry's body, for a person to review."""
        if self.writes == "read-only":
            raise Refused('writes are off ([tui.mcp] writes = "read-only"): cannot propose', code="read_only")
        limits.text("target", target, limits.REF)
        limits.text("new_text", new_text, limits.NEW_TEXT)
        limits.text("reason", reason, limits.REASON)
        if not new_text.strip():
            raise InvalidInput("new_text is empty")
        special = SPECIAL.get(target.strip().lower())
        if special is None:
            entry = self.store.get(target.strip())
            refuse_secrets(entry.id, new_text, reason)
            payload = {"id": entry.id, "body": new_text, "expected_version": entry.version}
            return self._proposed("revise", entry.id, payload, reason).proposal  # type: ignore[return-value]
        refuse_secrets(special, new_text, reason)
        from memsearch_tui.engine.review import proposals as props

        prop = props.create(
            self.project,
            platform=self.actor or "agent",
            task=props.AGENT_TASK,
            target=self.memsearch_dir / special,
            content=new_text if new_text.endswith("\n") else new_text + "\n",
            reason=reason,
            input_digest="sha256:" + hashlib.sha256(new_text.encode("utf-8")).hexdigest(),
        )
        return _project_proposal(prop)

    # -- proposals -----------------------------------------------------------------------
    def proposals(self, status: str | None = "pending") -> tuple[Proposal, ...]:
        """Both kinds of proposals (PROJECT.md/USER.md rewrites and store changes), newest first."""
        from memsearch_tui.engine.review import proposals as props
        from memsearch_tui.engine.review import store_proposals

        out = [_project_proposal(p) for p in props.list_all(self.project) if status in (None, p.status)]
        if self.store.exists():
            out += [_store_proposal(p) for p in store_proposals.list_proposals(self.root, status)]
        return tuple(sorted(out, key=lambda p: (p.created, p.id), reverse=True))

    def proposal_origin(self, pid: str) -> str:
        """``store`` or ``project``: where the proposal with this id lives."""
        from memsearch_tui.engine.review import store_proposals

        limits.text("id", pid, limits.REF)
        try:
            if store_proposals._path(self.root, pid).is_file():
                return "store"
        except InvalidInput:
            pass
        return "project"

    def accept_proposal(self, pid: str, *, content: str | None = None, force: bool = False) -> Proposal:
        """Carry out a pending proposal (logged: ``undo`` reverts it)."""
        if self.proposal_origin(pid) == "store":
            from memsearch_tui.engine.review import store_proposals

            store_proposals.accept(self.store, pid)
            self.invalidate()
            return _store_proposal(store_proposals.show(self.root, pid))
        from memsearch_tui.engine.review import proposals as props

        done = props.accept(self.project, pid, memory_root=self.root, content=content, force=force)
        self.invalidate()
        return _project_proposal(done)

    def reject_proposal(self, pid: str, *, note: str = "") -> Proposal:
        if self.proposal_origin(pid) == "store":
            from memsearch_tui.engine.review import store_proposals

            store_proposals.reject(self.root, pid)
            return _store_proposal(store_proposals.show(self.root, pid))
        from memsearch_tui.engine.review import proposals as props

        return _project_proposal(props.reject(self.project, pid, note=note, memory_root=self.root))

    # -- history -------------------------------------------------------------------------
    def history(self, limit: int | None = 20) -> tuple[HistoryItem, ...]:
        """Logged operations, newest first (``by`` says who: ``mcp:<client>`` for an agent)."""
        from memsearch_tui.engine.history.undo import history

        return tuple(_history_item(d) for d in history(self.root, limit))

    def undo(self) -> HistoryItem:
        """Revert the newest operation (refused if its files changed since)."""
        from memsearch_tui.engine.history.undo import undo_last

        rec = undo_last(self.root)
        self.invalidate()
        return _history_item(rec.as_dict())

    def redo(self) -> HistoryItem:
        """Re-apply the most recently undone operation (refused after a newer change, or if
        its files changed since the undo)."""
        from memsearch_tui.engine.history.undo import redo_last

        rec = redo_last(self.root)
        self.invalidate()
        return _history_item(rec.as_dict())

    # -- helpers -------------------------------------------------------------------------
    def _writable(self, what: str) -> None:
        if self.writes == "read-only":
            raise Refused(
                f'{what}: writes are off ([tui.mcp] writes = "read-only" in ~/.memsearch/config.toml)',
                code="read_only",
            )

    @contextmanager
    def _as_actor(self) -> Iterator[None]:
        token = ACTOR.set(self.actor)
        try:
            yield
        finally:
            ACTOR.reset(token)
            self.invalidate()

    def _proposed(self, kind: str, target: str, payload: dict[str, Any], reason: str) -> WriteResult:
        from memsearch_tui.engine.review import agent_proposals, store_proposals

        d = agent_proposals.describe(kind, target, payload, author=self.actor, reason=reason)
        prop = _store_proposal(store_proposals._new(self.root, d["kind"], d["summary"], d["why"], d["payload"]))
        return WriteResult(
            "proposed",
            f"{kind} of {target} waits for review as proposal {prop.id} "
            "(a person accepts it in the Maintenance pane or with `memsearch-tui proposals accept ID`)",
            None,
            prop,
        )

    def _written(self, out: dict[str, Any]) -> WriteResult:
        e = out["entry"]
        summary = EntrySummary(
            e["id"],
            e["title"],
            e["status"],
            e["category"],
            e.get("updated"),
            tuple(e.get("tags") or ()),
            e.get("version"),
        )
        conflict = out.get("conflict") or {}
        return WriteResult(out["action"], out.get("message") or "", summary, None, str(conflict.get("why") or ""))


# -- module helpers ----------------------------------------------------------------------
def _line_range(lines: tuple[int, int] | None, total: int) -> tuple[int, int]:
    if lines is None:
        return 1, max(total, 1) if total else 0
    start, end = int(lines[0]), int(lines[1])
    if start < 1 or end < start:
        raise InvalidInput(f"lines {start}-{end}: expected 1 ≤ start ≤ end")
    if start > max(total, 1):
        raise InvalidInput(f"lines {start}-{end}: the file has {plural(total, 'line')}")
    return start, min(end, total)


def _file_title(kind: str, path: str) -> str:
    name = Path(path).name
    return name if kind in ("project", "user", "index") else name.removesuffix(".md")


def _record_access(store: Store, entry_id: str) -> None:
    """Reading an entry counts as activation for the lifecycle; never fails a read."""
    from memsearch_tui.engine.curator import lifecycle

    try:
        lifecycle.touch_accessed(store, entry_id)
    except (MemsearchError, OSError):
        pass


def _session(s: Session) -> JournalSession:
    ids = tuple(dict.fromkeys(a.session_id for a in s.anchors if a.session_id))
    turns = tuple(
        JournalTurn(
            t.time,
            t.title,
            t.line,
            t.end_line,
            tuple(t.bullets),
            t.anchor.session_id if t.anchor else "",
            t.anchor.agent if t.anchor else "",
        )
        for t in s.turns
    )
    ids = tuple(dict.fromkeys([*ids, *(t.session_id for t in turns if t.session_id)]))
    return JournalSession(s.time, s.title, s.line, s.end_line, ids, turns)


def _project_proposal(p: ProjectProposal) -> Proposal:
    from memsearch_tui.engine.review import proposals as props

    return Proposal(
        id=p.id,
        kind=p.kind,
        origin="project",
        status=p.status,
        target=p.target,
        summary=f"{p.platform}.{p.task} → {Path(p.target).name}",
        reason=p.reason,
        created=p.created,
        author=p.platform,
        target_changed=props.target_changed(p),
        decided_at=p.decided_at,
    )


def _store_proposal(p: dict[str, Any]) -> Proposal:
    pl = p.get("payload") or {}
    target = pl.get("id") or pl.get("category") or ""
    if p.get("kind") == "remember":
        target = f"{pl.get('category')}/{pl.get('title')}"
    return Proposal(
        id=str(p.get("id")),
        kind=str(p.get("kind")),
        origin="store",
        status=str(p.get("status")),
        target=str(target),
        summary=str(p.get("summary", "")),
        reason=str(pl.get("reason") or p.get("why", "")),
        created=str(p.get("created", "")),
        author=str(pl.get("author") or ""),
        decided_at=str(p.get("decided", "")),
    )


def _history_item(d: dict[str, Any]) -> HistoryItem:
    return HistoryItem(
        int(d["seq"]),
        str(d["kind"]),
        str(d["summary"]),
        str(d["at"]),
        tuple(d["files"]),
        bool(d["undone"]),
        bool(d.get("redoable", False)),
        str(d.get("by", "")),
    )
