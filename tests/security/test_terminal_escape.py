"""Terminal safety: control characters from titles, journals, LLM reasons and provider
errors are shown as visible escapes by every CLI output, text and --json alike."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from memsearch_tui.engine.core.terminal import printable, shown
from tests.helpers import run_cli

CLEAR = "\x1b[2J\x1b[H"
RAW = ("\x1b", "\x07", "\x9b", "\u202e", "\r")


def _raw_free(text: str) -> bool:
    return not any(c in text for c in RAW)


def test_printable_escapes_every_control_but_layout() -> None:
    text = "a\x1b[31mred\x07\tb\nc\rd\x7f\x9b2J\u202eevil\u2066x\x00"
    out = printable(text)
    assert out == "a\\x1b[31mred\\x07\tb\nc\\rd\\x7f\\x9b2J\\u202eevil\\u2066x\\x00"
    assert printable("tab\tline\n", newlines=False) == "tab\\tline\\n"
    assert printable("plain ünïcode ✓ 中文") == "plain ünïcode ✓ 中文"


def test_shown_masks_secrets_then_escapes() -> None:
    assert shown("key \x1b[2J " + "glpat-" + "xY3kP9mQ2rT7vW1zB4nC") == "key \\x1b[2J [redacted: GitLab token]"


def _cli(*args: str) -> tuple[int, str, str]:
    r = run_cli(*args)
    return r.code, r.out, r.err


@pytest.fixture
def root_with_hostile_entry(tmp_path: Path) -> Path:
    """An entry written by hand (an agent, a sync tool) with escapes in its title and body."""
    root = tmp_path / "memory"
    run_cli("--memory-root", str(root), "--project", str(tmp_path), "init")
    folder = root / "notes"
    folder.mkdir()
    (folder / "hostile.md").write_text(
        # YAML escapes in the title (\\e is ESC, \\a is BEL); raw escapes in the body
        '---\ntitle: "Hostile \\e]0;pwned\\a\\u202e title"\nstatus: active\n---\n' + CLEAR + "body line \x9b31m\n",
        encoding="utf-8",
    )
    run_cli("--memory-root", str(root), "--project", str(tmp_path), "index", "check", "--fix")
    return root


@pytest.mark.parametrize(
    "args",
    [
        ("ls", "notes"),
        ("show", "notes/hostile"),
        ("search", "hostile", "-s", "grep"),
        ("search", "body line", "-s", "index"),
    ],
)
@pytest.mark.parametrize("as_json", [False, True])
def test_cli_output_never_carries_raw_controls(root_with_hostile_entry: Path, args, as_json) -> None:
    root = root_with_hostile_entry
    code, out, err = _cli(
        "--memory-root", str(root), "--project", str(root.parent), *args, *(["--json"] if as_json else [])
    )
    assert code == 0, out + err
    assert "Hostile" in out or "hostile" in out
    assert _raw_free(out) and _raw_free(err), repr(out)
    if as_json:
        json.loads(out)  # still exact JSON: the escapes are JSON escapes


def test_error_messages_are_escaped(tmp_path: Path) -> None:
    root = tmp_path / "memory"
    base = ["--memory-root", str(root), "--project", str(tmp_path)]
    _cli(*base, "init")
    code, out, err = _cli(*base, "show", f"notes/missing{CLEAR}")
    assert code == 1 and _raw_free(out + err) and "\\x1b" in err
    code, out, err = _cli(*base, "show", f"notes/missing{CLEAR}", "--json")
    assert code == 1 and _raw_free(out + err)
    assert json.loads(out)["ok"] is False


def test_json_printable_keeps_exact_json() -> None:
    from memsearch_tui.engine.core.terminal import json_printable

    value = {"a": "x\x9b[2J\u202ey\x7f\x1b", "b": ["\u2028"]}
    out = json_printable(json.dumps(value, ensure_ascii=False))
    assert _raw_free(out) and "\x7f" not in out and "\u2028" not in out
    assert json.loads(out) == value
