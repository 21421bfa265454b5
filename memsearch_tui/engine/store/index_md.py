"""The human-readable INDEX.md tables: render them from rows, parse them back.

Root ``INDEX.md`` has one row per top-level category; each category's ``INDEX.md`` has a
description paragraph (hand-editable), an entries table and a subcategories table. Only
the tables are derived; descriptions are read back and kept on every rebuild.
"""

from __future__ import annotations

import re
from dataclasses import field
from urllib.parse import unquote

from memsearch_tui.engine.core.record import record

ROOT_TITLE = "# Memory index"
ROOT_INTRO = (
    "Categories of this memory store. Edit the descriptions freely: counts and dates are "
    "rebuilt from the entry files (`memsearch-tui index check --fix`)."
)
CAT_COLS = ["Category", "Description", "Entries", "Updated"]
ENTRY_COLS = ["Title", "Status", "Updated", "File"]
_LINK = re.compile(r"^\[(?P<text>.*)\]\((?P<href>[^)]*)\)$")


@record
class CategoryRow:
    name: str  # last path part, as linked: [name](name/INDEX.md)
    description: str
    entries: int
    updated: str


@record
class EntryRow:
    title: str
    status: str
    updated: str
    file: str  # relative to the category folder: alpha.md or archived/alpha.md


@record(frozen=False)
class ParsedIndex:
    """What a human or an older version left in an INDEX.md."""

    description: str = ""
    categories: list[CategoryRow] = field(default_factory=list)
    entries: list[EntryRow] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)


def cell(text: str) -> str:
    """Escape a value for a Markdown table cell."""
    text = str(text)
    if "\\" in text or "|" in text or "\n" in text:  # rare: skip three replaces on 5k-row tables
        text = text.replace("\\", "\\\\").replace("|", "\\|").replace("\n", " ")
    return text.strip()


_HREF_UNSAFE = re.compile(r"[ %|()<>\\\[\]]")


def href(path: str) -> str:
    """A link target safe inside a table cell; CJK and other letters stay readable."""
    return _HREF_UNSAFE.sub(lambda m: f"%{ord(m.group()):02X}", path)


def unhref(target: str) -> str:
    return unquote(target)


def uncell(text: str) -> str:
    return re.sub(r"\\(.)", r"\1", text.strip())


def _table(cols: list[str], rows: list[list[str]]) -> list[str]:
    return _header(cols) + [_line(r) for r in rows]


def _header(cols: list[str]) -> list[str]:
    return ["| " + " | ".join(cols) + " |", "|" + "|".join(" --- " for _ in cols) + "|"]


def _line(row: list[str]) -> str:
    """One table row; the first cell comes escaped already, the others are escaped here."""
    return "| " + " | ".join(cell(v) if i else v for i, v in enumerate(row)) + " |"


def entry_line(e: EntryRow) -> str:
    """The table line of one entry, exactly as ``render_category`` writes it."""
    return _line([cell(e.title), e.status, e.updated, _file_link(e.file)])


def _file_link(file: str) -> str:
    return f"[{cell(file)}]({href(file)})"


def entry_line_end(file: str) -> str:
    """How the line of ``file`` ends, and no other line can: its link is the last cell, and
    every '|' inside a cell is escaped, so ' | ' only ever stands between cells."""
    return f" | {cell(_file_link(file))} |"


def entry_line_file(line: str) -> str | None:
    """The file a rendered entry line links to (``href`` never leaves '](' or ')' in it)."""
    at = line.rfind("](")
    return unhref(line[at + 2 : -3]) if at >= 0 and line.endswith(") |") else None


_ENTRIES_HEAD = "\n## Entries\n\n"
_NO_ENTRIES = "_No entries._"


def entry_lines_of(text: str) -> list[str] | None:
    """The entry lines of an INDEX.md as ``render_category`` wrote it; None if not found.

    A description never holds a '## ' line nor a table line (it ends at the first), so the
    first '## Entries' heading followed by the entries header is the table.
    """
    head = _ENTRIES_HEAD + "\n".join(_header(ENTRY_COLS)) + "\n"
    at = text.find(head)
    if at < 0:
        return [] if f"{_ENTRIES_HEAD}{_NO_ENTRIES}\n" in text else None
    begin = at + len(head)
    end = text.find("\n\n", begin)
    block = text[begin : end if end >= 0 else len(text) - 1]
    return block.split("\n") if block and text.endswith("\n") else None


def _cat_rows(rows: list[CategoryRow]) -> list[list[str]]:
    return [[f"[{cell(r.name)}]({href(r.name)}/INDEX.md)", r.description, str(r.entries), r.updated] for r in rows]


def render_root(rows: list[CategoryRow]) -> str:
    lines = [ROOT_TITLE, "", ROOT_INTRO, ""] + _table(CAT_COLS, _cat_rows(rows))
    return "\n".join(lines) + "\n"


def render_category(
    name: str,
    description: str,
    entries: list[EntryRow],
    subs: list[CategoryRow],
    *,
    entry_lines: list[str] | None = None,
) -> str:
    """A category's INDEX.md; ``entry_lines`` (rendered by ``entry_line``) replace ``entries``."""
    lines = [f"# {name}", ""]
    if description:
        lines += [description, ""]
    lines += ["## Entries", ""]
    if entry_lines is None:
        entry_lines = [entry_line(e) for e in entries]
    lines += _header(ENTRY_COLS) + entry_lines if entry_lines else [_NO_ENTRIES]
    if subs:
        lines += ["", "## Subcategories", ""] + _table(CAT_COLS, _cat_rows(subs))
    return "\n".join(lines) + "\n"


def split_row(line: str) -> list[str]:
    """Cells of a Markdown table row, honouring ``\\|`` escapes."""
    body = line.strip()
    body = body[1:] if body.startswith("|") else body
    body = body[:-1] if body.endswith("|") and not body.endswith("\\|") else body
    return [c.strip() for c in re.split(r"(?<!\\)\|", body)]


def _link_target(text: str) -> tuple[str, str]:
    m = _LINK.match(text.strip())
    return (uncell(m["text"]), unhref(m["href"])) if m else (uncell(text), "")


def parse(text: str, *, entries: bool = True) -> ParsedIndex:
    """Read tables and the description back; anything odd is listed in ``problems``.

    ``entries=False`` skips the rows of entries tables: reading the category descriptions of
    a 5k-entry category's INDEX.md then costs a line scan, not 5k row splits.
    """
    out = ParsedIndex()
    lines = text.removeprefix("\ufeff").splitlines()
    out.description = _description(lines)
    i = 0
    while i < len(lines):
        if lines[i].lstrip().startswith("|"):
            i = _parse_table(lines, i, out, entries)
        else:
            i += 1
    return out


def parse_description(text: str) -> str:
    """The description of an INDEX.md (the start of the file is enough)."""
    return _description(text.removeprefix("\ufeff").splitlines())


def _description(lines: list[str]) -> str:
    """Text after the first '# ' heading up to the first table or '## ' heading."""
    body: list[str] = []
    started = False
    for line in lines:
        if not started:
            started = line.startswith("# ")
            continue
        if line.startswith("## ") or line.lstrip().startswith("|"):
            break
        body.append(line)
    desc = "\n".join(body).strip()
    return "" if desc in (ROOT_INTRO, "_No entries._") else desc


def _parse_table(lines: list[str], start: int, out: ParsedIndex, entries: bool = True) -> int:
    header = [uncell(c) for c in split_row(lines[start])]
    i = start + 1
    if i >= len(lines) or not re.match(r"^\s*\|?\s*:?-{3,}", lines[i]):
        out.problems.append(f"line {start + 1}: table header without a '---' separator row")
        return i
    i += 1
    skip = not entries and header == ENTRY_COLS
    rows = []
    while i < len(lines) and lines[i].lstrip().startswith("|"):
        if not skip:
            rows.append((i + 1, split_row(lines[i])))
        i += 1
    if header == CAT_COLS:
        _cat_table(rows, out)
    elif header == ENTRY_COLS:
        _entry_table(rows, out)
    else:
        out.problems.append(f"line {start + 1}: unknown table columns {header}")
    return i


def _cat_table(rows: list[tuple[int, list[str]]], out: ParsedIndex) -> None:
    for lineno, cells in rows:
        if len(cells) != 4:
            out.problems.append(f"line {lineno}: expected 4 cells, found {len(cells)}")
            continue
        name, _ = _link_target(cells[0])
        count = int(cells[2]) if cells[2].isdigit() else -1
        out.categories.append(CategoryRow(name, uncell(cells[1]), count, cells[3]))


def _entry_table(rows: list[tuple[int, list[str]]], out: ParsedIndex) -> None:
    for lineno, cells in rows:
        if len(cells) != 4:
            out.problems.append(f"line {lineno}: expected 4 cells, found {len(cells)}")
            continue
        text, href = _link_target(cells[3])
        out.entries.append(EntryRow(uncell(cells[0]), cells[1], cells[2], href or text))
