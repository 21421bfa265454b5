"""Who may decide what: the user's own config is trusted, a project's ``.memsearch.toml`` is not.

A project file arrives with whatever repository an agent happens to work in, and hooks act
on it unattended. So, unless the user trusted that one project (``memsearch-tui trust
PROJECT`` records its real path in the user's config), a project file may only *choose
among what the user's config already allows*: switch a task on or off, set its interval,
and name input/output paths that stay inside the project after ``~``, ``env:`` and every
symlink are resolved. Everything else it says is ignored and reported (never silently).

Paths are checked again where they are used (:func:`task_paths`), because a repository can
also ship a ``.memsearch`` symlink that leads out of the project.
"""

from __future__ import annotations

import os
import re
from pathlib import Path
from typing import Any

from memsearch_tui.engine.core.errors import Refused
from memsearch_tui.engine.core.paths import inside

ENV_PREFIX = "env:"
PROJECT_TASK_KEYS = ("enabled", "min_interval_hours", "input_dir", "output_file")
PATH_KEYS = ("input_dir", "output_file")
TRUSTED_KEY = "trusted_projects"
# what a project's file may set in [tui]: look and feel, and [tui.budget] (lower only: config._lower_only)
PROJECT_TUI_KEYS = ("keymap", "theme", "budget")
_WHY = {
    "milvus": "send the vector store elsewhere",
    "embedding": "choose the embedding model",
    "llm": "choose a provider, command, base URL, API key or model",
    "prompts": "replace the task prompts",
    "tui": "change memsearch-tui's own settings (review, trust, search)",
}
#: memsearch 0.4.23's ``_PROJECT_CONFIG_ALLOWED_PATHS``: the keys memsearch itself reads from a
#: project's file (``native_config``). Of these, ``[milvus] collection`` and ``[embedding]
#: batch_size`` are not ours to obey, but they are not ignored either: memsearch's ``index``
#: follows them, and so does our scrub of memsearch's index.
MEMSEARCH_PROJECT_KEYS = frozenset(
    {
        ("milvus", "collection"),
        ("embedding", "batch_size"),
        ("chunking", "max_chunk_size"),
        ("chunking", "overlap_lines"),
        ("indexing", "ignore_files"),
        ("indexing", "exclude"),
        ("watch", "debounce_ms"),
    }
)
_NAME = re.compile(r"[A-Za-z0-9_-]{1,64}")
_TASK_WHY = {
    "provider": "choose a provider",
    "model": "choose a model",
}


def real(path: Path | str) -> Path:
    """``path`` with ``~`` expanded and every symlink resolved (what the OS will really open)."""
    return Path(os.path.realpath(Path(path).expanduser()))


def _within(path: Path | str, root: Path | str) -> bool:
    """True when ``path`` is ``root`` or below it, both with ``~`` expanded and resolved."""
    return inside(real(root), real(path))


def trusted_by(project: Path, home_data: dict[str, Any] | None) -> str:
    """Why the user's config trusts this project's file, or ``""`` when it does not."""
    tui = (home_data or {}).get("tui")
    if not isinstance(tui, dict):
        return ""
    if tui.get("trust_project_config") is True:
        return "[tui] trust_project_config = true in the user's config"
    listed = tui.get(TRUSTED_KEY)
    if isinstance(listed, list) and real(project) in {real(x) for x in listed if isinstance(x, str) and x}:
        return f"{real(project)} is listed in [tui] {TRUSTED_KEY} of the user's config"
    return ""


def filter_project(data: dict[str, Any], path: Path, project: Path, ignored: list[str]) -> dict[str, Any]:
    """The part of an untrusted project file we obey; one line per ignored key in ``ignored``."""
    out: dict[str, Any] = {}
    hint = f"run `memsearch-tui trust {real(project)}` from outside the project to allow"
    for top, value in data.items():
        if top == "plugins" and isinstance(value, dict):
            out["plugins"] = _filter_plugins(value, path, project, ignored, hint)
        elif top == "tui" and isinstance(value, dict):
            kept = {k: v for k, v in value.items() if k in PROJECT_TUI_KEYS}
            if kept:
                out["tui"] = kept
            for key in _leaves({k: v for k, v in value.items() if k not in PROJECT_TUI_KEYS}, (top,)):
                ignored.append(f"{path}: ignored {key} (a project file may not {_WHY[top]}; {hint})")
        elif top in _WHY:
            for key in _leaves(value, (top,)):
                if tuple(key.split(".")) in MEMSEARCH_PROJECT_KEYS:
                    ignored.append(
                        f"{path}: {key} is memsearch's: its `index` and memsearch-tui's scrub of memsearch's "
                        f"index follow it; memsearch-tui's own search does not (a project file may not "
                        f"{_WHY[top]}; {hint})"
                    )
                else:
                    ignored.append(f"{path}: ignored {key} (a project file may not {_WHY[top]}; {hint})")
        else:
            out[top] = value  # memsearch's own tables we never read (chunking, …)
    return out


def _filter_plugins(
    plugins: dict[str, Any], path: Path, project: Path, ignored: list[str], hint: str
) -> dict[str, Any]:
    kept: dict[str, Any] = {}
    for platform, tasks in plugins.items():
        if not isinstance(tasks, dict):
            continue
        if not _NAME.fullmatch(platform):  # it names lock and state keys: no path characters
            ignored.append(f"{path}: ignored plugins.{platform!r} (not a platform name; {hint})")
            continue
        for task, table in tasks.items():
            if not isinstance(table, dict):
                continue
            for key, value in table.items():
                dotted = f"plugins.{platform}.{task}.{key}"
                problem = _task_key_problem(key, value, project)
                if problem:
                    ignored.append(f"{path}: ignored {dotted} ({problem}; {hint})")
                else:
                    kept.setdefault(platform, {}).setdefault(task, {})[key] = value
    return kept


def _task_key_problem(key: str, value: Any, project: Path) -> str:
    """Why a project file may not set ``key`` of a task table to ``value`` (``""``: it may)."""
    if key not in PROJECT_TASK_KEYS:
        return f"a project file may not {_TASK_WHY.get(key, f'set {key}')}"
    if isinstance(value, str) and value.startswith(ENV_PREFIX):
        return "a project file may not read environment variables"
    if key in PATH_KEYS and isinstance(value, str):
        if not path_inside_project(value, project):
            return "a project file may only name paths inside the project (after resolving ~ and symlinks)"
        return _path_shape_problem(key, real(real(project) / value), real(project))
    return ""


def _path_shape_problem(key: str, resolved: Path, project: Path) -> str:
    """Inside the project but still not a project file's to name: the whole project or ``.git``
    as the model's readable input (``.env``, tokens in ``.git/config``), or an output that is
    not a Markdown file (``.git/hooks/pre-commit``)."""
    rel = resolved.relative_to(project).parts
    if ".git" in rel:
        return "a project file may not name a path inside .git"
    if key == "input_dir" and not rel:
        return "a project file may not make the whole project the task's input"
    if key == "output_file" and resolved.suffix.lower() != ".md":
        return "a project file may only name a Markdown (.md) output file"
    return ""


def path_inside_project(value: str, project: Path) -> bool:
    """A path from a project file: relative, no ``~``, and inside once every symlink is followed."""
    if not value or value.startswith("~") or Path(value).is_absolute():
        return False
    return _within(real(project) / value, project)


def _leaves(value: Any, prefix: tuple[str, ...]) -> list[str]:
    if isinstance(value, dict):
        return [leaf for k, v in value.items() for leaf in _leaves(v, (*prefix, str(k)))]
    return [".".join(prefix)]


# -- where a task reads and writes ----------------------------------------------------------
def resolve_task_path(raw: str, project: Path, memsearch_dir: Path) -> Path:
    """memsearch's rule: the literal default ``.memsearch/memory`` follows ``MEMSEARCH_DIR``;
    anything else is relative to the project (``~`` expanded). Symlinks are resolved."""
    if raw == ".memsearch/memory":
        return real(Path(memsearch_dir) / "memory")
    path = Path(raw).expanduser()
    if not path.is_absolute():
        path = Path(project) / path
    return real(path)


def allowed_roots(project: Path) -> list[Path]:
    """Where a path that the user did not choose may lead: the project, and ``$MEMSEARCH_DIR``
    (the user's own environment) when set."""
    roots = [real(project)]
    env = os.environ.get("MEMSEARCH_DIR")
    if env and Path(env).expanduser().is_absolute():
        roots.append(real(env))
    return roots


def check_path(path: Path, project: Path, what: str) -> Path:
    """Raise :class:`Refused` unless resolved ``path`` lies in :func:`allowed_roots`."""
    resolved = real(path)
    if any(resolved == r or r in resolved.parents for r in allowed_roots(project)):
        return resolved
    raise Refused(
        f"{what} resolves to {resolved}, outside the project {real(project)}; refused "
        f"(set it in ~/.memsearch/config.toml, or `memsearch-tui trust {real(project)}`)",
        path=str(resolved),
    )


def task_locations(
    project: Path, input_dir: str, output_file: str, user_paths: frozenset[str] | set[str] = frozenset()
) -> tuple[Path, Path, Path]:
    """``(memsearch dir, input folder, output file)`` of one task, resolved and checked.

    The memsearch folder and every path the user did not choose themselves must stay in the
    project (or ``$MEMSEARCH_DIR``) once symlinks are followed — a repository can ship a
    ``.memsearch`` symlink to ``/`` as easily as a bad config value. Raises :class:`Refused`.
    """
    from memsearch_tui.engine.memsearch.project import memsearch_dir

    mem = memsearch_dir(Path(project))
    mem = check_path(mem, project, "the memsearch folder") if not os.environ.get("MEMSEARCH_DIR") else real(mem)
    src = resolve_task_path(input_dir, project, mem)
    out = resolve_task_path(output_file, project, mem)
    for key, raw, resolved in (("input_dir", input_dir, src), ("output_file", output_file, out)):
        if key in user_paths:
            continue
        check_path(resolved, project, f"{key} {raw!r}")
        problem = _path_shape_problem(key, resolved, real(project)) if _within(resolved, project) else ""
        if problem:  # e.g. PROJECT.md shipped as a link to .git/hooks/pre-commit
            raise Refused(f"{key} {raw!r} resolves to {resolved}: {problem}", path=str(resolved))
    return mem, src, out


def sandbox_roots(project: Path, mem: Path, input_dir: Path) -> list[Path]:
    """What the model's read tool may see: the task's (checked) input folder, and the journal
    folder only when it resolves inside the project too (``.memsearch/memory`` can be a link)."""
    roots = [input_dir]
    try:
        roots.insert(0, check_path(mem / "memory", project, "the journal folder"))
    except Refused:
        pass
    return roots


# -- the user's explicit opt-in --------------------------------------------------------------
def set_trusted(home_file: Path, project: Path, trusted: bool = True) -> list[str]:
    """Add (or remove) ``project``'s real path in ``[tui] trusted_projects`` of the user's
    config, keeping the file's comments; returns the new list. Refuses when run from inside
    the project (an agent working there, or a hook, must not be able to trust it)."""
    import tomlkit
    from tomlkit.exceptions import TOMLKitError

    from memsearch_tui.engine.core.atomic import atomic_write_through_links
    from memsearch_tui.engine.core.errors import InvalidInput

    where = real(project)
    if not where.is_dir():
        raise InvalidInput(f"{where} is not a folder")
    inside_it = _caller_inside(where)
    if trusted and (inside_it or os.environ.get("MEMSEARCH_TUI_IN_MAINTENANCE")):
        raise Refused(
            f"refusing to trust {where} from inside it{inside_it}; "
            f"run `memsearch-tui trust {where}` from a shell that works elsewhere"
        )
    if _within(home_file, where):
        raise Refused(f"the user's config {home_file} lies inside {where}; a project cannot be trusted from there")
    try:
        text = Path(home_file).read_text(encoding="utf-8")
    except FileNotFoundError:
        text = ""
    try:
        doc = tomlkit.parse(text)
    except TOMLKitError as exc:
        raise InvalidInput(f"{home_file}: invalid TOML: {exc}") from None
    tui = doc.get("tui")
    if tui is None:
        tui = doc["tui"] = tomlkit.table()
    if not isinstance(tui, dict):
        raise InvalidInput(f"{home_file}: tui is not a table")
    current = [str(x) for x in tui.get(TRUSTED_KEY, []) if isinstance(x, str)]
    wanted = [x for x in current if x != str(where)] + ([str(where)] if trusted else [])
    if wanted:
        tui[TRUSTED_KEY] = wanted
    elif TRUSTED_KEY in tui:
        del tui[TRUSTED_KEY]
    Path(home_file).parent.mkdir(parents=True, exist_ok=True)
    atomic_write_through_links(Path(home_file), tomlkit.dumps(doc))
    return wanted


MAX_ANCESTORS = 64


def _caller_inside(where: Path) -> str:
    """Why this command counts as run from inside ``where`` (``""``: it does not).

    Inside means this process's working folder, or that of any process above it, lies in
    ``where`` once both are resolved: ``(cd / && memsearch-tui trust $PWD)`` from an agent's
    shell in the project moves only the subshell, while the shell that ran it (the agent's)
    still works in the project. Read from ``/proc``; where there is none, the working folder
    alone is checked."""
    if _within(Path.cwd(), where):
        return " (the working folder is in it)"
    for pid, cwd in _ancestor_folders():
        if _within(cwd, where):
            return f" (process {pid}, which started this one, works in {real(cwd)})"
    return ""


def _ancestor_folders() -> list[tuple[int, Path]]:
    """(pid, working folder) of each process above this one, nearest first, as far as /proc
    lets this user see (another user's process is skipped, never guessed)."""
    out: list[tuple[int, Path]] = []
    pid = os.getppid()
    for _ in range(MAX_ANCESTORS):
        if pid <= 1:
            break
        try:
            out.append((pid, Path(os.readlink(f"/proc/{pid}/cwd"))))
        except OSError:
            pass
        try:
            with open(f"/proc/{pid}/stat", "rb") as fh:
                stat = fh.read(4096)
            pid = int(stat.rsplit(b")", 1)[1].split()[1])  # the field after the state: ppid
        except (OSError, ValueError, IndexError):
            break
    return out


def trusted_list(home_data: dict[str, Any] | None) -> list[str]:
    """The projects the user trusted explicitly (real paths)."""
    tui = (home_data or {}).get("tui")
    listed = tui.get(TRUSTED_KEY) if isinstance(tui, dict) else None
    return [x for x in listed if isinstance(x, str)] if isinstance(listed, list) else []
