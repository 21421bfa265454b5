"""Any remote a person makes: its branch found, its credentials left to git, a clone we write.

* **The branch.** ``git init --bare`` points HEAD at ``master`` (git 2.39) or ``main`` or
  whatever ``init.defaultBranch`` says, GitHub's empty repository at ``main``, and sync
  pushes the branch it was set up with. So the branch is never assumed: a remote's HEAD
  when it names a branch that exists, else ``main``, else ``master``, else its only branch.
  After the first push to a bare remote on this machine whose HEAD names no branch yet,
  its HEAD is pointed at ours, so a plain ``git clone`` of it checks out the store too.
* **Credentials.** A password (or a token as the user name) in the URL is never stored by
  us: it is cut from the URL that ``sync.json`` and ``.git/config`` keep, and handed to
  git's credential helper (``git credential approve``), which stores it if one is set.
* **The clone.** ``git clone`` would check the tree out itself (links, attributes and all).
  So the objects are fetched into a fresh repository, the tree is checked by
  :mod:`.guard` (refused whole, nothing written, when an entry is unsafe), and the files are
  written by us, never through a link.
"""

from __future__ import annotations

import contextlib
import shutil
from collections.abc import Iterator
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

from memsearch_tui.engine.core.atomic import atomic_write_bytes
from memsearch_tui.engine.core.contained import relpath_reason
from memsearch_tui.engine.core.errors import Refused
from memsearch_tui.engine.core.paths import INDEX
from memsearch_tui.engine.core.secrets import find_secret
from memsearch_tui.engine.history.changes import read_bytes_or_none
from memsearch_tui.engine.sync import guard, threeway
from memsearch_tui.engine.sync.git import NETWORK_TIMEOUT, Git, GitError, shown_url

REMOTE = "origin"
PREFERRED = ("main", "master")


def split_credentials(url: str) -> tuple[str, dict[str, str]]:
    """``url`` without a password (or a token as its user name), and the credential cut
    from it (empty when there was none) in ``git credential``'s fields."""
    if "://" not in url:
        return url, {}
    try:
        parts = urlsplit(url)
        user, password, host = parts.username, parts.password, parts.hostname
    except ValueError:
        return url, {}
    if user is None or (password is None and find_secret(f"https://{user}@x") is None and len(user) < 40):
        return url, {}
    netloc = parts.netloc.rsplit("@", 1)[1]
    kept = "" if password is None else f"{user}@"
    cred = {"protocol": parts.scheme, "host": netloc, "username": user, "password": password or ""}
    if host is None:
        return url, {}
    return urlunsplit((parts.scheme, kept + netloc, parts.path, parts.query, parts.fragment)), cred


def hand_to_helper(g: Git, cred: dict[str, str]) -> str:
    """Give a credential cut from a URL to git's credential helper; a note for the person."""
    if not cred:
        return ""
    if g.run("config", "--get-all", "credential.helper", check=False).returncode != 0:
        return (
            "the password in the URL was not stored (memsearch-tui never stores one) and no git credential "
            "helper is set: set one (`git config --global credential.helper store`, or your keychain's), or "
            "use an SSH remote"
        )
    text = "".join(f"{k}={v}\n" for k, v in cred.items()) + "\n"
    g.run("credential", "approve", input=text.encode(), check=False)
    return "the password in the URL was handed to git's credential helper; memsearch-tui does not store it"


def fetch_all(g: Git, url: str) -> None:
    """Fetch every branch of ``url`` (as ``origin``) into the repository ``g``."""
    have = g.run("remote", "get-url", REMOTE, check=False).returncode == 0
    g.run("remote", "set-url" if have else "add", REMOTE, url)
    try:
        g.run("fetch", "-q", "--no-tags", REMOTE, timeout=NETWORK_TIMEOUT)
    except GitError as exc:
        raise GitError(f"could not reach {shown_url(url)}: {exc.message}", code="unreachable") from None


def branches(g: Git) -> dict[str, str]:
    """The remote's branches as last fetched: name → commit."""
    raw = g.run("for-each-ref", "--format=%(refname:strip=3) %(objectname)", f"refs/remotes/{REMOTE}/", check=False)
    out = {}
    for line in raw.stdout.decode("utf-8", "replace").splitlines():
        name, _, sha = line.partition(" ")
        if name and name != "HEAD" and sha:
            out[name] = sha
    return out


def remote_head(g: Git) -> str:
    """The branch the remote's HEAD names ("" if it names none or cannot be asked)."""
    done = g.run("ls-remote", "--symref", REMOTE, "HEAD", timeout=NETWORK_TIMEOUT, check=False)
    for line in done.stdout.decode("utf-8", "replace").splitlines():
        if line.startswith("ref: refs/heads/") and line.endswith("\tHEAD"):
            return line[len("ref: refs/heads/") : -len("\tHEAD")]
    return ""


def choose_branch(g: Git, fallback: str) -> str:
    """The branch to sync with (see the module doc); ``fallback`` for an empty remote."""
    have = branches(g)
    if not have:
        return fallback
    head = remote_head(g)
    chosen = next((n for n in (head, fallback, *PREFERRED) if n and n in have), None)
    if chosen is None and len(have) == 1:
        chosen = next(iter(have))
    if chosen is None:
        raise Refused(
            f"the remote has {len(have)} branches ({', '.join(repr(b) for b in sorted(have)[:5])}) and none is "
            f"{fallback!r} or its HEAD; point its HEAD at the store's branch",
            code="which_branch",
        )
    why = relpath_reason(chosen)  # a ref name may hold U+009B (a terminal's CSI) or U+202E: never printed raw
    if why is not None:
        raise Refused(
            f"the remote's branch {chosen!r} has {why}; rename it (`git branch -m`) on the remote", code="which_branch"
        )
    return chosen


def point_bare_head(url: str, branch: str) -> None:
    """A bare remote on this machine whose HEAD names no existing branch: point it at ours."""
    path = Path(url[len("file://") :] if url.startswith("file://") else url)
    if "://" in url and not url.startswith("file://") or not path.is_dir():
        return
    bare = Git(path)
    if bare.run("rev-parse", "--is-bare-repository", check=False).stdout.strip() != b"true":
        return
    head = bare.run("symbolic-ref", "-q", "HEAD", check=False).stdout.decode().strip()
    if head and bare.rev(head) is None and bare.rev(f"refs/heads/{branch}"):
        bare.run("symbolic-ref", "HEAD", f"refs/heads/{branch}", check=False)


def clone(root: Path, url: str, g: Git, fallback: str) -> str:
    """Make ``root`` (missing or empty) a checked-out copy of the remote's store; its branch.

    Nothing is left behind on failure: ``root`` is as it was (see :func:`undo_on_failure`)."""
    g.run("init", "-q", "-b", fallback)
    fetch_all(g, url)
    if not branches(g):
        raise Refused(
            f"{shown_url(url)} is empty: run `memsearch-tui sync init --remote URL` first in the store on the "
            "device that has it, then here",
            code="empty_remote",
        )
    branch = choose_branch(g, fallback)
    commit = g.out("rev-parse", "--verify", f"refs/remotes/{REMOTE}/{branch}^{{commit}}")
    files, bad = g.entries(commit)
    guard.refuse_tree(shown_url(url), bad)
    files = {p: s for p, s in files.items() if threeway.synced(p)}
    if INDEX not in files:
        raise Refused(
            f"{shown_url(url)}: its branch {branch} holds no memory store (no {INDEX} at its top); nothing written",
            code="not_a_store",
        )
    data = g.blobs(set(files.values()))
    for rel, sha in sorted(files.items()):
        guard.refuse_writes(root, [rel])
        atomic_write_bytes(root / rel, data[sha])
    g.run("update-ref", f"refs/heads/{branch}", commit)
    g.run("symbolic-ref", "HEAD", f"refs/heads/{branch}")
    g.run("read-tree", commit)
    return branch


@contextlib.contextmanager
def undo_on_failure(root: Path, kept: tuple[str, ...] = ()) -> Iterator[None]:
    """On any exception, put ``root`` back as it was and let the exception go on: a top-level
    name made meanwhile is removed (the folder itself when it did not exist), and each
    ``kept`` path (relative) gets its earlier bytes back, or is removed if it had none."""
    existed = root.exists()
    before = {p.name for p in root.iterdir()} if existed else set()
    saved = {rel: read_bytes_or_none(root / rel) for rel in kept}
    try:
        yield
    except BaseException:
        if not existed:
            shutil.rmtree(root, ignore_errors=True)
            raise
        for p in list(root.iterdir()):
            if p.name not in before:
                if p.is_dir() and not p.is_symlink():
                    shutil.rmtree(p, ignore_errors=True)
                else:
                    p.unlink(missing_ok=True)
        for rel, data in saved.items():
            if data is None:
                (root / rel).unlink(missing_ok=True)
            else:
                atomic_write_bytes(root / rel, data)
        raise
