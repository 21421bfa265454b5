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
from memsearch_tui.engine.core.errors import Refused
from memsearch_tui.engine.core.locking import root_lock
from memsearch_tui.engine.core.paths import INDEX
from memsearch_tui.engine.core.text import plural
from memsearch_tui.engine.curator.trash import trash_in
from memsearch_tui.engine.history import oplog
from memsearch_tui.engine.store.index_files import IndexWriter
from memsearch_tui.engine.store.store import Store
from memsearch_tui.engine.store.trash_index import write_trash_index
from memsearch_tui.engine.sync import state as st
from memsearch_tui.engine.sync import threeway
from memsearch_tui.engine.sync.git import NETWORK_TIMEOUT, Git, GitError, Identity, shown_url

PUSH_TRIES = 3
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
    """Make the store a repository (or clone ``remote`` into an empty/missing root)."""
    root = Path(root).expanduser().absolute()
    name = st.check_device(device or st.default_device())
    g = Git(root, Identity(name))
    store = Store(root)
    if remote and (not root.exists() or not any(root.iterdir())):
        _clone(root, remote, g)
        st.save(root, st.SyncState(device=name, remote=remote, last_sync=clock.iso_z()))  # a clone is a sync
        if not store.exists():
            raise Refused(f"{remote}: cloned, but it holds no memory store (no {INDEX} at its top)", code="not_a_store")
        store.rebuild_index()
        return SyncReport(
            device=name, received=g.count("HEAD"), message=f"cloned {shown_url(remote)} into {root} as {name}"
        )
    store.require()
    if (root / ".git").exists() and not g.is_repo():
        raise Refused(f"{root}/.git exists but is not the top of a git repository; move it away first", code="bad_repo")
    if not g.is_repo():
        g.run("init", "-q", "-b", st.BRANCH)
    _write_gitignore(root)
    old = st.load(root)
    state = st.SyncState(device=name, remote=remote or (old.remote if old else ""))
    st.save(root, state)
    if remote:
        have = g.run("remote", "get-url", st.REMOTE, check=False).returncode == 0
        g.run("remote", "set-url" if have else "add", st.REMOTE, remote)
    report = sync(root) if state.remote else _commit_only(root, g, state)
    report.message = f"{root} is a sync repository for device {name}" + (
        f"; {report.message}" if report.message else ""
    )
    return report


def _clone(root: Path, remote: str, g: Git) -> None:
    root.parent.mkdir(parents=True, exist_ok=True)
    g.run("clone", "-q", "--", remote, str(root), cwd=root.parent, timeout=NETWORK_TIMEOUT)


def _write_gitignore(root: Path) -> None:
    path = root / ".gitignore"
    have = path.read_text("utf-8") if path.is_file() else ""
    missing = [ln for ln in st.GITIGNORE.splitlines() if ln and not ln.startswith("#") and ln not in have.splitlines()]
    if missing:
        path.write_text(have + ("" if not have or have.endswith("\n") else "\n") + st.GITIGNORE, "utf-8")


def _commit_only(root: Path, g: Git, state: st.SyncState) -> SyncReport:
    report = SyncReport(device=state.device)
    report.committed = _commit_local(root, g, state)
    _finish(root, state, report)
    return report


# -- status --------------------------------------------------------------------------
def status(root: Path) -> SyncStatus:
    """Where this device stands, without touching the network."""
    root = Path(root).expanduser().absolute()
    state = st.load(root)
    if state is None:
        return SyncStatus(False, message="not synced: `memsearch-tui sync init [--remote URL]` starts")
    g = Git(root)
    if not g.is_repo():
        return SyncStatus(False, device=state.device, message=f"{root} is no longer a git repository; run `sync init`")
    out = SyncStatus(True, device=state.device, remote=shown_url(state.remote), last_sync=state.last_sync)
    upstream = f"{st.REMOTE}/{state.branch}"
    if state.remote and g.rev(upstream):
        out.ahead, out.behind = g.count(f"{upstream}..HEAD"), g.count(f"HEAD..{upstream}")
    porcelain = g.run("status", "--porcelain", "-z", check=False).stdout
    out.uncommitted = len([p for p in porcelain.split(b"\0") if p[:2].strip()])
    out.conflicts = _open_sync_conflicts(root)
    out.interrupted = bool(state.in_progress)
    return out


def _open_sync_conflicts(root: Path) -> int:
    from memsearch_tui.engine.curator.versions import conflicts

    return len(conflicts(Store(root)))


# -- sync ----------------------------------------------------------------------------
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
        report.notes.append(_recover(root, g, state))
    report.committed = _commit_local(root, g, state)
    if not state.remote:
        _finish(root, state, report)
        report.message = "committed locally; no remote set (`sync init --remote URL`)"
        return report
    for _ in range(PUSH_TRIES):
        theirs = _fetch(g, state)
        if theirs is not None and not g.is_ancestor(theirs, "HEAD"):
            _merge(root, g, state, theirs, report)
        if _push(g, state):
            report.pushed = True
            break
    else:
        raise GitError(
            f"{shown_url(state.remote)}: the push was refused {PUSH_TRIES} times (another device kept pushing); sync again"
        )
    _finish(root, state, report)
    return report


def _check_repo(root: Path, g: Git) -> None:
    if not g.is_repo():
        raise Refused(f"{root} is not a git repository (any more); run `memsearch-tui sync init`", code="not_synced")
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
    raw = g.run("diff", "--name-only", "-z", "HEAD", check=False).stdout if g.rev("HEAD") else b""
    raw += g.run("ls-files", "--others", "--exclude-standard", "-z", check=False).stdout
    out = []
    for rel in {p.decode("utf-8", "surrogateescape") for p in raw.split(b"\0") if p}:
        path = root / rel
        if rel.endswith(".md") and path.is_file() and not path.is_symlink():
            data = path.read_bytes()[: 2 * 1024 * 1024]
            if data.startswith(MARKERS[0]) or MARKERS[1] in data and MARKERS[2] in data:
                out.append(rel)
    return sorted(out)


def _commit_local(root: Path, g: Git, state: st.SyncState) -> int:
    """Commit this device's changes since the last sync; 1 if a commit was made."""
    with root_lock(root):  # no store operation is half-way while the files are staged
        g.run("add", "-A", "--", ".")
        if g.rev("HEAD") and g.run("diff", "--cached", "--quiet", check=False).returncode == 0:
            return 0
        ops = [r for r in oplog.records(root) if r.seq > state.last_op_seq and r.kind != "sync"]
        g.run("commit", "-q", "--no-verify", "-F", "-", input=_message(state.device, ops).encode())
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


def _fetch(g: Git, state: st.SyncState) -> str | None:
    """Fetch the remote branch; its commit, or None while the remote is empty."""
    try:
        g.run("fetch", "-q", "--no-tags", st.REMOTE, timeout=NETWORK_TIMEOUT)
    except GitError as exc:
        raise GitError(
            f"could not reach {shown_url(state.remote)}: {exc.message}. This device's changes are committed "
            "locally and go out with the next sync",
            code="unreachable",
        ) from None
    theirs = g.rev(f"{st.REMOTE}/{state.branch}")
    if theirs is not None and INDEX not in g.tree(theirs) and g.tree(theirs):
        raise Refused(
            f"{shown_url(state.remote)}: its branch {state.branch} is not a memory store (no {INDEX} at its top); nothing merged",
            code="not_a_store",
        )
    return theirs


def _push(g: Git, state: st.SyncState) -> bool:
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


def _merge(root: Path, g: Git, state: st.SyncState, theirs: str, report: SyncReport) -> None:
    """Merge ``theirs`` into this device's files and commit the merge with both parents."""
    ours = g.rev("HEAD")
    there = _device_of(g, theirs) or "the other device"
    base = g.merge_base(ours, theirs) if ours else None
    merged, files_ours = _plan(g, base, ours, theirs, state.device, there)
    state.in_progress = {"ours": ours or "", "theirs": theirs, "started": clock.iso_z()}
    st.save(root, state)
    changed = _apply(root, files_ours, merged, there)
    _crash_point("sync:before-commit")
    g.run("add", "-A", "--", ".")
    tree = g.out("write-tree")
    if ours and g.is_ancestor(ours, theirs) and tree == g.out("rev-parse", f"{theirs}^{{tree}}"):
        commit = theirs  # nothing here the other device lacks: a fast-forward, no merge commit
    else:
        parents = ["-p", ours] if ours else []
        msg = f"{state.device}: sync with {there}"
        if merged.conflicts:
            msg += f" ({plural(len(merged.conflicts), 'conflict')} kept as versions)"
        commit = (
            g.run("commit-tree", tree, *parents, "-p", theirs, "-F", "-", input=(msg + "\n").encode())
            .stdout.decode()
            .strip()
        )
    g.run("update-ref", "-m", "memsearch-tui sync", "HEAD", commit)
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


def _apply(root: Path, ours: threeway.Files, merged: threeway.Merged, there: str) -> list[str]:
    """Write the merged files in one logged transaction; INDEX.md files rebuilt at its end."""
    store = Store(root)
    changed = sorted(p for p in set(ours) | set(merged.files) if ours.get(p) != merged.files.get(p))
    summary = f"sync with {there}: {plural(len(changed), 'file')}" + (
        f", {plural(len(merged.conflicts), 'conflict')}" if merged.conflicts else ""
    )
    gone = [p for p in changed if p not in merged.files and threeway.is_entry(p) and (root / p).is_file()]
    with store.edit("sync", summary) as ed:
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
    return changed


def _recover(root: Path, g: Git, state: st.SyncState) -> str:
    """A sync killed after it began writing: this device's files back as they were, then the
    merge runs again. Nothing is lost either way: the other device's commit is in git."""
    ours = state.in_progress.get("ours", "")
    started = state.in_progress.get("started", "")
    if ours and g.rev(ours):
        files = {p: s for p, s in g.tree(ours).items() if threeway.synced(p)}
        data = g.blobs(set(files.values()))
        want = {p: data[s] for p, s in files.items()}
        with root_lock(root):
            g.run("add", "-A", "--", ".")
            now = {p: s for p, s in g.tree(g.out("write-tree")).items() if threeway.synced(p)}
        with Store(root).edit("sync", "put this device's files back after an interrupted sync") as ed:
            for rel in sorted(set(now) | set(want)):
                if rel in want and now.get(rel) != files.get(rel):
                    ed.txn.write(root / rel, want[rel])
                elif rel not in want:
                    ed.txn.delete(root / rel)
        g.run("reset", "-q", "--mixed", ours)
    state.in_progress = {}
    st.save(root, state)
    return (
        f"the sync started {started or 'earlier'} was interrupted; this device's files were put back and merged again"
    )


def _device_of(g: Git, commit: str) -> str:
    """The device that made ``commit`` (from its committer name), for messages."""
    name = g.out("log", "-1", "--format=%cn", commit)
    if name.startswith("memsearch-tui (") and name.endswith(")"):
        return name[len("memsearch-tui (") : -1]
    return ""


def _finish(root: Path, state: st.SyncState, report: SyncReport) -> None:
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
