"""A config file that cannot be read at all does not stop a search (docs/search.md).

A broken ``.memsearch.toml`` (the repository's, which is never trusted) or ``~/.memsearch/
config.toml`` made every indexed search fail ("search failed: …toml…"), store hits too.
Now an untrusted project file is left out (it sets no search setting); the user's own
file turns the vectors off, as a bad ``[milvus]`` value does, and the keyword index keeps
the chunking it was built with. Each result names the file and the problem in one note.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from tests.helpers import run_cli

BROKEN = {
    "toml": lambda p: p.write_text("[tui]\nkeymap = [\n", encoding="utf-8"),
    "bytes": lambda p: p.write_bytes(b"\xff\xfe[milvus]\x00\x9c"),
    "fifo": lambda p: os.mkfifo(p),  # read_capped never waits for a writer
}


def _search(root: Path, project: Path, *args: str):
    out = run_cli("--memory-root", str(root), "--project", str(project), "--json", "search", *args)
    assert "Traceback" not in out.err
    return out


@pytest.mark.parametrize("how", sorted(BROKEN))
def test_a_broken_project_file_is_left_out_and_named(memory, how) -> None:
    root, project = memory
    config = project / ".memsearch.toml"
    BROKEN[how](config)
    for strategy in ("index", "auto"):
        out = _search(root, project, "deploy alpha", "--strategy", strategy)
        assert out.code == 0, out.output
        data = out.json["data"]
        assert data["hits"][0]["id"] == "projects/alpha"
        note = data["notes"][0]
        assert len(data["notes"]) == 1 and note.startswith(str(config)), data["notes"]
        assert "left out: a project file sets no search setting" in note


def test_the_text_output_says_it_in_one_line(memory) -> None:
    root, project = memory
    (project / ".memsearch.toml").write_text("bad = [\n", encoding="utf-8")
    out = run_cli("--memory-root", str(root), "--project", str(project), "search", "部署 alpha", "-s", "index")
    assert out.code == 0 and "Traceback" not in out.err
    said = [line for line in out.output.splitlines() if ".memsearch.toml" in line]
    assert len(said) == 1 and "invalid TOML" in said[0], out.output
    assert "projects/alpha" in out.out


def test_a_broken_user_file_turns_the_vectors_off_and_keeps_the_index_chunking(memory, tmp_path) -> None:
    from memsearch_tui.engine.search.manifest import Manifest
    from memsearch_tui.engine.search.settings import load_settings

    root, project = memory
    config = tmp_path / "home" / ".memsearch" / "config.toml"
    config.parent.mkdir(parents=True)
    config.write_text("[tui.search]\nchunk_size = 900\n", encoding="utf-8")
    assert _search(root, project, "deploy", "-s", "index").code == 0  # the keyword index, 900-char chunks
    config.write_text("[tui.search]\nchunk_size = 900\n[milvus\n", encoding="utf-8")

    out = _search(root, project, "deploy alpha", "-s", "index")
    assert out.code == 0, out.output
    data = out.json["data"]
    assert data["hits"][0]["id"] == "projects/alpha"
    assert len(data["notes"]) == 1 and data["notes"][0].startswith(f"{config}:3: invalid TOML"), data["notes"]
    assert data["notes"][0].endswith("(search goes on without it: no vectors until it is fixed)")
    s = load_settings(root, project)
    assert s.chunk_size == 900 and s.vectors_off == f"vectors are off while {config} cannot be read"
    m = Manifest(s.manifest_path)
    try:
        assert (m.get_meta("chunking") or "").startswith("900:")  # not rebuilt from guessed sizes
    finally:
        m.close()

    out = _search(root, project, "deploy alpha", "-s", "hybrid")  # the best ranking it can give
    assert out.code == 0 and out.json["data"]["strategy"] == "index"
    assert "vectors are off while" in out.json["data"]["reason"]
    out = _search(root, project, "deploy alpha", "-s", "vector")  # no vectors: refused, in one line
    assert out.code == 1 and str(config) in out.json["error"]["message"]


def test_with_the_user_file_unreadable_no_project_file_is_trusted(tmp_path) -> None:
    """The trust list lives in the user's file: unread, a project file decides nothing more
    than an untrusted one may (here: not the chunk size)."""
    from memsearch_tui.engine.core.errors import InvalidInput
    from memsearch_tui.engine.memsearch.config import load_config

    home, project = tmp_path / "home", tmp_path / "proj"
    (home / ".memsearch").mkdir(parents=True)
    project.mkdir()
    (home / ".memsearch" / "config.toml").write_text(
        f'[tui]\ntrusted_projects = ["{project}"]\n[milvus\n', encoding="utf-8"
    )
    (project / ".memsearch.toml").write_text("[tui.search]\nchunk_size = 300\n", encoding="utf-8")
    config = load_config(project, home=home, unreadable_ok=True)
    assert [(u.path, u.user) for u in config.unreadable] == [(home / ".memsearch" / "config.toml", True)]
    assert "untrusted" in config.trust and "search" not in config.raw["tui"]
    with pytest.raises(InvalidInput, match="invalid TOML"):  # every other reader still stops on it
        load_config(project, home=home)


def test_doctor_sends_a_broken_user_file_to_the_file_not_to_the_vectors_commands(memory, tmp_path) -> None:
    """With the vectors off because the user's file cannot be read, ``vectors status`` and
    ``vectors index`` only repeat that they are off: doctor's fix names the config file."""
    root, project = memory
    config = tmp_path / "home" / ".memsearch" / "config.toml"
    config.parent.mkdir(parents=True)
    config.write_text("[milvus\n", encoding="utf-8")
    out = run_cli("--memory-root", str(root), "--project", str(project), "--json", "doctor")
    assert "Traceback" not in out.err
    vectors = [c for c in out.json["data"]["checks"] if c["area"] == "vector index"]
    assert vectors and vectors[0]["message"].endswith(f"vectors are off while {config} cannot be read"), vectors
    assert all("memsearch-tui vectors" not in c["fix"].split(";")[0] for c in vectors), vectors
    assert all(str(config) in c["fix"] for c in vectors), vectors
