"""Proposals: automated rewrites wait here until a person accepts, edits or rejects them.

One JSON file per proposal under ``.memsearch/proposals/<id>.json`` holding the full new
text, why, which task made it, the target and the sha256 of the target *as it was* when
the proposal was made. ``accept`` refuses when the target has changed since (someone
edited it; the diff would lie) unless forced, writes atomically and records the change in
the oplog so ``memsearch-tui undo`` restores the old bytes exactly. Decided proposals
stay on disk with their status: a rejected one is how we know not to propose the same
input again.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from memsearch_tui.engine.core import clock
from memsearch_tui.engine.core.atomic import atomic_write_text
from memsearch_tui.engine.core.errors import Conflict, InvalidInput, NotFound, Refused
from memsearch_tui.engine.memsearch.project import memsearch_dir

PENDING, ACCEPTED, REJECTED, SUPERSEDED = "pending", "accepted", "rejected", "superseded"
MISSING = "missing"


@dataclass
class Proposal:
    id: str
    platform: str
    task: str
    target: str
    target_digest: str
    content: str
    reason: str
    input_digest: str
    created: str
    kind: str = "rewrite"
    status: str = PENDING
    decided_at: str = ""
    decision_note: str = ""
    extra: dict[str, Any] = field(default_factory=dict)

    def summary(self) -> dict[str, Any]:
        """Everything but the full text (for lists)."""
        data = asdict(self)
        data.pop("content")
        data["target_changed"] = target_changed(self)
        return data


def proposals_dir(project: Path) -> Path:
    return memsearch_dir(Path(project)) / "proposals"


def file_digest(path: Path) -> str:
    try:
        return "sha256:" + hashlib.sha256(Path(path).read_bytes()).hexdigest()
    except FileNotFoundError:
        return MISSING


def _now() -> str:
    return clock.now().isoformat(timespec="seconds").replace("+00:00", "Z")


def create(
    project: Path, *, platform: str, task: str, target: Path, content: str, reason: str, input_digest: str
) -> Proposal:
    """Write a new pending proposal; older pending ones for the same target are superseded."""
    for old in list_pending(project):
        if old.target == str(target) and old.task == task and old.platform == platform:
            _decide(project, old, SUPERSEDED, "a newer proposal replaced it")
    refuse_added_secrets(target, content, "the proposed text")
    import secrets

    stamp = clock.now().strftime("%Y%m%d-%H%M%S")
    prop = Proposal(
        id=f"{stamp}-{task.replace('_', '-')}-{secrets.token_hex(2)}",
        platform=platform,
        task=task,
        target=str(target),
        target_digest=file_digest(target),
        content=content,
        reason=reason,
        input_digest=input_digest,
        created=_now(),
    )
    _save(project, prop)
    return prop


def refuse_added_secrets(target: Path, content: str, what: str) -> None:
    """Refuse ``content`` for ``target`` when it holds a secret the target does not already
    hold: journals shown to the model may carry credentials, PROJECT.md must not gain one.
    (A secret already in the file is the user's own choice; a rewrite may keep it.)"""
    from memsearch_tui.engine.core.secrets import added_secrets

    try:
        old = Path(target).read_bytes().decode("utf-8", errors="replace")
    except OSError:
        old = ""
    kinds = added_secrets(old, content)
    if kinds:
        raise Refused(
            f"{what} would add a secret ({', '.join(kinds)}) to {Path(target).name}; not written",
            code="secret",
        )


def _save(project: Path, prop: Proposal) -> None:
    atomic_write_text(
        proposals_dir(project) / f"{prop.id}.json", json.dumps(asdict(prop), indent=2, ensure_ascii=False) + "\n"
    )


def _load(path: Path) -> Proposal | None:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
        known = Proposal.__dataclass_fields__
        return Proposal(**{k: v for k, v in data.items() if k in known})
    except (OSError, ValueError, TypeError):
        return None


def list_all(project: Path) -> list[Proposal]:
    """Every readable proposal, newest first."""
    folder = proposals_dir(project)
    if not folder.is_dir():
        return []
    found = [p for p in (_load(f) for f in folder.glob("*.json")) if p is not None]
    return sorted(found, key=lambda p: (p.created, p.id), reverse=True)


def list_pending(project: Path) -> list[Proposal]:
    return [p for p in list_all(project) if p.status == PENDING]


def get(project: Path, pid: str) -> Proposal:
    """The proposal with id ``pid`` (or a unique prefix of one)."""
    if not pid or "/" in pid or pid.startswith("."):
        raise InvalidInput(f"invalid proposal id {pid!r}")
    exact = proposals_dir(project) / f"{pid}.json"
    if exact.is_file():
        prop = _load(exact)
        if prop is None:
            raise InvalidInput(f"{exact}: unreadable proposal file")
        return prop
    matches = [p for p in list_all(project) if p.id.startswith(pid)]
    if len(matches) == 1:
        return matches[0]
    if not matches:
        raise NotFound(f"no proposal {pid!r} in {proposals_dir(project)}")
    raise InvalidInput(f"proposal id {pid!r} is ambiguous: {', '.join(p.id for p in matches[:5])}")


def current_text(prop: Proposal) -> str:
    try:
        return Path(prop.target).read_bytes().decode("utf-8", errors="replace")
    except FileNotFoundError:
        return ""


def target_changed(prop: Proposal) -> bool:
    """True when the target's bytes differ from when the proposal was made."""
    return file_digest(Path(prop.target)) != prop.target_digest


def diff(project: Path, pid: str, *, context: int = 3) -> list[str]:
    """Unified diff lines (difflib) from the target as it is now to the proposed text."""
    import difflib

    prop = get(project, pid)
    name = Path(prop.target).name
    return list(
        difflib.unified_diff(
            current_text(prop).splitlines(keepends=True),
            prop.content.splitlines(keepends=True),
            fromfile=f"a/{name}",
            tofile=f"b/{name} (proposal {prop.id})",
            n=context,
        )
    )


def was_rejected(project: Path, platform: str, task: str, input_digest: str) -> Proposal | None:
    """A rejected proposal made from this very input, if any."""
    for prop in list_all(project):
        if (
            prop.status == REJECTED
            and prop.platform == platform
            and prop.task == task
            and prop.input_digest == input_digest
        ):
            return prop
    return None


def _pending(project: Path, pid: str) -> Proposal:
    prop = get(project, pid)
    if prop.status != PENDING:
        raise Refused(f"proposal {prop.id} is already {prop.status}")
    return prop


def accept(project: Path, pid: str, *, memory_root: Path, content: str | None = None, force: bool = False) -> Proposal:
    """Replace the target with the proposed (or edited) text, atomically and undoably.

    Refuses with ``Conflict`` when the target changed since the proposal, unless ``force``.
    """
    from filelock import FileLock

    folder = proposals_dir(project)
    folder.mkdir(parents=True, exist_ok=True)
    with FileLock(str(folder / ".lock"), timeout=10):
        prop = _pending(project, pid)
        if target_changed(prop) and not force:
            raise Conflict(
                f"{prop.target} changed since proposal {prop.id} was made; review "
                f"`memsearch-tui proposals diff {prop.id}` and accept with --force to overwrite"
            )
        text = prop.content if content is None else content
        if not text.strip():
            raise InvalidInput(f"refusing to replace {prop.target} with empty text")
        refuse_added_secrets(Path(prop.target), text, "the edited text" if content is not None else "the proposal")
        write_target(
            Path(prop.target),
            text,
            memory_root=memory_root,
            summary=f"accept proposal {prop.id} ({prop.task}) → {Path(prop.target).name}",
        )
        note = "edited before accepting" if content is not None and content != prop.content else ""
        if content is not None:
            prop.content = text
        return _decide(project, prop, ACCEPTED, note)


def reject(project: Path, pid: str, *, note: str = "") -> Proposal:
    """Mark the proposal rejected; its input digest will not be proposed again."""
    return _decide(project, _pending(project, pid), REJECTED, note)


def _decide(project: Path, prop: Proposal, status: str, note: str) -> Proposal:
    prop.status, prop.decided_at, prop.decision_note = status, _now(), note
    _save(project, prop)
    return prop


def write_target(
    target: Path, text: str, *, memory_root: Path | None, summary: str, kind: str = "proposal-accept"
) -> None:
    """Write a PROJECT.md/USER.md rewrite through the oplog transaction when available."""
    try:
        from memsearch_tui.engine.history.txn import transaction
    except ImportError:  # the oplog has not landed in this checkout
        transaction = None
    if transaction is None or memory_root is None:
        atomic_write_text(target, text)
        return
    with transaction(memory_root, kind, summary) as txn:
        txn.write(Path(target).absolute(), text)
