"""``sync init`` and ``sync``: the store as a git repository, merged by us, not by git.

One sync: commit what changed here (the operations logged since the last sync name the
commit), fetch, merge the other device's commits with :func:`threeway.merge` (entries,
versions, config — INDEX.md files are rebuilt from the merged entries), write the result in
one logged store transaction (``undo`` after ``sync`` puts this device's files back exactly),
commit the merge with both parents, push. A push that loses a race is fetched and merged
again. Entries the other device removed go to this device's trash, never away.
"""

from __future__ import annotations

import os
import signal
from dataclasses import dataclass, field
from pathlib import Path

from memsearch_tui.engine.core import clock
from memsearch_tui.engine.core.atomic import atomic_write_bytes
from memsearch_tui.engine.core.errors import InvalidInput, Refused
from memsearch_tui.engine.core.locking import root_lock
from memsearch_tui.engine.core.paths import INDEX
from memsearch_tui.engine.core.state_files import STATE_DIR
from memsearch_tui.engine.core.text import plural
from memsearch_tui.engine.curator.trash import trash_in
from memsearch_tui.engine.history import oplog
from memsearch_tui.engine.store.index_files import IndexWriter
from memsearch_tui.engine.store.store import Store
from memsearch_tui.engine.store.trash_index import write_trash_index
from memsearch_tui.engine.sync import commit, guard, recover, threeway
from memsearch_tui.engine.sync import remote as remote_mod
from memsearch_tui.engine.sync import state as st
from memsearch_tui.engine.sync.commit import read_file
from memsearch_tui.engine.sync.git import NETWORK_TIMEOUT, Git, GitError, Identity, shown_url

PUSH_TRIES = 3
MERGE_TRIES = 3  # plans made again when an editor changed a file between plan and write
MARKERS = (b"<<<<<<< ", b"\n<<<<<<< ", b"\n>>>>>>> ")
CRASH_ENV = "MEMSEARCH_TUI_TEST_CRASH_AT"  # test-only: SIGKILL this process at a named point


@dataclass
class SyncReport:
    """What one sync did, for every face."""

    device: str
    committed: int = 0  # local commits made (0 or 1)
    received: int = 0  # commits merged from the remote
    pushed: bool = False
    changed: list[str] = field(default_factory=list)  # files this device got
    conflicts: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    message: str = ""
    held: set[str] = field(default_factory=set)  # files left out of this device's commit


@dataclass
class SyncStatus:
    initialised: bool
    device: str = ""
    remote: str = ""
    last_sync: str = ""
    ahead: int = 0
    behind: int = 0
    uncommitted: int = 0
    conflicts: int = 0
    interrupted: bool = False
    message: str = ""


def _crash_point(name: str) -> None:
    if os.environ.get(CRASH_ENV) == name:
        os.kill(os.getpid(), signal.SIGKILL)


# -- init ----------------------------------------------------------------------------
def init(root: Path, *, remote: str = "", device: str = "") -> SyncReport:
    """Make the store a repository (or clone ``remote`` into an empty/missing root).

    A failed init leaves the folder as it was: no ``.git``, no ``.gitignore``, no state."""
    root = Path(root).expanduser().absolute()
    name = st.check_device(device or st.default_device())
    url, cred = remote_mod.split_credentials(remote) if remote else ("", {})
    g = Git(root, Identity(name))
    store = Store(root)
    if url and (not root.exists() or not any(root.iterdir())):
        with remote_mod.undo_on_failure(root):
            root.mkdir(parents=True, exist_ok=True)
            note = remote_mod.hand_to_helper(g, cred)
            branch = remote_mod.clone(root, url, g, st.BRANCH)
            _write_gitignore(root)
            st.save(
                root, st.DeviceState(device=name, remote=url, branch=branch, last_sync=clock.iso_z())
            )  # a clone is a sync
            store.rebuild_index()
        return SyncReport(
            device=name,
            received=g.count("HEAD"),
            notes=[note] if note else [],
            message=f"cloned {shown_url(url)} (branch {branch}) into {root} as {name}",
        )
    store.require()
    if (root / ".git").exists() and not g.is_repo():
        raise Refused(f"{root}/.git exists but is not the top of a git repository; move it away first", code="bad_repo")
    with remote_mod.undo_on_failure(root, (".gitignore", f"{STATE_DIR}/{st.SYNC_STATE}")):
        if not g.is_repo():
            g.run("init", "-q", "-b", st.BRANCH)
        _write_gitignore(root)
        old = st.load(root)
        state = st.DeviceState(
            device=name, remote=url or (old.remote if old else ""), branch=old.branch if old else st.BRANCH
        )
        note = remote_mod.hand_to_helper(g, cred)
        if url:
            remote_mod.fetch_all(g, url)
            state.branch = remote_mod.choose_branch(g, state.branch)
        st.save(root, state)
        report = sync(root) if state.remote else _commit_only(root, g, state)
    if report.pushed:
        remote_mod.point_bare_head(state.remote, state.branch)
    report.notes += [note] if note else []
    report.message = f"{root} is a sync repository for device {name}" + (
        f"; {report.message}" if report.message else ""
    )
    return report


def _write_gitignore(root: Path) -> None:
    """Ours, for a person's own ``git status``; our commits never depend on it (a link
    there is replaced, never written through)."""
    path = root / ".gitignore"
    have = (read_file(path) or b"").decode("utf-8", "replace") if not path.is_symlink() else ""
    missing = [ln for ln in st.GITIGNORE.splitlines() if ln and not ln.startswith("#") and ln not in have.splitlines()]
    if missing or path.is_symlink():
        text = have + ("" if not have or have.endswith("\n") else "\n") + st.GITIGNORE
        atomic_write_bytes(path, text.encode("utf-8"), mode=0o644)


def _commit_only(root: Path, g: Git, state: st.DeviceState) -> SyncReport:
    report = SyncReport(device=state.device)
    with root_lock(root):
        report.committed = _commit_local(root, g, state, report)
    _finish(root, state, report)
    return report


# -- status --------------------------------------------------------------------------
def status(root: Path) -> SyncStatus:
    """Where this device stands, without touching the network."""
    root = Path(root).expanduser().absolute()
    state = st.load(root)
    if state is None:
        return SyncStatus(False, message=st.NOT_SYNCED)
    g = Git(root)
    if not g.is_repo():
        return SyncStatus(False, device=state.device, message=f"{root} is no longer a git repository; run `sync init`")
    out = SyncStatus(True, device=state.device, remote=shown_url(state.remote), last_sync=state.last_sync)
    upstream = f"{st.REMOTE}/{state.branch}"
    if state.remote and g.rev(upstream):
        out.ahead, out.behind = g.count(f"{upstream}..HEAD"), g.count(f"HEAD..{upstream}")
    head = g.tree(g.rev("HEAD"))
    snap = commit.snapshot(root, head)
    out.uncommitted = len({p for p, s in snap.files.items() if head.get(p) != s} | (set(head) - set(snap.files)))
    out.conflicts = _open_sync_conflicts(root)
    out.interrupted = bool(state.in_progress)
    return out


def _open_sync_conflicts(root: Path) -> int:
    from memsearch_tui.engine.curator.versions import conflicts

    return len(conflicts(Store(root)))


# -- sync ----------------------------------------------------------------------------
class _Changed(Exception):
    """Files changed between the merge's plan and its writes (an editor that takes no lock)."""

    def __init__(self, paths: list[str]) -> None:
        super().__init__(", ".join(paths))
        self.paths = paths


def sync(root: Path) -> SyncReport:
    """Commit, fetch, merge (ours), push; see the module doc."""
    root = Path(root).expanduser().absolute()
    state = st.load(root)
    if state is None:
        raise Refused(
            f"{root} is not set up for sync; run `memsearch-tui sync init [--remote URL]` first", code="not_synced"
        )
    g = Git(root, Identity(state.device))
    _check_repo(root, g)
    report = SyncReport(device=state.device)
    if state.in_progress:
        report.notes.append(recover.recover(root, g, state))
    with root_lock(root):
        report.committed = _commit_local(root, g, state, report)
    if not state.remote:
        _finish(root, state, report)
        report.message = "committed locally; no remote set (`sync init --remote URL`)"
        return report
    for _ in range(PUSH_TRIES):
        theirs = _fetch(g, state)  # no lock held: the store stays writable while the network is slow
        with root_lock(root):  # what was written meanwhile is committed before the merge plans
            _merge_fresh(root, g, state, theirs, report)
        if _push(g, state):
            report.pushed = True
            break
    else:
        raise GitError(
            f"{shown_url(state.remote)}: the push was refused {PUSH_TRIES} times (another device kept pushing); sync again"
        )
    _finish(root, state, report)
    return report


def _merge_fresh(root: Path, g: Git, state: st.DeviceState, theirs: str | None, report: SyncReport) -> None:
    """Commit what changed here, then merge ``theirs``; a file changed by a writer that took
    no lock between plan and write (an editor) is committed and merged again."""
    for attempt in range(MERGE_TRIES):
        report.committed = max(report.committed, _commit_local(root, g, state, report))
        if theirs is None or g.is_ancestor(theirs, "HEAD"):
            return
        try:
            _merge(root, g, state, theirs, report)
            return
        except _Changed as exc:
            held = [p for p in exc.paths if p in report.held]
            if held or attempt == MERGE_TRIES - 1:
                raise Refused(
                    f"{root}: sync stopped, nothing merged: {', '.join((held or exc.paths)[:5])} "
                    + (
                        "is held back here (see the notes) and changed on the other device; fix it and sync again"
                        if held
                        else "kept changing while sync merged; sync again"
                    ),
                    code="changed_during_sync",
                ) from None


def _check_repo(root: Path, g: Git) -> None:
    if not g.is_repo():
        raise Refused(f"{root} is not a git repository (any more); run `memsearch-tui sync init`", code="not_synced")
    guard.refuse_planted(root)
    gd = g.git_dir()
    for name in ("MERGE_HEAD", "REBASE_HEAD", "CHERRY_PICK_HEAD", "rebase-merge", "rebase-apply"):
        if (gd / name).exists():
            raise Refused(
                f"{root}: a git merge or rebase started by hand is in progress; finish it or run "
                f"`git -C {root} merge --abort` (or `rebase --abort`), then sync again",
                code="git_busy",
            )
    if g.unmerged():
        raise Refused(
            f"{root}: git lists unmerged files ({', '.join(g.unmerged()[:3])}); resolve them first", code="git_busy"
        )
    marked = _files_with_markers(root, g)
    if marked:
        raise Refused(
            f"{root}: conflict markers (<<<<<<<) in {', '.join(marked[:3])}; a hand-made git merge left them — "
            "edit them out (or `git checkout -- FILE`), then sync again",
            code="conflict_markers",
        )


def _files_with_markers(root: Path, g: Git) -> list[str]:
    head = g.tree(g.rev("HEAD"))
    out = []
    for rel, sha in commit.snapshot(root, head).files.items():
        if rel.endswith(".md") and head.get(rel) != sha:
            data = (read_file(root / rel) or b"")[: 2 * 1024 * 1024]
            if data.startswith(MARKERS[0]) or MARKERS[1] in data and MARKERS[2] in data:
                out.append(rel)
    return sorted(out)


def _commit_local(root: Path, g: Git, state: st.DeviceState, report: SyncReport) -> int:
    """Commit this device's changes since the last sync (call holding the root lock); 1 if
    a commit was made. The tree is built by :mod:`.commit`, never by ``git add``."""
    report.notes += [n for n in recover.keep_undone_texts(root, state) if n not in report.notes]
    head = g.rev("HEAD")
    head_files = g.tree(head)
    snap = commit.snapshot(root, head_files)
    report.held = snap.held
    report.notes += [n for n in snap.left_out if n not in report.notes]
    if head and snap.files == head_files and not snap.new:
        return 0  # nothing changed here: the index already holds this tree
    tree = commit.write_tree(g, snap)
    if head and tree == g.out("rev-parse", f"{head}^{{tree}}"):
        return 0
    ops = [r for r in oplog.records(root) if r.seq > state.last_op_seq and r.kind != "sync"]
    parents = ["-p", head] if head else []
    made = g.run("commit-tree", tree, *parents, "-F", "-", input=_message(state.device, ops).encode()).stdout
    g.run("update-ref", "-m", "memsearch-tui commit", "HEAD", made.decode().strip())
    if ops:
        state.last_op_seq = max(r.seq for r in ops)
    return 1


def _message(device: str, ops: list[oplog.OpRecord]) -> str:
    if not ops:
        return f"{device}: changes made outside memsearch-tui"
    lines = [f"{device}: {ops[-1].summary}" if len(ops) == 1 else f"{device}: {plural(len(ops), 'operation')}"]
    if len(ops) > 1:
        lines += [""] + [f"- {r.summary}" for r in sorted(ops, key=lambda r: r.seq)[:200]]
    return "\n".join(lines) + "\n"


def _fetch(g: Git, state: st.DeviceState) -> str | None:
    """Fetch the remote branch; its commit, or None while the remote is empty. A tree with
    an entry a store never has (a link, a gitlink, ``..``, ``.git``) is refused whole here,
    before anything is planned or written."""
    try:
        g.run("fetch", "-q", "--no-tags", st.REMOTE, timeout=NETWORK_TIMEOUT)
    except GitError as exc:
        raise GitError(
            f"could not reach {shown_url(state.remote)}: {exc.message}. This device's changes are committed "
            "locally and go out with the next sync",
            code="unreachable",
        ) from None
    theirs = g.rev(f"{st.REMOTE}/{state.branch}")
    files, bad = g.entries(theirs)
    guard.refuse_tree(shown_url(state.remote), bad)
    if theirs is not None and INDEX not in files and files:
        raise Refused(
            f"{shown_url(state.remote)}: its branch {state.branch} is not a memory store (no {INDEX} at its top); nothing merged",
            code="not_a_store",
        )
    return theirs


def _push(g: Git, state: st.DeviceState) -> bool:
    done = g.run(
        "push", "-q", "--porcelain", st.REMOTE, f"HEAD:refs/heads/{state.branch}", timeout=NETWORK_TIMEOUT, check=False
    )
    if done.returncode == 0:
        return True
    words = done.stdout + done.stderr
    if b"rejected" in words or b"non-fast-forward" in words or b"fetch first" in words:
        return False  # someone pushed meanwhile: fetch and merge again
    raise GitError(
        f"could not push to {shown_url(state.remote)}: {words.decode('utf-8', 'replace').strip()[-300:]}",
        code="unreachable",
    )


def _merge(root: Path, g: Git, state: st.DeviceState, theirs: str, report: SyncReport) -> None:
    """Merge ``theirs`` into this device's files and commit the merge with both parents.

    A file is written only while it still holds the bytes the merge planned from (this
    device's last commit); ``in_progress`` names every path written and the bytes it gets,
    so recovery after a kill puts back exactly those, and only where nobody wrote since."""
    ours = g.rev("HEAD")
    there = _device_of(g, theirs) or "the other device"
    base = g.merge_base(ours, theirs) if ours else None
    merged, files_ours = _plan(g, base, ours, theirs, state.device, there)
    changed = sorted(p for p in set(files_ours) | set(merged.files) if files_ours.get(p) != merged.files.get(p))
    guard.refuse_writes(root, changed)
    guard.refuse_clashes(root, merged.files)
    moved = [p for p in changed if read_file(root / p) != files_ours.get(p)]
    if moved:
        raise _Changed(moved)
    wrote = {p: commit.blob_id(merged.files[p]) if p in merged.files else "" for p in changed}
    state.in_progress = {"ours": ours or "", "theirs": theirs, "started": clock.iso_z(), "wrote": wrote}
    st.save(root, state)
    try:
        _apply(root, changed, files_ours, merged, there)
    except OSError as exc:  # the transaction put every file back: nothing to recover
        state.in_progress = {}
        st.save(root, state)
        raise Refused(
            f"{root}: sync stopped, nothing written: {exc.filename or root}: {exc.strerror or exc}", code="write_failed"
        ) from None
    _crash_point("sync:before-commit")
    snap = commit.snapshot(root, g.tree(ours))
    tree = commit.write_tree(g, snap)
    if ours and g.is_ancestor(ours, theirs) and tree == g.out("rev-parse", f"{theirs}^{{tree}}"):
        made = theirs  # nothing here the other device lacks: a fast-forward, no merge commit
    else:
        parents = ["-p", ours] if ours else []
        msg = f"{state.device}: sync with {there}"
        if merged.conflicts:
            msg += f" ({plural(len(merged.conflicts), 'conflict')} kept as versions)"
        made = (
            g.run("commit-tree", tree, *parents, "-p", theirs, "-F", "-", input=(msg + "\n").encode())
            .stdout.decode()
            .strip()
        )
    g.run("update-ref", "-m", "memsearch-tui sync", "HEAD", made)
    state.in_progress = {}
    st.save(root, state)
    report.received += g.count(f"{ours}..{theirs}") if ours else g.count(theirs)
    report.changed += changed
    report.conflicts += merged.conflicts
    report.notes += merged.notes


def _plan(
    g: Git, base: str | None, ours: str | None, theirs: str, here: str, there: str
) -> tuple[threeway.Merged, threeway.Files]:
    trees = {
        name: {p: s for p, s in g.tree(c).items() if threeway.synced(p)}
        for name, c in (("b", base), ("o", ours), ("t", theirs))
    }
    data = g.blobs({s for t in trees.values() for s in t.values()})
    files = {name: {p: data[s] for p, s in t.items()} for name, t in trees.items()}
    sides = threeway.Sides(here, there, clock.today())
    ours_ren = g.renames(base, ours) if ours else {}
    merged = threeway.merge(files["b"], files["o"], files["t"], ours_ren, g.renames(base, theirs), sides)
    return merged, files["o"]


def _apply(root: Path, changed: list[str], ours: threeway.Files, merged: threeway.Merged, there: str) -> None:
    """Write the merged files in one logged transaction; INDEX.md files rebuilt at its end.
    Each file is checked once more, under the lock, just before the writes begin."""
    store = Store(root)
    summary = f"sync with {there}: {plural(len(changed), 'file')}" + (
        f", {plural(len(merged.conflicts), 'conflict')}" if merged.conflicts else ""
    )
    gone = [p for p in changed if p not in merged.files and threeway.is_entry(p) and (root / p).is_file()]
    with store.edit("sync", summary) as ed:
        moved = [p for p in changed if read_file(root / p) != ours.get(p)]
        if moved:
            raise _Changed(moved)
        for rel in gone:  # first, so their versions go to the trash with them
            trash_in(store, ed, store.get(rel[:-3]), f"removed on {there} (sync)")
        for rel in changed:
            data = merged.files.get(rel)
            if data is not None:
                ed.txn.write(root / rel, data)
            elif rel not in gone:
                ed.txn.delete(root / rel)
            _crash_point("sync:after-first-write")
        ed.cat.refresh(full=True)
        IndexWriter(root, ed.cat).write_all(ed.txn)
        if gone:
            write_trash_index(root, ed.txn)


def _device_of(g: Git, commit_id: str) -> str:
    """The device that made ``commit_id`` (from its committer name), for messages and
    entries: a name that fails the device-name check (ESC, BEL, spaces) is not used."""
    name = g.out("log", "-1", "--format=%cn", commit_id)
    if name.startswith("memsearch-tui (") and name.endswith(")"):
        try:
            return st.check_device(name[len("memsearch-tui (") : -1])
        except InvalidInput:
            return ""
    return ""


def _finish(root: Path, state: st.DeviceState, report: SyncReport) -> None:
    state.last_sync = clock.iso_z()
    state.last_notes = report.notes[-50:]
    newest = [r.seq for r in oplog.records(root)[:1]]
    state.last_op_seq = max([state.last_op_seq, *newest])
    st.save(root, state)
    if not report.message:
        bits = [f"{plural(report.received, 'commit')} merged" if report.received else "nothing new from the remote"]
        if report.committed:
            bits.append("local changes committed")
        if report.pushed:
            bits.append("pushed")
        if report.conflicts:
            bits.append(f"{plural(len(report.conflicts), 'conflict')} kept as versions (`conflicts` lists them)")
        report.message = "; ".join(bits)
