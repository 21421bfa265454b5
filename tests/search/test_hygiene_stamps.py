"""The index and ``vectors status`` now see a same-size rewrite that puts the
old mtime back (``cp -p``) by its ctime; the duplicate finder (``hygiene.vectors``), whose
docstring says it counts "as ``vectors status`` counts", still compares size and mtime only:
it takes the vectors of the old text for the new one and says nothing changed."""

from __future__ import annotations

import os
import shutil
import sqlite3
import time

import numpy as np

from memsearch_tui.engine.hygiene.vectors import entry_vectors
from memsearch_tui.engine.search import Searcher
from memsearch_tui.engine.search.indexer import changed_files


def test_hygiene_drops_the_vectors_of_an_entry_rewritten_with_its_mtime_put_back(memory, tmp_path) -> None:
    root, project = memory
    long_ago = time.time_ns() - 3_600 * 10**9
    for path in (*root.rglob("*.md"), *project.rglob("*.md")):
        os.utime(path, ns=(long_ago, long_ago))
    entry = root / "projects" / "alpha.md"
    with Searcher(root, project) as s:
        s.refresh_chunks()
        path = s.s.manifest_path
    db = sqlite3.connect(path)  # the embedding is not what this is about: one vector for every chunk
    db.execute("UPDATE chunks SET vec = ?, embedded = 1", (np.ones(4, dtype=np.float32).tobytes(),))
    db.commit()
    db.close()
    assert "projects/alpha" in entry_vectors(root, project)[0]
    before = entry.read_bytes()
    after = before.replace(b"Fly.io every Friday", b"Render every Monday")
    assert len(after) == len(before) and after != before
    copy = tmp_path / "elsewhere.md"
    copy.write_bytes(after)
    os.utime(copy, ns=(long_ago, long_ago))
    shutil.copy2(copy, entry)  # cp -p: same size, same mtime, new text
    with Searcher(root, project) as s:
        changed, _ = changed_files(s.s, s.manifest, recheck=False)  # what `vectors status` counts
    assert [f.key for f, _ in changed] == [str(entry)]
    vectors, why = entry_vectors(root, project)
    assert "projects/alpha" not in vectors, "the old text's vectors taken for the new text"
    assert "1 entries changed since indexing" in why
