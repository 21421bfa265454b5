"""``journal list`` tags a day dated after today ``future``, as the Journal pane does.

A skewed clock or a hand-made name (2031-01-01.md) lists that day first, as the newest;
the app has tagged it since session 19, the CLI listed no days at all. Now ``journal list``
says so per day, and ``--json`` has a boolean ``future`` per day and the ``today`` it was
judged by. Today is ``MEMSEARCH_TUI_NOW`` (2026-11-30 in the tests); today itself and an
undated name are never future. Real day files in a temp project, EN and ZH turns.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

TURN = {"en": "Chose Fly.io for hosting", "zh": "决定把服务部署到 Fly.io"}
DAYS = ["2026-11-27", "2026-11-30", "2026-12-01", "2031-01-01"]  # today is 2026-11-30
UNDATED = {"en": "notes-from-the-offsite", "zh": "团建会议记录"}


@pytest.fixture(params=["en", "zh"])
def lang(request: pytest.FixtureRequest) -> str:
    return str(request.param)


@pytest.fixture
def days(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, store, lang: str) -> Path:
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    monkeypatch.setenv("MEMSEARCH_TUI_DATA_DIR", str(tmp_path / "data"))
    monkeypatch.delenv("MEMSEARCH_DIR", raising=False)
    (tmp_path / ".git").mkdir()
    folder = tmp_path / ".memsearch" / "memory"
    folder.mkdir(parents=True)
    for name in [*DAYS, UNDATED[lang]]:
        (folder / f"{name}.md").write_text(f"# {name}\n\n## Session 09:00\n\n### 09:01\n- {TURN[lang]}\n", "utf-8")
    return folder


def test_journal_list_tags_the_days_dated_after_today(cli, days, lang) -> None:
    r = cli("journal", "list")
    assert r.code == 0, r.err
    rows = r.out.splitlines()
    assert rows[:5] == [
        "2031-01-01  future",
        "2026-12-01  future",
        "2026-11-30",
        "2026-11-27",
        UNDATED[lang],
    ]
    assert rows[5] == "(2 days dated after today, 2026-11-30: a skewed clock or a hand-made name)"


def test_journal_list_json_has_a_boolean_future_per_day(cli, days, lang) -> None:
    r = cli("--json", "journal", "list")
    assert r.code == 0, r.err
    data = json.loads(r.out)["data"]
    assert data["today"] == "2026-11-30"
    assert [(d["day"], d["future"]) for d in data["days"]] == [
        ("2031-01-01", True),
        ("2026-12-01", True),
        ("2026-11-30", False),
        ("2026-11-27", False),
        (UNDATED[lang], False),
    ]
    assert all(Path(d["path"]).parent == days for d in data["days"])


def test_the_tag_follows_the_clock_as_the_app_does(cli, days, monkeypatch) -> None:
    """The same days, a day later: 2026-12-01 is today, no longer future; the Journal pane's
    rule (``is_future``) agrees with the CLI's on every day."""
    from memsearch_tui.tui.panes.journal_pane import is_future

    monkeypatch.setenv("MEMSEARCH_TUI_NOW", "2026-12-01T08:00:00Z")
    data = json.loads(cli("--json", "journal", "list").out)["data"]
    assert [d["day"] for d in data["days"] if d["future"]] == ["2031-01-01"]
    assert all(d["future"] == is_future(Path(d["path"]), data["today"]) for d in data["days"])
    assert "2026-12-01  future" not in cli("journal", "list").out


def test_no_days_says_where_it_looked(cli, days) -> None:
    for f in days.iterdir():
        f.unlink()
    r = cli("journal", "list")
    assert r.code == 0 and r.out.strip() == f"no journals in {days}"
    assert json.loads(cli("--json", "journal", "list").out)["data"]["days"] == []


@pytest.fixture
def shanghai():
    """TZ=Asia/Shanghai (UTC+8) for this test only; the process's zone is set back after."""
    import os
    import time

    old = os.environ.get("TZ")
    os.environ["TZ"] = "Asia/Shanghai"
    time.tzset()
    yield
    if old is None:
        os.environ.pop("TZ", None)
    else:
        os.environ["TZ"] = old
    time.tzset()


def test_future_is_judged_by_the_local_date_journals_are_named_by(cli, days, lang, shanghai, monkeypatch) -> None:
    """2026-12-01 04:00 in Shanghai is still 2026-11-30 in UTC: today's journal (named by
    the local date, 2026-12-01) is today, not future, in the CLI, its JSON and the pane."""
    from memsearch_tui.tui.panes.journal_pane import is_future

    (days / "2026-12-01.md").write_text(f"# 2026-12-01\n\n### 04:00\n- {TURN[lang]}\n", "utf-8")
    monkeypatch.setenv("MEMSEARCH_TUI_NOW", "2026-11-30T20:00:00Z")
    data = json.loads(cli("--json", "journal", "list").out)["data"]
    assert data["today"] == "2026-12-01"
    assert [d["day"] for d in data["days"] if d["future"]] == ["2031-01-01"]
    assert not is_future(days / "2026-12-01.md", data["today"])
    out = cli("journal", "list").out
    assert "2026-12-01  future" not in out.splitlines()
    assert "(1 day dated after today, 2026-12-01: a skewed clock or a hand-made name)" in out
