"""memsearch-compatible configuration: defaults → ~/.memsearch/config.toml → <project>/.memsearch.toml → flags.

The files are memsearch's own, so a memsearch user keeps one config. Our settings live in
the ``[tui]`` table of the same files (memsearch ignores unknown tables).

Two rules beyond memsearch's:

* Every value is type-checked; a wrong type or invalid TOML raises ``InvalidInput``
  naming the file, the dotted key and the line — one message, nothing written.
* A project file comes with the repository you cloned, and hooks run it unattended, so it
  may not say *what runs or where data goes*: ``llm.providers.*.command``, ``base_url``,
  ``api_key``, ``[prompts]`` and task ``input_dir``/``output_file`` outside the project from
  a project file are ignored (and listed in ``Config.warnings``) unless the home file sets
  ``[tui] trust_project_config = true``.

``env:VAR`` string values are resolved when the variable is set; an unset one stays as
the literal ``env:VAR`` string, is listed in ``Config.unresolved`` and only fails when the
value is actually used (so an unused provider's missing key breaks nothing).
"""

from __future__ import annotations

import copy
import os
import re
import tomllib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from memsearch_tui.engine.core.errors import InvalidInput

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
_SKILL_TYPES = {  # paths may be empty ([] = ask the person), so it is checked by skill_task
    "enabled": _BOOL,
    "provider": _STR,
    "model": _STR,
    "min_interval_hours": _NUM,
    "input_dir": _STR,
    "min_occurrences": _NUM,
}

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
    ("plugins",),
    ("plugins", "*"),
    *{("plugins", "*", t) for t in ALL_TASKS},
}


@dataclass(frozen=True)
class TaskSettings:
    """One ``[plugins.<platform>.<task>]`` table with memsearch's defaults filled in."""

    platform: str
    task: str
    enabled: bool
    provider: str
    model: str
    min_interval_hours: float
    input_dir: str
    output_file: str


@dataclass(frozen=True)
class ProviderSettings:
    """One ``[llm.providers.<name>]`` table. ``repr`` hides the key."""

    name: str
    type: str
    model: str = ""
    base_url: str = ""
    api_key: str = field(default="", repr=False)
    command: tuple[str, ...] = ()
    timeout_s: float = 300.0


@dataclass
class Config:
    """The merged configuration plus where each layer came from."""

    raw: dict[str, Any]
    files: list[Path] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)
    unresolved: dict[str, str] = field(default_factory=dict)  # dotted key → env var name
    configured_platforms: tuple[str, ...] = ()
    home_file: Path | None = None
    project_file: Path | None = None

    def task(self, platform: str, task: str) -> TaskSettings:
        """Settings of ``task`` on ``platform`` (memsearch defaults when not configured)."""
        if task not in TASKS:
            raise InvalidInput(f"unknown task {task!r}; tasks are {', '.join(TASKS)}")
        table = {**TASK_DEFAULTS[task], **_table(self.raw, "plugins", platform, task)}
        return TaskSettings(
            platform=platform,
            task=task,
            enabled=bool(table["enabled"]),
            provider=str(table["provider"] or "native"),
            model=str(table["model"]),
            min_interval_hours=float(table["min_interval_hours"]),
            input_dir=str(table["input_dir"]),
            output_file=str(table["output_file"] or TASK_DEFAULTS[task]["output_file"]),
        )

    def platforms(self) -> list[str]:
        """Platforms named in a config file, else none: ``--run-due`` runs only these."""
        return list(self.configured_platforms)

    def provider(self, name: str) -> ProviderSettings:
        """The named provider; ``native`` exists implicitly. Raises if a used key is unset."""
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


def load_config(project: Path, *, home: Path | None = None, overrides: dict | None = None) -> Config:
    """Merge defaults, the home file, the project file and ``overrides`` (flags).

    Raises ``InvalidInput`` for invalid TOML or a value of the wrong type.
    """
    home_path = home_config_path(home)
    proj_path = project_config_path(project)
    merged = copy.deepcopy(DEFAULTS)
    files: list[Path] = []
    warnings: list[str] = []
    platforms: list[str] = []
    home_data = read_toml(home_path)
    trust = False
    if home_data is not None:
        home_data = _normalise_platforms(home_data)
        files.append(home_path)
        _merge(merged, home_data)
        platforms += list(_table(home_data, "plugins"))
        trust = _table(home_data, "tui").get("trust_project_config") is True
    proj_data = read_toml(proj_path)
    if proj_data is not None:
        proj_data = _normalise_platforms(proj_data)
        files.append(proj_path)
        if not trust:
            proj_data = _drop_untrusted(proj_data, proj_path, warnings)
        _merge(merged, proj_data)
        platforms += list(_table(proj_data, "plugins"))
    if overrides:
        _validate(overrides, Path("<flags>"), "")
        overrides = _normalise_platforms(overrides)
        _merge(merged, copy.deepcopy(overrides))
        platforms += list(_table(overrides, "plugins"))
    unresolved: dict[str, str] = {}
    _resolve_env(merged, (), unresolved)
    return Config(
        raw=merged,
        files=files,
        warnings=warnings,
        unresolved=unresolved,
        configured_platforms=tuple(dict.fromkeys(platforms)),
        home_file=home_path,
        project_file=proj_path,
    )


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


def read_toml(path: Path) -> dict[str, Any] | None:
    """Parse and type-check one config file; ``None`` when it does not exist."""
    try:
        text = Path(path).read_text(encoding="utf-8")
    except FileNotFoundError:
        return None
    except UnicodeDecodeError as exc:
        raise InvalidInput(f"{path}: not valid UTF-8 ({exc.reason})", path=str(path)) from None
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        m = re.search(r"line (\d+)", str(exc))
        line = int(m.group(1)) if m else 0
        where = f"{path}:{line}" if line else str(path)
        key = key_at_line(text, line) if line else ""
        raise InvalidInput(f"{where}: invalid TOML{f' at {key}' if key else ''}: {exc}", path=str(path)) from None
    _validate(data, path, text)
    return data


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


def _validate(data: dict[str, Any], path: Path, text: str, prefix: tuple[str, ...] = ()) -> None:
    """Raise on the first value whose type does not match ``_SCHEMA``."""
    for key, value in data.items():
        here = (*prefix, str(key))
        pattern = _match(here)
        if pattern in _TABLES:
            if not isinstance(value, dict):
                _type_error(path, text, here, "table", value)
            _validate(value, path, text, here)
            continue
        expected = _SCHEMA.get(pattern) if pattern else None
        if expected and not _has_type(value, expected):
            _type_error(path, text, here, expected, value)


def _match(key: tuple[str, ...]) -> tuple[str, ...] | None:
    """The schema pattern for ``key`` (wildcards for provider and platform names)."""
    if key in _SCHEMA or key in _TABLES:
        return key
    if len(key) >= 3 and key[:2] == ("llm", "providers"):
        return ("llm", "providers", "*", *key[3:])
    if len(key) >= 2 and key[0] == "plugins":
        return ("plugins", "*", *key[2:])
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
    return True


def _type_error(path: Path, text: str, key: tuple[str, ...], expected: str, value: Any) -> None:
    line = key_line(text, key)
    where = f"{path}:{line}" if line else str(path)
    got = type(value).__name__ if not isinstance(value, dict) else "table"
    if expected == _NUM and isinstance(value, (int, float)) and not isinstance(value, bool):
        got = "negative number"
    raise InvalidInput(f"{where}: {'.'.join(key)} must be a {expected}, not {got}", path=str(path))


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


def _drop_untrusted(data: dict[str, Any], path: Path, warnings: list[str]) -> dict[str, Any]:
    data = copy.deepcopy(data)
    for name, table in _table(data, "llm", "providers").items():
        for key in ("command", "base_url", "api_key"):
            if isinstance(table, dict) and key in table:
                del table[key]
                warnings.append(
                    f"{path}: ignored llm.providers.{name}.{key} (a project file may not set it; "
                    f"set [tui] trust_project_config = true in ~/.memsearch/config.toml to allow)"
                )
    for platform, tables in _table(data, "plugins").items():
        for task in ALL_TASKS:
            table = tables.get(task) if isinstance(tables, dict) else None
            for key in ("input_dir", "output_file"):
                value = table.get(key) if isinstance(table, dict) else None
                if isinstance(value, str) and not _inside_project(value):
                    del table[key]
                    warnings.append(
                        f"{path}: ignored plugins.{platform}.{task}.{key} = {value!r} "
                        f"(a project file may only name paths inside the project)"
                    )
    prompts = _table(data, "prompts")
    for task in ALL_TASKS:
        if task in prompts:
            del prompts[task]
            warnings.append(f"{path}: ignored prompts.{task} (a project file may not replace prompts)")
    return data


def _inside_project(value: str) -> bool:
    """A relative path that cannot climb out of the project (``..``, ``~``, absolute)."""
    p = Path(value)
    return not (p.is_absolute() or value.startswith("~") or ".." in p.parts)


def _merge(base: dict[str, Any], over: dict[str, Any]) -> None:
    for key, value in over.items():
        if isinstance(value, dict) and isinstance(base.get(key), dict):
            _merge(base[key], value)
        elif value is not None:
            base[key] = copy.deepcopy(value)


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


@dataclass(frozen=True)
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


def skill_task(config: Config, platform: str) -> SkillTaskSettings:
    """Settings of ``memory_to_skill`` on ``platform`` (memsearch's defaults when absent)."""
    table = {**SKILL_DEFAULTS, **_table(config.raw, "plugins", platform, SKILL_TASK)}
    paths = table["paths"]
    if not isinstance(paths, list) or not all(isinstance(p, str) for p in paths):
        raise InvalidInput(f"plugins.{platform}.{SKILL_TASK}.paths must be a list of strings in {config._where()}")
    return SkillTaskSettings(
        platform=platform,
        task=SKILL_TASK,
        enabled=bool(table["enabled"]),
        provider=str(table["provider"] or "native"),
        model=str(table["model"]),
        min_interval_hours=float(table["min_interval_hours"]),
        input_dir=str(table["input_dir"]),
        min_occurrences=max(1, int(table["min_occurrences"])),
        paths=tuple(paths),
    )


def prompt_source(config: Config) -> str:
    """``[tui] prompts``: "memsearch", "memsearch-tui", or "" (memsearch's when installed)."""
    value = _table(config.raw, "tui").get("prompts", "")
    if value and value not in PROMPT_SOURCES:
        raise InvalidInput(
            f"[tui] prompts = {value!r} in {config._where()}: expected one of {', '.join(PROMPT_SOURCES)}"
        )
    return str(value or "")
