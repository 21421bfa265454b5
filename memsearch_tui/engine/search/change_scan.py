"""Which files below the memory root changed since a stamp: ``find -cnewer``, started early.

Kept apart from :mod:`.grep_index` with nothing but ``os`` imported, so the CLI can start
the walk (a stat per file, most of a literal search's cost at 10k entries) first thing and
let it run in its own process while Python imports the rest and queries the cache.
"""

from __future__ import annotations

import os
import time

from memsearch_tui.engine.core.state_files import GREP_STAMP, STATE_DIR

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing: this runs before grep
if TYPE_CHECKING:
    from pathlib import Path

STAMP_NAME = GREP_STAMP


class ChangeScan:
    """``find … -cnewer STAMP`` over the store, started at once and collected later.

    The walk (a stat per file) is most of an update's cost. In processes of its own it
    runs while this one imports modules and queries the cache as it stands, split over
    the CPUs by the plan the last update wrote into the stamp (:func:`write_stamp`).
    """

    def __init__(self, memory_root: Path | str) -> None:
        self.root = os.path.realpath(memory_root)
        self.stamp = os.path.join(self.root, STATE_DIR, STAMP_NAME)
        self.started = time.time_ns()
        self.since: int | None = None
        self._running: list[tuple[int, int]] = []  # (pid, read end of its stdout)
        self._failed = False
        if not os.path.isfile(os.path.join(self.root, "INDEX.md")):  # engine.core.paths.INDEX
            return  # no store: nothing below the root is searched, so nothing to walk
        try:
            with open(self.stamp, "rb") as fh:
                plan = read_plan(fh.read())
                self.since = os.fstat(fh.fileno()).st_mtime_ns
        except OSError:
            return
        if os.name != "posix" or not hasattr(os, "posix_spawnp"):
            self._failed = True
            return
        for starts in self._start_points(plan):
            self._spawn(starts)

    def _start_points(self, plan: list[list[str]]) -> list[list[str]]:
        """One list of start points per find: the plan's groups of top-level names that
        still exist (new names show up as a change of the root itself), or the root."""
        groups = []
        for names in plan:
            starts = [os.path.join(self.root, n) for n in names if os.path.lexists(os.path.join(self.root, n))]
            if starts:
                groups.append(starts)
        return groups if len(groups) > 1 else [[self.root]]

    def _spawn(self, starts: list[str]) -> None:
        depth = ["-mindepth", "1"] if starts == [self.root] else []  # the root is checked by itself
        argv = ["find", *starts, *depth, "-name", ".*", "-prune", "-o", "-cnewer", self.stamp, "-print0"]
        r, w = os.pipe()
        try:
            pid = os.posix_spawnp(
                "find",
                argv,
                os.environ,
                file_actions=[
                    (os.POSIX_SPAWN_DUP2, w, 1),
                    (os.POSIX_SPAWN_OPEN, 2, os.devnull, os.O_WRONLY, 0),
                ],
            )
        except OSError:
            os.close(r)
            self._failed = True
        else:
            self._running.append((pid, r))
        finally:
            os.close(w)

    def paths(self) -> list[str] | None:
        """What changed since the stamp (the root included), or None: list everything."""
        found: list[str] = []
        for pid, fd in self._running:
            with os.fdopen(fd, "rb") as out:
                data = out.read()
            _, status = os.waitpid(pid, 0)
            self._failed = self._failed or os.waitstatus_to_exitcode(status) != 0
            found += [p for p in os.fsdecode(data).split("\0") if p]
        self._running = []
        if self._failed or self.since is None:
            return None
        try:
            if os.stat(self.root).st_ctime_ns > self.since:
                found.append(self.root)
        except OSError:
            return None
        return found


def read_plan(data: bytes) -> list[list[str]]:
    """Groups of top-level names from a stamp's content (names end in NUL, groups in NL)."""
    text = os.fsdecode(data)
    return [[n for n in group.split("\0") if n] for group in text.split("\0\n") if group]


def write_stamp(path: str, groups: list[list[str]], since_ns: int) -> int:
    """Write the plan, then set the stamp's mtime to ``since_ns``; return the mtime as
    stored (a file system may round it down, which only makes the next scan wider)."""
    tmp = f"{path}.{os.getpid()}.tmp"
    with open(tmp, "wb") as fh:
        fh.write(os.fsencode("".join("".join(f"{n}\0" for n in g) + "\0\n" for g in groups)))
    os.utime(tmp, ns=(since_ns, since_ns))
    os.replace(tmp, path)
    return os.stat(path).st_mtime_ns


def balance(sizes: dict[str, int], parts: int) -> list[list[str]]:
    """Top-level names in ``parts`` groups of about equal file counts (largest first)."""
    groups: list[list[str]] = [[] for _ in range(max(1, parts))]
    load = [0] * len(groups)
    for name, n in sorted(sizes.items(), key=lambda kv: -kv[1]):
        i = load.index(min(load))
        groups[i].append(name)
        load[i] += n
    return [g for g in groups if g]
