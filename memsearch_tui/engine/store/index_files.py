"""Writing and checking the INDEX.md files of a store, from the catalog of entries.

Descriptions are the one hand-written part. A category's description appears twice: as
the paragraph of its own INDEX.md and as a cell of its parent's table (the root's for a
top-level category). When the two differ, the file edited last wins, so a person can
edit either place and a rebuild keeps their words.

Splicing: an add to a 5,000-entry category would re-render 5,000 entry lines. Instead,
when the catalog proves that the category's INDEX.md is still the file the last write
left and that its rows changed since only by this edit's own put/drop (generation
arithmetic, see ``engine/catalog``), those few lines are taken out of the old table and
put back at their sorted places. Anything unproven renders every line, as a rebuild
always does; both give the same bytes (tests/store/test_index_splice.py).
"""

from __future__ import annotations

import os
from collections import defaultdict
from pathlib import Path
from typing import Any

from memsearch_tui.engine.core.paths import ARCHIVED, INDEX, utf8_name
from memsearch_tui.engine.core.safe_io import open_regular
from memsearch_tui.engine.core.text import plural
from memsearch_tui.engine.history.txn import Transaction
from memsearch_tui.engine.store import index_md as im
from memsearch_tui.engine.store.catalog import Catalog, fingerprint

MAX_SPLICED = 64  # more own changes than this in one category: rendering all lines is as cheap


class IndexWriter:
    """Renders the root and category indexes of one store from a refreshed catalog."""

    def __init__(self, root: Path, cat: Catalog) -> None:
        self.root = root
        self.cat = cat
        self._parsed: dict[Path, tuple[im.ParsedIndex, float]] = {}
        self._cat_parsed: dict[Path, tuple[im.ParsedIndex, float]] = {}
        self._current: dict[str, tuple[str | None, os.stat_result | None]] = {}
        self._gens: dict[str, int] = {}  # per category: the rows generation its lines show
        self._total: dict[str, int] = defaultdict(int)
        self._latest: dict[str, str] = defaultdict(str)
        self._children: dict[str, set[str]] = defaultdict(set)
        self._scanned: set[str] = set()
        self._aggregate()

    # -- derived numbers -------------------------------------------------------------
    def _aggregate(self) -> None:
        """Recursive counts and dates per category from the catalog's per-folder totals."""
        for category, (count, latest) in self.cat.totals().items():
            self._add_category(category)
            parts = category.split("/") if category else []
            for i in range(len(parts) + 1):
                anc = "/".join(parts[:i])
                self._total[anc] += count
                self._latest[anc] = max(self._latest[anc], latest)

    def _add_category(self, category: str) -> None:
        parts = category.split("/") if category else []
        for i in range(1, len(parts) + 1):
            self._children["/".join(parts[: i - 1])].add("/".join(parts[:i]))

    def children(self, category: str) -> list[str]:
        """Subcategories: folders on disk (even empty ones) and folders holding entries."""
        if category not in self._scanned:
            self._scanned.add(category)
            folder = self.root.joinpath(*category.split("/")) if category else self.root
            try:
                with os.scandir(folder) as it:
                    for de in it:
                        if (
                            de.is_dir(follow_symlinks=False)
                            and not de.name.startswith(".")
                            and de.name != ARCHIVED
                            and utf8_name(de.name)
                        ):
                            self._add_category(f"{category}/{de.name}" if category else de.name)
            except OSError:
                pass
        return sorted(self._children.get(category, ()))

    def categories(self) -> list[str]:
        """Every category of the store, parents before children."""
        out: list[str] = []
        stack = [""]
        while stack:
            kids = self.children(stack.pop())
            out += kids
            stack += reversed(kids)
        return sorted(out)

    # -- descriptions ----------------------------------------------------------------
    def _index_path(self, category: str) -> Path:
        return self.root.joinpath(*category.split("/"), INDEX) if category else self.root / INDEX

    def _read(self, path: Path, *, entries: bool = True) -> tuple[im.ParsedIndex, float]:
        """The parsed index (without entry rows unless ``entries``) and its mtime."""
        cache = self._parsed if entries else self._cat_parsed
        if path not in cache:
            try:
                with open_regular(path) as fh:  # a FIFO named INDEX.md: absent, then rewritten
                    text = fh.read().decode("utf-8")
                cache[path] = (im.parse(text, entries=entries), path.stat().st_mtime)
            except (OSError, UnicodeDecodeError):
                cache[path] = (im.ParsedIndex(), 0.0)
        return cache[path]

    def _text_of(self, category: str) -> tuple[str | None, os.stat_result | None]:
        """The INDEX.md text of ``category`` and the stat of the very file read (one open)."""
        if category not in self._current:
            try:
                with open_regular(self._index_path(category)) as fh:
                    st = os.fstat(fh.fileno())
                    self._current[category] = (fh.read().decode("utf-8"), st)
            except (OSError, UnicodeDecodeError):
                self._current[category] = (None, None)
        return self._current[category]

    def _read_description(self, path: Path) -> tuple[str, float]:
        """Only the description paragraph: a 5k-row table need not be parsed for it."""
        try:
            with open_regular(path) as fh:
                head = fh.read(16384).decode("utf-8", "ignore")
            return im.parse_description(head), path.stat().st_mtime
        except (OSError, UnicodeDecodeError):
            return "", 0.0

    def description(self, category: str) -> str:
        own_desc, own_mtime = self._read_description(self._index_path(category))
        parent = category.rsplit("/", 1)[0] if "/" in category else ""
        up, up_mtime = self._read(self._index_path(parent), entries=False)
        name = category.rsplit("/", 1)[-1]
        in_parent = next((r.description for r in up.categories if r.name == name), "")
        # The parent's cell is the one-line form of the category's own text: equal up to
        # whitespace means nobody edited either, so keep the paragraphs.
        if own_desc and in_parent and " ".join(own_desc.split()) != " ".join(in_parent.split()):
            return own_desc if own_mtime >= up_mtime else in_parent
        return own_desc or in_parent

    # -- rendering -------------------------------------------------------------------
    def _row(self, category: str) -> im.CategoryRow:
        return im.CategoryRow(
            name=category.rsplit("/", 1)[-1],
            description=" ".join(self.description(category).split()),
            entries=self._total.get(category, 0),
            updated=self._latest.get(category, "") or "—",
        )

    def _entry_rows(self, category: str) -> list[im.EntryRow]:
        rows = []
        cut = len(category) + 1 if category else 0
        for entry_id, title, status, updated in self.cat.index_rows(category):
            rows.append(im.EntryRow(title, status, updated or "—", f"{entry_id[cut:]}.md"))
        return sorted(rows, key=lambda r: (r.title.casefold(), r.file))

    def render(self, category: str, *, splice: bool = False) -> str:
        """The INDEX.md text of ``category``; ``splice`` allows reusing the old table."""
        subs = [self._row(c) for c in self.children(category)]
        if not category:
            return im.render_root(subs)
        lines = self._spliced_lines(category) if splice else None
        if lines is None:
            self._gens[category] = self.cat.rows_gen(category)  # read before the rows
            lines = [im.entry_line(r) for r in self._entry_rows(category)]
        return im.render_category(category.rsplit("/", 1)[-1], self.description(category), [], subs, entry_lines=lines)

    def _spliced_lines(self, category: str) -> list[str] | None:
        """The entry lines of the current INDEX.md with this edit's own rows re-placed, or
        None when the catalog cannot prove that the rest of the table is current."""
        marker = self.cat.index_marker(category)
        count, own = self.cat.own_changes(category)
        if marker is None or marker.gen_now != marker.gen + count or len(own) > MAX_SPLICED:
            return None  # someone else changed rows (a hand edit seen by a refresh, a crash)
        text, st = self._text_of(category)
        if text is None or st is None or fingerprint(st) != marker.fingerprint:
            return None  # the file is not the one last written (edited, rolled back, …)
        lines = im.entry_lines_of(text)
        if lines is None:
            return None
        cut = len(category) + 1
        ends = tuple(im.entry_line_end(f"{entry_id[cut:]}.md") for entry_id in own)
        lines = [ln for ln in lines if not ln.endswith(ends)]  # the rest is sorted and current
        for entry_id in sorted(own):
            row = self.cat.index_row(entry_id)
            if row is not None and not self._insert(category, lines, entry_id, row):
                return None
        if len(lines) != self.cat.count_rows(category):
            return None  # never expected; a full render is always right
        self._gens[category] = marker.gen_now
        return lines

    def _insert(self, category: str, lines: list[str], entry_id: str, row: tuple[str, str, str]) -> bool:
        """Put the line of ``entry_id`` at its sorted place (binary search; each probed
        line's sort key comes from the catalog, so odd titles compare exactly)."""
        title, status, updated = row
        file = f"{entry_id[len(category) + 1 :]}.md"
        key = (title.casefold(), file)
        lo, hi = 0, len(lines)
        while lo < hi:
            mid = (lo + hi) // 2
            other = self._line_key(category, lines[mid])
            if other is None:
                return False
            if other < key:
                lo = mid + 1
            else:
                hi = mid
        lines.insert(lo, im.entry_line(im.EntryRow(title, status, updated or "—", file)))
        return True

    def _line_key(self, category: str, line: str) -> tuple[str, str] | None:
        file = im.entry_line_file(line)
        row = self.cat.index_row(f"{category}/{file[:-3]}") if file and file.endswith(".md") else None
        return (row[0].casefold(), file) if row and file else None

    # -- writing ---------------------------------------------------------------------
    def write_chain(self, txn: Transaction, category: str) -> int:
        """Rewrite the index of ``category`` and of every ancestor up to the root."""
        parts = category.split("/") if category else []
        chain = ["/".join(parts[:i]) for i in range(len(parts), -1, -1)]
        texts = {c: self.render(c, splice=True) for c in chain}  # render all before writing any
        return sum(self._write_text(txn, c, texts[c]) for c in chain)

    def _write_text(self, txn: Transaction, category: str, text: str) -> bool:
        """Write ``text`` unless the file holds it already; either way remember (in the
        catalog) which file now holds the table of which rows generation."""
        old, st = self._text_of(category)
        written = old != text
        if written:
            st = txn.write(self._index_path(category), text)
        self._current[category] = (text, st)
        if category and st is not None:
            self.cat.mark_index(category, fingerprint(st), self._gens[category])
        return written

    def write_all(self, txn: Transaction) -> int:
        cats = [""] + self.categories()
        texts = {c: self.render(c) for c in cats}
        return sum(self._write_text(txn, c, texts[c]) for c in cats)

    # -- checking --------------------------------------------------------------------
    def check(self) -> list[dict[str, Any]]:
        problems: list[dict[str, Any]] = []
        for s in self.cat.errors():
            problems.append(_p("invalid_entry", f"{s.id}.md", s.error))
        for entry_id, *_ in self.cat.index_rows(""):
            problems.append(
                _p(
                    "outside_category",
                    f"{entry_id}.md",
                    "entry file directly in the root: move it into a category folder",
                )
            )
        for category in [""] + self.categories():
            problems += self._check_one(category)
        return problems

    def _check_one(self, category: str) -> list[dict[str, Any]]:
        path = self._index_path(category)
        rel = path.relative_to(self.root).as_posix()
        if path.is_dir():
            return [_p("malformed", rel, "is a folder, not an index file: rename or remove it")]
        if not path.is_file():
            return [_p("missing_index", rel, "index file is missing")]
        try:
            with open_regular(path) as fh:
                fh.read().decode("utf-8")
        except OSError:
            return [_p("malformed", rel, "not a regular file; `index check --fix` rewrites it from the files")]
        except UnicodeDecodeError:
            return [_p("malformed", rel, "not valid UTF-8; `index check --fix` rewrites it from the files")]
        parsed, _ = self._read(path)
        out = [_p("malformed", rel, msg) for msg in parsed.problems]
        out += _compare_categories(rel, parsed.categories, [self._row(c) for c in self.children(category)])
        if category:
            out += _compare_entries(rel, parsed.entries, self._entry_rows(category))
        return out


def _p(kind: str, file: str, message: str) -> dict[str, Any]:
    return {"kind": kind, "file": file, "message": message}


def _compare_entries(rel: str, found: list[im.EntryRow], want: list[im.EntryRow]) -> list[dict[str, Any]]:
    out = []
    have = {r.file: r for r in found}
    need = {r.file: r for r in want}
    for f in need.keys() - have.keys():
        out.append(_p("missing_row", rel, f"entry {f} is not listed"))
    for f in have.keys() - need.keys():
        out.append(_p("orphan_row", rel, f"row for {f}, but no such entry file"))
    for f in need.keys() & have.keys():
        a, b = have[f], need[f]
        for field in ("title", "status", "updated"):
            if getattr(a, field) != getattr(b, field):
                out.append(
                    _p(f"wrong_{field}", rel, f"{f}: {field} is '{getattr(a, field)}', file says '{getattr(b, field)}'")
                )
    return out


def _compare_categories(rel: str, found: list[im.CategoryRow], want: list[im.CategoryRow]) -> list[dict[str, Any]]:
    out = []
    have = {r.name: r for r in found}
    need = {r.name: r for r in want}
    for n in need.keys() - have.keys():
        out.append(_p("missing_row", rel, f"category {n} is not listed"))
    for n in have.keys() - need.keys():
        out.append(_p("orphan_row", rel, f"row for category {n}, but no such folder"))
    for n in need.keys() & have.keys():
        if have[n].entries != need[n].entries:
            out.append(
                _p(
                    "wrong_count",
                    rel,
                    f"{n}: {plural(have[n].entries, 'entry', 'entries')} listed, {need[n].entries} on disk",
                )
            )
        if have[n].updated != need[n].updated:
            out.append(_p("wrong_updated", rel, f"{n}: updated '{have[n].updated}', files say '{need[n].updated}'"))
    return out
