"""Issue 36 item 4: time words in a question resolve against today into a date window
(the pure resolver, :mod:`memsearch_tui.engine.search.timewindow`)."""

from __future__ import annotations

from datetime import date

import pytest

from memsearch_tui.engine.search.timewindow import bound, explicit, read

TODAY = date(2026, 11, 30)  # a Monday
D = date.fromisoformat

CASES = [
    (
        "what did we decide about the release yesterday?",
        "2026-11-29",
        "2026-11-29",
        "what did we decide about the release",
    ),
    ("deploys last week", "2026-11-23", "2026-11-29", "deploys"),
    ("the week before last", "2026-11-16", "2026-11-22", ""),
    ("backups three weeks ago", "2026-11-09", "2026-11-15", "backups"),
    ("a couple of weeks ago", "2026-11-16", "2026-11-22", ""),
    ("what happened in October", "2026-10-01", "2026-10-31", "what happened"),
    ("in December", "2025-12-01", "2025-12-31", ""),  # no December yet this year: last year's
    ("on 2026-09-16", "2026-09-16", "2026-09-16", ""),
    ("notes from 2026-09", "2026-09-01", "2026-09-30", "notes from"),
    ("last Monday's standup", "2026-11-23", "2026-11-23", "'s standup"),
    ("on Friday", "2026-11-27", "2026-11-27", ""),
    ("September 16", "2026-09-16", "2026-09-16", ""),
    ("16 Sep 2025", "2025-09-16", "2025-09-16", ""),
    ("two days ago", "2026-11-28", "2026-11-28", ""),
    ("in the past 3 days", "2026-11-28", "2026-11-30", ""),
    ("last month", "2026-10-01", "2026-10-31", ""),
    ("three months ago", "2026-08-01", "2026-08-31", ""),
    ("since last week", "2026-11-23", "2026-11-30", ""),
    ("before October", "0001-01-01", "2026-09-30", ""),
    ("昨天的数据库迁移", "2026-11-29", "2026-11-29", "数据库迁移"),
    ("前天", "2026-11-28", "2026-11-28", ""),
    ("上周的发布", "2026-11-23", "2026-11-29", "发布"),
    ("上上周的评审", "2026-11-16", "2026-11-22", "评审"),
    ("上上周日做了什么", "2026-11-22", "2026-11-22", "做了什么"),
    ("上周三", "2026-11-25", "2026-11-25", ""),
    ("周五", "2026-11-27", "2026-11-27", ""),
    ("上个月的决定", "2026-10-01", "2026-10-31", "决定"),
    ("9月份的部署", "2026-09-01", "2026-09-30", "部署"),
    ("十二月", "2025-12-01", "2025-12-31", ""),
    ("三周前的会议", "2026-11-09", "2026-11-15", "会议"),
    ("三个月前", "2026-08-01", "2026-08-31", ""),
    ("2026年9月16日的值班", "2026-09-16", "2026-09-16", "值班"),
    ("10月3号", "2026-10-03", "2026-10-03", ""),
    ("最近3天", "2026-11-28", "2026-11-30", ""),
    ("上周以来的改动", "2026-11-23", "2026-11-30", "改动"),
    ("去年", "2025-01-01", "2025-12-31", ""),
    ("the week before August 3, 2023 with his kids", "0001-01-01", "2023-08-02", "the week with his kids"),
    ("3 days ago", "2026-11-27", "2026-11-27", ""),
    ("三天前", "2026-11-27", "2026-11-27", ""),
    ("本周", "2026-11-30", "2026-12-06", ""),
    ("this month", "2026-11-01", "2026-11-30", ""),
    ("in 2025", "2025-01-01", "2025-12-31", ""),
    ("in October 2025", "2025-10-01", "2025-10-31", ""),
    ("after October", "2026-11-01", "2026-11-30", ""),
    ("last year", "2025-01-01", "2025-12-31", ""),
]


@pytest.mark.parametrize(("query", "start", "end", "rest"), CASES)
def test_time_words_resolve_to_a_window_and_leave_the_question(query: str, start: str, end: str, rest: str) -> None:
    r = read(query, TODAY)
    assert r.window is not None, query
    assert (r.window.start, r.window.end) == (D(start), D(end)), r.window.describe()
    assert r.rest == rest and not r.window.latest


@pytest.mark.parametrize(
    "query", ["最近一次发布", "上次发布", "the last time we rolled back", "most recent postgres upgrade"]
)
def test_the_latest_occurrence_is_an_open_window_read_newest_first(query: str) -> None:
    w = read(query, TODAY).window
    assert w is not None and w.latest and w.end == TODAY and w.start == date.min
    assert "(newest first)" in w.describe()


@pytest.mark.parametrize(
    "query",
    [
        "how do we roll back a deploy",
        "what workshop did Caroline attend recently?",  # "lately, then": no window (LoCoMo)
        "their latest project",
        "最近在忙什么",
        "postgres 16 upgrade",
        "2026-02-30 notes",
        "ticket 1234-56",
        "we may ship",
        "数据库备份",
    ],
)
def test_no_time_or_an_impossible_one_names_no_window(query: str) -> None:
    r = read(query, TODAY)
    assert r.window is None and r.rest == query


def test_since_and_until_take_dates_months_and_phrases() -> None:
    w = explicit("2026-09", "last week", TODAY)
    assert w is not None and (w.start, w.end) == (D("2026-09-01"), D("2026-11-29"))
    assert w.phrase == "--since 2026-09 --until last week"
    assert explicit(None, None, TODAY) is None
    assert bound("2026-09-16", TODAY, upper=True) == D("2026-09-16")
    only_since = explicit("yesterday", None, TODAY)
    assert (
        only_since is not None
        and only_since.end == date.max
        and only_since.describe() == "--since yesterday = 2026-11-29…"
    )


@pytest.mark.parametrize(
    ("since", "until", "says"),
    [
        ("soon", None, "'soon' is not a date"),
        ("2026-13-01", None, "not a date"),
        ("2026-11-01", "2026-10-01", "is after --until"),
    ],
)
def test_a_bad_bound_is_a_value_error_naming_it(since: str, until: str | None, says: str) -> None:
    with pytest.raises(ValueError, match=says):
        explicit(since, until, TODAY)


# -- the rules' cues: a question runs (and compiles) only the rules it may match ------------
ODD = [
    "the day before yesterday",
    "on FRIDAY of the week before last",
    "ſaturday this week",  # re.I takes the long s for s
    "frıday last week",  # and the dotless ı for i
    "\u212aicked off on 2026-09-16",  # the Kelvin sign
    "in the past 3 days",
    "3 天前",
    "最近 3 天",
    "during 2023",
    "most recently, the last time we met",
    "上上个礼拜天的会",
    "sometime last month, or this month",
    "backups a few weeks ago",
    "in mar 2026",
    "May 3rd, 2025",
]


def test_the_cues_keep_every_match_the_whole_table_finds(monkeypatch: pytest.MonkeyPatch) -> None:
    from memsearch_tui.engine.search import timewindow as tw
    from tests.search.time_questions import questions

    asked = [q for _, q, _ in questions()] + [c[0] for c in CASES] + ODD
    cued = [read(q, TODAY) for q in asked]
    every_cue = " ".join(c for _, _, cues in tw._RULES for c in cues)
    monkeypatch.setattr(tw, "cue_text", lambda text: every_cue)  # every rule runs, as before cues
    assert [read(q, TODAY) for q in asked] == cued
    assert sum(r.window is not None for r in cued) >= len(asked) - 2


def test_a_question_compiles_only_the_rules_its_words_may_match() -> None:
    from memsearch_tui.engine.search import timewindow as tw

    tw._COMPILED.clear()
    r = read("What did Melanie paint recently?", TODAY)
    assert r.window is None
    assert sorted(tw._RULES[i][1] for i in tw._COMPILED) == ["latest"]
    tw._COMPILED.clear()
    r = read("上周的发布", TODAY)
    assert r.window is not None and r.rest == "发布"
    assert len(tw._COMPILED) < len(tw._RULES) // 3


def test_the_cue_text_folds_every_character_re_i_takes_for_an_ascii_letter() -> None:
    import re

    from memsearch_tui.engine.search.timewindow import cue_text

    every = "".join(chr(c) for c in range(0x80, 0x20000) if not 0xD800 <= c <= 0xDFFF)
    odd = [m.group() for m in re.finditer(r"[a-z]", every, re.I)]
    assert odd  # ſ, the Kelvin sign, ı, İ …
    for c in odd:
        assert any(re.fullmatch(a, c, re.I) for a in cue_text(c) if a.isascii()), hex(ord(c))
