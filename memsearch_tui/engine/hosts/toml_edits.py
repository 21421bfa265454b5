"""Our ``[mcp_servers.memsearch-tui]`` table in Codex's ``config.toml``, added as a text block.

The table goes at the end of the file as its own block (values rendered by tomlkit, in the
file's line ends), so every byte before it stays — comments, CRLF, layout; uninstall cuts
that very block out again. If the user has edited our table since, uninstall falls back
to tomlkit, which removes the table and keeps the rest of the document. Every result is
checked with ``tomllib`` before it is offered: a file we cannot extend (``mcp_servers``
as an inline table, say) is a named error, never a broken config.
"""

from __future__ import annotations

import tomllib
from typing import Any

from memsearch_tui.engine.core.errors import InvalidInput
from memsearch_tui.engine.hosts.wiring import NAME


def load(text: str, where: str) -> dict[str, Any]:
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise InvalidInput(f"{where}: not valid TOML ({exc}); fix it by hand first", path=where) from None


def servers(doc: dict[str, Any], where: str) -> dict[str, Any]:
    """The ``mcp_servers`` table (empty when absent); a named error for any other type."""
    value = doc.get("mcp_servers", {})
    if not isinstance(value, dict):
        raise InvalidInput(f"{where}: 'mcp_servers' is {_kind(value)}, not a table; fix it by hand first", path=where)
    return value


def _kind(value: Any) -> str:
    if isinstance(value, bool):
        return "a boolean"
    if isinstance(value, (int, float)):
        return "a number"
    if isinstance(value, str):
        return "a string"
    if isinstance(value, list):
        return "an array"
    return "a date or time"


def block(value: dict[str, Any], newline: str) -> str:
    import tomlkit  # only install/uninstall render TOML

    lines = [f"[mcp_servers.{NAME}]"] + [f"{k} = {tomlkit.item(v).as_string()}" for k, v in value.items()]
    return newline.join(lines) + newline


def add(text: str, value: dict[str, Any], where: str) -> tuple[str, str]:
    """``text`` with our table appended, and the exact text appended (for the record)."""
    newline = "\r\n" if "\r\n" in text else "\n"
    if not text or text.endswith(newline * 2):
        sep = ""
    elif text.endswith(newline):
        sep = newline
    else:
        sep = newline * 2
    appended = sep + block(value, newline)
    new = text + appended
    try:
        got = servers(tomllib.loads(new), where).get(NAME)
    except tomllib.TOMLDecodeError:
        got = None
    if got != value:
        raise InvalidInput(
            f"{where}: cannot add [mcp_servers.{NAME}] to this file (is 'mcp_servers' an inline table?); "
            f"add it by hand:\n{block(value, chr(10))}",
            path=where,
        )
    return new, appended


def take_out(text: str, appended: str | None, ours: list[dict[str, Any]], where: str) -> str | None:
    """``text`` without our table (None when it is not there or is not one we wrote)."""
    current = servers(load(text, where), where).get(NAME)
    if current is None or current not in ours:
        return None
    if appended and text.count(appended) == 1:
        new = text.replace(appended, "")
        if NAME not in servers(load(new, where), where):
            return new
    return _remove_with_tomlkit(text, where)


def _remove_with_tomlkit(text: str, where: str) -> str:
    import tomlkit

    doc = tomlkit.parse(text)
    table = doc.get("mcp_servers")
    if table is not None and NAME in table:
        del table[NAME]
        if not table:
            del doc["mcp_servers"]
    new = tomlkit.dumps(doc)
    if NAME in servers(load(new, where), where):
        raise InvalidInput(f"{where}: could not take [mcp_servers.{NAME}] out; remove it by hand", path=where)
    return new
