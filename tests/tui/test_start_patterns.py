"""No regular expression with a wide character range is compiled by the imports the app's
first frame waits for (issue 37 item 5): ``re`` builds such a set character by character
(the store's plain-word check, a 21,000-character CJK range: ~2.5 ms of every start under
load, and ~1 ms for the link scanner's). Those are compiled at their first use instead."""

from __future__ import annotations

import json
import re
import subprocess
import sys

import pytest

from memsearch_tui.engine.core.frontmatter_io import _plain_str
from memsearch_tui.engine.store.links import fast_info

pytestmark = pytest.mark.slow

IMPORTS = """
import json, re
seen = []
compile = re.compile
def recording(pattern, flags=0):
    seen.append(pattern if isinstance(pattern, str) else "")
    return compile(pattern, flags)
re.compile = recording
import memsearch_tui.tui.app, memsearch_tui.tui.panes.index.pane, memsearch_tui.engine.api.memory
print(json.dumps(seen))
"""
RANGE = re.compile(r"\\u([0-9a-fA-F]{4})-\\u([0-9a-fA-F]{4})")


def test_the_first_frame_s_imports_compile_no_wide_character_range() -> None:
    out = subprocess.run([sys.executable, "-c", IMPORTS], capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr[-2000:]
    patterns = json.loads(out.stdout.strip().splitlines()[-1])
    assert len(patterns) > 10  # the recorder saw the imports' patterns
    wide = [p for p in patterns for a, b in RANGE.findall(p) if int(b, 16) - int(a, 16) > 1000]
    assert wide == []


def test_the_patterns_compiled_on_use_still_tell_plain_words_en_and_zh() -> None:
    assert _plain_str("editor-setup") and _plain_str("数据库迁移") and _plain_str("Postgres 16 升级")
    assert not _plain_str("yes") and not _plain_str("a: b") and not _plain_str("16 things")
    plain = b"---\nstatus: active\nrelated: [decisions/db, \xe5\x81\x8f\xe5\xa5\xbd/editor]\n---\nbody\n"
    info = fast_info("notes/x", plain)
    assert info is not None and info.related == ["decisions/db", "偏好/editor"]
    assert fast_info("notes/x", b"---\nstatus: active\nrelated: [a b#c]\n---\nbody\n") is None
