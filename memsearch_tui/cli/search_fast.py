"""``search`` without Typer: a literal search faster than ``grep -ri``, and the other
strategies without the ~150 ms that Typer, the store and the API's nouns cost.

People type keyword searches by hand and scripts run them in loops. Through Typer a search
first pays for click, typer and the search modules (~100 ms) before it looks at a file;
here ``-s grep`` starts the store's change scan (:mod:`..engine.search.change_scan`) at
once and imports only the literal search, and every other strategy (``auto``, ``index``,
``vector``, ``hybrid``: a hybrid CLI search's budget is 0.3 s) runs on a one-shot Searcher
(:func:`..engine.api.literal.indexed_json`).

This path takes exactly the command lines it understands — global ``--memory-root``,
``--project`` and ``--json``, then ``search QUERY`` with ``-s/--strategy``, ``-k/--top``,
``-c/--category``, ``--source`` and ``--json`` — and returns None for anything else (help,
``--batch``, ``--explain``, an unknown strategy or option, a bad value), which then goes
through Typer, so usage messages stay Typer's. ``tests/search/test_cli_fast.py`` checks
that both paths print the same for the same command line.
"""

from __future__ import annotations

import gc
import os
import sys
import types

from memsearch_tui.cli.argv import command_at
from memsearch_tui.cli.search_options import SEARCH_OPTIONS, TOP_MAX

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing
if TYPE_CHECKING:
    from pathlib import Path

STRATEGIES = ("grep", "auto", "index", "vector", "hybrid")  # engine.search.strategy's names
GLOBAL_VALUES = {"--memory-root": "memory_root", "--project": "project"}
SEARCH_VALUES = {flag: o.dest for o in SEARCH_OPTIONS if o.fast for flag in o.flags}
DEFAULTS: dict[str, object] = {
    "memory_root": None,
    "project": None,
    "json": False,
    **{o.dest: o.default for o in SEARCH_OPTIONS if o.fast},
}


def parse(args: list[str]) -> dict[str, object] | None:
    """Options of a search, or None when Typer should handle this command line."""
    if "--" in args or "-h" in args or "--help" in args or "search" not in args:
        return None
    at = command_at(args)
    if at is None or args[at] != "search":
        return None
    opts = dict(DEFAULTS)
    head = _options(args[:at], GLOBAL_VALUES, opts)
    words = _options(args[at + 1 :], SEARCH_VALUES, opts)
    if head != [] or words is None or len(words) != 1 or not words[0].strip():
        return None
    k = str(opts["k"])
    if opts["strategy"] not in STRATEGIES or not k.isdigit() or not 1 <= int(k) <= TOP_MAX:
        return None
    opts["query"], opts["k"] = words[0], int(k)
    return opts


def _options(tokens: list[str], values: dict[str, str], into: dict[str, object]) -> list[str] | None:
    """Read ``--opt V``, ``--opt=V``, ``-oV`` and ``--json`` from ``tokens`` into ``into``;
    the positional words, or None for anything this path does not take on trust.

    (argparse would do, but building a parser imports shutil: 5 ms on a path racing grep.)
    """
    words: list[str] = []
    i = 0
    while i < len(tokens):
        tok = tokens[i]
        i += 1
        if tok == "--json":
            into["json"] = True
            continue
        if not tok.startswith("-"):
            words.append(tok)
            continue
        name, eq, value = tok.partition("=")
        if eq and not name.startswith("--"):
            return None  # Click reads -c=x as the value "=x"
        if not eq and name not in values and name[:2] in values and not name.startswith("--"):
            name, value, eq = name[:2], name[2:], "="  # -sgrep, -k5
        if name not in values:
            return None
        if not eq:
            if i == len(tokens):
                return None
            value = tokens[i]
            i += 1
        if not value or value.startswith("-"):
            return None
        into[values[name]] = value
    return words


def main(args: list[str], *, exits: bool = False) -> int | None:
    """Run a search and return the exit code; None: not ours, use Typer.

    ``exits``: the process ends right after (the console script's ``os._exit``), so it can
    skip what only a longer-lived process needs (:func:`one_shot_process`)."""
    opts = parse(args)
    if opts is None:
        return None
    if exits:
        one_shot_process(str(opts["strategy"]))
    from pathlib import Path

    from memsearch_tui.engine.api.places import default_memory_root, find_project

    given = opts["memory_root"]
    root = (Path(str(given)) if given else default_memory_root()).expanduser().absolute()
    scan = None
    if opts["strategy"] == "grep" and os.path.isdir(root):
        from memsearch_tui.engine.api.literal import change_scan

        scan = change_scan(root)
    project = Path(str(opts["project"])).expanduser().absolute() if opts["project"] else find_project()
    return _run(opts, root, project, scan)


def early(args: list[str]) -> None:
    """The one-shot set-up (:func:`one_shot_process`) for a search this path will run, called
    by the console script before anything imports :mod:`pathlib` (its ``ipaddress`` and
    ``nt`` imports are among what it leaves out)."""
    opts = parse(args)
    if opts is not None:
        one_shot_process(str(opts["strategy"]))


def one_shot_process(strategy: str) -> None:
    """Leave out what a process that runs one search and exits never uses.

    - The cycle collector: nothing lives long enough to need it, and it ran ~50 times over
      a hybrid search's imports and tokenizer vocabulary (~3 % of its CPU).
    - numpy's docstrings (any strategy but grep may load numpy): ``numpy._core._add_newdocs``
      and ``_add_newdocs_scalars`` only attach docstrings to numpy's C functions, and
      running them was ~8 % of a one-shot hybrid search's CPU (their 600 ``add_newdoc``
      calls clean up each text). They are entered in ``sys.modules`` as stand-ins that load
      the real module the moment anything asks one for an attribute, so a numpy that someday
      imports a name from them still gets it; only ``help()`` on a numpy function would miss
      its text in this process. ``MEMSEARCH_TUI_NUMPY_DOCS=1`` keeps them.
    - numpy's typing aliases (``numpy._typing``: ~1/3 of numpy's import, its Protocols and
      Literal lists), which numpy itself imports only for ``numpy.linalg``'s result tuples'
      annotations (``NDArray[Any]``). A stand-in answers that one ``NDArray`` with
      ``ndarray`` and leaves ``sys.modules`` as it does, so any later import of
      ``numpy.typing`` or ``numpy._typing`` runs the real module (issue 36 item 6).
      ``MEMSEARCH_TUI_NUMPY_DOCS=1`` keeps it too.
    - Three standard modules numpy imports at its top but uses only inside functions a search
      never calls (issue 36 item 6, ~3 ms): ``platform`` and ``textwrap`` (``numpy.info``,
      ``show_runtime``) and ``pickle`` (``ndarray.dump``, ``numpy.load`` of objects). Each is a
      stand-in like the docstrings' until its first use. Only plain modules: a package's
      stand-in has no ``__path__``, so ``import ctypes.util`` (threadpoolctl off Linux) failed
      with "'ctypes' is not a package" while ``ctypes`` was one. ``MEMSEARCH_TUI_NUMPY_DOCS=1``
      keeps them too.
    - ``ctypes`` (``numpy._core._internal`` imports it for ``ndarray.ctypes`` only; ~2–3 ms
      with its C module): a package's stand-in (:class:`_DeferredPackage`), whose ``__path__``
      lets ``import ctypes.util`` find its file (issue 36 item 6, session 16).
    - Two imports :mod:`pathlib` makes for every strategy (issue 36 item 6, ~1 ms):
      ``ipaddress``, which ``urllib.parse`` imports for the bracketed hosts of URLs only (a
      stand-in until its first use, as above), and, on POSIX, ``nt`` and ``_winapi``, which
      ``ntpath`` tries five times and never finds (entered as absent, so each try fails at
      once instead of searching every folder of ``sys.path``).
    """
    gc.disable()
    for name in STDLIB_UNUSED:
        sys.modules.setdefault(name, _DeferredModule(name))
    if os.name == "posix":
        for name in WINDOWS_ONLY:
            sys.modules.setdefault(name, None)  # type: ignore[arg-type]  # None: "not importable"
    if strategy == "grep" or "numpy" in sys.modules or os.environ.get(NUMPY_DOCS_ENV) == "1":
        return
    for name in (*NUMPY_DOCS, *NUMPY_UNUSED):
        sys.modules.setdefault(name, _DeferredModule(name))
    sys.modules.setdefault(NUMPY_TYPING, _TypingStandIn(NUMPY_TYPING))
    ctypes_dir = os.path.join(os.path.dirname(os.__file__), "ctypes")  # the standard library's package
    if "ctypes" not in sys.modules and os.path.isfile(os.path.join(ctypes_dir, "__init__.py")):
        sys.modules["ctypes"] = _DeferredPackage("ctypes", ctypes_dir)


NUMPY_DOCS = ("numpy._core._add_newdocs", "numpy._core._add_newdocs_scalars")
NUMPY_UNUSED = ("platform", "textwrap", "pickle")  # plain modules numpy imports, used only in functions
NUMPY_DOCS_ENV = "MEMSEARCH_TUI_NUMPY_DOCS"
STDLIB_UNUSED = ("ipaddress",)  # urllib.parse (pathlib's import): used for bracketed URL hosts only
WINDOWS_ONLY = ("nt", "_winapi")  # ntpath (pathlib's import) tries them
NUMPY_TYPING = "numpy._typing"


class _DeferredModule(types.ModuleType):
    """A stand-in in ``sys.modules`` that imports the real module on first attribute use."""

    def __getattr__(self, attr: str) -> object:
        if attr.startswith("__"):  # import machinery and introspection probing: not a use
            raise AttributeError(attr)
        import importlib

        name = self.__name__
        if sys.modules.get(name) is self:
            del sys.modules[name]
        return getattr(importlib.import_module(name), attr)


class _DeferredPackage(_DeferredModule):
    """A package's stand-in: ``__path__`` lets a submodule import find its files meanwhile
    (``import ctypes.util``), and the submodules imported so (attributes of the stand-in) are
    handed to the real package when it loads, so ``ctypes.util`` works on either."""

    def __init__(self, name: str, path: str) -> None:
        super().__init__(name)
        self.__path__ = [path]

    def __getattr__(self, attr: str) -> object:
        subs = {k: v for k, v in vars(self).items() if isinstance(v, types.ModuleType)}
        value = super().__getattr__(attr)  # the real package is in sys.modules now
        real = sys.modules.get(self.__name__)
        for k, v in subs.items():
            if real is not None and not hasattr(real, k):
                setattr(real, k, v)
        return value


class _TypingStandIn(_DeferredModule):
    """``numpy._typing`` while numpy imports: its first attribute asked for ends the stand-in
    (out of ``sys.modules``); ``NDArray`` is ``ndarray`` (subscriptable the same way), anything
    else comes from the real module."""

    def __getattr__(self, attr: str) -> object:
        if attr != "NDArray" or attr.startswith("__"):
            return super().__getattr__(attr)
        if sys.modules.get(self.__name__) is self:
            del sys.modules[self.__name__]
        from numpy._core.multiarray import ndarray  # loaded: numpy.linalg imports after numpy._core

        return ndarray


def _run(opts: dict[str, object], root: Path, project: Path, scan: object) -> int:
    category = opts["category"]
    query, k, source = str(opts["query"]), int(str(opts["k"])), str(opts["source"])
    try:
        if opts["strategy"] == "grep":
            from memsearch_tui.engine.api.literal import literal_json

            res = literal_json(root, project, query, k, None if category is None else str(category), source, scan)
        else:
            # Before numpy loads: OpenBLAS would start a thread per core that a one-shot search
            # never uses (the query encoder runs BLAS on one thread): ~50 ms of CPU here.
            os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
            from memsearch_tui.engine.api.literal import indexed_json

            res = indexed_json(
                root, project, query, k, str(opts["strategy"]), None if category is None else str(category), source
            )
    except Exception as exc:
        from memsearch_tui.cli.envelope import report_failure

        if not report_failure(exc, json_mode=bool(opts["json"])):
            raise
        return 1
    if opts["json"]:
        from memsearch_tui.cli.envelope import envelope

        print(envelope(True, res))
    else:
        from memsearch_tui.cli.envelope import say
        from memsearch_tui.cli.search_text import search_text

        say(search_text(res))
    return 0
