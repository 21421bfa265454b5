"""Writes with expected bytes (as the TUI makes them) racing CLI edits: no lost update.

Each writer appends its own line to one entry's body, starting from the bytes it read.
A writer whose start is no longer the file gets Conflict and starts again; at the end
every line is there exactly once. Real processes, real locks.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from memsearch_tui.engine.store.store import Change, Store

ROUNDS = 4

WORKER = """
import os, subprocess, sys, time
from pathlib import Path
from memsearch_tui.engine.core.errors import Conflict, LockTimeout
from memsearch_tui.engine.core import frontmatter_io as fmio
from memsearch_tui.engine.store.store import Change, Store

root, mode, name, rounds = Path(sys.argv[1]), sys.argv[2], sys.argv[3], int(sys.argv[4])
store = Store(root)
path = root / "p" / "shared.md"
conflicts = 0
for i in range(rounds):
    line = f"{name}-{i}"
    while True:
        if mode == "expected":
            data = path.read_bytes()
            body = fmio.parse(data, str(path)).body
            try:
                store.update("p/shared", Change(body=body + line + "\\n"), expected=data)
                break
            except (Conflict, LockTimeout):
                conflicts += 1
        else:
            editor = f"{sys.executable} {sys.argv[5]} {line}"
            env = {**os.environ, "EDITOR": editor, "VISUAL": editor}
            proc = subprocess.run(
                [sys.executable, "-c", "from memsearch_tui.cli import main; main()", "edit", "p/shared"],
                env=env, capture_output=True, text=True,
            )
            if proc.returncode == 0:
                break
            assert "changed on disk" in proc.stderr or "lock" in proc.stderr, proc.stderr
            conflicts += 1
print(conflicts)
"""

APPEND = """
import sys
with open(sys.argv[2], "a", encoding="utf-8") as fh:
    fh.write(sys.argv[1] + "\\n")
"""


def test_expected_bytes_writers_racing_cli_edits_lose_nothing(store: Store, tmp_path: Path) -> None:
    store.add("p", "Shared", "start\n")
    worker = tmp_path / "worker.py"
    worker.write_text(WORKER)
    append = tmp_path / "append.py"
    append.write_text(APPEND)
    env = {**os.environ, "PYTHONPATH": os.getcwd(), "MEMSEARCH_TUI_MEMORY_ROOT": str(store.root)}
    writers = [("expected", "tui-a"), ("expected", "tui-b"), ("cli", "cli-a"), ("cli", "cli-b")]
    procs = [
        subprocess.Popen(
            [sys.executable, str(worker), str(store.root), mode, name, str(ROUNDS), str(append)],
            env=env,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        for mode, name in writers
    ]
    outs = [p.communicate(timeout=600) for p in procs]
    assert all(p.returncode == 0 for p in procs), [err for _, err in outs]
    lines = store.get("p/shared").body.splitlines()
    expected = {f"{name}-{i}" for _, name in writers for i in range(ROUNDS)}
    assert sorted(lines[1:]) == sorted(expected)  # every update there, exactly once
    assert lines[0] == "start"
    assert store.check_index() == []


def test_update_with_stale_expected_bytes_is_a_conflict(store: Store) -> None:
    from memsearch_tui.engine.core.errors import Conflict

    e = store.add("p", "One", "first\n")
    seen = e.path.read_bytes()
    store.update(e.id, Change(tags=["x"]))
    try:
        store.update(e.id, Change(body="mine\n"), expected=seen)
    except Conflict as exc:
        assert str(e.path) in exc.message
    else:
        raise AssertionError("a stale expected= must not overwrite the newer file")
    assert store.get(e.id).tags == ["x"] and store.get(e.id).body == "first\n"
    store.update(e.id, Change(body="mine\n"), expected=e.path.read_bytes())
    assert store.get(e.id).body == "mine\n"
