"""The git CLI, bounded: every call has a deadline, no prompt, no hook, no pager.

Sync uses git only to carry files between devices (commits, fetch, push); merging is ours
(:mod:`.threeway`). The store's repository is the user's, but a remote's bytes are not to
be trusted: hooks are switched off (a clone brings none, but a hand-made ``.git`` might),
``ext::`` transports are refused, and the identity is passed per call so nothing depends
on the machine's global git config.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
from dataclasses import dataclass
from pathlib import Path

from memsearch_tui.engine.core.errors import MemsearchError, Refused
from memsearch_tui.engine.sync import guard

DEFAULT_TIMEOUT = 60.0  # seconds for one local git call
NETWORK_TIMEOUT = 120.0  # seconds for a fetch, a push or a clone
MAX_BLOB = 8 * 1024 * 1024  # a file larger than this is not merged by content (entries are ≤ ~1 MB)
# Forced on every call, whatever the repository's or the user's config says: no hook (the
# hooks folder is /dev/null, where no file can be), no fsmonitor command, no attributes
# file, no symlink or submodule checkout, .git spelt any way refused, no ext:: transport.
SAFE_CONFIG = (
    "core.hooksPath=/dev/null",
    "core.fsmonitor=false",
    "core.attributesFile=/dev/null",
    "core.symlinks=false",
    "core.protectNTFS=true",
    "core.protectHFS=true",
    "core.untrackedCache=false",
    "submodule.recurse=false",
    "fetch.recurseSubmodules=false",
    "diff.external=",
    "protocol.ext.allow=never",
    "core.quotePath=false",
    "core.autocrlf=false",
    "merge.renames=true",
    "advice.detachedHead=false",
)
SYMLINK, GITLINK = b"120000", b"160000"


class GitError(MemsearchError):
    """A git call failed; the message names the command and git's own words."""

    code = "git"


@dataclass(frozen=True)
class Identity:
    """Who commits: the device, so a log reads "laptop: add projects/web/alpha"."""

    device: str

    def env(self) -> dict[str, str]:
        name = f"memsearch-tui ({self.device})"
        email = f"{self.device}@memsearch-tui.invalid"
        return {
            "GIT_AUTHOR_NAME": name,
            "GIT_AUTHOR_EMAIL": email,
            "GIT_COMMITTER_NAME": name,
            "GIT_COMMITTER_EMAIL": email,
        }


def git_binary() -> str:
    """The git executable, or a clear refusal when the machine has none."""
    found = shutil.which("git")
    if not found:
        raise Refused("sync needs git, and no `git` is on PATH; install git and try again", code="no_git")
    return found


class Git:
    """git in one work tree (the memory root)."""

    def __init__(self, root: Path, identity: Identity | None = None) -> None:
        self.root = Path(root)
        self.identity = identity

    def _env(self) -> dict[str, str]:
        env = {k: v for k, v in os.environ.items() if not k.startswith("GIT_")}
        env.update(GIT_TERMINAL_PROMPT="0", GIT_ASKPASS="true", SSH_ASKPASS="true", LC_ALL="C")
        env["GIT_SSH_COMMAND"] = os.environ.get("GIT_SSH_COMMAND", "ssh -o BatchMode=yes")
        if self.identity is not None:
            env.update(self.identity.env())
        return env

    def run(
        self,
        *args: str,
        input: bytes | None = None,
        timeout: float = DEFAULT_TIMEOUT,
        check: bool = True,
        cwd: Path | None = None,
    ) -> subprocess.CompletedProcess[bytes]:
        """``git ARGS`` in the root; GitError (naming the command) on failure or time-out."""
        cmd = [git_binary()]
        for item in SAFE_CONFIG:
            cmd += ["-c", item]
        cmd += list(args)
        where = cwd or self.root
        try:
            done = subprocess.run(
                cmd,
                cwd=where,
                input=input,
                capture_output=True,
                timeout=timeout,
                env=self._env(),
                stdin=None if input is not None else subprocess.DEVNULL,
                check=False,
            )
        except subprocess.TimeoutExpired:
            raise GitError(
                f"`git {args[0]}` took longer than {timeout:.0f} s and was stopped", code="git_timeout"
            ) from None
        except OSError as exc:
            raise GitError(f"`git {args[0]}` could not run: {exc.strerror or exc}") from None
        if check and done.returncode != 0:
            raise GitError(f"`git {' '.join(_shown(args))}` failed: {_words(done.stderr)}")
        return done

    def out(self, *args: str, timeout: float = DEFAULT_TIMEOUT) -> str:
        """Standard output of ``git ARGS`` as text, stripped."""
        return self.run(*args, timeout=timeout).stdout.decode("utf-8", "replace").strip()

    # -- questions ---------------------------------------------------------------------
    def is_repo(self) -> bool:
        """Whether the root is the top of its own git work tree (not inside another one)."""
        if not (self.root / ".git").exists():
            return False
        done = self.run("rev-parse", "--show-toplevel", check=False)
        if done.returncode != 0:
            return False
        top = Path(done.stdout.decode("utf-8", "replace").strip())
        return top.resolve() == self.root.resolve()

    def rev(self, ref: str) -> str | None:
        """The commit ``ref`` names, or None."""
        done = self.run("rev-parse", "--verify", "--quiet", f"{ref}^{{commit}}", check=False)
        return done.stdout.decode().strip() or None if done.returncode == 0 else None

    def merge_base(self, a: str, b: str) -> str | None:
        done = self.run("merge-base", a, b, check=False)
        return done.stdout.decode().strip() or None if done.returncode == 0 else None

    def is_ancestor(self, a: str, b: str) -> bool:
        return self.run("merge-base", "--is-ancestor", a, b, check=False).returncode == 0

    def count(self, spec: str) -> int:
        """``git rev-list --count SPEC`` (0 when it names nothing)."""
        done = self.run("rev-list", "--count", spec, check=False)
        return int(done.stdout.decode().strip() or 0) if done.returncode == 0 else 0

    def tree(self, commit: str | None) -> dict[str, str]:
        """path → blob id of every plain file in ``commit`` (empty for None); symlinks,
        gitlinks and unsafe names are left out (:meth:`entries` lists them)."""
        files, _ = self.entries(commit)
        return files

    def entries(self, commit: str | None) -> tuple[dict[str, str], list[tuple[str, str]]]:
        """``commit``'s plain files (path → blob id) and its refused entries (path, why):
        a symbolic link, a gitlink, a name :func:`guard.entry_reason` refuses, a blob over
        :data:`MAX_BLOB` (its size read from the object's header: a compressed bomb is never
        inflated), names that clash on another device, a tree over guard's file or byte bounds."""
        if commit is None:
            return {}, []
        raw = self.run("ls-tree", "-r", "-l", "-z", "--full-tree", commit).stdout
        out: dict[str, str] = {}
        sizes: dict[str, int] = {}
        refused: list[tuple[str, str]] = []
        for rec in raw.split(b"\0"):
            if not rec:
                continue
            head, _, raw_path = rec.partition(b"\t")
            mode, kind, sha, size = head.split()
            path = raw_path.decode("utf-8", "surrogateescape")
            why = guard.entry_reason(path, mode.decode())
            if why is None and kind == b"blob" and int(size) > MAX_BLOB:  # read from the header, not the bytes
                why = f"{int(size):,} bytes, over the {MAX_BLOB:,}-byte bound"
            if why is not None:
                refused.append((path, why))
            elif kind == b"blob":
                out[path] = sha.decode()
                sizes[path] = int(size)
        return out, refused + guard.clashes(out) + guard.over_bounds(sizes)

    def blobs(self, shas: set[str]) -> dict[str, bytes]:
        """The bytes of many blobs in one ``cat-file --batch`` call."""
        if not shas:
            return {}
        order = sorted(shas)
        raw = self.run("cat-file", "--batch", input=("\n".join(order) + "\n").encode()).stdout
        out: dict[str, bytes] = {}
        pos = 0
        for sha in order:
            nl = raw.index(b"\n", pos)
            header = raw[pos:nl].split(b" ")
            if len(header) != 3:
                raise GitError(f"git has no object {sha}")
            size = int(header[2])
            if size > MAX_BLOB:
                raise GitError(f"a file of {size:,} bytes in the repository is over the {MAX_BLOB:,}-byte bound")
            out[sha] = raw[nl + 1 : nl + 1 + size]
            pos = nl + 1 + size + 1
        return out

    def renames(self, base: str | None, commit: str) -> dict[str, str]:
        """Files ``commit`` renamed since ``base``: old path → new path (git's detection)."""
        if base is None:
            return {}
        raw = self.run("diff", "--no-ext-diff", "--no-textconv", "--name-status", "-z", "-M50%", base, commit).stdout
        parts = [p.decode("utf-8", "surrogateescape") for p in raw.split(b"\0") if p]
        out: dict[str, str] = {}
        i = 0
        while i < len(parts):
            status = parts[i]
            if status.startswith("R") and i + 2 < len(parts):
                out[parts[i + 1]] = parts[i + 2]
                i += 3
            elif status.startswith("C"):
                i += 3
            else:
                i += 2
        return out

    def unmerged(self) -> list[str]:
        """Paths git itself left unmerged (a merge started by hand)."""
        raw = self.run("ls-files", "--unmerged", "-z", check=False).stdout  # the index only: no file is read
        return sorted({p.split(b"\t", 1)[-1].decode("utf-8", "replace") for p in raw.split(b"\0") if p})

    def git_dir(self) -> Path:
        return Path(self.root, self.out("rev-parse", "--git-dir"))


def shown_url(url: str) -> str:
    """A URL as shown in a message: everything before its last ``@`` (a user, a password,
    which may itself hold ``@``) is never echoed."""
    scheme, sep, rest = url.rpartition("://")
    if "@" in rest:
        return f"{scheme}{sep}…@{rest.rsplit('@', 1)[1]}"
    return url


def _shown(args: tuple[str, ...]) -> list[str]:
    """Arguments as shown in a message (URLs through :func:`shown_url`)."""
    return [shown_url(a) for a in args]


def _words(stderr: bytes) -> str:
    """git's own error words, short, with any credential in a URL masked: its ``fatal:`` or
    ``error:`` lines when it gave any (the advice after them is long), else its last lines.
    A lock file left by a killed git is named with what to do."""
    text = [ln.strip() for ln in stderr.decode("utf-8", "replace").splitlines() if ln.strip()]
    lock = next((m.group(1) for ln in text if (m := _LOCK.search(ln))), None)
    if lock is not None:
        return (
            f"{lock} exists: another git command is running in this repository, or one was killed; "
            "if none is running, remove that file and sync again"
        )
    said = [ln for ln in text if ln.startswith(("fatal: ", "error: "))][:2] or text[-3:]
    lines = [ln.removeprefix("fatal: ").removeprefix("error: ") for ln in said]
    return " ".join(_shown(tuple(lines))) or "no message"


_LOCK = re.compile(r"Unable to create '([^']+\.lock)': File exists")
