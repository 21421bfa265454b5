"""The read-only tool offered to API models: list, find, grep and read memory files.

The model's arguments are untrusted text (journals can carry prompt injections), so the
tool is an interpreter, not a shell: it parses the command with ``shlex``, checks every
option against a per-command allow-list and every path against the allowed roots (after
resolving symlinks), then does the work in Python. Nothing is ever executed, nothing is
ever written. Every refusal is returned as text starting ``Error:`` so the model can
correct itself; the function never raises.
"""

from __future__ import annotations

import fnmatch
import os
import re
import shlex
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from memsearch_tui.engine.core.contained import within
from memsearch_tui.engine.core.safe_io import open_regular

MAX_COMMAND_CHARS = 1000
MAX_ARG_CHARS = 256
MAX_OUTPUT_CHARS = 12_000
MAX_FILES = 2000
MAX_FILE_BYTES = 512_000
GREP_MAX_BYTES = 16_000_000  # characters one grep may read across files
GREP_MAX_S = 5.0  # and seconds it may take
GREP_MAX_MEM = 8 << 20  # RE2's memory for one compiled pattern
METACHARS = re.compile(r"[|;&<>`$(){}\\\n\r\x00]")

TOOL_NAME = "read_memory"
TOOL_DESCRIPTION = (
    "Read-only look at the memory journals. One command per call: "
    "`ls [DIR]`, `find [DIR] [-name GLOB] [-type f|d] [-maxdepth N]`, "
    "`grep [-i] [-n] [-l] [-c] [-r] [-F] [-e] PATTERN [PATH…]`, `cat FILE`, "
    "`head [-n N] FILE`, `tail [-n N] FILE`. Paths are relative to the journal folder; "
    "nothing outside it can be read and nothing can be written."
)


class Refusal(Exception):
    pass


@dataclass
class Sandbox:
    """The roots a tool call may read; the first is where relative paths start."""

    roots: list[Path]

    def __post_init__(self) -> None:
        self.roots = list(dict.fromkeys(Path(r).resolve() for r in self.roots))
        too_wide = {Path("/").resolve(), Path.home().resolve()}
        for root in self.roots:  # resolved: a link to / or ~ is judged by where it leads
            if root in too_wide:
                from memsearch_tui.engine.core.errors import Refused

                raise Refused(f"the read tool may not be rooted at {root}; name a journal folder", path=str(root))

    def run(self, command: str) -> str:
        """Run one read-only command; always returns text (``Error: …`` when refused)."""
        try:
            argv = self._split(command)
            handler = _COMMANDS.get(argv[0])
            if handler is None:
                raise Refusal(f"command {argv[0]!r} is not allowed; use ls, find, grep, cat, head or tail")
            out = handler(self, argv[1:])
        except Refusal as exc:
            return f"Error: {exc}"
        except re.error as exc:
            return f"Error: invalid pattern ({exc})"
        except OSError as exc:
            return f"Error: {exc.strerror or exc}"
        return _cap(out)

    # -- parsing and path checks -------------------------------------------------------
    def _split(self, command: str) -> list[str]:
        if not isinstance(command, str) or not command.strip():
            raise Refusal("empty command")
        if len(command) > MAX_COMMAND_CHARS:
            raise Refusal(f"command longer than {MAX_COMMAND_CHARS} characters")
        if METACHARS.search(command):
            raise Refusal("shell metacharacters are not allowed")
        try:
            argv = shlex.split(command)
        except ValueError as exc:
            raise Refusal(str(exc)) from None
        if not argv:
            raise Refusal("empty command")
        for arg in argv:
            if len(arg) > MAX_ARG_CHARS:
                raise Refusal(f"argument longer than {MAX_ARG_CHARS} characters")
        return argv

    def path(self, raw: str) -> Path:
        """``raw`` resolved (symlinks followed) and proven inside a root."""
        if raw.startswith("~"):
            raise Refusal(f"path {raw!r} is outside the memory folders")
        p = Path(raw)
        full = p if p.is_absolute() else self.roots[0] / p
        if not within(self.roots, full):  # the one containment rule (engine/core/contained.py)
            raise Refusal(f"path {raw!r} is outside the memory folders")
        return full.resolve()

    def walk(self, start: Path, maxdepth: int = 20) -> list[Path]:
        """Everything under ``start`` that resolves inside a root (symlinked dirs not entered)."""
        if not start.is_dir():
            return [start]
        found: list[Path] = []
        base_depth = len(start.parts)
        for folder, dirs, files in os.walk(start, followlinks=False):
            depth = len(Path(folder).parts) - base_depth
            if depth >= maxdepth:
                dirs[:] = []
            dirs.sort()
            for name in sorted(dirs) + sorted(files):
                item = Path(folder) / name
                if self._inside(item):
                    found.append(item)
                if len(found) >= MAX_FILES:
                    return found
        return found

    def _inside(self, item: Path) -> bool:
        return within(self.roots, item)

    def show(self, p: Path) -> str:
        for r in self.roots:
            if p == r or r in p.parents:
                rel = p.relative_to(r)
                return str(rel) if str(rel) != "." else "."
        return p.name


def _options(args: list[str], flags: set[str], valued: set[str]) -> tuple[dict[str, str | bool], list[str]]:
    """Split ``args`` into allowed options and operands; any other option is refused."""
    opts: dict[str, str | bool] = {}
    rest: list[str] = []
    it = iter(args)
    for arg in it:
        if arg.startswith("--") and "=" in arg and arg.split("=", 1)[0] in valued:
            key, value = arg.split("=", 1)
            opts[key] = value
        elif arg in valued:
            following = next(it, None)
            if following is None:
                raise Refusal(f"option {arg} needs a value")
            opts[arg] = following
        elif arg in flags:
            opts[arg] = True
        elif (
            arg.startswith("-") and len(arg) > 2 and not arg.startswith("--") and all(f"-{c}" in flags for c in arg[1:])
        ):
            opts.update({f"-{c}": True for c in arg[1:]})
        elif arg.startswith("-") and arg != "-":
            raise Refusal(f"option {arg!r} is not allowed")
        else:
            rest.append(arg)
    return opts, rest


def _read_text(p: Path) -> str:
    try:
        with open_regular(p) as fh:  # a FIFO never blocks the task
            data = fh.read(MAX_FILE_BYTES)
    except OSError:
        raise Refusal(f"{p.name!r} is not a file") from None
    return data.decode("utf-8", errors="replace")


def _ls(sb: Sandbox, args: list[str]) -> str:
    _, rest = _options(args, {"-l", "-a", "-1"}, set())
    target = sb.path(rest[0]) if rest else sb.roots[0]
    if not target.is_dir():
        return sb.show(target)
    names = sorted(p.name + ("/" if p.is_dir() else "") for p in target.iterdir() if sb._inside(p))
    return "\n".join(names)


def _find(sb: Sandbox, args: list[str]) -> str:
    opts, rest = _options(args, set(), {"-name", "-iname", "-type", "-maxdepth"})
    starts = [sb.path(r) for r in rest] or [sb.roots[0]]
    kind = opts.get("-type")
    if kind not in (None, "f", "d"):
        raise Refusal("-type must be f or d")
    depth = str(opts.get("-maxdepth", "20"))
    if not depth.isdigit():
        raise Refusal("-maxdepth must be a number")
    out = []
    for start in starts:
        for p in sb.walk(start, int(depth)):
            if kind == "f" and not p.is_file() or kind == "d" and not p.is_dir():
                continue
            if "-name" in opts and not fnmatch.fnmatchcase(p.name, str(opts["-name"])):
                continue
            if "-iname" in opts and not fnmatch.fnmatch(p.name.lower(), str(opts["-iname"]).lower()):
                continue
            out.append(sb.show(p))
    return "\n".join(out)


def _grep(sb: Sandbox, args: list[str]) -> str:
    opts, rest = _options(
        args, {"-i", "-n", "-l", "-c", "-r", "-R", "-F", "-H", "-h", "-v", "-w"}, {"-e", "--include", "-m"}
    )
    pattern = opts.get("-e") or (rest.pop(0) if rest else None)
    if not isinstance(pattern, str) or not pattern:
        raise Refusal("grep needs a pattern")
    rx = _compile(pattern, fixed=bool(opts.get("-F")), word=bool(opts.get("-w")), fold=bool(opts.get("-i")))
    targets = [sb.path(r) for r in rest] or [sb.roots[0]]
    files = [p for t in targets for p in sb.walk(t) if p.is_file()]
    if "--include" in opts:
        files = [p for p in files if fnmatch.fnmatchcase(p.name, str(opts["--include"]))]
    limit = int(opts["-m"]) if str(opts.get("-m", "")).isdigit() else None
    invert = bool(opts.get("-v"))
    out: list[str] = []
    budget = _Budget()
    for p in files:
        text = _read_text(p)
        if budget.spend(len(text)):
            if not out:
                raise GrepBudgetExceeded(f"grep stopped: {budget.why}")
            out.append(f"[grep stopped: {budget.why}]")
            break
        if not invert and rx.search(text) is None:  # one linear pass rejects a file with no match
            out += [f"{sb.show(p)}:0"] if opts.get("-c") else []
            continue
        hits = [(i, line) for i, line in enumerate(text.splitlines(), 1) if (rx.search(line) is None) == invert][:limit]
        if opts.get("-l"):
            out += [sb.show(p)] if hits else []
        elif opts.get("-c"):
            out.append(f"{sb.show(p)}:{len(hits)}")
        else:
            prefix = "" if opts.get("-h") else f"{sb.show(p)}:"
            out += [f"{prefix}{i}:{line}" if opts.get("-n") else f"{prefix}{line}" for i, line in hits]
        if sum(len(o) for o in out) > MAX_OUTPUT_CHARS:
            break
    return "\n".join(out)


class GrepBudgetExceeded(Refusal):
    """The model's search would read more than ``GREP_MAX_BYTES`` or run past ``GREP_MAX_S``."""


@dataclass
class _Budget:
    """What one ``grep`` may read and how long it may take (its pattern is linear-time)."""

    read: int = 0
    started: float = 0.0
    why: str = ""

    def spend(self, chars: int) -> bool:
        """Count ``chars`` more; True (with ``why``) once the search must stop."""
        now = time.monotonic()
        self.started = self.started or now
        self.read += chars
        if self.read > GREP_MAX_BYTES:
            self.why = f"it would read more than {GREP_MAX_BYTES:,} characters; narrow the path"
        elif now - self.started > GREP_MAX_S:
            self.why = f"time budget of {GREP_MAX_S:g}s spent; narrow the path or the pattern"
        return bool(self.why)


def _compile(pattern: str, *, fixed: bool, word: bool, fold: bool) -> Any:  # an re2 pattern (re2 is untyped)
    """The model's pattern as an RE2 regex: matching is linear in the text whatever the
    pattern (no catastrophic backtracking), in bounded memory. Back-references and
    look-around are not RE2 syntax: refused with a message the model can act on."""
    import re2  # only when the model greps

    source = re2.escape(pattern) if fixed else pattern
    if word:
        source = rf"\b(?:{source})\b"
    opts = re2.Options()
    opts.case_sensitive = not fold
    opts.max_mem = GREP_MAX_MEM
    opts.log_errors = False
    try:
        return re2.compile(source, opts)
    except re2.error as exc:
        detail = exc.args[0].decode("utf-8", "replace") if exc.args and isinstance(exc.args[0], bytes) else str(exc)
        raise Refusal(f"invalid pattern ({detail}); RE2 syntax: no back-references or look-around, or use -F") from None


def _cat(sb: Sandbox, args: list[str]) -> str:
    _, rest = _options(args, set(), set())
    if not rest:
        raise Refusal("cat needs a file")
    return "\n".join(_read_text(sb.path(r)) for r in rest)


def _head_tail(tail: bool) -> Callable[[Sandbox, list[str]], str]:
    def run(sb: Sandbox, args: list[str]) -> str:
        opts, rest = _options(args, set(), {"-n"})
        n = str(opts.get("-n", "10"))
        if not n.isdigit():
            raise Refusal("-n must be a number")
        if len(rest) != 1:
            raise Refusal("give exactly one file")
        lines = _read_text(sb.path(rest[0])).splitlines()
        return "\n".join(lines[-int(n) :] if tail and int(n) else lines[: int(n)] if not tail else [])

    return run


_COMMANDS = {
    "ls": _ls,
    "list": _ls,
    "find": _find,
    "grep": _grep,
    "cat": _cat,
    "read": _cat,
    "head": _head_tail(False),
    "tail": _head_tail(True),
}


def _cap(text: str) -> str:
    if len(text) <= MAX_OUTPUT_CHARS:
        return text or "(no output)"
    return text[:MAX_OUTPUT_CHARS] + f"\n[output truncated at {MAX_OUTPUT_CHARS} characters]"
