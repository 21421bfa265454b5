"""Issue 36 item 6: what a one-shot CLI search does not need, it does not build.

Each cut keeps behaviour: the same answers as the full table or pattern, only compiled
(or imported) when the text at hand may need it. The end-to-end spy (which patterns and
modules a one-shot hybrid search loads) is in ``test_cli_fast.py``."""

from __future__ import annotations

import hashlib
import json
import os
import random
import re
import subprocess
import sys
import time
from pathlib import Path

import pytest

from memsearch_tui.engine.core import secret_views
from memsearch_tui.engine.core.digest import sha1_hex
from memsearch_tui.engine.core.secrets import find_secret, redact
from memsearch_tui.engine.memsearch import sync_copies
from memsearch_tui.engine.search.owner_wire import owner_key


def test_plain_journal_days_compile_no_conflicted_copy_pattern() -> None:
    sync_copies._compiled.cache_clear()
    assert sync_copies.is_day_file("2026-11-30.md") and sync_copies.copy_of("2026-11-30.md") is None
    assert sync_copies._compiled.cache_info().currsize == 0
    copy = sync_copies.copy_of("2026-11-30 (Ana's conflicted copy 2026-11-30).md")
    assert copy is not None and copy.tool == "dropbox/nextcloud"
    assert sync_copies.copy_of("2026-11-30-DESKTOP-4F2KJ9.md", ["2026-11-30.md"]) is not None
    assert sync_copies.copy_of("2026-11-30-Kims-MacBook-Pro.md", ["2026-11-30.md"]) is not None  # (?i:) kept
    assert sync_copies.copy_of("2026-11-30-kims-macbook-pro.md", ["2026-11-30.md"]) is not None
    assert sync_copies.copy_of("2026-11-30-TODO.md", ["2026-11-30.md"]) is None
    assert not sync_copies.is_day_file("2026-11-30.sync-conflict-20261130-101112-ABCDEFG.md")


def test_the_ascii_join_pattern_splits_ascii_text_as_the_full_one_does() -> None:
    rng = random.Random(36)
    alphabet = "ab9 \t\n\r\\=-_+/.x  "
    ascii_ = re.compile(secret_views._PATTERNS["join ascii"])
    full = re.compile(secret_views._PATTERNS["fold+join"])
    for _ in range(3000):
        text = "".join(rng.choice(alphabet) for _ in range(rng.randint(0, 40)))
        assert [(m.span(), m.lastgroup) for m in ascii_.finditer(text)] == [
            (m.span(), m.lastgroup) for m in full.finditer(text)
        ], repr(text)


class _Asked(dict[str, str]):
    """The pattern table, noting which of its patterns were asked for."""

    asked: list[str]

    def __getitem__(self, key: str) -> str:
        self.asked.append(key)
        return super().__getitem__(key)


@pytest.mark.parametrize(
    ("text", "wide"),
    [
        ("deploy with token ghp_0123456789abcdefghij\n0123456789abcdefghij done", False),
        ("部署令牌 ghp_0123456789abcdefghij\n0123456789abcdefghij 完成", True),
    ],
)
def test_ascii_output_is_redacted_without_the_wide_unicode_classes(
    text: str, wide: bool, monkeypatch: pytest.MonkeyPatch
) -> None:
    table = _Asked(secret_views._PATTERNS)
    table.asked = []
    monkeypatch.setattr(secret_views, "_PATTERNS", table)
    secret_views._pattern.cache_clear()
    secret_views._narrowed.cache_clear()  # its misses count this process's narrowings (≤ _NARROW_MAX)
    try:
        out = redact(text)
    finally:
        secret_views._pattern.cache_clear()
    assert "ghp_0123456789abcdefghij" not in out and "[redacted: " in out  # the token split over two lines
    assert "fold+join" not in table.asked  # a short text: its classes narrowed (below)
    assert ("join ascii" in table.asked) is not wide


def test_the_file_names_hash_as_hashlib_does(tmp_path: Path) -> None:
    for text in ("", "/tmp/x", "/home/用户/项目", "a" * 5000):
        assert sha1_hex(text.encode()) == hashlib.sha1(text.encode()).hexdigest()
    assert owner_key(tmp_path) == hashlib.sha1(str(tmp_path.absolute()).encode()).hexdigest()[:10]


def _full_shadow(text: str, join: bool) -> secret_views.View | None:
    """``shadow`` with the whole wide classes (the narrowing turned off)."""
    mp = pytest.MonkeyPatch()
    mp.setattr(secret_views, "_NARROW_MAX", 0)
    try:
        return secret_views.shadow(text, join=join)
    finally:
        mp.undo()


def test_a_short_texts_classes_narrowed_to_its_own_characters_fold_and_join_the_same() -> None:
    rng = random.Random(615)
    alphabet = [*"ab9Z _-=\t\n\r\\  .", *"“”…·Ａｂ\u200b\u00a0αаР中文\u0301\u2028ℌ①𝐀\u3000é\u2007\u2060\ufeff"]
    for _ in range(200):  # each narrowing compiles: kept small
        text = "".join(rng.choice(alphabet) for _ in range(rng.randint(1, 30)))
        for join in (False, True):
            secret_views._narrowed.cache_clear()  # every text narrowed, not only the first few
            assert secret_views.shadow(text, join=join) == _full_shadow(text, join), (text, join)
    # a tab inside a run of foldable characters is part of that run, narrowed or not
    text = "token “ab\tcd” … ghp_0123456789abcdefghij\n0123456789abcdefghij 部署"
    for join in (False, True):
        secret_views._narrowed.cache_clear()
        assert secret_views.shadow(text, join=join) == _full_shadow(text, join)


def test_every_character_the_whole_classes_fold_is_one_a_narrowed_class_keeps() -> None:
    """A character the narrowing leaves out is never folded: a secret with U+0363 (a combining
    mark past U+034F, which sat in the ranges twice and broke their bisection) went unredacted."""
    whole = re.compile(f"[{secret_views._WIDE[1:-2]}{secret_views._MIXED_BODY}]")
    missed = [hex(c) for c in range(0x20000) if whole.fullmatch(chr(c)) and not secret_views._foldable(c)]
    assert missed == []
    token = "glpat-aB3" + "\u0363" + "dE5gH7jK9mN1pQ3sT"
    secret_views._narrowed.cache_clear()
    assert find_secret(f"x {token} y") == "GitLab token"


def test_search_output_is_redacted_without_compiling_the_wide_classes(monkeypatch: pytest.MonkeyPatch) -> None:
    """A CLI search's output holds “ ” … · (non-ASCII): its views compile classes of those
    characters only, not the whole wide ones (~2.5 ms of a one-shot search)."""
    compiled: list[str] = []
    real = re.compile

    def spy(pattern: str, flags: int = 0) -> re.Pattern[str]:
        if isinstance(pattern, str):  # (the secret rules' gates are bytes patterns)
            compiled.append(pattern)
        return real(pattern, flags)

    monkeypatch.setattr(secret_views.re, "compile", spy)
    secret_views._pattern.cache_clear()
    secret_views._narrowed.cache_clear()
    out = (
        " 1. /p/.memsearch/memory/2026-11-30.md  “2026-11-30”  L3-6  ## Session 10:00 > ### 10:00  [1.2]\n"
        "    - deploy with ghp_0123456789abcdefghij\n0123456789abcdefghij · then the long tail …\n"
    )
    try:
        shown = redact(out)
    finally:
        secret_views._pattern.cache_clear()
        secret_views._narrowed.cache_clear()
    assert "ghp_0123456789abcdefghij" not in shown and "“2026-11-30”" in shown
    assert compiled and not any("\U0001d400" in p or "\\U0001d400" in p or "\uff00" in p for p in compiled)


def test_a_long_lived_process_compiles_the_whole_pattern_after_a_few_narrowings() -> None:
    secret_views._pattern.cache_clear()
    secret_views._narrowed.cache_clear()
    try:
        for i in range(secret_views._NARROW_MAX + 5):
            secret_views.shadow(f"x{chr(0xFF10 + i)}y", join=False)  # a new full-width digit each time
        assert secret_views._narrowed.cache_info().misses == secret_views._NARROW_MAX
        assert secret_views._pattern.cache_info().misses == 1  # the whole "fold", compiled once
        assert secret_views._pattern.cache_info().hits == 4
    finally:
        secret_views._pattern.cache_clear()
        secret_views._narrowed.cache_clear()


def test_text_output_builds_no_json_escape_table() -> None:
    """The ``--json`` escape table (2,100 entries) is built on the first JSON output, not
    when a text search imports the terminal module."""
    from memsearch_tui.engine.core import terminal

    terminal._json_table.cache_clear()
    assert terminal.shown("“a” · b … \x1b[2J") == "“a” · b … \\x1b[2J"
    assert terminal._json_table.cache_info().currsize == 0
    assert terminal.json_printable('"\x85 \ud800 \u202e"') == '"\\u0085 \\ud800 \\u202e"'
    assert terminal._json_table.cache_info().currsize == 1


def test_a_question_naming_no_time_compiles_none_of_the_window_side_patterns() -> None:
    """The since/before readers around a time phrase (and ``--since`` dates) compile on the
    first phrase found, not when the time reader is imported."""
    code = """
import json, sys, re._compiler as c
from datetime import date
seen, compile_ = [], c.compile
c.compile = lambda p, flags=0: (seen.append(p if isinstance(p, str) else repr(p)), compile_(p, flags))[1]
from memsearch_tui.engine.search import timewindow as t
plain = t.read("what did we decide about the cache 缓存", date(2026, 12, 6))
first = list(seen)
since = t.read("cache changes since last week", date(2026, 12, 6))
sides = {getattr(x, "pattern", x) for x in (t._SINCE, t._LEAD, t._DATE_ARG)}  # compiled or not
print(json.dumps([plain.window is None, [p for p in first if p in sides],
                  str(since.window.start), [p for p in seen if p in sides]]))
"""
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=Path(__file__).parent)
    assert out.returncode == 0, out.stderr[-2000:]
    none_named, compiled_first, start, compiled_then = json.loads(out.stdout)
    assert none_named and compiled_first == []
    assert start == "2026-11-23" and compiled_then  # "since last week": from its Monday on


# Search output as a one-shot hybrid search prints it (LoCoMo-like prose: "glad", "though",
# "Mrs.", "passed", scores with dots), English and Chinese.
_PROSE_OUT = (
    "5 hits · hybrid (--strategy hybrid) · 182 ms\n"
    " 1. conv-26/2023-05-08  “2023-05-08”  L3-9  ## Session 13:56  [0.0312]\n"
    "    Melanie: I'm so glad you liked it, though I painted it in a rush. Thanks, Mrs. Lee.\n"
    " 2. conv-26/2023-06-09  “2023-06-09”  L12-14  [0.0297]\n"
    "    Caroline passed the exams and the kids laugh a lot; e.g. the 2.5 km walk was fun.\n"
    " 3. 部署/回滚  “回滚”  L1-2  [0.02]\n    我们周五部署，回滚只要两分钟。\n"
)


def test_prose_output_is_scanned_for_secrets_without_importing_re2() -> None:
    """Common letters ("gl" in "glad", "gh" in "though", "s." ending a word, "pass" in
    "passed", the "." of every sentence) no longer send a text to RE2: only a rule whose
    token could be there is compiled, so printing most search output never imports re2
    (~1.5 ms of a one-shot search; issue 36 item 6)."""
    code = f"""
import sys
from memsearch_tui.engine.core.secrets import redact, redact_data
text = {_PROSE_OUT!r}
assert redact(text) == text and redact_data({{"hits": [text]}}) == {{"hits": [text]}}
print("re2" in sys.modules)
"""
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=Path(__file__).parent)
    assert out.returncode == 0, out.stderr[-2000:]
    assert out.stdout.strip() == "False"


_DISCORD = "MTk4NjIyNDgzNDcxOTI1MjQ4" + ".Cl2FMQ." + "ZnCjm1XVW7vRze4b7Cq4se7kKWs"
_TOKENS = {
    "Discord bot token": _DISCORD,
    "Vault token": "s." + "Ab3dE5gH7jK9mN1pQ3sT5vW7",
    "GitHub token": "ghp_" + "0123456789abcdefghijABCDEFGHIJ012345",
    "GitLab token": "glpat-" + "xY3kP9mQ2rT7vW1zB4nC",
}


@pytest.mark.parametrize("kind", sorted(_TOKENS))
def test_the_tightened_rules_still_find_and_redact_their_tokens(kind: str) -> None:
    token = _TOKENS[kind]
    for text in (
        f"{_PROSE_OUT}    deploy with {token} · then …\n",
        f"我很高兴 though glad:{token}。",
        f"{token[:13]}\n{token[13:]} wrapped by the terminal",  # a joined view (token rules)
    ):
        assert find_secret(text) == kind, text
        shown = redact(text)
        assert token not in shown and token[-10:] not in shown and f"[redacted: {kind}]" in shown


@pytest.mark.parametrize(
    ("text", "kind"),
    [
        ("export PGPASSWORD = hunter2-Xy9z and go", "password in an environment variable"),
        ("ROOT_PASS=Zq8-longer-one", "password in an environment variable"),
        ("The wifi password is Tr0ub4dor&3 at home", "password in prose"),
        ("the PASSCODE was 8x7y6z5w4v", "password in prose"),
    ],
)
def test_the_password_rules_still_find_their_values(text: str, kind: str) -> None:
    assert find_secret(text) == kind


def test_a_freshness_check_with_nothing_changed_reads_the_file_rows_once(memory, add_entry) -> None:
    """``sync_chunks`` with the files as the manifest has them (every search's check) reads
    the file rows once and returns: no second read, no change-log trim, no commit."""
    from memsearch_tui.engine.search.searcher import Searcher

    root, project = memory
    an_hour_ago = time.time_ns() - 3_600 * 10**9  # not written in the tick of the first read (indexer.stamp)
    for path in (*root.rglob("*.md"), *project.rglob("*.md")):
        os.utime(path, ns=(an_hour_ago, an_hour_ago))
    with Searcher(root, project) as s:
        assert s.refresh_chunks().changed > 0  # the first sync reads every file
        statements: list[str] = []
        s.manifest.db.set_trace_callback(statements.append)
        rep = s.refresh_chunks()
        s.manifest.db.set_trace_callback(None)
        assert (rep.changed, rep.removed, rep.new_chunks, rep.files) == (0, 0, 0, len(s._all_files()))
        assert [q for q in statements if "FROM files" in q] and len([q for q in statements if "FROM files" in q]) == 1
        assert not [q for q in statements if "fts_log" in q or q.strip().upper() in ("COMMIT", "BEGIN")]
        add_entry(root, "notes/新的", "New", [], "A new note: 新的笔记。\n")  # a change still syncs
        s.invalidate()
        rep = s.refresh_chunks()
        assert rep.changed == 1 and rep.new_chunks >= 1
        assert [h.id for h in s.search("新的笔记", strategy="index", k=1).hits] == ["notes/新的"]
