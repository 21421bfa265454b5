"""One bad value disables only its own section: a bad ``[milvus]`` (or ``[embedding]``)
value in the user's config turns the vectors off, not search. ``grep`` and ``index`` need
neither Milvus nor a model; ``hybrid`` falls back to the keyword index with a reason;
``auto`` never goes to the vectors and says why; ``vector`` is refused (docs/search.md)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.helpers import run_cli

BAD = {
    "milvus": ("[milvus]\nuri = 5\n", "bad [milvus] value", "milvus.uri must be a string"),
    "embedding": ('[embedding]\nmodel = ["a"]\n', "bad [embedding] value", "embedding.model must be"),
}


@pytest.fixture(params=sorted(BAD))
def bad(request, memory, tmp_path: Path) -> tuple[Path, Path, str, str]:
    """The test store with a bad section in ~/.memsearch/config.toml (HOME is tmp)."""
    text, section, problem = BAD[request.param]
    config = tmp_path / "home" / ".memsearch" / "config.toml"
    config.parent.mkdir(parents=True, exist_ok=True)
    config.write_text(text, encoding="utf-8")
    root, project = memory
    return root, project, section, problem


def _search(bad, *args: str) -> tuple[int, dict]:
    root, project, _, _ = bad
    out = run_cli("--memory-root", str(root), "--project", str(project), "--json", "search", *args)
    assert "Traceback" not in out.err
    return out.code, out.json


@pytest.mark.parametrize("strategy", ["grep", "index"])
def test_literal_and_keyword_search_work(bad, strategy: str) -> None:
    rc, env = _search(bad, "gruvbox", "--strategy", strategy)
    assert rc == 0 and env["ok"] is True, env
    assert env["data"]["strategy"] == strategy and env["data"]["hits"][0]["id"] == "tools/editor"


def test_hybrid_falls_back_to_the_keyword_index_saying_why(bad) -> None:
    _, _, section, problem = bad
    rc, env = _search(bad, "gruvbox", "--strategy", "hybrid")
    assert rc == 0 and env["ok"] is True, env
    data = env["data"]
    assert data["requested"] == "hybrid" and data["strategy"] == "index"
    assert section in data["reason"] and problem in data["reason"] and "keyword index" in data["reason"]
    assert data["hits"][0]["id"] == "tools/editor"


def test_vector_is_refused_with_the_section_named(bad) -> None:
    _, _, section, problem = bad
    rc, env = _search(bad, "gruvbox", "--strategy", "vector")
    assert rc == 1 and env["ok"] is False
    assert section in env["error"]["message"] and problem in env["error"]["message"]


def test_auto_works_and_never_reaches_the_vectors(bad, add_entry) -> None:
    root, _, section, _ = bad
    for n in range(60):  # 50+ files: auto starts at the keyword index
        add_entry(root, f"bulk/note-{n}", f"Note {n}", [], f"filler text number {n}\n")
    rc, env = _search(bad, "gruvbox colour scheme unknownword", "-k", "5")
    assert rc == 0 and env["ok"] is True, env
    data = env["data"]
    assert data["strategy"] == "index" and data["requested"] == "auto"
    assert section in data["reason"] and "stayed with index" in data["reason"], data["reason"]
    assert data["hits"][0]["id"] == "tools/editor"


def test_the_hook_does_not_start_a_runner_for_vectors_it_cannot_write(bad, add_entry) -> None:
    """Chunks waiting for vectors are no work while the vectors are off: the hook's cheap
    check says so instead of starting a background runner that fails on every call, and
    a runner started for a changed file still brings the keyword index up to date."""
    from memsearch_tui.engine.search.upkeep import pending_work, upkeep

    root, project, section, _ = bad
    indexed = run_cli("--memory-root", str(root), "--project", str(project), "vectors", "index")
    assert indexed.code == 1  # chunks, no vectors
    row, _ = pending_work(root, project)
    assert row is not None and row["result"] == "none" and section in row["reason"]
    add_entry(root, "tools/new-one", "New one", [], "a brand new note about solarized\n")
    row, _ = pending_work(root, project)
    assert row is None  # a changed file is work
    done = upkeep(root, project)
    assert done["result"] == "replaced" and "vectors off" in done["reason"], done
    assert pending_work(root, project)[0]["result"] == "none"
    rc, env = _search(bad, "solarized", "--strategy", "index")
    assert rc == 0 and env["data"]["hits"][0]["id"] == "tools/new-one"
