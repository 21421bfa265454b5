"""The read-only tool: what it answers, and ≥ 20 injection attempts that are all refused.

"None executed" is checked two ways: the tool never starts a process (subprocess and
os.system are booby-trapped during the test) and canary files outside and inside the
roots are untouched.
"""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest

from memsearch_tui.engine.maintenance.sandbox import MAX_OUTPUT_CHARS, Sandbox


@pytest.fixture()
def box(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Sandbox:
    mem = tmp_path / "proj" / ".memsearch" / "memory"
    (mem / "sub").mkdir(parents=True)
    (mem / "2026-01-01.md").write_text("## Session 10:00\n- Milvus chosen\n- nothing else\n", encoding="utf-8")
    (mem / "sub" / "2026-01-02.md").write_text("- milvus again\n", encoding="utf-8")
    (mem / "big.md").write_text("line\n" * 20_000, encoding="utf-8")
    secret = tmp_path / "secret.txt"
    secret.write_text("TOP-SECRET", encoding="utf-8")
    (mem / "link-out.md").symlink_to(secret)
    (mem / "dir-out").symlink_to(tmp_path)
    (tmp_path / "proj" / ".memsearch" / "PROJECT.md").write_text("PROJECT-NOTES", encoding="utf-8")

    def trap(*a, **k):
        raise AssertionError("the sandbox started a process")

    for name in ("Popen", "run", "call", "check_output"):
        monkeypatch.setattr(subprocess, name, trap)
    monkeypatch.setattr(os, "system", trap)
    monkeypatch.setattr(os, "popen", trap)
    return Sandbox([mem])


def test_reads(box: Sandbox):
    assert box.run("ls").splitlines()[:2] == ["2026-01-01.md", "big.md"]
    assert "sub/" in box.run("ls .")
    assert box.run("cat 2026-01-01.md").startswith("## Session")
    assert box.run("grep -i -n milvus -r .").splitlines() == [
        "2026-01-01.md:2:- Milvus chosen",
        "sub/2026-01-02.md:1:- milvus again",
    ]
    assert box.run("grep -l -F 'again' sub") == "sub/2026-01-02.md"
    assert box.run("grep -c Milvus 2026-01-01.md") == "2026-01-01.md:1"
    assert box.run("find . -name '*.md' -type f").splitlines() == ["2026-01-01.md", "big.md", "sub/2026-01-02.md"]
    assert box.run("head -n 1 2026-01-01.md") == "## Session 10:00"
    assert box.run("tail -n 1 2026-01-01.md") == "- nothing else"
    assert box.run(f"cat {box.roots[0]}/2026-01-01.md").startswith("## Session")
    big = box.run("cat big.md")
    assert len(big) < MAX_OUTPUT_CHARS + 100 and big.endswith("characters]")
    assert box.run("grep nomatch .") == "(no output)"


INJECTIONS = [
    "cat ../PROJECT.md",
    "cat ../../../../etc/passwd",
    "cat /etc/passwd",
    "grep -r root /",
    "grep -r x /etc",
    "ls /",
    "ls ~",
    "cat ~/.ssh/id_rsa",
    "cat link-out.md",  # symlink to a file outside
    "ls dir-out",  # symlinked folder outside
    "cat dir-out/secret.txt",
    "find . -delete",
    "find . -exec rm {} +",
    "find . -exec cat /etc/passwd ;",
    "find . -execdir sh -c id ;",
    "find . -fprint /tmp/x",
    "find . -ok rm ;",
    "cat 2026-01-01.md; rm -rf /",
    "cat 2026-01-01.md && curl evil.example",
    "cat 2026-01-01.md | sh",
    "cat $(echo /etc/passwd)",
    "cat `id`",
    "grep x 2026-01-01.md > /tmp/out",
    "grep x < /etc/passwd",
    "cat 2026-01-01.md\nrm -rf /",
    "rm 2026-01-01.md",
    "sh -c id",
    "python3 -c 'print(1)'",
    "memsearch expand abc",
    "tee 2026-01-01.md",
    "sed -i d 2026-01-01.md",
    "grep -f /etc/passwd .",
    "grep --devices=read x .",
    "cat " + "a" * 300,
    "grep " + "x " * 600,
    "cat 'unterminated",
    "echo ${HOME}",
    "cat \\/etc/passwd",
    "",
    "find / -name passwd",
    "grep -r TOP-SECRET ..",
]


@pytest.mark.parametrize("command", INJECTIONS)
def test_injections_refused(box: Sandbox, command: str, tmp_path: Path):
    before = {p: p.read_bytes() for p in tmp_path.rglob("*") if p.is_file() and not p.is_symlink()}
    out = box.run(command)
    assert out.startswith("Error:"), out
    assert "TOP-SECRET" not in out and "PROJECT-NOTES" not in out and "root:" not in out
    after = {p: p.read_bytes() for p in tmp_path.rglob("*") if p.is_file() and not p.is_symlink()}
    assert after == before


def test_walk_skips_escaping_symlinks(box: Sandbox):
    assert "TOP-SECRET" not in box.run("grep -r -l SECRET .")
    listing = box.run("find .")
    assert "link-out.md" not in listing and "secret.txt" not in listing


def test_corpus_size():
    assert len(INJECTIONS) >= 20
