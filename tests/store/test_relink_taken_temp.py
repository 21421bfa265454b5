"""Intent.relink never deletes a file that is not its
own when its random temp name is taken (os.link fails with EEXIST: it unlinked it)."""

import os
from pathlib import Path

import pytest

from memsearch_tui.engine.core.atomic import temp_prefix
from memsearch_tui.engine.history.intent import Intent


def test_relink_never_deletes_a_file_it_did_not_make(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    root = tmp_path / "memory"
    (root / "notes").mkdir(parents=True)
    path = root / "notes" / "部署.md"
    path.write_bytes("旧的正文\n".encode())
    intent = Intent(root)
    intent.remember(path, path.read_bytes())
    new = path.with_name("new")
    new.write_bytes("新的正文\n".encode())
    os.replace(new, path)  # as every store write does: the kept hard link keeps the old bytes
    monkeypatch.setattr(os, "urandom", lambda n: b"\x01" * n)
    other = path.parent / f"{temp_prefix(path.name)}{'01' * 4}.tmp"
    other.write_text("not ours", encoding="utf-8")
    assert intent.relink(path, "旧的正文\n".encode()) is False  # the name is taken: the caller writes
    assert other.exists(), "relink removed a file it did not create"
    intent.close()
