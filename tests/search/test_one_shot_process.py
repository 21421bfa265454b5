"""What a one-shot CLI search process leaves out (session 8, issue 24 item 6) changes no result.

The console script's search turns the cycle collector off and skips numpy's docstrings;
the vector scan needs no threadpoolctl once OpenBLAS is pinned; the explain module, the
CJK character class and OpenSSL's hashlib are loaded only when something needs them; the
MCP server pins OpenBLAS to one thread before numpy loads. Each must give what it gave
before: the same output, vectors, counts and digests.
"""

from __future__ import annotations

import hashlib
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from memsearch_tui.engine.search import dense_mirror, languages
from memsearch_tui.engine.search.tokenize import CJK_CHARS

EXE = os.path.join(os.path.dirname(sys.executable), "memsearch-tui")


def cli(root, project, *args: str, env: dict[str, str] | None = None) -> str:
    line = [EXE, "--memory-root", str(root), "--project", str(project), *args]
    out = subprocess.run(line, capture_output=True, text=True, env={**os.environ, **(env or {})})
    assert out.returncode == 0, out.stderr[-2000:]
    return out.stdout


def took_ms_free(text: str) -> str:
    import re

    text = re.sub(r'"took_ms": [0-9.]+', '"took_ms": 0', text)
    return re.sub(r"· \d+ ms$", "· 0 ms", text, flags=re.M)


@pytest.fixture(scope="module")
def _built(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path, Path]:
    """(data dir, memory root, project): ``memory`` and its index, built once for the module
    by a search (each case built it again: a fifth of its CPU)."""
    from tests.search.conftest import make_memory

    tmp = tmp_path_factory.mktemp("one-shot-built")
    root, project = make_memory(tmp)
    env = {"MEMSEARCH_TUI_DATA_DIR": str(tmp / "data"), "HOME": str(tmp / "home")}
    cli(root, project, "search", "deploy", "-s", "hybrid", env=env)  # builds the index
    return tmp / "data", root, project


@pytest.fixture
def built(_built, monkeypatch: pytest.MonkeyPatch) -> tuple[Path, Path]:
    """The module's built memory, this test's environment pointed at it (the searches below
    only read it)."""
    data, root, project = _built
    monkeypatch.setenv("MEMSEARCH_TUI_DATA_DIR", str(data))
    monkeypatch.setenv("HOME", str(data.parent / "home"))
    return root, project


@pytest.mark.xdist_group("one-shot-built")  # one worker builds the module's index, once
@pytest.mark.parametrize(
    "args",
    [
        ["search", "deploy pipeline", "-s", "hybrid"],
        ["--json", "search", "how do we deploy alpha", "-s", "hybrid", "-k", "3"],
        ["search", "image resizing service", "-s", "vector", "--json"],
        ["search", "深色主题", "-s", "hybrid"],
    ],
    ids=lambda a: " ".join(a),
)
def test_console_script_prints_the_same_with_numpy_docstrings_skipped_or_kept(built, args):
    root, project = built
    kept = cli(root, project, *args, env={"MEMSEARCH_TUI_NUMPY_DOCS": "1"})
    skipped = cli(root, project, *args)
    assert took_ms_free(skipped) == took_ms_free(kept)
    assert skipped.strip()


def test_deferred_numpy_docs_module_loads_the_real_one_on_first_use():
    """The stand-in keeps numpy's import working, and a use of its contents gets the real module."""
    code = """
import gc, sys
from memsearch_tui.cli.search_fast import NUMPY_DOCS, one_shot_process
one_shot_process("hybrid")
assert not gc.isenabled()
import numpy
stand_in = sys.modules[NUMPY_DOCS[0]]
assert type(stand_in).__name__ == "_DeferredModule", type(stand_in)
assert not (numpy.zeros.__doc__ or "").strip()  # the docs were not attached
assert (numpy.arange(4.0) @ numpy.arange(4.0)) == 14.0
from numpy._core import _add_newdocs
assert callable(_add_newdocs.add_newdoc)  # an attribute: the real module is run
assert sys.modules[NUMPY_DOCS[0]] is not stand_in
assert "zeros" in (numpy.zeros.__doc__ or "")  # and it attached the docs
print("ok")
"""
    env = {k: v for k, v in os.environ.items() if k != "MEMSEARCH_TUI_NUMPY_DOCS"}
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env)
    assert out.returncode == 0 and out.stdout.strip() == "ok", out.stderr[-2000:]


def test_numpy_typing_stand_in_serves_linalg_and_leaves_the_real_module_to_later_imports():
    """numpy imports ``numpy._typing`` only for ``NDArray`` in linalg's result tuples: the
    stand-in answers that and leaves ``sys.modules``; a later ``numpy.typing`` is the real one."""
    code = """
import sys
from memsearch_tui.cli.search_fast import NUMPY_TYPING, one_shot_process
one_shot_process("hybrid")
import numpy
assert NUMPY_TYPING not in sys.modules, sys.modules.get(NUMPY_TYPING)
q, r = numpy.linalg.qr(numpy.eye(3))
assert numpy.allclose(numpy.linalg.norm(numpy.ones(4)), 2.0) and numpy.allclose(q @ r, numpy.eye(3))
assert numpy.linalg.svd(numpy.eye(2)).S.tolist() == [1.0, 1.0]
import numpy.typing as npt
assert npt.NDArray is not numpy.ndarray and "numpy._typing._array_like" in sys.modules
assert type(sys.modules[NUMPY_TYPING]).__name__ == "module"
print("ok")
"""
    env = {k: v for k, v in os.environ.items() if k != "MEMSEARCH_TUI_NUMPY_DOCS"}
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env)
    assert out.returncode == 0 and out.stdout.strip() == "ok", out.stderr[-2000:]


def test_standard_modules_numpy_only_uses_in_functions_wait_for_their_first_use():
    """Issue 36 item 6: ``platform``, ``textwrap`` and ``pickle`` are not run while numpy imports
    in a one-shot search; numpy works, each one's first use is the real module, and a package's
    submodule still imports: ``ctypes`` waits too (session 16), as a package's stand-in whose
    ``import ctypes.util`` finds its file (a plain stand-in failed: "not a package")."""
    code = """
import sys
from memsearch_tui.cli.search_fast import NUMPY_UNUSED, one_shot_process
one_shot_process("hybrid")
import numpy
assert all(type(sys.modules[n]).__name__ == "_DeferredModule" for n in NUMPY_UNUSED), NUMPY_UNUSED
assert type(sys.modules["ctypes"]).__name__ == "_DeferredPackage"  # numpy's import did not load it
assert float(numpy.linalg.norm(numpy.ones(4, dtype=numpy.float32))) == 2.0
import ctypes.util  # threadpoolctl does this off Linux, before any ctypes use
assert numpy.arange(3).ctypes.data  # ndarray.ctypes
assert type(sys.modules["ctypes"]).__name__ == "module"  # its first use loaded the real package
import ctypes
assert ctypes.util.find_library("c") is not None or sys.platform != "linux"  # the submodule, handed over
assert numpy.arange(3.0).ctypes.data_as(ctypes.c_void_p).value
a = numpy.arange(6.0).reshape(2, 3)
import pickle
assert pickle.loads(a.dumps()).tolist() == a.tolist()  # ndarray.dumps: numpy's pickle stand-in
import platform, textwrap
assert platform.system() and textwrap.indent("x", "  ") == "  x"
assert all(type(sys.modules[n]).__name__ == "module" for n in NUMPY_UNUSED), NUMPY_UNUSED
print("ok")
"""
    env = {k: v for k, v in os.environ.items() if k != "MEMSEARCH_TUI_NUMPY_DOCS"}
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env)
    assert out.returncode == 0 and out.stdout.strip() == "ok", out.stderr[-2000:]


def test_what_pathlib_imports_and_a_search_never_uses_waits_or_fails_at_once():
    """Issue 36 item 6: the console script sets the one-shot process up before pathlib loads,
    so ``ipaddress`` (urllib.parse's, for bracketed URL hosts) waits for its first use and
    ntpath's five tries of ``nt`` fail at once; URLs, Windows paths and ``ipaddress`` work."""
    code = """
import sys
from memsearch_tui.cli.search_fast import early
early(["--project", "/tmp", "search", "-s", "grep", "x"])
from pathlib import Path, PureWindowsPath
assert type(sys.modules["ipaddress"]).__name__ == "_DeferredModule"
assert sys.modules["nt"] is None and str(PureWindowsPath("C:/a/b")) == "C:\\\\a\\\\b"
try:
    import nt
except ImportError:
    pass
else:
    raise AssertionError("nt imported on POSIX")
from urllib.parse import urlsplit
assert urlsplit("http://[::1]:8080/x").hostname == "::1"  # urllib.parse's first use of ipaddress
import ipaddress
assert type(sys.modules["ipaddress"]).__name__ == "module" and ipaddress.ip_address("10.0.0.1").is_private
print("ok")
"""
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert out.returncode == 0 and out.stdout.strip() == "ok", out.stderr[-2000:]


def test_grep_and_a_loaded_numpy_are_left_alone(monkeypatch):
    import gc

    from memsearch_tui.cli import search_fast

    assert "numpy" in sys.modules  # this test process: too late to skip anything
    for name in search_fast.NUMPY_DOCS:
        monkeypatch.delitem(sys.modules, name, raising=False)
    try:
        search_fast.one_shot_process("hybrid")
        search_fast.one_shot_process("grep")
        assert not any(type(sys.modules.get(n)).__name__ == "_DeferredModule" for n in search_fast.NUMPY_DOCS)
    finally:
        gc.enable()


def test_the_scan_gives_the_same_scores_pinned_or_limited(monkeypatch):
    rng = np.random.default_rng(7)
    mat = rng.standard_normal((500, 384)).astype(np.float32)
    vec = rng.standard_normal(384).astype(np.float32)
    monkeypatch.setattr("memsearch_tui.engine.search.cpu.blas_pinned", lambda: False)
    limited = dense_mirror._matvec(mat, vec)
    assert dense_mirror._controller() is dense_mirror._controller()  # built once, kept
    monkeypatch.setattr("memsearch_tui.engine.search.cpu.blas_pinned", lambda: True)
    pinned = dense_mirror._matvec(mat, vec)
    np.testing.assert_array_equal(pinned, limited)


TEXTS = [
    "",
    "plain ascii",
    "a smiley 😀 and nothing else",
    "full-width ＡＢＣ forms and a ♥",
    "用户喜欢深色主题",
    "mixed 中文 and English 😀",
    "カタカナ ひらがな 한국어",
    "Yi ꀀꀁ and private use \ue000 and compatibility 豈",
    "\u3040\u30ff\u3400\u4dbf\u4e00\u9fff\uac00\ud7af\uf900\ufaff edges",
    "\u303f\u3100\u4dc0\ud7b0\ufb00 just outside or between",
]


@pytest.mark.parametrize("text", TEXTS)
def test_cjk_count_equals_the_character_class(text):
    import re

    assert languages.cjk_count(text) == len(re.findall(f"[{CJK_CHARS}]", text))


def test_state_dir_digest_is_hashlib_sha1(tmp_path):
    from memsearch_tui.engine.search.settings import _sha1_hex, state_dir_for

    for data in (b"", b"/home/me/memory", "/tmp/用户/é".encode()):
        assert _sha1_hex(data) == hashlib.sha1(data).hexdigest()
    root = tmp_path / "memory"
    digest = hashlib.sha1(str(root.absolute()).encode()).hexdigest()[:10]
    assert state_dir_for(root).name == f"memory-{digest}"


def test_weights_for_gives_the_explain_dataclass(memory):
    from memsearch_tui.engine.search.explain import Weights
    from memsearch_tui.engine.search.searcher import Searcher

    root, project = memory
    with Searcher(root, project) as s:
        for q in ("deploy alpha", "深色主题"):
            w, raw = s.weights_for(q), s._weighing(q)
            assert isinstance(w, Weights)
            assert (w.method, w.dense, w.keyword, w.why) == (raw.method, raw.dense, raw.keyword, raw.why)
        assert s.weights_for("深色主题").method == "keyword"  # the bundled model reads English only


@pytest.mark.parametrize("preset", [None, "3"])
def test_mcp_server_pins_openblas_before_numpy_loads(preset):
    code = (
        "import os, sys\n"
        "from memsearch_tui.mcp.server import one_blas_thread\n"
        "assert 'numpy' not in sys.modules\n"
        "one_blas_thread()\n"
        "print(os.environ.get('OPENBLAS_NUM_THREADS'))\n"
    )
    env = {k: v for k, v in os.environ.items() if k != "OPENBLAS_NUM_THREADS"}
    if preset:
        env["OPENBLAS_NUM_THREADS"] = preset
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env)
    assert out.returncode == 0, out.stderr[-2000:]
    assert out.stdout.strip() == (preset or "1")


def test_entry_title_is_remembered_only_while_the_file_is_unchanged(tmp_path):
    from memsearch_tui.engine.search import ranking

    path = tmp_path / "note.md"
    path.write_text("---\ntitle: First title\n---\n\nbody\n", encoding="utf-8")
    assert ranking._entry_title(str(path)) == "First title"
    assert ranking._entry_title(str(path)) == "First title"  # remembered
    path.write_text("---\ntitle: Other title\n---\n\nbody\n", encoding="utf-8")  # same size
    st = path.stat()
    os.utime(path, ns=(st.st_atime_ns, st.st_mtime_ns + 1_000_000))
    assert ranking._entry_title(str(path)) == "Other title"
    path.write_text("---\ntitle: A longer title now\n---\n\nbody\n", encoding="utf-8")
    assert ranking._entry_title(str(path)) == "A longer title now"
    path.unlink()
    assert ranking._entry_title(str(path)) == "note"  # gone: the file name, as before
