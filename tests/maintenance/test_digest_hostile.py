"""The input digest never hangs on, nor reads through, what a repository or an agent puts
in ``.memsearch/memory`` (a FIFO named like a day, a day linking out of the project, a
huge day), and stays memsearch 0.4.23's digest for ordinary files (its own
``_input_digest`` is the reference)."""

from __future__ import annotations

import hashlib
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from memsearch.maintenance import _input_digest as memsearch_digest

from memsearch_tui.engine.memsearch import state

REPO = Path(__file__).resolve().parents[2]

# ``maintenance status`` in a child process, with the day file 2026-12-01.md replaced by a
# FIFO right after each listing (the race a hostile writer wins: it was a regular file when
# listed). The old code's ``open().read()`` blocked there forever.
_STATUS_WITH_SWAP = """
import os, sys
from pathlib import Path
from memsearch_tui.engine.maintenance.run import status
from memsearch_tui.engine.memsearch import state
from memsearch_tui.engine.memsearch.config import load_config

listed = state._md_files


def swapped(root, top):
    files = listed(root, top)
    for rel, _target, _st in files:
        if rel == "2026-12-01.md":
            path = os.path.join(root, rel)
            os.unlink(path)
            os.mkfifo(path)
    return files


state._md_files = swapped
project, home = Path(sys.argv[1]), Path(sys.argv[2])
rows = status(project, load_config(project, home=home))
print(sorted({r.input_digest for r in rows}))
"""


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs on this platform")
def test_a_fifo_swapped_in_for_a_day_does_not_hang_status(env) -> None:
    memory = env.project / ".memsearch" / "memory"
    (memory / "2026-12-01.md").write_text("# 2026-12-01\n- 缓存预热\n", encoding="utf-8")
    environ = {**os.environ, "PYTHONPATH": str(REPO)}
    try:
        done = subprocess.run(
            [sys.executable, "-c", _STATUS_WITH_SWAP, str(env.project), str(env.home)],
            capture_output=True,
            text=True,
            env=environ,
            timeout=120,  # a bound for a hang, not a speed: the child needs a second or two
        )
    finally:
        for path in memory.glob("*.md"):  # never leave a FIFO for the fixture's cleanup
            if path.is_fifo():
                path.unlink()
    assert done.returncode == 0, done.stderr[-2000:]
    # The FIFO is left out, as memsearch's ``is_file`` leaves out one it sees when listing.
    (memory / "2026-12-01.md").unlink(missing_ok=True)
    assert done.stdout.strip() == str([memsearch_digest(memory)])


def test_a_day_linking_out_of_the_project_is_not_read(env, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(state, "_DIGESTS", {}, raising=False)
    monkeypatch.setattr(state, "DIGEST_CHUNK", 7, raising=False)  # many chunks, split inside a UTF-8 character
    memory = env.project / ".memsearch" / "memory"
    notes = env.project / "notes"
    notes.mkdir()
    (notes / "shared.md").write_text("- 共享的笔记 shared note\n" * 5, encoding="utf-8")
    (memory / "2026-12-03.md").symlink_to(notes / "shared.md")  # inside the project: read, as memsearch does
    (memory / "2026-12-04.md").write_text("# 2026-12-04\n- 向量存储 Milvus Lite\n" * 3, encoding="utf-8")
    inside = state.input_digest(memory)
    assert inside == memsearch_digest(memory)
    outside = env.tmp / "elsewhere"
    outside.mkdir()
    (outside / "secret.md").write_text("- the ssh key 私钥\n", encoding="utf-8")
    (memory / "2026-12-02.md").symlink_to(outside / "secret.md")
    assert memsearch_digest(memory) != inside  # memsearch reads through the link
    assert state.input_digest(memory) == inside  # we leave it out


def test_a_day_over_the_limit_is_not_read(env, monkeypatch: pytest.MonkeyPatch) -> None:
    """Its size and mtime stand in for its bytes: a change of content alone (same size,
    stamps put back) goes unseen, a new mtime does not."""
    monkeypatch.setattr(state, "_DIGESTS", {}, raising=False)
    monkeypatch.setattr(state, "DIGEST_FILE_LIMIT", 100, raising=False)
    memory = env.project / ".memsearch" / "memory"
    big = memory / "2026-12-05.md"
    big.write_text("- the cache warm-up race 缓存预热的竞态\n" * 10, encoding="utf-8")
    stamps = big.stat()
    first = state.input_digest(memory)
    big.write_text(big.read_text(encoding="utf-8").replace("race", "RACE"), encoding="utf-8")
    os.utime(big, ns=(stamps.st_atime_ns, stamps.st_mtime_ns))
    assert state.input_digest(memory) == first
    os.utime(big, ns=(stamps.st_atime_ns, stamps.st_mtime_ns + 1_000_000_000))
    assert state.input_digest(memory) != first


def test_a_memory_folder_linking_out_of_the_project_gives_the_digest_of_nothing(env, monkeypatch) -> None:
    """As the journal listing: nothing is read from a ``memory`` folder that leads out."""
    monkeypatch.setattr(state, "_DIGESTS", {}, raising=False)
    outside = env.tmp / "dotfiles-memory"
    outside.mkdir()
    (outside / "2026-12-06.md").write_text("- 别人的日记 someone else's day\n", encoding="utf-8")
    link = env.mem / "linked-memory"
    link.symlink_to(outside, target_is_directory=True)
    assert state.input_digest(link) == "sha256:" + hashlib.sha256().hexdigest() != memsearch_digest(link)


_SWAP_OPENED: list[str] | None = None  # paths of the "open" events while the swap test listens


def _swap_hook(event: str, args: tuple[object, ...]) -> None:
    if _SWAP_OPENED is not None and event == "open" and isinstance(args[0], str):
        _SWAP_OPENED.append(args[0])


sys.addaudithook(_swap_hook)  # one hook for the process: idle unless the test listens


def test_a_folder_swapped_for_a_link_after_the_listing_is_not_read_through(env, monkeypatch) -> None:
    """A writer swaps a listed folder for a symlink to a folder of another's secrets, with
    a file of the same name, between the listing and the reads (s18's hole: the file was
    opened by its whole path, ``O_NOFOLLOW`` guarding the last part only). The secret is
    neither opened nor hashed: the listed file is left out, as a file gone. Nested folders
    (a Chinese name too) otherwise give memsearch 0.4.23's digest, byte for byte."""
    global _SWAP_OPENED
    monkeypatch.setattr(state, "_DIGESTS", {}, raising=False)
    memory = env.project / ".memsearch" / "memory"
    for folder, words in (("笔记", "- 缓存预热的竞态\n"), ("notes", "- the cache warm-up race\n")):
        (memory / folder).mkdir()
        (memory / folder / "2026-12-07.md").write_text(f"# 2026-12-07\n{words}", encoding="utf-8")
    assert state.input_digest(memory) == memsearch_digest(memory)  # nested: memsearch's bytes
    secret = env.tmp / "secrets"
    secret.mkdir()
    (secret / "2026-12-07.md").write_text("- the ssh key 私钥 SECRET\n", encoding="utf-8")
    listed = state._md_files

    def swap_after_listing(*args):  # type: ignore[no-untyped-def]
        files = listed(*args)
        (memory / "笔记").rename(env.tmp / "笔记-moved")
        (memory / "笔记").symlink_to(secret, target_is_directory=True)
        return files

    monkeypatch.setattr(state, "_md_files", swap_after_listing)
    _SWAP_OPENED = []
    try:
        digest = state.input_digest(memory)
        opened = list(_SWAP_OPENED)
    finally:
        _SWAP_OPENED = None
    assert not [p for p in opened if p.endswith("2026-12-07.md") and "笔记" in p]  # 6e86c88: opened through the link
    (memory / "笔记").unlink()
    assert digest == memsearch_digest(memory)  # the swapped folder's day left out, nothing of the secret
    shutil.copytree(secret, memory / "笔记")  # what reading through the link hashes (6e86c88 did)
    assert digest != memsearch_digest(memory)
