"""Proposals: automated rewrites wait here until a person accepts, edits or rejects them.

One JSON file per proposal under ``.memsearch/proposals/<id>.json`` holding the full new
text, why, which task made it, the target and the sha256 of the target *as it was* when
the proposal was made. ``accept`` refuses when the target has changed since (someone
edited it; the diff would lie) unless forced, writes atomically and records the change in
the oplog so ``memsearch-tui undo`` restores the old bytes exactly. Decided proposals
stay on disk with their status: a rejected one is how we know not to propose the same
input again.

A proposal file is untrusted (it sits in the repository, and a repository can ship one):
its ``target`` must be the resolved output file of its own task under the current config,
else it is a *tampered* proposal — listed as such, never diffed as if it were ``PROJECT.md``
and never accepted (:func:`tamper_reason`).
"""

from __future__ import annotations

import hashlib
import json
import os
import re
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from memsearch_tui.engine.core import clock
from memsearch_tui.engine.core.atomic import atomic_write_text
from memsearch_tui.engine.core.errors import Conflict, InvalidInput, MemsearchError, NotFound, Refused
from memsearch_tui.engine.core.safe_io import check_depth, load_json, read_capped
from memsearch_tui.engine.history.txn import transaction
from memsearch_tui.engine.memsearch.project import memsearch_dir
from memsearch_tui.engine.review.stale_mark import stale_note

# A task whose allowed targets a package above this one decides (agent memory: the files its
# discovery lists) registers its check in TARGET_CHECKS; one with none is refused as tampered.
from memsearch_tui.engine.review.target_checks import AGENT_MEMORY_TASK as AGENT_MEMORY_TASK
from memsearch_tui.engine.review.target_checks import TARGET_CHECKS as TARGET_CHECKS

PENDING, ACCEPTED, REJECTED, SUPERSEDED = "pending", "accepted", "rejected", "superseded"
AGENT_TASK = "agent_edit"  # an agent's proposed PROJECT.md/USER.md rewrite (MCP ``propose``)
DAY_MERGE_TASK = "journal_merge"  # conflicted copies of a journal day merged turn by turn (review/day_merge.py)
SKILL_KIND = "skill"  # a memory_to_skill candidate: SKILL.md + meta.json in skill-candidates/
# extra key of an agent-memory proposal that also creates a file beside its target ({"name",
# "content"}; a condensed MEMORY.md's topic file): its name is checked by the task's
# registered target check, and accept writes it only where nothing exists yet.
NEW_FILE = "new_file"
MISSING = "missing"
MAX_RECORD_DEPTH = 32  # a proposal file nests a few levels; deeper is not ours
MAX_TARGET_BYTES = 8 * 1024 * 1024  # the biggest target is a journal day (``day_copies.MAX_DAY_BYTES``)


@dataclass
class ProjectProposal:
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
    tampered: str = field(default="", compare=False)  # set on load, never saved: see tamper_reason
    written: str = field(default="", compare=False)  # the target as its file wrote it (set on load, never saved)

    def summary(self, project: Path | None = None) -> dict[str, Any]:
        """Everything but the full text (for lists); with ``project``, also ``tampered``
        (why the proposal may not be applied, or ``""``)."""
        data = asdict(self)
        data.pop("content")
        data.pop("written")
        if project is not None:
            data["tampered"] = self.tampered = tamper_reason(project, self)
        data["target_changed"] = target_changed(self)
        return data


_STR_FIELDS = ("id", "platform", "task", "target", "target_digest", "content", "reason", "input_digest", "created")
_PLATFORM = re.compile(r"[A-Za-z0-9_.-]{1,64}")


#: how :func:`tamper_reason` starts when the config does not load: the proposal is not
#: tampered, its target just cannot be verified (so nothing is read or applied) until the
#: config file is fixed; ``doctor`` names that file, not the proposal (:func:`unchecked`)
NOT_CHECKED = "not checked until the config loads"


def unchecked(reason: str) -> bool:
    """True for a reason that says the config did not load, not that the proposal is tampered."""
    return reason.startswith(NOT_CHECKED)


def tamper_reason(project: Path, prop: ProjectProposal, config: Any = None) -> str:
    """Why ``prop`` may not be applied (``""``: it may): its target must be the resolved
    output file of its own task, as the current config and the trust rules give it."""
    from memsearch_tui.engine.memsearch.config import TASKS, load_config
    from memsearch_tui.engine.memsearch.trust import real, task_locations

    if prop.kind == SKILL_KIND:
        return _skill_tamper_reason(project, prop)
    if prop.task == AGENT_TASK:
        return _agent_tamper_reason(project, prop)
    if prop.task == DAY_MERGE_TASK:
        return _day_merge_tamper_reason(project, prop)
    if (check := TARGET_CHECKS.get(prop.task)) is not None:
        return check(project, prop)
    if prop.task not in TASKS or not _PLATFORM.fullmatch(prop.platform):
        return f"tampered proposal {prop.id}: unknown task {prop.platform!r}.{prop.task!r}"
    try:
        config = config or load_config(project)
    except MemsearchError as exc:
        return f"{NOT_CHECKED} (proposal {prop.id}): {exc.message}"
    try:
        task = config.task(prop.platform, prop.task)
        _, _, expected = task_locations(project, task.input_dir, task.output_file, task.user_paths)
    except MemsearchError as exc:
        return f"tampered proposal {prop.id}: its task's output file is refused: {exc.message}"
    if not prop.target or real(prop.target) != expected:
        return (
            f"tampered proposal {prop.id}: it targets {target_as_written(prop)}, but "
            f"{prop.platform}.{prop.task} writes only {expected}"
        )
    return ""


def written_relative(prop: ProjectProposal) -> bool:
    """Did the proposal's file write its target relative to the memsearch folder, other than
    as a plain path in it (a literal ``~`` part, ``..``)? Joined to that folder, such a target
    names a path nobody wrote (``…/.memsearch/~/.bashrc``), ``..`` left unresolved."""
    parts = Path(prop.written).parts
    return (
        bool(prop.written)
        and not Path(prop.written).is_absolute()
        and any(p == ".." or p.startswith("~") for p in parts)
    )


def target_as_written(prop: ProjectProposal) -> str:
    """The target a tamper reason names, quoted: as its file writes it when joining it to the
    memsearch folder would mislead (:func:`written_relative`), saying so; else the path.
    Masked before it is escaped and cut (:func:`~memsearch_tui.engine.core.secrets.masked_repr`)."""
    from memsearch_tui.engine.core.secrets import masked_repr

    if written_relative(prop):
        return f"{masked_repr(prop.written)} (as its proposal file writes it)"
    return masked_repr(prop.target)


def _agent_tamper_reason(project: Path, prop: ProjectProposal) -> str:
    """An agent's proposed rewrite (MCP ``propose``) may only target the project's own
    PROJECT.md or USER.md, with the memsearch folder resolving inside the project."""
    from memsearch_tui.engine.memsearch.trust import check_path, real

    try:
        mem = check_path(memsearch_dir(project), project, "the memsearch folder")
    except MemsearchError as exc:
        return f"tampered proposal {prop.id}: {exc.message}"
    allowed = {mem / "PROJECT.md", mem / "USER.md"}
    if not prop.target or real(prop.target) not in allowed:
        return f"tampered proposal {prop.id}: an agent's rewrite may only target PROJECT.md or USER.md"
    return ""


def _day_merge_tamper_reason(project: Path, prop: ProjectProposal) -> str:
    """A journal merge may only write a day in the project's journal folder and trash that
    day's conflicted copies there (names only: no path can point elsewhere)."""
    from memsearch_tui.engine.core.secrets import masked_repr
    from memsearch_tui.engine.curator.day_copies import memory_dir
    from memsearch_tui.engine.memsearch.sync_copies import copy_of
    from memsearch_tui.engine.memsearch.trust import check_path, real

    try:
        folder = check_path(memory_dir(project), project, "the journal folder")
    except MemsearchError as exc:
        return f"tampered proposal {prop.id}: {exc.message}"
    copies = prop.extra.get("copies")
    if not prop.target or real(prop.target).parent != folder or not isinstance(copies, dict):
        return f"tampered proposal {prop.id}: a journal merge may only write a day in {folder}"
    day = Path(prop.target).name
    for name in copies:
        if not isinstance(name, str) or "/" in name or copy_of(name, {day}) is None or f"{name[:10]}.md" != day:
            return f"tampered proposal {prop.id}: {masked_repr(str(name), 80)} is not a conflicted copy of {day}"
    return ""


def _skill_tamper_reason(project: Path, prop: ProjectProposal) -> str:
    """A skill candidate may only write ``<memsearch dir>/skill-candidates/<slug>/SKILL.md``
    (and its meta.json), with the folder resolving inside the project."""
    from memsearch_tui.engine.memsearch.config import SKILL_TASK
    from memsearch_tui.engine.memsearch.trust import check_path, real
    from memsearch_tui.engine.review.skill_candidates import skill_dir

    name = str((prop.extra.get("skill") or {}).get("name") or "")
    try:
        folder = check_path(skill_dir(project, name), project, "the skill candidate folder")
    except MemsearchError as exc:
        return f"tampered proposal {prop.id}: {exc.message}"
    if prop.task != SKILL_TASK or not prop.target or real(prop.target) != folder / "SKILL.md":
        return f"tampered proposal {prop.id}: it targets {target_as_written(prop)}, but a skill candidate writes only {folder / 'SKILL.md'}"
    return ""


def _check_untampered(project: Path, prop: ProjectProposal) -> None:
    reason = prop.tampered = tamper_reason(project, prop)
    if unchecked(reason):
        raise Refused(f"{reason}; fix that file, then try again", code="config_unreadable")
    if reason:
        raise Refused(
            f"{reason}; refused (reject it, or delete {proposals_dir(project) / prop.id}.json)",
            code="tampered_proposal",
        )


def proposals_dir(project: Path) -> Path:
    return memsearch_dir(Path(project)) / "proposals"


def read_target(path: Path) -> bytes | None:
    """A target's bytes (None when it does not exist), as ``history.read_note`` reads a note:
    opened non-blocking, regular files only, at most ``MAX_TARGET_BYTES``. A FIFO named
    PROJECT.md would block a plain read forever (and the app, the MCP server with it);
    InvalidInput naming the file for a FIFO, socket, device, folder or a file too big."""
    try:
        return read_capped(path, MAX_TARGET_BYTES)
    except FileNotFoundError:
        return None


def file_digest(path: Path) -> str:
    """The target's digest now (``MISSING`` when it does not exist); InvalidInput as ``read_target``."""
    data = read_target(path)
    return MISSING if data is None else "sha256:" + hashlib.sha256(data).hexdigest()


def _now() -> str:
    return clock.now().isoformat(timespec="seconds").replace("+00:00", "Z")


def create(
    project: Path,
    *,
    platform: str,
    task: str,
    target: Path,
    content: str,
    reason: str,
    input_digest: str,
    kind: str = "rewrite",
    extra: dict[str, Any] | None = None,
    target_digest: str | None = None,
) -> ProjectProposal:
    """Write a new pending proposal; older pending ones for the same target are superseded.
    ``target_digest``: the digest of the bytes the caller read and built ``content`` from
    (default: the target's digest now)."""
    refuse_added_secrets(target, content, "the proposed text")  # first: a refused one supersedes nothing
    for old in list_pending(project):
        if old.target == str(target) and old.task == task and old.platform == platform:
            _decide(project, old, SUPERSEDED, "a newer proposal replaced it")
    import secrets

    stamp = clock.now().strftime("%Y%m%d-%H%M%S")
    prop = ProjectProposal(
        id=f"{stamp}-{task.replace('_', '-')}-{secrets.token_hex(2)}",
        platform=platform,
        task=task,
        target=str(target),
        target_digest=target_digest or file_digest(target),
        content=content,
        reason=reason,
        input_digest=input_digest,
        created=_now(),
        kind=kind,
        extra=dict(extra or {}),
    )
    _save(project, prop)
    return prop


def refuse_added_secrets(target: Path, content: str, what: str) -> None:
    """Refuse ``content`` for ``target`` when it holds a secret the target does not already
    hold: journals shown to the model may carry credentials, PROJECT.md must not gain one.
    (A secret already in the file is the user's own choice; a rewrite may keep it.)"""
    from memsearch_tui.engine.core.secrets import added_secrets

    try:
        old = (read_target(Path(target)) or b"").decode("utf-8", errors="replace")
    except OSError:  # unreadable (permissions): every secret in ``content`` counts as added
        old = ""
    kinds = added_secrets(old, content)
    if kinds:
        raise Refused(
            f"{what} would add a secret ({', '.join(kinds)}) to {Path(target).name}; not written",
            code="secret",
        )


def _record(project: Path, prop: ProjectProposal) -> tuple[Path, str]:
    """Where a proposal is kept and the text it is kept as."""
    data = asdict(prop)
    data.pop("tampered")
    data.pop("written")
    data["target"] = _stored_target(memsearch_dir(Path(project)), prop.target)
    return proposals_dir(project) / f"{prop.id}.json", json.dumps(data, indent=2, ensure_ascii=False) + "\n"


def _stored_target(mem: Path, target: str) -> str:
    """A target inside the memsearch folder is kept relative to it (``PROJECT.md``,
    ``skill-candidates/x/SKILL.md``), so a moved or copied project keeps its proposals."""
    path = Path(target)
    if path.is_absolute():
        try:
            return path.relative_to(Path(mem).absolute()).as_posix()
        except ValueError:
            pass
    return target


def _loaded_target(mem: Path, stored: str) -> str:
    """The absolute target of a kept proposal: a relative one is under the memsearch folder
    (a ``..`` part is left as it is and refused by the tamper check); an absolute one from
    before (``/old/place/.memsearch/PROJECT.md``) is read against where the folder is now.
    Either way the tamper check then compares it with what its task may write."""
    path = Path(stored)
    if not stored:
        return stored
    if not path.is_absolute():
        return str(Path(mem).absolute() / path)
    if ".memsearch" in path.parts[:-1] and not path.is_relative_to(Path(mem).absolute()):
        last = len(path.parts) - 1 - path.parts[::-1].index(".memsearch")
        return str(Path(mem).absolute().joinpath(*path.parts[last + 1 :]))
    return stored


def _save(project: Path, prop: ProjectProposal) -> None:
    atomic_write_text(*_record(project, prop))


def _mark(project: Path, found: list[ProjectProposal]) -> list[ProjectProposal]:
    """Set ``tampered`` on each proposal (one config load for the lot)."""
    if found:
        from memsearch_tui.engine.memsearch.config import load_config

        try:
            config = load_config(project)
        except MemsearchError:
            config = None
        for prop in found:
            prop.tampered = tamper_reason(project, prop, config)
    return found


def _read(path: Path) -> ProjectProposal:
    """The proposal kept in ``path``; ValueError saying why it cannot be used (read through
    the one defensive JSON reader: regular file, size-capped, deep nesting a ValueError)."""
    data = load_json(path)
    known = set(ProjectProposal.__dataclass_fields__) - {"tampered", "written"}
    if not isinstance(data, dict) or any(not isinstance(data.get(k), str) for k in _STR_FIELDS):
        raise ValueError(f"not a proposal record (needs text fields {', '.join(_STR_FIELDS)})")
    if not isinstance(data.get("extra", {}), dict):
        raise ValueError("not a proposal record ('extra' is not an object)")
    check_depth(data, MAX_RECORD_DEPTH, "proposal record")
    if data["id"] != path.stem:  # get, accept and reject find a proposal by its file name, and save to it
        raise ValueError(f"its id {data['id']!r} is not its file name {path.stem!r}")
    written = data["target"]
    data["target"] = _loaded_target(path.parent.parent, written)
    try:
        prop = ProjectProposal(**{k: v for k, v in data.items() if k in known})
    except TypeError as exc:
        raise ValueError(f"not a proposal record ({exc})") from None
    prop.written = written
    return prop


def _load(path: Path) -> ProjectProposal | None:
    try:
        return _read(path)
    except (OSError, ValueError):
        return None


def list_all(project: Path, broken: list[tuple[Path, str]] | None = None) -> list[ProjectProposal]:
    """Every readable proposal, newest first; a file that cannot be read is skipped and,
    with ``broken``, listed there as (path, why) for ``doctor`` and ``proposals list``."""
    folder = proposals_dir(project)
    if not folder.is_dir():
        return []
    loaded = []
    for f in sorted(folder.glob("*.json")):
        try:
            loaded.append(_read(f))
        except (OSError, ValueError) as exc:
            if broken is not None:
                broken.append((f, str(exc) or type(exc).__name__))
    found = _mark(project, loaded)
    return sorted(found, key=lambda p: (p.created, p.id), reverse=True)


def unreadable(project: Path) -> list[tuple[Path, str]]:
    """Proposal files that cannot be used, with the reason: reported, never fatal."""
    broken: list[tuple[Path, str]] = []
    list_all(project, broken)
    return broken


def list_pending(project: Path) -> list[ProjectProposal]:
    return [p for p in list_all(project) if p.status == PENDING]


def get(project: Path, pid: str) -> ProjectProposal:
    """The proposal with id ``pid`` (or a unique prefix of one)."""
    if not pid or "/" in pid or pid.startswith("."):
        raise InvalidInput(f"invalid proposal id {pid!r}")
    exact = proposals_dir(project) / f"{pid}.json"
    if exact.is_file():
        try:
            prop = _read(exact)
        except (OSError, ValueError) as exc:
            raise InvalidInput(f"{exact}: unreadable proposal file ({exc})", path=str(exact)) from None
        return _mark(project, [prop])[0]
    matches = [p for p in list_all(project) if p.id.startswith(pid)]
    if len(matches) == 1:
        return matches[0]
    if not matches:
        raise NotFound(f"no proposal {pid!r} in {proposals_dir(project)}")
    raise InvalidInput(f"proposal id {pid!r} is ambiguous: {', '.join(p.id for p in matches[:5])}")


def current_text(prop: ProjectProposal) -> str:
    """The target's text now; nothing is read for a tampered proposal."""
    if prop.tampered:
        return ""
    return (read_target(Path(prop.target)) or b"").decode("utf-8", errors="replace")


def target_changed(prop: ProjectProposal) -> bool:
    """True when the target's bytes differ from when the proposal was made (a tampered
    proposal's target is never read). A target that cannot be read now (a FIFO put in its
    place, a file grown past the cap) is changed: a list shows it, ``accept`` refuses it."""
    if prop.tampered:
        return False
    try:
        return file_digest(Path(prop.target)) != prop.target_digest
    except InvalidInput:
        return True


def diff(project: Path, pid: str, *, context: int = 3) -> list[str]:
    """Unified diff lines (difflib) from the target as it is now to the proposed text,
    secrets masked (a host's memory file may hold a token the person pasted: a diff is
    shown, and ``agent-memory diff`` masks them too). Each text is masked whole *before*
    the diff, as the app's DiffView does: masked after, a token wrapped over lines was
    masked line by line behind its ``+``, its pieces printed in clear."""
    from memsearch_tui.engine.core.secrets import redact
    from memsearch_tui.engine.core.text import unified_diff

    prop = get(project, pid)
    _check_untampered(project, prop)
    name = Path(prop.target).name
    out = unified_diff(
        redact(current_text(prop)), redact(prop.content), f"a/{name}", f"b/{name} (proposal {prop.id})", n=context
    )
    if (new := new_file(prop)) is not None:
        out += unified_diff(
            "", redact(new[1]), "/dev/null", f"b/{new[0].name} (new file, proposal {prop.id})", n=context
        )
    return redact("".join(out)).splitlines(keepends=True)


def new_file(prop: ProjectProposal) -> tuple[Path, str] | None:
    """The file an accepted ``prop`` also creates beside its target (a condensed index's
    topic file), or None. Its name was checked by the tamper check (a bare name)."""
    spec = prop.extra.get(NEW_FILE)
    if not isinstance(spec, dict) or not isinstance(spec.get("name"), str) or not isinstance(spec.get("content"), str):
        return None
    return Path(prop.target).parent / spec["name"], spec["content"]


def was_rejected(project: Path, platform: str, task: str, input_digest: str) -> ProjectProposal | None:
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


def _pending(project: Path, pid: str) -> ProjectProposal:
    prop = get(project, pid)
    if prop.status != PENDING:
        raise Refused(f"proposal {prop.id} is already {prop.status}")
    return prop


def accept(
    project: Path,
    pid: str,
    *,
    memory_root: Path,
    content: str | None = None,
    force: bool = False,
    expected: bytes | None = None,
) -> ProjectProposal:
    """Replace the target with the proposed (or edited) text, atomically and undoably.

    Refuses with ``Conflict`` when the target changed since the proposal, unless ``force``.
    ``expected`` is the target as the user saw it beside the proposal (``current_bytes``;
    b"" for a missing file): a change made since is refused even with ``force``, which
    only ever overwrites the changes the person was shown.
    """
    from filelock import FileLock

    folder = proposals_dir(project)
    folder.mkdir(parents=True, exist_ok=True)
    with FileLock(str(folder / ".lock"), timeout=10):
        prop = _pending(project, pid)
        _check_untampered(project, prop)  # --force never overrides this
        read_target(Path(prop.target))  # a FIFO or device in its place: refused, named, before all else
        in_place = prop.task == AGENT_MEMORY_TASK
        if in_place and target_changed(prop):  # its lines were counted in the old bytes: --force cannot help
            raise Conflict(
                f"{prop.target} changed since proposal {prop.id} was made; nothing written. See what changed "
                f"with `memsearch-tui agent-memory diff {prop.target}`, then `memsearch-tui proposals reject "
                f"{prop.id}` and make the proposal again (`agent-memory prune`, `edit` or `restore`)",
                path=prop.target,
            )
        if in_place and expected is None:
            expected = current_bytes(prop)  # checked again under the write lock
        if (stale := stale_note(prop)) and not force:
            raise Conflict(f"proposal {prop.id} is stale: {stale}; reject it, or accept with --force")
        if target_changed(prop) and not force:
            raise Conflict(
                f"{prop.target} changed since proposal {prop.id} was made; review "
                f"`memsearch-tui proposals diff {prop.id}` and accept with --force to overwrite"
            )
        text = prop.content if content is None else content
        if not text.strip() and not in_place:  # a host's memory file may be pruned to nothing
            raise InvalidInput(f"refusing to replace {prop.target} with empty text")
        summary = f"accept proposal {prop.id} ({prop.task}) → {Path(prop.target).name}"
        refuse_added_secrets(Path(prop.target), text, "the edited text" if content is not None else "the proposal")
        note = "edited before accepting" if content is not None and content != prop.content else ""
        if content is not None:
            prop.content = text
        prop.status, prop.decided_at, prop.decision_note = ACCEPTED, _now(), note
        record = _record(project, prop)  # logged with the write: undo puts the proposal back to pending
        if prop.kind == SKILL_KIND:
            check_target(Path(prop.target), expected)
            write_skill(project, prop, text, memory_root=memory_root, summary=summary, record=record)
        elif prop.task == DAY_MERGE_TASK:
            from memsearch_tui.engine.curator import day_copies

            check_target(Path(prop.target), expected)
            copies = {str(k): str(v) for k, v in dict(prop.extra.get("copies") or {}).items()}
            if content is None and day_copies.remerge(memory_root, project, Path(prop.target), copies).text != text:
                raise Conflict(  # the file is in the repository: accept only the merge a person was shown
                    f"proposal {prop.id}: its text is not the merge of {Path(prop.target).name} and its copies "
                    "as they are now (edited since it was made, or the day changed); nothing written; "
                    "run `memsearch-tui journal conflicts --merge` again"
                )
            day_copies.accept(
                memory_root, project, Path(prop.target), text, copies, summary=summary, extra_writes=[record]
            )
        else:
            also = new_file(prop) if in_place else None
            if also is not None:  # moved text, not new: a secret already in the target may go with it
                refuse_added_secrets(Path(prop.target), also[1], f"the new file {also[0].name}")
            write_target(
                Path(prop.target),
                text,
                memory_root=memory_root,
                summary=summary,
                record=record,
                expected=expected,
                also=also,
            )
        _record_decision(project, prop, "accepted")
        return prop


def _record_decision(project: Path, prop: ProjectProposal, decision: str) -> None:
    """The shared state file stops saying "proposed" once a person decided."""
    from memsearch_tui.engine.memsearch.state import record_decision

    record_decision(memsearch_dir(Path(project)), f"{prop.platform}.{prop.task}", prop.id, decision)


def current_bytes(prop: ProjectProposal) -> bytes:
    """The target's bytes now (b"" when missing or tampered): what ``accept(expected=)`` takes."""
    if prop.tampered:
        return b""
    return read_target(Path(prop.target)) or b""


def check_target(target: Path, expected: bytes | None) -> None:
    """Conflict when ``target`` is no longer the ``expected`` bytes (b"": missing or empty)."""
    if expected is None:
        return
    now = read_target(Path(target)) or b""
    if now != expected:
        raise Conflict(f"{target}: changed on disk since you saw it; nothing written", path=str(target))


def reject(project: Path, pid: str, *, note: str = "", memory_root: Path | None = None) -> ProjectProposal:
    """Mark the proposal rejected; its input digest will not be proposed again. With a
    ``memory_root`` the decision is logged there, so ``undo`` makes it pending again."""
    prop = _pending(project, pid)
    if memory_root is None:
        _decide(project, prop, REJECTED, note)
    else:
        prop.status, prop.decided_at, prop.decision_note = REJECTED, _now(), note
        with transaction(memory_root, "proposal-reject", f"reject proposal {prop.id} ({prop.task})") as txn:
            txn.write(*_record(project, prop))
    _record_decision(project, prop, "rejected")
    return prop


def mark_stale(
    project: Path, prop: ProjectProposal, note: str, *, ref: dict[str, Any] | None = None
) -> ProjectProposal:
    """Flag a pending proposal as built from input that has since been removed (a forgotten
    journal turn): it stays listed, but ``accept`` refuses it unless forced. ``ref``: the
    removed lines' reference (``journal_stale.excerpt_ref``); the mark ends once they are back."""
    old = prop.extra.get("stale_refs")
    if old is None and prop.extra.get("stale"):  # a mark without a reference holds for good
        old = [{"note": prop.extra["stale"]}]
    refs = [*(old or [])] + ([{**ref, "note": note}] if ref else [{"note": note}])
    prop.extra = {**prop.extra, "stale": note, **({"stale_refs": refs} if refs else {})}
    _save(project, prop)
    return prop


def _decide(project: Path, prop: ProjectProposal, status: str, note: str) -> ProjectProposal:
    prop.status, prop.decided_at, prop.decision_note = status, _now(), note
    _save(project, prop)
    return prop


def write_target(
    target: Path,
    text: str,
    *,
    memory_root: Path | None,
    summary: str,
    kind: str = "proposal-accept",
    record: tuple[Path, str] | None = None,
    expected: bytes | None = None,
    also: tuple[Path, str] | None = None,
) -> None:
    """Write a PROJECT.md/USER.md rewrite (and the proposal's ``record``) through the oplog
    transaction (undoable), or plainly when there is no memory root to keep the log in.
    ``expected``: see ``check_target`` (checked under the transaction's lock). ``also``: a
    new file written in the same transaction, refused when anything (a file, a link, a
    dangling link) is at its path already."""
    if memory_root is None:
        check_target(target, expected)
        _check_free(also)
        atomic_write_text(target, text)
        if also is not None:
            atomic_write_text(*also)
        if record is not None:
            atomic_write_text(*record)
        return
    with transaction(memory_root, kind, summary) as txn:
        check_target(target, expected)
        _check_free(also)
        txn.write(Path(target).absolute(), text)
        if also is not None:
            txn.write(also[0].absolute(), also[1])
        if record is not None:
            txn.write(record[0].absolute(), record[1])


def _check_free(new: tuple[Path, str] | None) -> None:
    """Conflict when something already sits where ``new`` would be created (never overwritten)."""
    if new is not None and os.path.lexists(new[0]):
        raise Conflict(
            f"{new[0]}: already exists; nothing written (reject the proposal and propose again)", path=str(new[0])
        )


def write_skill(
    project: Path,
    prop: ProjectProposal,
    text: str,
    *,
    memory_root: Path,
    summary: str,
    record: tuple[Path, str] | None = None,
) -> None:
    """Accept a skill candidate: SKILL.md and meta.json in memsearch's candidates folder,
    in one logged transaction (``memsearch-tui undo`` removes or restores both)."""
    from memsearch_tui.engine.history.txn import transaction
    from memsearch_tui.engine.review import candidate_repo
    from memsearch_tui.engine.review.skill_candidates import is_new, write_candidate

    skill = dict(prop.extra.get("skill") or {})
    if not skill.get("name") or not skill.get("description"):
        raise InvalidInput(f"proposal {prop.id}: a skill proposal without name and description")
    root = candidate_repo.prepare(project)  # memsearch's own repository, before anything lands
    new = is_new(project, str(skill["name"]))
    with transaction(memory_root, "proposal-accept", summary) as txn:
        write_candidate(txn, project, skill, text)
        if record is not None:
            txn.write(record[0].absolute(), record[1])
    candidate_repo.commit(root, candidate_repo.distill_message(int(new), int(not new), prop.platform))
