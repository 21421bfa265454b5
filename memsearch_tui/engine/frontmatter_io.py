"""Read and write Markdown files with YAML frontmatter, exactly.

python-frontmatter does the YAML side (through a handler with a strict loader that rejects
duplicate keys); the split is done here because python-frontmatter strips the body, and a
body must round-trip byte for byte. A UTF-8 BOM and CRLF line endings are remembered and
written back as found.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

import yaml
from frontmatter.default_handlers import YAMLHandler

from .errors import InvalidInput

_Base = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
_BaseDumper = getattr(yaml, "CSafeDumper", yaml.SafeDumper)
_CLOSE = re.compile(r"^(?:---|\.\.\.)[ \t]*$", re.MULTILINE)


class StrictLoader(_Base):  # type: ignore[misc, valid-type]
    """Safe YAML loader that refuses a mapping with the same key twice."""

    def construct_mapping(self, node: Any, deep: bool = False) -> Any:
        seen: set[Any] = set()
        for key_node, _ in node.value:
            key = self.construct_object(key_node, deep=deep)
            if key in seen:
                raise yaml.constructor.ConstructorError(
                    None, None, f"duplicate key {key!r}", key_node.start_mark
                )
            seen.add(key)
        return super().construct_mapping(node, deep=deep)


class PlainDumper(_BaseDumper):  # type: ignore[misc, valid-type]
    """Safe dumper that never writes anchors/aliases (&id001): people edit these files."""

    def ignore_aliases(self, data: Any) -> bool:
        return True


class StrictYAMLHandler(YAMLHandler):
    def load(self, fm: str, **kwargs: object) -> Any:
        return yaml.load(fm, Loader=StrictLoader)  # noqa: S506 - a SafeLoader subclass

    def export(self, metadata: dict[str, object], **kwargs: object) -> str:
        # Not super().export: it str.strip()s, which eats a key or value made of Unicode spaces.
        text = yaml.dump(metadata, Dumper=PlainDumper, default_flow_style=False, allow_unicode=True,
                         sort_keys=False, width=1000)
        return text[:-1] if text.endswith("\n") else text


HANDLER = StrictYAMLHandler()


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
        raise InvalidInput(
            f"{where}: not valid UTF-8 (byte {exc.start}: {exc.reason})", path=where
        ) from None


def parse(data: bytes, where: str) -> Document:
    """Split frontmatter from body; YAML errors name the file and line."""
    text = decode(data, where)
    bom = text.startswith("\ufeff")
    if bom:
        text = text[1:]
    crlf = "\r\n" in text
    if crlf:
        text = text.replace("\r\n", "\n")
    if not (text.startswith("---\n") or text == "---"):
        return Document({}, text, has_frontmatter=False, bom=bom, crlf=crlf)
    close = _CLOSE.search(text, 4)
    if close is None:
        raise InvalidInput(f"{where}: frontmatter starts with '---' but is never closed", path=where)
    fm = text[4 : close.start()]
    body = text[close.end() + 1 :] if close.end() < len(text) else ""
    meta = _load_yaml(fm, where)
    return Document(meta, body, bom=bom, crlf=crlf)


def _load_yaml(fm: str, where: str) -> dict[str, Any]:
    try:
        meta = HANDLER.load(fm) if fm.strip() else {}
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
        fm = HANDLER.export(doc.meta) if doc.meta else ""
        text = f"---\n{fm}\n---\n{doc.body}" if fm else f"---\n---\n{doc.body}"
    else:
        text = doc.body
    if doc.crlf:
        text = text.replace("\n", "\r\n")
    if doc.bom:
        text = "\ufeff" + text
    return text.encode("utf-8")
