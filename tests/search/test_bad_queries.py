"""Issue 31 item 8: bad queries and bad model folders give one clear line, never a traceback
or a hang: a lone surrogate in a ``--batch`` line is that line's error and the batch goes on;
a malformed ONNX model folder in the user's config is named; a FIFO in it is never opened."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.helpers import run_cli


@pytest.mark.parametrize("strategy", ["index", "grep", "hybrid"])
def test_a_lone_surrogate_in_a_batch_is_that_lines_error(memory, strategy) -> None:
    root, project = memory
    lines = '{"id": "bad", "query": "\\ud800abc"}\n{"id": "\\udc80", "query": "gruvbox"}\n'
    out = run_cli(
        "--memory-root", str(root), "--project", str(project), "search", "--batch", "-", "-s", strategy, stdin=lines
    )
    assert out.code == 0, out.err
    out.out.encode("utf-8")  # printable: no raw surrogate reached the output
    bad, good = (json.loads(x) for x in out.out.splitlines())
    assert bad["ok"] is False and bad["error"]["code"] == "invalid"
    assert "lone surrogate (U+D800)" in bad["error"]["message"]
    assert good["id"] == "\udc80" and good["ok"] is True and good["data"]["hits"][0]["id"] == "tools/editor"


def _search_with_model(memory, tmp_path: Path, folder: Path) -> subprocess.CompletedProcess[str]:
    root, project = memory
    home = tmp_path / "home"
    (home / ".memsearch").mkdir(parents=True, exist_ok=True)
    (home / ".memsearch" / "config.toml").write_text(f'[embedding]\nprovider = "onnx"\nmodel = "{folder}"\n')
    env = {**os.environ, "HOME": str(home)}
    argv = [str(Path(sys.executable).parent / "memsearch-tui"), "--memory-root", str(root), "--project", str(project)]
    return subprocess.run(
        [*argv, "search", "gruvbox", "-s", "vector"], env=env, capture_output=True, text=True, timeout=120
    )


def test_a_malformed_onnx_model_is_one_clear_line(memory, tmp_path) -> None:
    folder = tmp_path / "bad-model"
    folder.mkdir()
    (folder / "model.onnx").write_bytes(b"this is not a protobuf\n")
    (folder / "tokenizer.json").write_text("{}")
    out = _search_with_model(memory, tmp_path, folder)
    assert out.returncode != 0
    assert "Traceback" not in out.stderr + out.stdout
    lines = [x for x in (out.stderr + out.stdout).splitlines() if x.strip()]
    assert len(lines) == 1 and str(folder / "model.onnx") in lines[0] and "onnxruntime can load" in lines[0], lines


def test_a_fifo_in_the_model_folder_is_named_not_opened(memory, tmp_path) -> None:
    folder = tmp_path / "fifo-model"
    folder.mkdir()
    os.mkfifo(folder / "model.onnx")
    (folder / "tokenizer.json").write_text("{}")
    out = _search_with_model(memory, tmp_path, folder)  # a hang is the subprocess timeout
    assert out.returncode != 0 and "Traceback" not in out.stderr
    assert "FIFO" in out.stderr and str(folder / "model.onnx") in out.stderr, out.stderr


@pytest.mark.parametrize("extra", [[], ["--json"], ["--batch", "-"]])
def test_an_unknown_strategy_is_a_usage_error(memory, extra: list[str]) -> None:
    """README: usage errors exit 2; an option value outside its choices is one (it was 1)."""
    root, project = memory
    out = run_cli(
        "--memory-root", str(root), "--project", str(project), "search", "deploy", "-s", "semantic", *extra, stdin=""
    )
    assert out.code == 2, (out.code, out.out, out.err)
    assert "--strategy must be one of auto|grep|index|vector|hybrid" in out.out + out.err
    assert "Traceback" not in out.out + out.err
