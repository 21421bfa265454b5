"""``mem.proposals``: changes waiting for a person — both kinds, one ``Proposal``.

Two stores hold them: PROJECT.md/USER.md rewrites live in the project's
``.memsearch/proposals`` (``review.proposals``), store changes (lifecycle and split plans,
an agent's remember/revise/forget under review) in the memory root
(``review.store_proposals``). Faces see one list, one ``Proposal`` shape, one accept and
one reject (the note kept for either kind); an accept that purges scrubs the search copies
at once (:meth:`Trash.scrub`).
"""

from __future__ import annotations

import builtins
import hashlib
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from memsearch_tui.engine.api import limits
from memsearch_tui.engine.api.entries import SPECIAL
from memsearch_tui.engine.api.types import Move, Proposal, WriteResult
from memsearch_tui.engine.core.errors import Conflict, InvalidInput, NotFound, Refused
from memsearch_tui.engine.core.record import record
from memsearch_tui.engine.core.secrets import refuse_secrets

if TYPE_CHECKING:
    from memsearch_tui.engine.api.memory import Memory
    from memsearch_tui.engine.review.history import NoteHistoryItem
    from memsearch_tui.engine.review.proposals import ProjectProposal


@record
class ProposalReview:
    """Everything a reviewer needs about one proposal, in full: what accept writes.

    ``fields``: (field, now, proposed) per changed field (title, tags, importance…);
    ``before``/``after``: the text now and as accepted (whole, never cut short);
    ``diff``: both as unified-diff lines; ``moves``: a lifecycle or split plan, one line
    per move; ``note``: what happens beyond the text (trash, a kept version).
    """

    proposal: Proposal
    fields: tuple[tuple[str, str, str], ...]
    before: str
    after: str
    diff: tuple[str, ...]
    moves: tuple[str, ...] = ()
    note: str = ""


@record
class StoreMove:
    """One move a store proposal makes, as the Maintenance pane draws it: a lifecycle step
    (``id``, ``reason``) or a split's relocation (``id`` → ``to``)."""

    action: str
    id: str
    to: str = ""
    reason: str = ""


@record
class Unreadable:
    """A proposal file that could not be read (listed, never silently dropped)."""

    path: str
    reason: str


@record
class ProposalListing:
    """``mem.proposals.listing``: the proposals read, and the files that could not be (the
    MCP ``proposals`` tool's result is its own ``ProposalList``, a title clients see)."""

    proposals: tuple[Proposal, ...]
    unreadable: tuple[Unreadable, ...] = ()


@record
class ProposalDiff:
    """From the target as it is now to the proposed text (a rewrite)."""

    id: str
    target_changed: bool
    diff: tuple[str, ...]


class Proposals:
    """Both kinds of proposals of one (memory root, project), as ``mem.proposals``."""

    def __init__(self, mem: Memory) -> None:
        self.mem = mem

    # -- reading ---------------------------------------------------------------------------
    def list(self, status: str | None = "pending") -> tuple[Proposal, ...]:
        """Both kinds, newest first (``status`` None: every status)."""
        return self.listing(status).proposals

    def listing(self, status: str | None = "pending") -> ProposalListing:
        """Both kinds, newest first, and the proposal files that could not be read."""
        from memsearch_tui.engine.review import proposals as props
        from memsearch_tui.engine.review import store_proposals

        broken: builtins.list[tuple[Path, str]] = []
        out = [project_proposal(p) for p in props.list_all(self.mem.project, broken) if status in (None, p.status)]
        if self.mem.store.exists():
            out += [store_proposal(p) for p in store_proposals.list_proposals(self.mem.root, status)]
        ordered = tuple(sorted(out, key=lambda p: (p.created, p.id), reverse=True))
        return ProposalListing(ordered, tuple(Unreadable(str(path), why) for path, why in broken))

    def origin(self, pid: str) -> str:
        """``store`` or ``project``: where the proposal with this id lives."""
        from memsearch_tui.engine.review import store_proposals

        limits.text("id", pid, limits.REF)
        try:
            if store_proposals._path(self.mem.root, pid).is_file():  # _path refuses an unsafe id
                return "store"
        except InvalidInput:
            pass
        return "project"

    def history(self) -> builtins.list[NoteHistoryItem]:
        """Every PROJECT.md/USER.md proposal with its decision, newest first (the Notes
        pane's history: ``review.history.NoteHistoryItem`` records)."""
        from memsearch_tui.engine.review.history import history

        return history(self.mem.project)

    def read_note(self, path: Path) -> str | None:
        """PROJECT.md or USER.md as it is now (None when missing or unreadable)."""
        from memsearch_tui.engine.review.history import read_note

        return read_note(path)

    def why_unread(self, path: Path) -> str:
        """Why ``read_note`` gave None: "not written yet" (missing), "not a regular file:
        not read" (a FIFO, a device, a folder), or the error that kept it from being read."""
        from memsearch_tui.engine.review.history import why_unread

        return why_unread(path)

    def get(self, pid: str) -> Proposal:
        """One proposal with its full text (a rewrite) or its list of moves (a store change)."""
        if self.origin(pid) == "store":
            from memsearch_tui.engine.review import store_proposals

            return store_proposal(store_proposals.show(self.mem.root, pid), with_changes=True)
        from memsearch_tui.engine.review import proposals as props

        return project_proposal(props.get(self.mem.project, pid), with_content=True)

    def diff(self, pid: str) -> ProposalDiff:
        """Unified diff from a rewrite's target as it is now to the proposed text."""
        from memsearch_tui.engine.review import proposals as props

        p = props.get(self.mem.project, pid)
        return ProposalDiff(p.id, props.target_changed(p), tuple(props.diff(self.mem.project, p.id)))

    def review(self, pid: str) -> ProposalReview:
        """A store proposal in full, as accept would carry it out (``proposals show/diff``,
        the Maintenance pane): an agent's remember/revise/forget as its changed fields and
        the whole body before and after, a lifecycle or split plan as its moves."""
        from memsearch_tui.engine.review import agent_proposals, hygiene_proposals, store_proposals

        if self.origin(pid) != "store":
            raise NotFound(f"no store proposal '{pid}' in {store_proposals.proposals_dir(self.mem.root)}")
        raw = store_proposals.show(self.mem.root, pid)
        store_proposals.check_shape(pid, raw)
        prop = store_proposal(raw, with_changes=True)
        if raw["kind"] in hygiene_proposals.KINDS:
            rev = hygiene_proposals.review(self.mem.store, raw)
        elif raw["kind"] not in agent_proposals.KINDS:
            return ProposalReview(prop, (), "", "", (), prop.changes, prop.summary)
        else:
            rev = agent_proposals.review(self.mem.store, raw)
        diff = tuple(agent_proposals.review_diff(prop.target, rev))
        return ProposalReview(prop, tuple(rev["fields"]), rev["before"], rev["after"], diff, (), rev["note"])

    def target_bytes(self, pid: str) -> bytes:
        """A rewrite's target as it is now (b"" when missing): what a face shows beside the
        proposed text and passes back as ``accept(expected=)``."""
        from memsearch_tui.engine.review import proposals as props

        return props.current_bytes(props.get(self.mem.project, pid))

    def moves(self, pid: str) -> tuple[StoreMove, ...]:
        """A lifecycle or split proposal's moves, one per entry (a face draws each)."""
        from memsearch_tui.engine.review import store_proposals

        raw = (store_proposals.show(self.mem.root, pid).get("payload") or {}).get("moves") or []
        if isinstance(raw, dict):  # a split: {old id: new id}
            return tuple(StoreMove("move", str(a), str(b)) for a, b in raw.items())
        return tuple(
            StoreMove(str(m.get("action") or "move"), str(m.get("id") or ""), str(m.get("to") or ""),
                      str(m.get("reason") or ""))
            for m in raw if isinstance(m, dict)
        )  # fmt: skip

    # -- deciding --------------------------------------------------------------------------
    def accept(
        self,
        pid: str,
        *,
        content: str | None = None,
        force: bool = False,
        expected: bytes | Proposal | None = None,
        progress: Callable[[int, int], None] | None = None,
    ) -> Proposal:
        """Carry out a pending proposal (logged: ``undo`` reverts it). ``content``: a rewrite's
        text as the person edited it; ``force``: even if its target changed since.

        ``expected``: what the person was shown — a rewrite's target bytes
        (:meth:`target_bytes`), or the store proposal as listed (``get``): anything changed
        since is refused (Conflict), never applied unseen. ``progress``: a store proposal's
        moves as they are made (a progress bar)."""
        if self.origin(pid) == "store":
            from memsearch_tui.engine.review import store_proposals

            raw = None
            if isinstance(expected, Proposal):  # the file as it is now must still read as shown
                raw = store_proposals.show(self.mem.root, pid)
                if store_proposal(raw, with_changes=True) != expected:
                    store_proposals.forget_cached(self.mem.root, pid)
                    raise Conflict(f"proposal {pid} changed since it was shown; nothing applied")
            with self.mem.acting():
                store_proposals.accept(self.mem.store, pid, progress=progress, expected=raw)
            self.mem.trash.scrub()  # a lifecycle plan may purge: its text leaves the search copies now
            return store_proposal(store_proposals.show(self.mem.root, pid))
        from memsearch_tui.engine.review import proposals as props

        shown = expected if isinstance(expected, bytes) else None
        with self.mem.acting():
            done = props.accept(
                self.mem.project, pid, memory_root=self.mem.root, content=content, force=force, expected=shown
            )
        return project_proposal(done)

    def reject(self, pid: str, *, note: str = "") -> Proposal:
        """Drop a proposal, keeping ``note`` with it (either kind); nothing else changes."""
        limits.text("note", note, limits.REASON)
        if self.origin(pid) == "store":
            from memsearch_tui.engine.review import store_proposals

            store_proposals.reject(self.mem.root, pid, note=note)
            return store_proposal(store_proposals.show(self.mem.root, pid))
        from memsearch_tui.engine.review import proposals as props

        return project_proposal(props.reject(self.mem.project, pid, note=note, memory_root=self.mem.root))

    def edited(self, pid: str, call: Callable[[builtins.list[str]], int]) -> str:
        """A rewrite's proposed text after the person edited it in $EDITOR (``call`` runs it)."""
        from memsearch_tui.engine.review import proposals as props
        from memsearch_tui.engine.store.editor import edit_bytes, keep_unsaved

        p = props.get(self.mem.project, pid)
        name = Path(p.target).name
        edited = edit_bytes(p.content.encode("utf-8"), name, call)
        try:
            return edited.decode("utf-8")
        except UnicodeDecodeError as exc:  # said with where the edit is kept (it was lost)
            raise InvalidInput(
                f"proposal {pid}: the edit is not UTF-8 (byte {exc.start}); nothing accepted; "
                f"kept in {keep_unsaved(edited, name)}"
            ) from None

    # -- making ----------------------------------------------------------------------------
    def propose(self, target: str, new_text: str, reason: str) -> Proposal:
        """A pending rewrite of PROJECT.md/USER.md or of an entry's body, for a person to review."""
        if self.mem.writes == "read-only":
            raise Refused('writes are off ([tui.mcp] writes = "read-only"): cannot propose', code="read_only")
        limits.text("target", target, limits.REF)
        limits.text("new_text", new_text, limits.NEW_TEXT)
        limits.text("reason", reason, limits.REASON)
        if not new_text.strip():
            raise InvalidInput("new_text is empty")
        special = SPECIAL.get(target.strip().lower())
        if special is None:
            entry = self.mem.store.get(target.strip())
            refuse_secrets(entry.id, new_text, reason)
            payload = {"id": entry.id, "body": new_text, "expected_version": entry.version}
            made = self.propose_store_change("revise", entry.id, payload, reason).proposal
            assert made is not None
            return made
        refuse_secrets(special, new_text, reason)
        from memsearch_tui.engine.review import proposals as props

        prop = props.create(
            self.mem.project,
            platform=self.mem.actor or "agent",
            task=props.AGENT_TASK,
            target=self.mem.memsearch_dir / special,
            content=new_text if new_text.endswith("\n") else new_text + "\n",
            reason=reason,
            input_digest="sha256:" + hashlib.sha256(new_text.encode("utf-8")).hexdigest(),
        )
        return project_proposal(prop)

    def propose_store_change(self, kind: str, target: str, payload: dict[str, Any], reason: str) -> WriteResult:
        """An agent's remember/revise/forget (review mode) as a pending store proposal."""
        from memsearch_tui.engine.review import agent_proposals, store_proposals

        waiting = store_proposals.pending_count(self.mem.root, self.mem.actor)
        if waiting >= limits.PENDING_PER_CLIENT:
            raise Refused(
                f"{self.mem.actor or 'this client'} already has {waiting} proposals waiting for review "
                f"(at most {limits.PENDING_PER_CLIENT}); a person must accept or reject some first",
                code="too_many_proposals",
            )
        d = agent_proposals.describe(kind, target, payload, author=self.mem.actor, reason=reason)
        prop = store_proposal(store_proposals._new(self.mem.root, d["kind"], d["summary"], d["why"], d["payload"]))
        return WriteResult(
            "proposed",
            f"{kind} of {target} waits for review as proposal {prop.id} "
            "(a person accepts it in the Maintenance pane or with `memsearch-tui proposals accept ID`)",
            None,
            prop,
        )

    def propose_lifecycle(self, moves: Sequence[Move]) -> Proposal:
        """The lifecycle plan ``moves`` as one pending store proposal."""
        from memsearch_tui.engine.api.lifecycle import records
        from memsearch_tui.engine.review import store_proposals

        return store_proposal(store_proposals.propose_lifecycle(self.mem.root, records(moves)))


# -- engine records → Proposal -------------------------------------------------------------
def project_proposal(p: ProjectProposal, *, with_content: bool = False) -> Proposal:
    """``p`` as the faces get it. A tampered one whose file wrote its target relative to the
    memsearch folder with ``~`` or ``..`` keeps that target as written (``~/.bashrc``): joined
    to the folder it was ``…/.memsearch/~/.bashrc``, a path nobody wrote (:func:`shown_target`)."""
    from memsearch_tui.engine.review import proposals as props
    from memsearch_tui.engine.review.journal_stale import stale_note

    target = _as_written(p)
    return Proposal(
        id=p.id,
        kind=p.kind,
        origin="project",
        status=p.status,
        target=target,
        summary=f"{p.platform}.{p.task} → {name_shown(target, bool(p.tampered))}",
        reason=p.reason,
        created=p.created,
        author=p.platform,
        target_changed=props.target_changed(p),
        decided_at=p.decided_at,
        note=p.decision_note,
        task=p.task,
        tampered=p.tampered,
        stale=stale_note(p),  # "" once the forgotten text is back (undo, restore)
        content=p.content if with_content else None,
        new_file=new[0].name if (new := props.new_file(p)) is not None else "",
    )


def proposal_flag(p: Proposal) -> tuple[str, str]:
    """Why ``p`` may not be applied, as a list row shows it beside its id: a flag
    (``NOT CHECKED``: the config does not load, so its target cannot be verified yet;
    ``TAMPERED``) and the reason without the words the flag and the row already say
    ("[NOT CHECKED] not checked until…" read the word twice), its paths from ``~`` as the
    faces show paths (the CLI and the app both print this; neither masks here: each prints
    through its own redactor). ``--json`` keeps the engine's reason whole (``tampered``):
    a script needs the exact paths, which ``~`` would leave to the reader's $HOME."""
    from memsearch_tui.engine.core.home_paths import home_relative_in
    from memsearch_tui.engine.review.proposals import NOT_CHECKED, unchecked

    reason = p.tampered
    if unchecked(reason):
        rest = reason.removeprefix(NOT_CHECKED).removeprefix(f" (proposal {p.id})").removeprefix(":").strip()
        return "NOT CHECKED", home_relative_in(f"until the config loads: {rest}")
    return "TAMPERED", home_relative_in(reason.removeprefix(f"tampered proposal {p.id}: "))


def _as_written(p: ProjectProposal) -> str:
    """``p``'s target, or as its file wrote it when refused for that (:func:`project_proposal`)."""
    from memsearch_tui.engine.review import proposals as props

    refused = bool(p.tampered) and not props.unchecked(p.tampered) and props.written_relative(p)
    return p.written if refused else p.target


def shown_target(p: Proposal) -> str:
    """A rewrite's target as the CLI and the app show it: from ``~``; a tampered one kept as
    its file wrote it (:func:`project_proposal`) quoted and said so, beside the refusal,
    masked before it is escaped and cut (``masked_repr``: escaped first, a token wrapped
    over two lines slipped past each face's redactor as two short pieces)."""
    from memsearch_tui.engine.core.home_paths import home_relative
    from memsearch_tui.engine.core.secrets import masked_repr

    if _kept_as_written(p.target, p.origin == "project" and bool(p.tampered)):
        return f"{masked_repr(p.target)} (as its proposal file writes it: refused)"
    return home_relative(p.target)


def _kept_as_written(target: str, tampered: bool) -> bool:
    """Whether ``target`` is a tampered one kept as its file wrote it (not absolute: see
    :func:`project_proposal`), so it is shown whole and escaped, not as a path."""
    return tampered and bool(target) and not Path(target).is_absolute()


NAME_WIDTH = 40  # cells of a tampered target a list row shows in place of a file name


def name_shown(target: str, tampered: bool) -> str:
    """The file name a list row or a dialog shows for a proposal's ``target``; a tampered
    target as its file wrote it (not absolute) shown whole, masked, cut and escaped: its
    ``Path.name`` was nonsense (``[TAMPERED] b]`` for ``~/.bashrc\\x1b[2J…[/b]``, ``~``
    for a right-to-left one)."""
    from memsearch_tui.engine.core.secrets import masked_repr

    if _kept_as_written(target, tampered):
        return masked_repr(target, NAME_WIDTH)
    return Path(target).name


def proposal_name(p: Proposal) -> str:
    """:func:`name_shown` of a proposal as the faces get it."""
    return name_shown(p.target, p.origin == "project" and bool(p.tampered))


def record_name(p: ProjectProposal) -> str:
    """:func:`name_shown` of an engine record (the Notes pane's history)."""
    return name_shown(_as_written(p), bool(p.tampered))


def store_proposal(p: dict[str, Any], *, with_changes: bool = False) -> Proposal:
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
        note=str(p.get("note", "")),
        content=body if with_changes and isinstance(body := pl.get("body"), str) else None,
        changes=_changes(p) if with_changes else (),
    )


def _changes(p: dict[str, Any]) -> tuple[str, ...]:
    """One line per move a store proposal makes, as ``lifecycle show`` prints them."""
    moves = (p.get("payload") or {}).get("moves")
    if isinstance(moves, dict):  # a split: entry id → new id
        return tuple(f"move {a} → {b}" for a, b in moves.items())
    if isinstance(moves, list):
        return tuple(f"{m.get('action', ''):8} {m.get('id', '')}  — {m.get('reason', '')}" for m in moves)
    return ()
