"""Read and write Markdown files with YAML frontmatter, exactly.

python-frontmatter does the YAML side (through a handler with a strict loader that rejects
duplicate keys); the split is done here because python-frontmatter strips the body, and a
body must round-trip byte for byte. A UTF-8 BOM and CRLF line endings are remembered and
written back as found.

YAML loads on first use, not on import (~8 ms of every CLI call): ``ls`` of an unchanged
store parses nothing, and writing the plain frontmatter the store itself makes (short
words, dates, numbers, lists of words) is done by ``_plain_export``, which writes exactly
what the YAML dumper writes (tests/store/test_entries.py compares the two) and hands
anything else to the dumper.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from datetime import date, datetime
from typing import Any

from memsearch_tui.engine.core.errors import InvalidInput

_CLOSE = re.compile(r"^(?:---|\.\.\.)[ \t]*$", re.MULTILINE)
_HANDLER: Any = None


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
_PLAIN_WORD = re.compile(r"[A-Za-z\u4e00-\u9fff](?:[\w\u4e00-\u9fff./-]| (?! ))*", re.ASCII)
_NOT_STR = {"yes", "no", "true", "false", "on", "off", "null", "y", "n"}
_PLAIN_KEY = re.compile(r"[a-z][a-z_]*")
_PLAIN_MAX = 200


def _plain_str(value: str) -> bool:
    return (
        len(value) <= _PLAIN_MAX
        and _PLAIN_WORD.fullmatch(value) is not None
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


@dataclass
class Document:
    """A parsed file: metadata (insertion-ordered) and the body exactly as it was."""

    meta: dict[str, Any] = field(default_factory=dict)
    body: str = ""
    has_frontmatter: bool = True
    bom: bool = False
    crlf: bool = False


def decode(data: bytes, where: str) -> str:
    """UTF-8 text, or a clear error naming the file (binary data included)."""
    if b"\x00" in data[:8192]:
        raise InvalidInput(f"{where}: binary file, not Markdown", path=where)
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise InvalidInput(f"{where}: not valid UTF-8 (byte {exc.start}: {exc.reason})", path=where) from None


def parse(data: bytes, where: str) -> Document:
    """Split frontmatter from body; YAML errors name the file and line."""
    fm, doc = _split(data, where)
    if fm is not None:
        doc.meta = _load_yaml(fm, where)
    return doc


def body_of(data: bytes, where: str) -> str:
    """The body of a file as ``parse`` reads it, without parsing the frontmatter (the
    duplicate check compares bodies only)."""
    return _split(data, where)[1].body


def _split(data: bytes, where: str) -> tuple[str | None, Document]:
    """(frontmatter text or None when there is none, the document without its meta)."""
    text = decode(data, where)
    bom = text.startswith("\ufeff")
    if bom:
        text = text[1:]
    crlf = "\r\n" in text
    if crlf:
        text = text.replace("\r\n", "\n")
    if not (text.startswith("---\n") or text == "---"):
        return None, Document({}, text, has_frontmatter=False, bom=bom, crlf=crlf)
    close = _CLOSE.search(text, 4)
    if close is None:
        raise InvalidInput(f"{where}: frontmatter starts with '---' but is never closed", path=where)
    fm = text[4 : close.start()]
    body = text[close.end() + 1 :] if close.end() < len(text) else ""
    return fm, Document({}, body, bom=bom, crlf=crlf)


def _load_yaml(fm: str, where: str) -> dict[str, Any]:
    if not fm.strip():
        return {}
    import yaml

    try:
        meta = yaml_handler().load(fm)
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None) or getattr(exc, "context_mark", None)
        line = f" line {mark.line + 2}" if mark is not None else ""
        problem = getattr(exc, "problem", None) or str(exc).splitlines()[0]
        raise InvalidInput(f"{where}:{line} malformed YAML frontmatter: {problem}", path=where) from None
    if meta is None:
        return {}
    if not isinstance(meta, dict):
        raise InvalidInput(f"{where}: frontmatter must be a mapping of key: value", path=where)
    return meta


def dump(doc: Document) -> bytes:
    """Inverse of ``parse``: parse(dump(d)) == d for every document parse can return."""
    if doc.has_frontmatter:
        fm = export_meta(doc.meta) if doc.meta else ""
        text = f"---\n{fm}\n---\n{doc.body}" if fm else f"---\n---\n{doc.body}"
    else:
        text = doc.body
    if doc.crlf:
        text = text.replace("\n", "\r\n")
    if doc.bom:
        text = "\ufeff" + text
    return text.encode("utf-8")
