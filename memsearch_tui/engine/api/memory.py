"""``Memory``: the one door every face (CLI, TUI, MCP server) reaches the engine through.

One object per (memory root, project), grouped by noun, each noun a small class in its
own module (``mem.entries.add(…)``, ``mem.trash.purge(…)``, ``mem.proposals.accept(…)``):
``entries``, ``trash``, ``lifecycle``, ``versions``, ``layout`` (split, merge, import,
index check), ``journal``, ``proposals``, ``history``, ``maintenance`` (tasks, doctor),
``search``, ``vectors``, ``config`` and ``sync``. It owns the store and a warm searcher, and applies the write
policy of its face: ``direct`` (a person, or an agent trusted with ``[tui.mcp] writes =
"direct"``: writes land at once, each logged for undo and marked with ``actor``),
``review`` (an agent's remember/revise/forget become pending proposals a person accepts
or rejects) or ``read-only`` (writes refused).

No rule is re-implemented here: the nouns call the engine packages below and convert
what they return into the dataclasses of :mod:`.types` at this boundary.
"""

from __future__ import annotations

import copy
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Any

from memsearch_tui.engine.api import limits
from memsearch_tui.engine.api.types import (
    WRITE_MODES,
)
from memsearch_tui.engine.core.errors import InvalidInput, Refused
from memsearch_tui.engine.history.txn import ACTOR, CHANGED
from memsearch_tui.engine.memsearch.project import memsearch_dir
from memsearch_tui.engine.review.target_checks import AGENT_MEMORY_TASK, TARGET_CHECKS
from memsearch_tui.engine.store.store import Store

if TYPE_CHECKING:
    from memsearch_tui.engine.api.agent_memory import AgentMemory
    from memsearch_tui.engine.api.config import UserSettings
    from memsearch_tui.engine.api.entries import Entries
    from memsearch_tui.engine.api.history import History
    from memsearch_tui.engine.api.hygiene import Hygiene
    from memsearch_tui.engine.api.journal import Journal
    from memsearch_tui.engine.api.layout import Layout
    from memsearch_tui.engine.api.lifecycle import Lifecycle
    from memsearch_tui.engine.api.maintenance import Maintenance
    from memsearch_tui.engine.api.proposals import Proposals
    from memsearch_tui.engine.api.search import Search, Warm
    from memsearch_tui.engine.api.sync import Sync
    from memsearch_tui.engine.api.trash import Trash
    from memsearch_tui.engine.api.vectors import Vectors
    from memsearch_tui.engine.api.versions import Versions


def agent_memory_target(project: Path, prop: Any) -> str:
    """engine.agent_memory's target check (a proposal naming a file its discovery does not
    list is tampered), registered with engine.review, which sits below that package and
    cannot import it, as every Memory's process starts: a condense or prune proposal is
    never "tampered" just because nothing else imported the check first. The module is
    imported when a proposal is first checked (it then registers itself in this one's
    place): the app's first frame reads no proposal (~10 ms of imports)."""
    from memsearch_tui.engine.agent_memory.curate import target_problem

    return target_problem(project, prop)


TARGET_CHECKS.setdefault(AGENT_MEMORY_TASK, agent_memory_target)


class Memory:
    """The engine API for one memory root and one project."""

    def __init__(
        self,
        memory_root: Path,
        project: Path,
        *,
        writes: str = "direct",
        actor: str = "",
        refresh_behind: bool = False,
        agent: bool = False,
        share: bool = False,
    ) -> None:
        """``agent``: the caller is an agent (the MCP server): its bodies get the tighter
        bound of :mod:`.limits`; a person's are bounded by the store's own cap. ``share``: a
        long-lived face (the app, the MCP server) that may own the project's warm index and
        serve it to the other faces (:mod:`.warm_share`)."""
        from memsearch_tui.engine.api.search import Warm

        if writes not in WRITE_MODES:
            raise InvalidInput(f"writes = {writes!r}: expected one of {', '.join(WRITE_MODES)}")
        self.store = Store(Path(memory_root))
        self.root = self.store.root
        self.project = Path(project).absolute()
        self.writes = writes
        self.actor = actor
        self.warm: Warm = Warm(refresh_behind, share)  # shared by the copies ``with_actor`` makes
        self.body_cap = limits.BODY if agent or writes != "direct" else limits.PERSON_BODY

    def close(self) -> None:
        self.warm.close()

    def __enter__(self) -> Memory:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    @property
    def memsearch_dir(self) -> Path:
        return memsearch_dir(self.project)

    def for_agent(self, message: str) -> str:
        """An error ``message`` as an agent is told it: ids and dates, no absolute path."""
        from memsearch_tui.engine.api.agent_text import without_places

        return without_places(message, self.root, self.project)

    def with_actor(self, actor: str) -> Memory:
        """The same API (sharing the warm searcher) acting for ``actor`` (one client's call)."""
        other = copy.copy(self)
        other.actor = actor
        return other

    # -- the nouns (each built on use: a noun is a few references, and a copy made by
    # ``with_actor`` must not reach back to the original's actor) ----------------------
    @property
    def entries(self) -> Entries:
        from memsearch_tui.engine.api.entries import Entries

        return Entries(self)

    @property
    def trash(self) -> Trash:
        from memsearch_tui.engine.api.trash import Trash

        return Trash(self)

    @property
    def lifecycle(self) -> Lifecycle:
        from memsearch_tui.engine.api.lifecycle import Lifecycle

        return Lifecycle(self)

    @property
    def versions(self) -> Versions:
        from memsearch_tui.engine.api.versions import Versions

        return Versions(self)

    @property
    def layout(self) -> Layout:
        from memsearch_tui.engine.api.layout import Layout

        return Layout(self)

    @property
    def journal(self) -> Journal:
        from memsearch_tui.engine.api.journal import Journal

        return Journal(self)

    @property
    def proposals(self) -> Proposals:
        from memsearch_tui.engine.api.proposals import Proposals

        return Proposals(self)

    @property
    def history(self) -> History:
        from memsearch_tui.engine.api.history import History

        return History(self)

    @property
    def maintenance(self) -> Maintenance:
        from memsearch_tui.engine.api.maintenance import Maintenance

        return Maintenance(self)

    @property
    def search(self) -> Search:
        from memsearch_tui.engine.api.search import Search

        return Search(self)

    @property
    def vectors(self) -> Vectors:
        from memsearch_tui.engine.api.vectors import Vectors

        return Vectors(self)

    @property
    def config(self) -> UserSettings:
        from memsearch_tui.engine.api.config import UserSettings

        return UserSettings(self)

    @property
    def agent_memory(self) -> AgentMemory:
        from memsearch_tui.engine.api.agent_memory import AgentMemory

        return AgentMemory(self)

    @property
    def hygiene(self) -> Hygiene:
        from memsearch_tui.engine.api.hygiene import Hygiene

        return Hygiene(self)

    @property
    def sync(self) -> Sync:
        from memsearch_tui.engine.api.sync import Sync

        return Sync(self)

    # -- what every noun shares ------------------------------------------------------------
    def invalidate(self) -> None:
        """Files changed: the next search re-checks them (after a write through this object)."""
        self.warm.dirty = True  # an owner answering this face re-checks too
        if self.warm.searcher is not None:
            self.warm.searcher.invalidate()

    def require_writable(self, what: str) -> None:
        """Refuse a write when this face's writes are off."""
        if self.writes == "read-only":
            raise Refused(
                f'{what}: writes are off ([tui.mcp] writes = "read-only" in ~/.memsearch/config.toml)',
                code="read_only",
            )

    @contextmanager
    def acting(self) -> Iterator[None]:
        """Log the writes inside as made by ``actor``; the warm searcher re-checks after."""
        token = ACTOR.set(self.actor)
        changed: list[Path] = []
        noted = CHANGED.set(changed)
        done = False
        try:
            yield
            done = True
        finally:
            CHANGED.reset(noted)
            ACTOR.reset(token)
            if done and changed and self.warm.searcher is not None:
                self.warm.dirty = True
                self.warm.searcher.note_changed(changed)  # those files only, not a re-walk
            else:
                self.invalidate()
