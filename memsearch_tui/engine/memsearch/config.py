"""memsearch-compatible configuration: defaults → ~/.memsearch/config.toml → <project>/.memsearch.toml → flags.

The files are memsearch's own, so a memsearch user keeps one config. Our settings live in
the ``[tui]`` table of the same files (memsearch ignores unknown tables).

Three rules beyond memsearch's:

* Every value is type-checked. Invalid TOML raises ``InvalidInput`` naming the file and
  line; a value of the wrong type disables *its section only* (one task, one provider,
  ``[milvus]``, …): the section falls back to its defaults, is refused where it is used,
  and ``Config.problems`` names the file, the dotted key and the line for ``doctor``.
  memsearch's truthy strings (``enabled = "yes"``/``"true"``) are accepted for ``enabled``.
* A project file comes with the repository you cloned, and hooks run it unattended, so it
  is untrusted (see :mod:`memsearch_tui.engine.memsearch.trust`): it may switch tasks on or
  off, set their interval and name paths inside the project — nothing else. Every key it
  may not set is ignored and listed in ``Config.warnings`` (reported once on stderr by the
  CLI, and by ``doctor``), unless the user trusted that project from their own config.
* ``env:VAR`` values are the user's: they are resolved in the user's file and in flags,
  never in an untrusted project file.

An ``env:VAR`` whose variable is unset stays the literal string, is listed in
``Config.unresolved`` and only fails when the value is actually used (so an unused
provider's missing key breaks nothing).
"""

from __future__ import annotations

import copy
import json
import os
import re
import tomllib
from dataclasses import field
from pathlib import Path
from typing import Any

from memsearch_tui.engine.core import notices
from memsearch_tui.engine.core.errors import InvalidInput
from memsearch_tui.engine.core.record import record
from memsearch_tui.engine.core.safe_io import read_capped
from memsearch_tui.engine.core.text import plural
from memsearch_tui.engine.memsearch import trust as trust_mod

TASKS = ("project_review", "user_profile")
# memsearch's background skill distillation: its own keys (no output_file; min_occurrences,
# paths), its own runner (engine/maintenance/skills.py). TASKS stays the two file rewrites.
SKILL_TASK = "memory_to_skill"
ALL_TASKS = (*TASKS, SKILL_TASK)
PROMPT_SOURCES = ("memsearch", "memsearch-tui")  # [tui] prompts: whose task texts to use
KNOWN_PLATFORMS = ("claude-code", "codex", "opencode", "openclaw")
PROVIDER_TYPES = ("native", "command", "openai", "openai-compatible", "anthropic", "gemini")
ENV_PREFIX = "env:"
PROJECT_FILE = ".memsearch.toml"
MAX_CONFIG_BYTES = 1_000_000  # a config file is read whole and refused past this

TASK_DEFAULTS: dict[str, dict[str, Any]] = {
    task: {
        "enabled": False,
        "provider": "native",
        "model": "",
        "min_interval_hours": 24,
        "input_dir": ".memsearch/memory",
        "output_file": f".memsearch/{'PROJECT' if task == 'project_review' else 'USER'}.md",
    }
    for task in TASKS
}

SKILL_DEFAULTS: dict[str, Any] = {
    "enabled": False,
    "provider": "native",
    "model": "",
    "min_interval_hours": 24,
    "input_dir": ".memsearch/memory",
    "min_occurrences": 3,
    "paths": [],
}

DEFAULTS: dict[str, Any] = {
    "milvus": {"uri": "~/.memsearch/milvus.db", "token": "", "collection": "memsearch_chunks"},
    "embedding": {"provider": "", "model": ""},
    "llm": {"providers": {}},
    "prompts": {"project_review": "", "user_profile": "", SKILL_TASK: ""},
    "plugins": {},
    "tui": {"review": True, "trust_project_config": False},
}

_STR, _BOOL, _NUM, _STRLIST = "string", "boolean", "number", "list of strings"
BUDGET_LIMITS = ("daily_tokens", "monthly_tokens", "daily_cost", "monthly_cost")  # engine/maintenance/budget.py
_SKILL_TYPES = {  # paths may be empty ([] = ask the person), so it is checked by skill_task
    "enabled": _BOOL,
    "provider": _STR,
    "model": _STR,
    "min_interval_hours": _NUM,
    "input_dir": _STR,
    "min_occurrences": _NUM,
}
_PATHS = "list of paths"  # like _STRLIST, but may be empty

# Expected type per key pattern ("*" matches one name). Unknown keys pass unchecked:
# memsearch has more settings than we read and we must not reject a valid memsearch file.
_SCHEMA: dict[tuple[str, ...], str] = {
    ("milvus", "uri"): _STR,
    ("milvus", "token"): _STR,
    ("milvus", "collection"): _STR,
    ("embedding", "provider"): _STR,
    ("embedding", "model"): _STR,
    ("llm", "providers", "*", "type"): _STR,
    ("llm", "providers", "*", "model"): _STR,
    ("llm", "providers", "*", "base_url"): _STR,
    ("llm", "providers", "*", "api_key"): _STR,
    ("llm", "providers", "*", "command"): _STRLIST,
    ("llm", "providers", "*", "timeout_s"): _NUM,
    ("prompts", "project_review"): _STR,
    ("prompts", "user_profile"): _STR,
    ("prompts", SKILL_TASK): _STR,
    ("tui", "prompts"): _STR,
    ("tui", "review"): _BOOL,
    ("tui", "trust_project_config"): _BOOL,
    ("tui", "trusted_projects"): _PATHS,
    **{("tui", "budget", k): _NUM for k in (*BUDGET_LIMITS, "max_tokens_per_run")},
    **{("tui", "budget", t, "max_tokens_per_run"): _NUM for t in ALL_TASKS},
    ("tui", "hygiene", "llm_check"): _BOOL,  # the optional LLM contradiction check (engine/hygiene/llm_check)
    ("tui", "hygiene", "provider"): _STR,
    ("tui", "hygiene", "max_pairs"): _NUM,
    ("tui", "prices", "*", "input_per_mtok"): _NUM,
    ("tui", "prices", "*", "output_per_mtok"): _NUM,
    **{("plugins", "*", t, "enabled"): _BOOL for t in TASKS},
    **{("plugins", "*", t, "provider"): _STR for t in TASKS},
    **{("plugins", "*", t, "model"): _STR for t in TASKS},
    **{("plugins", "*", t, "min_interval_hours"): _NUM for t in TASKS},
    **{("plugins", "*", t, "input_dir"): _STR for t in TASKS},
    **{("plugins", "*", t, "output_file"): _STR for t in TASKS},
    **{("plugins", "*", SKILL_TASK, k): _SKILL_TYPES[k] for k in _SKILL_TYPES},
}
_TABLES = {
    ("milvus",),
    ("embedding",),
    ("llm",),
    ("llm", "providers"),
    ("llm", "providers", "*"),
    ("prompts",),
    ("tui",),
    ("tui", "budget"),
    *{("tui", "budget", t) for t in ALL_TASKS},
    ("tui", "prices"),
    ("tui", "prices", "*"),
    ("tui", "hygiene"),
    ("plugins",),
    ("plugins", "*"),
    *{("plugins", "*", t) for t in ALL_TASKS},
}


@record
class TaskSettings:
    """One ``[plugins.<platform>.<task>]`` table with memsearch's defaults filled in.

    ``problem``: why the table was refused (a bad value in it); the task is then disabled.
    ``fix``: what to set the bad key to (named, with the type expected; never its value).
    ``user_paths``: input_dir/output_file were chosen by the user (their config, a flag or a
    trusted project), so they may lead anywhere; otherwise they must stay in the project.
    """

    platform: str
    task: str
    enabled: bool
    provider: str
    model: str
    min_interval_hours: float
    input_dir: str
    output_file: str
    problem: str = ""
    user_paths: frozenset[str] = frozenset()
    fix: str = ""


@record
class ProviderSettings:
    """One ``[llm.providers.<name>]`` table. ``repr`` hides the key."""

    name: str
    type: str
    model: str = ""
    base_url: str = ""
    api_key: str = field(default="", repr=False)
    command: tuple[str, ...] = ()
    timeout_s: float = 300.0


@record
class UnreadableConfig:
    """A config file :func:`load_config` could not read (``unreadable_ok``): not valid TOML,
    not UTF-8, too big, not a regular file. ``user``: the user's own file or a project file
    they trust, so the settings it holds are unknown (an untrusted project file decides no
    setting beyond its tasks', so without it the rest is known)."""

    path: Path
    message: str  # one line naming the file and the problem
    user: bool


@record(frozen=False)
class Config:
    """The merged configuration plus where each layer came from.

    ``warnings``: keys of the project file that were ignored (untrusted).
    ``problems``: section (dotted) → message, for sections disabled by a bad value.
    ``fixes``: section (dotted) → what to set the bad key to (the key and the type expected,
    never the value: it may be a secret), for ``doctor``.
    ``trust``: one sentence on whether the project file is trusted, and why.
    """

    raw: dict[str, Any]
    files: list[Path] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)
    unresolved: dict[str, str] = field(default_factory=dict)  # dotted key → env var name
    configured_platforms: tuple[str, ...] = ()
    home_file: Path | None = None
    project_file: Path | None = None
    problems: dict[str, str] = field(default_factory=dict)
    fixes: dict[str, str] = field(default_factory=dict)
    trust: str = ""
    user_keys: frozenset[str] = frozenset()  # dotted keys set by the user's file, flags or a trusted project
    project_keys: frozenset[str] = frozenset()  # dotted keys the project file set (and we kept)
    unreadable: tuple[UnreadableConfig, ...] = ()  # files skipped as absent (``load_config(unreadable_ok=True)``)

    def memsearch_differs(self, platform: str, task: str) -> str:
        """Where memsearch 0.4.23 reads this task differently, or ``""``.

        memsearch ignores ``[plugins.*]`` in a project's ``.memsearch.toml``; we keep the
        project's task switches and intervals (a repository can turn a task on for the
        people who work in it, within their own providers), so its hooks follow the user's
        file alone for what the project file sets."""
        prefix = f"plugins.{platform}.{task}."
        keys = sorted(k[len(prefix) :] for k in self.project_keys if k.startswith(prefix))
        if not keys:
            return ""
        table = _table(self.raw, "plugins", platform, task)
        said = ", ".join(f"{k} = {_toml_value(table.get(k))}" for k in keys)  # "enabled = false", not "enabled"
        return (
            f"{said} in {self.project_file} (memsearch-tui follows it; memsearch 0.4.23 ignores "
            f"[plugins] in a project file, so its own hooks follow {self.home_file} for these)"
        )

    def problem(self, *section: str) -> str:
        """The message that disabled ``section`` (or a table above it), else ``""``."""
        for depth in range(len(section), 0, -1):
            found = self.problems.get(".".join(section[:depth]))
            if found:
                return found
        return ""

    def fix_for(self, *section: str) -> str:
        """How to repair the bad value that disabled ``section`` (as :meth:`problem`), else ``""``."""
        for depth in range(len(section), 0, -1):
            key = ".".join(section[:depth])
            if key in self.problems:
                return self.fixes.get(key, "")
        return ""

    def task(self, platform: str, task: str) -> TaskSettings:
        """Settings of ``task`` on ``platform`` (memsearch defaults when not configured)."""
        if task not in TASKS:
            raise InvalidInput(f"unknown task {task!r}; tasks are {', '.join(TASKS)}")
        problem = self.problem("plugins", platform, task)
        table = {**TASK_DEFAULTS[task], **({} if problem else _table(self.raw, "plugins", platform, task))}
        base = f"plugins.{platform}.{task}."
        return TaskSettings(
            platform=platform,
            task=task,
            enabled=bool(table["enabled"]) and not problem,
            provider=str(table["provider"] or "native"),
            model=str(table["model"]),
            min_interval_hours=float(table["min_interval_hours"]),
            input_dir=str(table["input_dir"]),
            output_file=str(table["output_file"] or TASK_DEFAULTS[task]["output_file"]),
            problem=problem,
            user_paths=frozenset(k for k in trust_mod.PATH_KEYS if base + k in self.user_keys),
            fix=self.fix_for("plugins", platform, task),
        )

    def platforms(self) -> list[str]:
        """Platforms named in a config file, else none: ``--run-due`` runs only these."""
        return list(self.configured_platforms)

    def provider(self, name: str) -> ProviderSettings:
        """The named provider; ``native`` exists implicitly. Raises if a used key is unset."""
        problem = self.problem("llm", "providers", name)
        if problem:
            raise InvalidInput(f"provider {name!r} is disabled: {problem}")
        table = _table(self.raw, "llm", "providers", name)
        if not table:
            if name == "native":
                return ProviderSettings(name="native", type="native")
            raise InvalidInput(f"unknown LLM provider {name!r}: add [llm.providers.{name}] to {self._where()}")
        ptype = str(table.get("type") or name)
        if ptype not in PROVIDER_TYPES:
            raise InvalidInput(
                f"[llm.providers.{name}] type = {ptype!r} in {self._where()}: "
                f"expected one of {', '.join(PROVIDER_TYPES)}"
            )
        for key in ("api_key", "base_url", "model"):
            var = self.unresolved.get(f"llm.providers.{name}.{key}")
            if var:
                raise InvalidInput(f"[llm.providers.{name}] {key} refers to ${var}, which is not set")
        if ptype == "command" and not table.get("command"):
            raise InvalidInput(f'[llm.providers.{name}] type = "command" needs command = ["exe", …]')
        return ProviderSettings(
            name=name,
            type=ptype,
            model=str(table.get("model", "")),
            base_url=str(table.get("base_url", "")),
            api_key=str(table.get("api_key", "")),
            command=tuple(table.get("command", ())),
            timeout_s=float(table.get("timeout_s", 300.0)),
        )

    def providers(self) -> list[str]:
        return sorted(_table(self.raw, "llm", "providers"))

    def prompt_override(self, task: str) -> str:
        """Path of a prompt file replacing our task text, or ``""``."""
        problem = self.problem("prompts")
        if problem:
            raise InvalidInput(f"[prompts] is disabled: {problem}")
        return str(_table(self.raw, "prompts").get(task, "") or "")

    @property
    def review(self) -> bool:
        """``[tui] review``: rewrites become proposals (True) or land at once like memsearch."""
        return bool(_table(self.raw, "tui").get("review", True))

    @property
    def tui(self) -> dict[str, Any]:
        return _table(self.raw, "tui")

    def _where(self) -> str:
        return ", ".join(str(p) for p in self.files) or "the config"


def home_config_path(home: Path | None = None) -> Path:
    return (home or Path.home()) / ".memsearch" / "config.toml"


def project_config_path(project: Path) -> Path:
    return Path(project) / PROJECT_FILE


def load_config(
    project: Path,
    *,
    home: Path | None = None,
    overrides: dict[str, Any] | None = None,
    unreadable_ok: bool = False,
) -> Config:
    """Merge defaults, the home file, the project file and ``overrides`` (flags).

    Raises ``InvalidInput`` for invalid TOML (or a bad flag); a bad value in a file only
    disables its section (``Config.problems``). ``unreadable_ok`` (search, which can answer
    without the file): a file that cannot be read is left out as if absent and named in
    ``Config.unreadable`` instead; with the user's file unread, no project file is trusted.
    """
    home_path = home_config_path(home)
    proj_path = project_config_path(project)
    merged = copy.deepcopy(DEFAULTS)
    files: list[Path] = []
    warnings: list[str] = []
    problems: dict[str, str] = {}
    fixes: dict[str, str] = {}
    platforms: list[str] = []
    unresolved: dict[str, str] = {}
    user_keys: set[str] = set()
    unreadable: list[UnreadableConfig] = []
    skip = unreadable if unreadable_ok else None
    home_data = _layer(home_path, problems, fixes, skip=skip, user=True)
    if home_data is not None:
        files.append(home_path)
        _resolve_env(home_data, (), unresolved)
        user_keys |= _dotted(home_data)
        _merge(merged, home_data)
        platforms += list(_table(home_data, "plugins"))
    trusted = trust_mod.trusted_by(project, home_data)
    untrusted = None if trusted else (project, warnings)
    proj_data = _layer(proj_path, problems, fixes, skip=skip, user=bool(trusted), untrusted=untrusted)
    project_keys: set[str] = set()
    if proj_data is not None:
        files.append(proj_path)
        project_keys = _dotted(proj_data)
        if trusted:
            _resolve_env(proj_data, (), unresolved)
            user_keys |= _dotted(proj_data)
        proj_budget = _table(proj_data, "tui").pop("budget", None)
        _merge(merged, proj_data)
        _lower_only(merged["tui"], proj_budget, proj_path, warnings)
        platforms += list(_table(proj_data, "plugins"))
    if overrides:
        _validate(overrides, Path("<flags>"), "")
        overrides = _normalise_platforms(copy.deepcopy(overrides))
        _resolve_env(overrides, (), unresolved)
        user_keys |= _dotted(overrides)
        _merge(merged, overrides)
        platforms += list(_table(overrides, "plugins"))
    notices.report(warnings + list(problems.values()))  # the CLI prints each once on stderr
    return Config(
        raw=merged,
        files=files,
        warnings=warnings,
        unresolved=unresolved,
        configured_platforms=tuple(dict.fromkeys(platforms)),
        home_file=home_path,
        project_file=proj_path,
        problems=problems,
        fixes=fixes,
        trust=_trust_sentence(proj_path, proj_data is not None, trusted, len(warnings)),
        user_keys=frozenset(user_keys),
        project_keys=frozenset(project_keys),
        unreadable=tuple(unreadable),
    )


def _layer(
    path: Path,
    problems: dict[str, str],
    fixes: dict[str, str],
    *,
    skip: list[UnreadableConfig] | None,
    user: bool,
    untrusted: tuple[Path, list[str]] | None = None,
) -> dict[str, Any] | None:
    """:func:`_read_layer`; with ``skip``, a file that cannot be read is named there and
    read as absent (``None``) instead of raising."""
    try:
        return _read_layer(path, problems, fixes, untrusted=untrusted)
    except InvalidInput as exc:
        if skip is None:
            raise
        skip.append(UnreadableConfig(path, exc.message, user))
    except OSError as exc:  # a permission, a vanished disk: read_capped passes these through
        if skip is None:
            raise
        skip.append(UnreadableConfig(path, f"{path}: cannot read it ({exc.strerror or exc})", user))
    return None


def set_in(project: Path, keys: tuple[str, ...], *, home: Path | None = None) -> Path | None:
    """The config file whose value of ``keys`` is in effect (the project file wins over
    the home file, as in :func:`load_config`); ``None`` when only the default sets it.
    So a face can say *where* a task was disabled, and offer the command that edits
    that file."""
    home_path, proj_path = home_config_path(home), project_config_path(project)
    home_data = _read_layer(home_path, {}, {})
    trusted = trust_mod.trusted_by(project, home_data)
    proj_data = _read_layer(proj_path, {}, {}, untrusted=None if trusted else (project, []))
    for path, data in ((proj_path, proj_data), (home_path, home_data)):
        node: Any = data
        for key in keys:
            node = node.get(key) if isinstance(node, dict) else None
        if node is not None:
            return path
    return None


def _read_layer(
    path: Path,
    problems: dict[str, str],
    fixes: dict[str, str],
    *,
    untrusted: tuple[Path, list[str]] | None = None,
) -> dict[str, Any] | None:
    """One file: parsed, untrusted keys dropped (when ``untrusted``), bad sections dropped."""
    parsed = _parse(path)
    if parsed is None:
        return None
    data, text = parsed
    data = _normalise_platforms(data)
    if untrusted is not None:
        project, ignored = untrusted
        data = trust_mod.filter_project(data, path, project, ignored)
    for section, message, fix in _check(data, path, text):
        if ".".join(section) not in problems:
            problems[".".join(section)] = message
            fixes[".".join(section)] = fix
        _drop(data, section)
    return data


def _trust_sentence(path: Path, exists: bool, trusted: str, ignored: int) -> str:
    if not exists:
        return f"no project file at {path}"
    if trusted:
        return f"project file {path} is trusted: {trusted}"
    return (
        f"project file {path} is untrusted: it may only switch tasks on/off, set their interval "
        f"and name paths inside the project ({plural(ignored, 'key')} ignored)"
    )


def _toml_value(value: Any) -> str:
    """A value as a TOML file spells it (``true``, ``"x"``, ``2``)."""
    if isinstance(value, bool):
        return str(value).lower()
    if isinstance(value, str):
        return json.dumps(value, ensure_ascii=False)
    return str(value)


def _dotted(data: dict[str, Any], prefix: tuple[str, ...] = ()) -> set[str]:
    out: set[str] = set()
    for key, value in data.items():
        here = (*prefix, str(key))
        out |= _dotted(value, here) if isinstance(value, dict) else {".".join(here)}
    return out


def parse_assignments(items: list[str] | None) -> dict[str, Any]:
    """``["tui.review=false", "plugins.codex.project_review.model=gpt-5"]`` → nested overrides.

    The value is read as a TOML value when it is one (``false``, ``6``, ``["a", "b"]``),
    else taken as a plain string — so flags form the top config layer with the same types.
    """
    out: dict[str, Any] = {}
    for item in items or []:
        key, sep, value = item.partition("=")
        parts = _split_key(key.strip())
        if not sep or not parts or not all(parts):
            raise InvalidInput(f"--set {item!r}: expected dotted.key=value")
        try:
            parsed: Any = tomllib.loads(f"v = {value.strip()}")["v"]
        except tomllib.TOMLDecodeError:
            parsed = value.strip()
        node = out
        for part in parts[:-1]:
            node = node.setdefault(part, {})
            if not isinstance(node, dict):
                raise InvalidInput(f"--set {item!r}: {part} is already a value")
        node[parts[-1]] = parsed
    return out


def check_assignments(items: list[str] | None) -> dict[str, Any]:
    """:func:`parse_assignments` plus the type check ``load_config`` applies to flags, so a
    bad ``--set`` is a usage error before anything runs (``InvalidInput`` naming it)."""
    out = parse_assignments(items)
    _validate(out, Path("<flags>"), "")
    return out


def read_toml(path: Path) -> dict[str, Any] | None:
    """Parse and type-check one config file (raising on the first problem); ``None`` when absent."""
    parsed = _parse(path)
    if parsed is None:
        return None
    _validate(parsed[0], path, parsed[1])
    return parsed[0]


def _parse(path: Path) -> tuple[dict[str, Any], str] | None:
    """``(data, text)`` of one TOML file; ``None`` when it does not exist; invalid TOML raises."""
    try:
        text = read_capped(path, MAX_CONFIG_BYTES).decode("utf-8")  # regular file, capped: never a hang
    except FileNotFoundError:
        return None
    except UnicodeDecodeError as exc:
        raise InvalidInput(f"{path}: not valid UTF-8 ({exc.reason})", path=str(path)) from None
    try:
        data = tomllib.loads(text)
    except RecursionError:  # tomllib recurses per nested array or inline table
        raise InvalidInput(f"{path}: invalid TOML: nested too deeply", path=str(path)) from None
    except tomllib.TOMLDecodeError as exc:
        m = re.search(r"line (\d+)", str(exc))
        line = int(m.group(1)) if m else 0
        where = f"{path}:{line}" if line else str(path)
        key = key_at_line(text, line) if line else ""
        raise InvalidInput(f"{where}: invalid TOML{f' at {key}' if key else ''}: {exc}", path=str(path)) from None
    return data, text


def key_at_line(text: str, line: int) -> str:
    """The dotted key being written at 1-based ``line`` (table header + key), best effort."""
    table: tuple[str, ...] = ()
    lines = text.splitlines()
    for raw in lines[: max(0, line - 1)]:
        header = _HEADER.match(raw)
        if header:
            table = _split_key(header.group(1))
    here = lines[line - 1] if 0 < line <= len(lines) else ""
    header = _HEADER.match(here)
    if header:
        return ".".join(_split_key(header.group(1)))
    assign = _ASSIGN.match(here)
    parts = (*table, *_split_key(assign.group(1))) if assign else table
    return ".".join(parts)


def _validate(data: dict[str, Any], path: Path, text: str) -> None:
    """Raise on the first value whose type does not match ``_SCHEMA`` (flags, edits)."""
    for _, message, _fix in _check(data, path, text):
        raise InvalidInput(message, path=str(path))


def _check(
    data: dict[str, Any], path: Path, text: str, prefix: tuple[str, ...] = ()
) -> list[tuple[tuple[str, ...], str, str]]:
    """``(section, message, fix)`` for every value whose type does not match ``_SCHEMA``.

    memsearch's truthy strings for ``enabled`` are converted in place."""
    found: list[tuple[tuple[str, ...], str, str]] = []
    for key, value in list(data.items()):
        here = (*prefix, str(key))
        pattern = _match(here)
        if pattern in _TABLES:
            if not isinstance(value, dict):
                found.append(
                    (
                        _section(here),
                        _type_message(path, text, here, "table", value),
                        fix_hint(path, text, here, "table"),
                    )
                )
            else:
                found += _check(value, path, text, here)
            continue
        expected = _SCHEMA.get(pattern) if pattern else None
        if expected == _BOOL and here[-1] == "enabled" and isinstance(value, str) and value.lower() in _TRUTHY:
            data[key] = value = _TRUTHY[value.lower()]
        if expected and not _has_type(value, expected):
            found.append(
                (_section(here), _type_message(path, text, here, expected, value), fix_hint(path, text, here, expected))
            )
    return found


_TRUTHY = {"true": True, "yes": True, "on": True, "1": True, "false": False, "no": False, "off": False, "0": False}


def _section(key: tuple[str, ...]) -> tuple[str, ...]:
    """The section a bad key disables: one task table, one provider, else its top table."""
    if key[0] == "plugins" or key[:2] == ("llm", "providers"):
        return key[:3]
    if key[:2] in (("tui", "search"), ("tui", "budget"), ("tui", "prices")):
        return key[:2]
    return key[:1]


def _drop(data: dict[str, Any], section: tuple[str, ...]) -> None:
    node: Any = data
    for part in section[:-1]:
        node = node.get(part) if isinstance(node, dict) else None
    if isinstance(node, dict):
        node.pop(section[-1], None)


def _match(key: tuple[str, ...]) -> tuple[str, ...] | None:
    """The schema pattern for ``key`` (wildcards for provider and platform names)."""
    if key in _SCHEMA or key in _TABLES:
        return key
    if len(key) >= 3 and key[:2] == ("llm", "providers"):
        return ("llm", "providers", "*", *key[3:])
    if len(key) >= 2 and key[0] == "plugins":
        return ("plugins", "*", *key[2:])
    if len(key) >= 3 and key[:2] == ("tui", "prices"):
        return ("tui", "prices", "*", *key[3:])
    return None


def _has_type(value: Any, expected: str) -> bool:
    if expected == _STR:
        return isinstance(value, str)
    if expected == _BOOL:
        return isinstance(value, bool)
    if expected == _NUM:
        return isinstance(value, (int, float)) and not isinstance(value, bool) and value >= 0
    if expected == _STRLIST:
        return isinstance(value, list) and bool(value) and all(isinstance(v, str) for v in value)
    if expected == _PATHS:
        return isinstance(value, list) and all(isinstance(v, str) for v in value)
    return True


def _type_message(path: Path, text: str, key: tuple[str, ...], expected: str, value: Any) -> str:
    line = key_line(text, key)
    where = f"{path}:{line}" if line else str(path)
    got = type(value).__name__ if not isinstance(value, dict) else "table"
    if expected == _NUM and isinstance(value, (int, float)) and not isinstance(value, bool):
        got = "negative number"
    return f"{where}: {'.'.join(key)} must be a {expected}, not {got}"


#: What a valid value looks like, per expected type (said in a fix hint instead of the value).
_VALID = {
    _STR: 'a quoted string (e.g. "text")',
    _BOOL: "true or false",
    _NUM: "a number ≥ 0, without quotes (e.g. 24)",
    _STRLIST: 'a non-empty list of quoted strings (e.g. ["a", "b"])',
    _PATHS: 'a list of quoted paths (e.g. ["~/src/app"])',
    "table": "a table ([name] header), not a single value",
}


def fix_hint(path: Path, text: str, key: tuple[str, ...], expected: str) -> str:
    """ "set KEY in FILE:LINE to <what is valid>": the key and the type, never the bad value
    (a misplaced API key must not be echoed by ``doctor``)."""
    line = key_line(text, key)
    where = f"{path}:{line}" if line else str(path)
    return f"set {'.'.join(key)} in {where} to {_VALID.get(expected, f'a {expected}')}"


_HEADER = re.compile(r"^\s*\[\[?\s*([^\]]+?)\s*\]\]?\s*(#.*)?$")
_ASSIGN = re.compile(r"^\s*([A-Za-z0-9_.\-\"' ]+?)\s*=")


def key_line(text: str, key: tuple[str, ...]) -> int | None:
    """1-based line where dotted ``key`` is assigned or its table opens (best effort)."""
    table: tuple[str, ...] = ()
    for number, line in enumerate(text.splitlines(), 1):
        header = _HEADER.match(line)
        if header:
            table = _split_key(header.group(1))
            if table == key:
                return number
            continue
        assign = _ASSIGN.match(line)
        if assign:
            full = (*table, *_split_key(assign.group(1)))
            if full[: len(key)] == key:
                return number
    return None


def _split_key(dotted: str) -> tuple[str, ...]:
    parts = re.findall(r'"([^"]*)"|\'([^\']*)\'|([^.\s]+)', dotted)
    return tuple(next(p for p in groups if p) if any(groups) else "" for groups in parts)


def _normalise_platforms(data: dict[str, Any]) -> dict[str, Any]:
    """memsearch accepts ``claude_code`` for ``claude-code``; so do we (state keys use the hyphen)."""
    plugins = _table(data, "plugins")
    if not any("_" in k and k.replace("_", "-") in KNOWN_PLATFORMS for k in plugins):
        return data
    data = copy.deepcopy(data)
    merged: dict[str, Any] = {}
    for key, value in data["plugins"].items():
        name = key.replace("_", "-") if key.replace("_", "-") in KNOWN_PLATFORMS else key
        if isinstance(value, dict) and isinstance(merged.get(name), dict):
            _merge(merged[name], value)
        else:
            merged[name] = value
    data["plugins"] = merged
    return data


def _merge(base: dict[str, Any], over: dict[str, Any]) -> None:
    for key, value in over.items():
        if isinstance(value, dict) and isinstance(base.get(key), dict):
            _merge(base[key], value)
        elif value is not None:
            base[key] = copy.deepcopy(value)


def _lower_only(tui: dict[str, Any], budget: Any, path: Path, warnings: list[str]) -> None:
    """A project's ``[tui.budget]`` (trusted or not) may lower a limit, never raise one: a
    value above the user's is ignored and reported; one the user left unset applies."""
    if not isinstance(budget, dict):
        return
    mine = tui.setdefault("budget", {})

    def walk(node: dict[str, Any], theirs: dict[str, Any], prefix: str) -> None:
        for key, value in theirs.items():
            if isinstance(value, dict):
                walk(node.setdefault(key, {}) if isinstance(node.get(key, {}), dict) else {}, value, f"{prefix}.{key}")
            elif isinstance(node.get(key), (int, float)) and value > node[key]:
                warnings.append(
                    f"{path}: ignored {prefix}.{key} = {value} (a project file may lower a budget, never raise it)"
                )
            else:
                node[key] = value

    walk(mine, budget, "tui.budget")


def _resolve_env(node: dict[str, Any], path: tuple[str, ...], unresolved: dict[str, str]) -> None:
    for key, value in node.items():
        here = (*path, str(key))
        if isinstance(value, dict):
            _resolve_env(value, here, unresolved)
        elif isinstance(value, str) and value.startswith(ENV_PREFIX):
            var = value[len(ENV_PREFIX) :]
            if var in os.environ:
                node[key] = os.environ[var]
            else:
                unresolved[".".join(here)] = var


def _table(data: dict[str, Any], *keys: str) -> dict[str, Any]:
    node: Any = data
    for key in keys:
        node = node.get(key) if isinstance(node, dict) else None
    return node if isinstance(node, dict) else {}


@record
class SkillTaskSettings:
    """One ``[plugins.<platform>.memory_to_skill]`` table with memsearch's defaults."""

    platform: str
    task: str
    enabled: bool
    provider: str
    model: str
    min_interval_hours: float
    input_dir: str
    min_occurrences: int
    paths: tuple[str, ...]
    output_file: str = ".memsearch/skill-candidates"  # where candidates go (memsearch's folder)
    problem: str = ""  # as TaskSettings: a bad value disabled this table
    user_paths: frozenset[str] = frozenset()  # as TaskSettings: paths the user chose
    fix: str = ""  # as TaskSettings: what to set the bad key to


def skill_task(config: Config, platform: str) -> SkillTaskSettings:
    """Settings of ``memory_to_skill`` on ``platform`` (memsearch's defaults when absent)."""
    problem = config.problem("plugins", platform, SKILL_TASK)
    fix = config.fix_for("plugins", platform, SKILL_TASK)
    table = {**SKILL_DEFAULTS, **({} if problem else _table(config.raw, "plugins", platform, SKILL_TASK))}
    paths = table["paths"]
    if not isinstance(paths, list) or not all(isinstance(p, str) for p in paths):
        problem = problem or f"plugins.{platform}.{SKILL_TASK}.paths must be a list of strings in {config._where()}"
        fix = fix or f"set plugins.{platform}.{SKILL_TASK}.paths in {config._where()} to {_VALID[_PATHS]}"
        paths = []
    return SkillTaskSettings(
        platform=platform,
        task=SKILL_TASK,
        enabled=bool(table["enabled"]) and not problem,
        provider=str(table["provider"] or "native"),
        model=str(table["model"]),
        min_interval_hours=float(table["min_interval_hours"]),
        input_dir=str(table["input_dir"]),
        min_occurrences=max(1, int(table["min_occurrences"])),
        paths=tuple(paths),
        problem=problem,
        user_paths=frozenset(
            k for k in trust_mod.PATH_KEYS if f"plugins.{platform}.{SKILL_TASK}.{k}" in config.user_keys
        ),
        fix=fix,
    )


def prompt_source(config: Config) -> str:
    """``[tui] prompts``: "memsearch", "memsearch-tui", or "" (memsearch's when installed)."""
    value = _table(config.raw, "tui").get("prompts", "")
    if value and value not in PROMPT_SOURCES:
        raise InvalidInput(
            f"[tui] prompts = {value!r} in {config._where()}: expected one of {', '.join(PROMPT_SOURCES)}"
        )
    return str(value or "")
