"""Theme files (TOML) → Textual themes, and the small per-user TUI state (chosen theme).

Built-in themes live in the repository's top-level ``themes/``; a wheel carries them in
``memsearch_tui/themes/`` (``setup.py`` copies them at build time). Users drop more ``*.toml`` files into
``<config dir>/themes/``. A broken file is reported and skipped, never fatal.
"""

from __future__ import annotations

import json
import os
import tomllib
from dataclasses import fields
from pathlib import Path
from typing import Any

from textual.theme import Theme

from memsearch_tui.engine.api.files import atomic_write_text

CONFIG_DIR_ENV = "MEMSEARCH_TUI_CONFIG_DIR"
_PACKAGED = Path(__file__).resolve().parent.parent / "themes"  # an installed wheel
BUILTIN_DIR = _PACKAGED if _PACKAGED.is_dir() else _PACKAGED.parent.parent / "themes"  # else the source tree
DEFAULT_THEME = "memsearch-dark"
STATE_FILE = "tui-state.json"
_ALLOWED = {f.name for f in fields(Theme)} - {"ansi"}


def config_dir() -> Path:
    """``$MEMSEARCH_TUI_CONFIG_DIR`` or the platform's user config dir for memsearch-tui."""
    env = os.environ.get(CONFIG_DIR_ENV)
    if env:
        return Path(env).expanduser()
    from platformdirs import user_config_dir

    return Path(user_config_dir("memsearch-tui"))


def theme_from_file(path: Path) -> Theme:
    """Parse one theme file; raises ValueError with a message naming the file."""
    try:
        data: dict[str, Any] = tomllib.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError) as exc:
        raise ValueError(f"{path}: not a readable TOML theme ({exc})") from None
    unknown = sorted(set(data) - _ALLOWED)
    if unknown:
        raise ValueError(f"{path}: unknown {'key' if len(unknown) == 1 else 'keys'} {', '.join(unknown)}")
    for key in ("name", "primary"):
        if not isinstance(data.get(key), str) or not data[key]:
            raise ValueError(f"{path}: '{key}' is required and must be text")
    try:
        theme = Theme(**data)
        theme.to_color_system()  # validates every colour now rather than at render time
    except Exception as exc:
        raise ValueError(f"{path}: {exc}") from None
    return theme


def load_themes(dirs: list[Path] | None = None) -> tuple[list[Theme], list[str]]:
    """Themes from the built-in dir and the user's ``themes/`` dir, plus problems found."""
    themes: list[Theme] = []
    problems: list[str] = []
    for folder in dirs if dirs is not None else [BUILTIN_DIR, config_dir() / "themes"]:
        if not folder.is_dir():
            continue
        for path in sorted(folder.glob("*.toml")):
            try:
                themes.append(theme_from_file(path))
            except ValueError as exc:
                problems.append(str(exc))
    return themes, problems


def load_state() -> dict[str, Any]:
    try:
        data = json.loads((config_dir() / STATE_FILE).read_text(encoding="utf-8"))
        return data if isinstance(data, dict) else {}
    except (OSError, ValueError):
        return {}


def save_state(**changes: Any) -> None:
    """Remember small UI choices (the theme) across runs; failing to save is not an error."""
    state = {**load_state(), **changes}
    try:
        atomic_write_text(config_dir() / STATE_FILE, json.dumps(state, indent=2) + "\n")
    except OSError:
        pass
