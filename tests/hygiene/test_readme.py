"""README's Hygiene section says what the code does: its kinds, its options, its setting."""

from __future__ import annotations

import re
from dataclasses import fields
from pathlib import Path

from memsearch_tui.engine.api.hygiene import KINDS
from memsearch_tui.engine.store.config import StoreConfig, default_config_text
from tests.helpers import run_cli

README = Path(__file__).resolve().parents[2] / "README.md"


def _section() -> str:
    text = README.read_text(encoding="utf-8")
    return text[text.index("### Hygiene") : text.index("## For agents")]


def test_the_kinds_listed_are_the_kinds_found() -> None:
    listed = re.findall(r"^- `([a-z-]+)`:", _section(), re.M)
    assert listed == list(KINDS)


def test_the_options_shown_exist() -> None:
    help_text = run_cli("hygiene", "--help").out
    for option in set(re.findall(r"(--[a-z]+)", _section())):
        assert option in help_text


def test_the_weekly_setting_is_off_by_default_and_written_by_init() -> None:
    assert "hygiene_every_days: 7" in _section() and "0, the default, is off" in _section()
    assert {f.name: f.default for f in fields(StoreConfig)}["hygiene_every_days"] == 0
    assert "hygiene_every_days: 0\n" in default_config_text()


def test_the_app_keys_named_are_the_registry_s() -> None:
    from memsearch_tui.tui.actions import BY_ID

    section = _section()
    assert "`H`" in section and BY_ID["app.hygiene"].keys == "H"
    assert "`r` scans again" in section and BY_ID["hygiene.rescan"].keys == "r"
    assert "Overview (`0`)" in section and BY_ID["pane.overview"].keys == "0"


def test_the_llm_check_settings_named_are_the_ones_read() -> None:
    from memsearch_tui.engine.hygiene.llm_check import BATCH, DEFAULT_PAIRS, MAX_PAIRS, TASK

    section = _section()
    for key in ("llm_check = true", 'provider = "NAME"', "`max_pairs`", f"default {DEFAULT_PAIRS}"):
        assert key in section
    assert f"at most\n{MAX_PAIRS}" in section or f"at most {MAX_PAIRS}" in section
    assert BATCH == 10 and "ten to a request" in section and f"task `{TASK}`" in section


def test_the_mcp_tool_named_is_registered_with_its_bounds() -> None:
    import inspect

    from memsearch_tui.mcp import tools

    section = _section()
    assert "MCP tool `hygiene`" in section and f"{tools.HYGIENE_LIMIT} at most" in section
    assert "def hygiene(" in inspect.getsource(tools.register) and "= 50," in inspect.getsource(tools.register)
