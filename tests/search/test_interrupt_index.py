"""Ctrl-C during `vectors index`: one line saying the work so far is kept, exit 130, and the
next `vectors index` completes the index to what a clean build makes (EN and ZH).

The process is the console script as a terminal starts it; its encoder is the held
stand-in's vectors (tests/held_build.py), its second batch waiting until the signal lands.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from memsearch_tui.engine.search import Searcher
from tests.held_build import EXIT_WAIT, HeldEncoder, assert_completed_as_clean, journal_memory

CLI = (
    "import signal, sys, threading\n"
    "signal.signal(signal.SIGINT, signal.default_int_handler)\n"  # as from a terminal (xdist ignores it)
    "import numpy as np\n"
    "from memsearch_tui.engine.search import Searcher\n"
    "from tests.held_build import text_vector\n"
    "class Held:\n"
    "    dim, calls = 8, 0\n"
    "    def encode(self, texts):\n"
    "        Held.calls += 1\n"
    "        if Held.calls == 2:  # the first batch is committed: this one waits for Ctrl-C\n"
    "            print('embedding', flush=True)\n"
    "            threading.Event().wait(600)\n"
    "        return np.array([text_vector(t) for t in texts], np.float32)\n"
    "Searcher._encoder_for = lambda self, n: Held()\n"
    "from memsearch_tui.cli import main\n"
    "sys.argv[0] = 'memsearch-tui'\n"
    "main()\n"
)


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_ctrl_c_during_vectors_index_keeps_the_work_and_the_next_run_completes_it(tmp_path, monkeypatch, lang):
    root, project = journal_memory(tmp_path, lang)
    monkeypatch.setenv("MEMSEARCH_TUI_DATA_DIR", str(tmp_path / "data"))
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    repo = Path(__file__).resolve().parents[2]
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(repo), os.environ.get("PYTHONPATH", "")])}
    args = ["--memory-root", str(root), "--project", str(project), "vectors", "index"]
    proc = subprocess.Popen(
        [sys.executable, "-c", CLI, *args], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env
    )
    assert proc.stdout is not None
    assert proc.stdout.readline().strip() == "embedding"  # its first batch is in: the second waits
    proc.send_signal(signal.SIGINT)
    out, err = proc.communicate(timeout=EXIT_WAIT)
    assert proc.returncode == 130, (proc.returncode, err)
    assert "Traceback" not in out + err and "KeyboardInterrupt" not in err, err
    assert err.strip().splitlines() == [
        "memsearch-tui: interrupted: the vectors embedded so far are kept; `vectors index` goes on from there"
    ], err
    enc = HeldEncoder(held=False)
    monkeypatch.setattr(Searcher, "_encoder_for", lambda self, n: enc)
    assert_completed_as_clean(tmp_path, root, project, monkeypatch, enc)
