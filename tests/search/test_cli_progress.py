"""Long CLI work shows a bar only to a person at a terminal; pipes and --json stay clean."""

from __future__ import annotations

import pytest

from memsearch_tui.cli import progress


def test_no_bar_when_piped_or_json(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(progress.sys.stderr, "isatty", lambda: True)
    monkeypatch.setenv("TERM", "xterm")
    assert progress.wanted(json_mode=False)
    assert not progress.wanted(json_mode=True)
    monkeypatch.setattr(progress.sys.stderr, "isatty", lambda: False)
    assert not progress.wanted(json_mode=False)
    with progress.bar("embedding", json_mode=False) as report:
        assert report is None


def test_the_bar_takes_the_engines_reports(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(progress.sys.stderr, "isatty", lambda: True)
    monkeypatch.setenv("TERM", "xterm")
    with progress.bar("embedding", json_mode=False) as report:
        assert report is not None
        for done in range(0, 11):
            report(done, 10)
