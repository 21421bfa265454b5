"""Asking the literal-search cache which files hold every needle.

Split from :mod:`.grep_index`, which keeps the database up to date: this is the reading
side, a mixin over its connection. The trigram index narrows the files, ``instr`` decides.
Kept free of heavy imports: ``search -s grep`` imports it on the fast path.
"""

from __future__ import annotations

import sqlite3
from collections import namedtuple


class Match(namedtuple("Match", "path kind entry_id count")):
    """A file containing every needle: how often the first occurs, and what the file is."""

    __slots__ = ()


class GrepQueries:
    """The searching half of :class:`.grep_index.GrepIndex` (its ``db`` is the cache)."""

    db: sqlite3.Connection

    def count(self, scopes: list[str], source: str, category: str | None) -> int:
        where, args = _filter(scopes, source, category)
        n: int = self.db.execute(f"SELECT count(*) FROM files f WHERE {where}", args).fetchone()[0]
        return n

    def matches(self, needles: list[str], k: int, scopes: list[str], source: str, category: str | None) -> list[Match]:
        """Files containing every needle (case-insensitively), most occurrences first.

        The trigram index narrows the files first (see :meth:`_candidates`); ``instr`` on
        the text decides, so the index only has to be a superset.
        """
        lowered = [n.lower() for n in needles]
        where, args = _filter(scopes, source, category)
        where += " AND instr(f.low, ?) > 0" * len(lowered)
        args += lowered
        rank = "(length(f.low) - length(replace(f.low, ?, ''))) / ? AS n"
        expr = self._candidates(max(lowered, key=len))
        if expr == "":
            return []
        if expr is None:
            rows = "files f NOT INDEXED"  # one pass over the table beats look-ups by scope
        else:
            rows = "grams CROSS JOIN files f ON f.rowid = grams.rowid"  # the index drives
            where, args = "grams MATCH ? AND " + where, [expr, *args]
        sql = f"SELECT f.path, f.kind, f.entry_id, {rank} FROM {rows} WHERE {where} ORDER BY n DESC, f.path LIMIT ?"
        return [Match(*row) for row in self.db.execute(sql, [lowered[0], len(lowered[0]), *args, k])]

    def _candidates(self, needle: str) -> str | None:
        """An FTS5 query every row containing ``needle`` satisfies; "" if no row can; None:
        scan the table instead (a one-character needle).

        Three or more characters: all of the needle's trigrams. Two: any trigram that starts
        with them (stored texts end in a newline, so one always follows), looked up in the
        index's vocabulary.
        """
        if len(needle) >= 3:
            return " AND ".join(_quoted(g) for g in sorted({needle[i : i + 3] for i in range(len(needle) - 2)}))
        if len(needle) != 2 or "\n" in needle:
            return None
        terms = self.db.execute(
            "SELECT term FROM grams_vocab WHERE term >= ? AND term <= ?", (needle, needle + "\U0010ffff")
        ).fetchall()
        return " OR ".join(_quoted(t) for (t,) in terms)


def _quoted(text: str) -> str:
    """``text`` as one FTS5 string (a trigram is one token of it)."""
    return '"' + text.replace('"', '""') + '"'


def _filter(scopes: list[str], source: str, category: str | None) -> tuple[str, list[str | int]]:
    """SQL condition on files ``f`` for scope, source and category."""
    where = f"f.scope IN ({','.join('?' * len(scopes))})"
    args: list[str | int] = list(scopes)
    if source == "journal":
        where += " AND f.kind != 'entry'"
    if category:
        where += " AND f.kind = 'entry' AND substr(f.entry_id, 1, ?) = ?"
        args += [len(category) + 1, category + "/"]
    return where, args
