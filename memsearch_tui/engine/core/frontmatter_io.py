"""Read and write Markdown files with YAML frontmatter, exactly.

python-frontmatter does the YAML side (through a handler with a strict loader that rejects
duplicate keys); the split is done here because python-frontmatter strips the body, and a
body must round-trip byte for byte. A UTF-8 BOM and CRLF line endings are remembered and
written back as found.

Writing back a parsed file edits its text, not a re-dump of its data (``_surgery``): only
the keys whose values changed are rewritten, each in place; comments, quoting and flow
styles, anchors, key order and the body's line endings (mixed LF/CRLF too) stay as they
were. Whatever the surgery cannot prove right (it re-reads its result) falls back to a
full re-dump, which is correct data in the store's own style.

Bounds before and during parsing (files nobody vouches for): frontmatter over
``MAX_FRONTMATTER`` characters, integers over ``MAX_INT_DIGITS`` digits, more than
``MAX_ALIASES`` aliases or an alias expansion over ``MAX_EXPANDED_NODES`` nodes (an
alias bomb), nesting too deep: each a clear InvalidInput naming the file.

YAML loads on first use, not on import (~8 ms of every CLI call): ``ls`` of an unchanged
store parses nothing, and writing the plain frontmatter the store itself makes (short
words, dates, numbers, lists of words) is done by ``_plain_export``, which writes exactly
what the YAML dumper writes (tests/store/test_entries.py compares the two) and hands
anything else to the dumper.
"""

from __future__ import annotations

import functools
import json
import re
from dataclasses import field, replace
from datetime import date, datetime
from typing import Any

from memsearch_tui.engine.core.errors import InvalidInput
from memsearch_tui.engine.core.record import record

_CLOSE = re.compile(r"^(?:---|\.\.\.)[ \t]*\r?$", re.MULTILINE)
_HANDLER: Any = None
MAX_FRONTMATTER = 100_000
MAX_INT_DIGITS = 64
MAX_ALIASES = 100
MAX_EXPANDED_NODES = 10_000


def yaml_handler() -> Any:
    """The strict YAML handler (built, and YAML imported, on first use)."""
    global _HANDLER
    if _HANDLER is None:
        _HANDLER = _build_handler()
    return _HANDLER


def _build_handler() -> Any:
    import yaml
    from frontmatter.default_handlers import YAMLHandler

    base = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
    base_dumper = getattr(yaml, "CSafeDumper", yaml.SafeDumper)

    class StrictLoader(base):  # type: ignore[misc, valid-type]
        """Safe YAML loader that refuses a mapping with the same key twice."""

        def construct_mapping(self, node: Any, deep: bool = False) -> Any:
            seen: set[Any] = set()
            for key_node, _ in node.value:
                key = self.construct_object(key_node, deep=deep)
                if key in seen:
                    raise yaml.constructor.ConstructorError(None, None, f"duplicate key {key!r}", key_node.start_mark)
                seen.add(key)
            return super().construct_mapping(node, deep=deep)

        def construct_yaml_int(self, node: Any) -> Any:
            text = str(node.value)
            if len(text) > MAX_INT_DIGITS:
                raise yaml.constructor.ConstructorError(
                    None, None, f"a number of {len(text)} digits ({MAX_INT_DIGITS} at most)", node.start_mark
                )
            return super().construct_yaml_int(node)

    StrictLoader.add_constructor("tag:yaml.org,2002:int", StrictLoader.construct_yaml_int)

    class PlainDumper(base_dumper):  # type: ignore[misc, valid-type]
        """Safe dumper that never writes anchors/aliases (&id001): people edit these files."""

        def ignore_aliases(self, data: Any) -> bool:
            return True

    class StrictYAMLHandler(YAMLHandler):
        def load(self, fm: str, **kwargs: object) -> Any:
            return yaml.load(fm, Loader=StrictLoader)

        def export(self, metadata: dict[str, object], **kwargs: object) -> str:
            # Not super().export: it str.strip()s, which eats a key or value made of Unicode spaces.
            text: str = yaml.dump(
                metadata, Dumper=PlainDumper, default_flow_style=False, allow_unicode=True, sort_keys=False, width=1000
            )
            return text[:-1] if text.endswith("\n") else text

    return StrictYAMLHandler()


def export_meta(meta: dict[str, Any]) -> str:
    """The YAML text of a frontmatter mapping (no final newline)."""
    plain = _plain_export(meta)
    return plain if plain is not None else yaml_handler().export(meta)


# A word the YAML dumper writes unquoted: starts with a letter (so no indicator, number or
# date), then letters, digits, CJK, '_', '-', '.', '/' and single inner spaces; no ':' or
# '#'. Words YAML reads as booleans or null are quoted by the dumper, so not plain here.
# Compiled at the first write, not on import: its CJK range is a 21,000-character set that
# ``re`` takes ~2.5 ms to compile (loaded), in every CLI call and the app's first frame.
@functools.cache
def _plain_word() -> re.Pattern[str]:
    return re.compile(r"[A-Za-z\u4e00-\u9fff](?:[\w\u4e00-\u9fff./-]| (?! ))*", re.ASCII)


_NOT_STR = {"yes", "no", "true", "false", "on", "off", "null", "y", "n"}
_PLAIN_KEY = re.compile(r"[a-z][a-z_]*")
_PLAIN_MAX = 200


def _plain_str(value: str) -> bool:
    return (
        len(value) <= _PLAIN_MAX
        and _plain_word().fullmatch(value) is not None
        and not value.endswith(" ")
        and value.lower() not in _NOT_STR
    )


def _plain_scalar(value: Any) -> str | None:
    if isinstance(value, str):
        return value if _plain_str(value) else None
    if isinstance(value, bool) or value is None:
        return None
    if isinstance(value, int):
        return str(value)
    if isinstance(value, date) and not isinstance(value, datetime):
        return value.isoformat()
    return None


def _plain_export(meta: dict[str, Any]) -> str | None:
    """``meta`` as the YAML dumper writes it, when every key is a plain word and every value
    a plain scalar or a list of them; None otherwise."""
    lines = []
    for key, value in meta.items():
        if not isinstance(key, str) or not _PLAIN_KEY.fullmatch(key) or key in _NOT_STR:
            return None
        if isinstance(value, list):
            items = [_plain_scalar(v) for v in value]
            if any(i is None for i in items):
                return None
            lines.append(f"{key}: []" if not items else f"{key}:\n" + "\n".join(f"- {i}" for i in items))
        else:
            text = _plain_scalar(value)
            if text is None:
                return None
            lines.append(f"{key}: {text}")
    return "\n".join(lines) if lines else None


@record
class SourceText:
    """The exact text a ParsedFile was parsed from, so ``dump`` can edit instead of re-dump."""

    opener: str  # "---\n" or "---\r\n"
    fm: str  # the frontmatter text between the fences, line endings as found
    close: str  # the closing fence line with its line ending ("" at end of file)
    body: str  # the body, line endings as found
    norm_body: str  # the body as ``ParsedFile.body`` holds it (CRLF read as LF)


@record(frozen=False)
class ParsedFile:
    """A parsed file: metadata (insertion-ordered) and the body exactly as it was."""

    meta: dict[str, Any] = field(default_factory=dict)
    body: str = ""
    has_frontmatter: bool = True
    bom: bool = False
    crlf: bool = False
    source: SourceText | None = field(default=None, compare=False, repr=False)

    def derive(self, meta: dict[str, Any], body: str) -> ParsedFile:
        """This document with new meta and body; written back, it keeps every byte of the
        original that did not change (BOM, line endings, comments, YAML styles)."""
        return replace(self, meta=meta, body=body)


def decode(data: bytes, where: str) -> str:
    """UTF-8 text, or a clear error naming the file (binary data included)."""
    if b"\x00" in data[:8192]:
        raise InvalidInput(f"{where}: binary file, not Markdown", path=where)
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise InvalidInput(f"{where}: not valid UTF-8 (byte {exc.start}: {exc.reason})", path=where) from None


def parse(data: bytes, where: str) -> ParsedFile:
    """Split frontmatter from body; YAML errors name the file and line."""
    fm, doc = _split(data, where)
    if fm is not None:
        doc.meta = _load_yaml(fm, where)
    return doc


def body_of(data: bytes, where: str) -> str:
    """The body of a file as ``parse`` reads it, without parsing the frontmatter (the
    duplicate check compares bodies only)."""
    return _split(data, where)[1].body


def _split(data: bytes, where: str) -> tuple[str | None, ParsedFile]:
    """(frontmatter text or None when there is none, the document without its meta)."""
    raw = decode(data, where)
    bom = raw.startswith("\ufeff")
    if bom:
        raw = raw[1:]
    crlf = "\r\n" in raw
    opener = "---\r\n" if raw.startswith("---\r\n") else "---\n" if raw.startswith("---\n") else ""
    if not opener and raw != "---":
        body = raw.replace("\r\n", "\n") if crlf else raw
        return None, ParsedFile(
            {}, body, has_frontmatter=False, bom=bom, crlf=crlf, source=SourceText("", "", "", raw, body)
        )
    opener = opener or "---"
    close = _CLOSE.search(raw, len(opener))
    if close is None or raw == "---":
        raise InvalidInput(f"{where}: frontmatter starts with '---' but is never closed", path=where)
    raw_fm = raw[len(opener) : close.start()]
    if len(raw_fm) > MAX_FRONTMATTER:
        raise InvalidInput(
            f"{where}: frontmatter is {len(raw_fm):,} characters; {MAX_FRONTMATTER:,} at most", path=where
        )
    end = close.end() + 1 if close.end() < len(raw) else close.end()
    raw_body = raw[end:]
    body = raw_body.replace("\r\n", "\n") if crlf else raw_body
    fm = raw_fm.replace("\r\n", "\n") if crlf else raw_fm
    src = SourceText(opener, raw_fm, raw[close.start() : end], raw_body, body)
    return fm, ParsedFile({}, body, bom=bom, crlf=crlf, source=src)


def load_meta(fm: str, where: str) -> dict[str, Any]:
    """The mapping of a frontmatter text (without its ``---`` lines), bounded like every
    read of the store: the one YAML loader for the whole engine. InvalidInput naming
    ``where`` for anything unusable (malformed, too deep, a huge integer, an alias bomb)."""
    if len(fm) > MAX_FRONTMATTER:
        raise InvalidInput(f"{where}: frontmatter is {len(fm):,} characters; {MAX_FRONTMATTER:,} at most", path=where)
    return _load_yaml(fm, where)


def _load_yaml(fm: str, where: str) -> dict[str, Any]:
    if not fm.strip():
        return {}
    import yaml

    try:
        if "*" in fm:  # only text with an alias can be an alias bomb
            _check_aliases(fm)
        meta = yaml_handler().load(fm)
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None) or getattr(exc, "context_mark", None)
        line = f" line {mark.line + 2}" if mark is not None else ""
        problem = getattr(exc, "problem", None) or str(exc).splitlines()[0]
        raise InvalidInput(f"{where}:{line} malformed YAML frontmatter: {problem}", path=where) from None
    except (ValueError, RecursionError, OverflowError) as exc:  # numbers, nesting: never a traceback
        raise InvalidInput(f"{where}: unusable YAML frontmatter: {str(exc)[:200]}", path=where) from None
    if meta is None:
        return {}
    if not isinstance(meta, dict):
        raise InvalidInput(f"{where}: frontmatter must be a mapping of key: value", path=where)
    return meta


def _check_aliases(fm: str) -> None:
    """Refuse more than MAX_ALIASES aliases, or aliases that expand to more than
    MAX_EXPANDED_NODES nodes (nine nested lists of nine aliases are a billion strings to
    anything that walks them: a JSON dump, a secrets scan)."""
    import yaml

    loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
    sizes: dict[str, int] = {}
    stack: list[list[Any]] = [[None, 0]]
    aliases = 0
    for ev in yaml.parse(fm, Loader=loader):
        if isinstance(ev, (yaml.SequenceStartEvent, yaml.MappingStartEvent)):
            stack.append([ev.anchor, 1])
            continue
        if isinstance(ev, (yaml.SequenceEndEvent, yaml.MappingEndEvent)):
            anchor, size = stack.pop()
        elif isinstance(ev, yaml.ScalarEvent):
            anchor, size = ev.anchor, 1
        elif isinstance(ev, yaml.AliasEvent):
            aliases += 1
            if aliases > MAX_ALIASES:
                raise ValueError(f"more than {MAX_ALIASES} YAML aliases (an alias bomb?)")
            anchor, size = None, sizes.get(ev.anchor, 1)
        else:
            continue
        if anchor is not None:
            sizes[anchor] = size
        stack[-1][1] += size
        if stack[-1][1] > MAX_EXPANDED_NODES:
            raise ValueError(f"YAML aliases expand to more than {MAX_EXPANDED_NODES:,} values (an alias bomb?)")


def dump(doc: ParsedFile) -> bytes:
    """Inverse of ``parse``: parse(dump(d)) == d for every document parse can return; a
    parsed document keeps every byte that did not change (see the module docstring)."""
    src = doc.source
    if src is not None and doc.has_frontmatter and src.opener:
        text = _edited_text(doc, src)
    else:
        if doc.has_frontmatter:
            fm = export_meta(doc.meta) if doc.meta else ""
            text = f"---\n{fm}\n---\n" if fm else "---\n---\n"
        else:
            text = ""
        if doc.crlf:
            text = text.replace("\n", "\r\n")
        text += _body_text(doc, src)
    if doc.bom:
        text = "\ufeff" + text
    return text.encode("utf-8")


def _body_text(doc: ParsedFile, src: SourceText | None) -> str:
    """The body with its line endings as found: unchanged text is written as read; text
    added after it (a version history line) takes the file's convention. In a body that
    mixes LF and CRLF, every line that did not change keeps its own ending."""
    if src is not None and doc.body.startswith(src.norm_body):
        tail = doc.body[len(src.norm_body) :]
        return src.body + (tail.replace("\n", "\r\n") if doc.crlf else tail)
    if src is not None and doc.crlf and "\n" in src.body.replace("\r\n", ""):
        return _keep_mixed_endings(src.body, doc.body)
    return doc.body.replace("\n", "\r\n") if doc.crlf else doc.body


_LINE = re.compile(r"[^\n]*\n|[^\n]+\Z")


def _keep_mixed_endings(raw: str, new: str) -> str:
    """``new`` (LF) with the raw endings of the lines it shares with ``raw``; other lines
    take the ending most of ``raw`` uses."""
    from difflib import SequenceMatcher

    raw_lines = _LINE.findall(raw)
    old_lines = [ln[:-2] + "\n" if ln.endswith("\r\n") else ln for ln in raw_lines]
    new_lines = _LINE.findall(new)
    crlf = raw.count("\r\n") * 2 >= raw.count("\n")
    out: list[str] = []
    for tag, i1, i2, j1, j2 in SequenceMatcher(None, old_lines, new_lines, autojunk=False).get_opcodes():
        if tag == "equal":
            out += raw_lines[i1:i2]
        else:
            out += [ln[:-1] + "\r\n" if crlf and ln.endswith("\n") else ln for ln in new_lines[j1:j2]]
    return "".join(out)


def _edited_text(doc: ParsedFile, src: SourceText) -> str:
    nl = "\r\n" if src.opener.endswith("\r\n") else "\n"
    old = _load_yaml(src.fm.replace("\r\n", "\n"), "frontmatter") if src.fm.strip() else {}
    fm = src.fm if old == doc.meta else _surgery(src.fm, old, doc.meta, nl)
    if fm is None:  # the surgery could not prove its result: the store's own style
        fm = export_meta(doc.meta) + nl if doc.meta else ""
        if nl != "\n":
            fm = fm.replace("\n", nl)
    close = src.close or "---"
    if not src.close.endswith("\n") and (src.body or doc.body):
        close = close + nl
    return src.opener + fm + close + _body_text(doc, src)


# -- surgery: change the text of the keys that changed, and nothing else --------------------


@record(frozen=False)
class _Node:
    start: int  # where the node's text starts (its anchor or tag included)
    end: int  # where its text ends (a block scalar's final line breaks excluded)
    block: bool  # a block collection (its text spans lines below its key)
    scalar_items: list[tuple[int, int]] | None = None  # a block sequence of scalars: their spans
    empty: bool = False  # an empty plain scalar (``key:`` with nothing after it)


@record(frozen=False)
class _Pair:
    key: Any  # the key's value (str for a scalar key, None otherwise)
    key_start: int
    key_end: int
    value: _Node
    col: int = 0  # the key's column: where an appended key goes


def _surgery(fm: str, old: dict[str, Any], new: dict[str, Any], nl: str) -> str | None:
    """``fm`` with the keys that differ between ``old`` and ``new`` rewritten in place,
    removed or appended; None when the result would not read back as ``new``."""
    try:
        out = _edit(fm, old, new, nl)
        if out is not None and _load_yaml(out.replace("\r\n", "\n"), "frontmatter") == new:
            return out
    except Exception:  # any doubt: the caller re-dumps, which is always right
        return None
    return None


def _edit(fm: str, old: dict[str, Any], new: dict[str, Any], nl: str) -> str | None:
    import yaml

    events = list(yaml.parse(fm, Loader=yaml.SafeLoader))  # pure-Python parser: marks count characters
    kinds = [type(e).__name__ for e in events]
    if kinds[:2] == ["StreamStartEvent", "StreamEndEvent"] or (len(events) >= 4 and _is_null_doc(events)):
        lines = export_meta(new)
        return fm + (nl if fm and not fm.endswith("\n") else "") + lines.replace("\n", nl) + nl if lines else fm
    if len(events) < 4 or kinds[2] != "MappingStartEvent" or kinds.count("DocumentStartEvent") != 1:
        return None
    top = events[2]
    pairs, end_event = _pairs(events, fm)
    by_key: dict[Any, _Pair] = {}
    for p in pairs:
        if p.key is not None:
            by_key[p.key] = p
    edits: list[tuple[int, int, str]] = []
    for key in old:
        if key not in new:
            gone = by_key.get(key)
            if gone is None or top.flow_style:
                return None
            p = gone
            line_start = fm.rfind("\n", 0, p.key_start) + 1
            if fm[line_start : p.key_start].strip():
                return None
            line_end = fm.find("\n", p.value.end)
            edits.append((line_start, len(fm) if line_end < 0 else line_end + 1, ""))
    added: list[str] = []
    for key, value in new.items():
        if key in old and _same(old[key], value):
            continue
        if key not in old:
            added.append(f"{_flow(key)}: {_flow(value)}")
            continue
        found = by_key.get(key)
        if found is None:
            return None
        p = found
        edits.append(_replace_value(fm, p, value, nl))
    if added:
        if top.flow_style:
            at = end_event.start_mark.index
            sep = ", " if pairs else ""
            edits.append((at, at, sep + ", ".join(added)))
        else:
            indent = " " * pairs[0].col if pairs else ""
            text = "".join(f"{indent}{a}{nl}" for a in added)
            at = len(fm)
            if fm and not fm.endswith("\n"):
                text = nl + text
            edits.append((at, at, text))
    for start, end, text in sorted(edits, key=lambda e: (e[0], e[1]), reverse=True):
        fm = fm[:start] + text + fm[end:]
    return fm


def _is_null_doc(events: list[Any]) -> bool:
    """A frontmatter of comments only (or ``~``): a document holding one null scalar."""
    import yaml

    ev = events[2]
    return isinstance(ev, yaml.ScalarEvent) and ev.value in ("", "~", "null") and ev.anchor is None


def _same(a: Any, b: Any) -> bool:
    return type(a) is type(b) and a == b


def _pairs(events: list[Any], fm: str) -> tuple[list[_Pair], Any]:
    """The key/value pairs of the top mapping (events[2]) and its end event."""
    import yaml

    pairs: list[_Pair] = []
    i = 3
    while not isinstance(events[i], yaml.MappingEndEvent):
        key_ev = events[i]
        key_node, i = _node(events, i, fm)
        value, i = _node(events, i, fm)
        key = key_ev.value if isinstance(key_ev, yaml.ScalarEvent) and key_ev.tag is None else None
        pairs.append(_Pair(key, key_node.start, key_node.end, value, key_ev.start_mark.column))
    return pairs, events[i]


def _node(events: list[Any], i: int, fm: str) -> tuple[_Node, int]:
    """The span of the node starting at events[i], and the index after it."""
    import yaml

    ev = events[i]
    if isinstance(ev, yaml.ScalarEvent):
        end = ev.end_mark.index
        if ev.style in ("|", ">"):
            while end > ev.start_mark.index and fm[end - 1] in "\r\n":
                end -= 1
        empty = ev.value == "" and ev.style is None
        return _Node(ev.start_mark.index, end, False, empty=empty), i + 1
    if isinstance(ev, yaml.AliasEvent):
        return _Node(ev.start_mark.index, ev.end_mark.index, False), i + 1
    if isinstance(ev, (yaml.SequenceStartEvent, yaml.MappingStartEvent)):
        children: list[_Node] = []
        j = i + 1
        while not isinstance(events[j], (yaml.SequenceEndEvent, yaml.MappingEndEvent)):
            child, j = _node(events, j, fm)
            children.append(child)
        end_ev = events[j]
        if ev.flow_style:
            return _Node(ev.start_mark.index, end_ev.end_mark.index, False), j + 1
        if not children:
            raise ValueError("empty block collection")
        items = None
        plain_seq = isinstance(ev, yaml.SequenceStartEvent) and ev.anchor is None and ev.tag is None
        if plain_seq and all(not c.block and not c.empty for c in children):
            items = [(c.start, c.end) for c in children]
        return _Node(ev.start_mark.index, children[-1].end, True, scalar_items=items), j + 1
    raise ValueError(f"unexpected {type(ev).__name__}")


def _replace_value(fm: str, p: _Pair, value: Any, nl: str) -> tuple[int, int, str]:
    """The edit that gives the key of ``p`` the new ``value``, in the old style if it can."""
    v = p.value
    if v.empty:
        colon = fm.index(":", p.key_end) + 1
        return (colon, colon, " " + _flow(value))
    if not v.block:
        return (v.start, v.end, _flow(value))
    if v.scalar_items and isinstance(value, list) and value and all(_scalar(x) for x in value):
        first_start = v.scalar_items[0][0]
        line_start = fm.rfind("\n", 0, first_start) + 1
        prefix = fm[line_start:first_start]
        if re.fullmatch(r"[ \t]*-[ \t]+", prefix):
            return (first_start, v.end, (nl + prefix).join(_flow(x) for x in value))
    colon = fm.index(":", p.key_end) + 1
    return (colon, v.end, " " + _flow(value))


def _scalar(value: Any) -> bool:
    return value is None or isinstance(value, (str, int, float, bool, date))


def _flow(value: Any) -> str:
    """``value`` as one line of YAML that reads back the same in block and flow context."""
    if isinstance(value, str) and ("\n" in value or "\r" in value):
        return json.dumps(value, ensure_ascii=False)  # a JSON string is a YAML double-quoted one
    plain = _plain_scalar(value)
    if plain is not None:
        return plain
    import yaml

    yaml_handler()  # the dumper class is built with the handler
    text = yaml.dump(
        [value], Dumper=_flow_dumper(), default_flow_style=True, allow_unicode=True, sort_keys=False, width=1 << 30
    ).strip()
    if not (text.startswith("[") and text.endswith("]")) or "\n" in text:
        raise ValueError("not a one-line value")
    return str(text[1:-1])


_FLOW_DUMPER: Any = None


def _flow_dumper() -> Any:
    global _FLOW_DUMPER
    if _FLOW_DUMPER is None:
        import yaml

        class FlowDumper(yaml.SafeDumper):  # type: ignore[misc]  # PyYAML ships no type information
            def ignore_aliases(self, data: Any) -> bool:
                return True

        _FLOW_DUMPER = FlowDumper
    return _FLOW_DUMPER
