"""An entry whose frontmatter the store cannot read (a 5,000-digit integer, nesting too deep,
malformed YAML) is skipped by the indexer with its reason, and every other file stays
searchable: no ``ValueError: Exceeds the limit (4300 digits)`` traceback, a ``--json``
envelope every time. The indexer parses through the store's one bounded YAML loader."""

from __future__ import annotations

from pathlib import Path

import pytest

from memsearch_tui.engine.core.errors import InvalidInput
from memsearch_tui.engine.search.chunking import split_frontmatter
from tests.helpers import run_cli

BAD = {
    "huge integer": "big: " + "9" * 5000 + "\n",
    "deep nesting": "deep: " + "[" * 5000 + "]" * 5000 + "\n",
}


@pytest.fixture
def bad_store(memory: tuple[Path, Path], request: pytest.FixtureRequest) -> tuple[Path, Path, Path]:
    root, project = memory
    bad = root / "notes" / "broken.md"
    bad.parent.mkdir(parents=True)
    bad.write_text(f"---\ntitle: Broken\n{BAD[request.param]}---\n\ngruvbox lives here too\n", encoding="utf-8")
    return root, project, bad


def _call(root: Path, project: Path, *args: str) -> tuple[int, dict, str]:
    out = run_cli("--memory-root", str(root), "--project", str(project), "--json", *args)
    assert "Traceback" not in out.err and "Exceeds the limit" not in out.err, out.err
    return out.code, out.json, out.err


@pytest.mark.parametrize("bad_store", sorted(BAD), indirect=True)
def test_vectors_index_skips_the_file_with_its_reason(bad_store) -> None:
    root, project, bad = bad_store
    rc, env, _ = _call(root, project, "vectors", "index")
    assert rc == 0 and env["ok"] is True, env
    skipped = env["data"]["skipped"]
    assert any(str(bad) in s and "frontmatter" in s for s in skipped), skipped
    # the others were indexed: a keyword search finds them, and not the skipped file
    rc, env, _ = _call(root, project, "search", "gruvbox", "--strategy", "index")
    assert rc == 0 and [h["id"] for h in env["data"]["hits"]] == ["tools/editor"], env


@pytest.mark.parametrize("bad_store", ["huge integer"], indirect=True)
@pytest.mark.parametrize("strategy", ["index", "hybrid", "vector", "auto"])
def test_every_strategy_answers_with_an_envelope(bad_store, strategy: str) -> None:
    root, project, _ = bad_store
    rc, env, _ = _call(root, project, "search", "gruvbox", "--strategy", strategy)
    assert rc == 0 and env["ok"] is True, env
    assert "tools/editor" in [h["id"] for h in env["data"]["hits"]]


@pytest.mark.parametrize("bad_store", ["huge integer"], indirect=True)
def test_index_check_reports_the_same_file(bad_store) -> None:
    root, project, bad = bad_store
    rc, env, _ = _call(root, project, "index", "check")
    assert rc == 1 and env["error"]["code"] == "index_drift", env  # the test store has no INDEX.md chain
    (row,) = [p for p in env["data"]["problems"] if p["file"] == "notes/broken.md"]
    assert row["kind"] == "invalid_entry" and "digits" in row["message"], row


@pytest.mark.parametrize(
    "text",
    [f"---\n{v}---\nbody\n" for v in BAD.values()] + ["---\na: [1\n---\nbody\n"],
    ids=[*BAD, "malformed"],
)
def test_split_frontmatter_raises_a_clear_error_naming_the_file(text: str) -> None:
    with pytest.raises(InvalidInput, match=r"^x\.md:"):
        split_frontmatter(text, "x.md")


def test_split_frontmatter_reads_good_frontmatter() -> None:
    assert split_frontmatter("---\ntitle: T\ntags: [a]\n---\nbody\n", "x.md") == ({"title": "T", "tags": ["a"]}, 4)
