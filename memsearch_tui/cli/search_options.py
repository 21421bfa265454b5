"""``search``'s options, declared once for both parsers (no imports: the fast path reads this).

Typer builds the ``search`` command from this table (``cli/search_cmds.py``) and the
literal-search fast path (``cli/search_fast.py``) parses the same flags without Typer;
``tests/search/test_cli_fast.py`` checks that the two agree.
"""

from __future__ import annotations


class Opt:
    """One option: where its value goes, its flags, default and help; ``fast`` if the fast
    path may take it (anything else sends the line to Typer)."""

    __slots__ = ("default", "dest", "fast", "flags", "help")

    def __init__(self, dest: str, flags: tuple[str, ...], default: object, help: str, fast: bool = True) -> None:
        self.dest, self.flags, self.default, self.help, self.fast = dest, flags, default, help, fast


STRATEGY = Opt("strategy", ("--strategy", "-s"), "auto", "auto|grep|index|vector|hybrid")
TOP = Opt("k", ("-k", "--top"), 10, "Number of hits (1-1000).")
CATEGORY = Opt("category", ("--category", "-c"), None, "Only store entries under this category.")
SOURCE = Opt("source", ("--source",), "all", "store|journal|all")
BATCH = Opt("batch", ("--batch",), None, "JSON lines {id, query} from FILE or - (stdin).", fast=False)
EXPLAIN = Opt(
    "explain", ("--explain",), False, "Show why each hit ranks where it does (legs, weights, terms).", fast=False
)

SINCE = Opt("since", ("--since",), None, "Only hits dated on or after: YYYY-MM-DD, YYYY-MM or 'last week'.", fast=False)
UNTIL = Opt("until", ("--until",), None, "Only hits dated on or before (same forms as --since).", fast=False)

SEARCH_OPTIONS = (STRATEGY, TOP, CATEGORY, SOURCE, BATCH, EXPLAIN, SINCE, UNTIL)
TOP_MAX = 1000
