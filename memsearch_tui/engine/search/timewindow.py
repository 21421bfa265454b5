"""Time in a question: "yesterday", "last week", "上上周日", "9月份" … → a date window.

A question that names a time ("what did we decide about the release last week?") asks for
the days it names; matched as text, "last week" finds nothing useful and the same
decision from any week ranks alike. :func:`read` finds the time phrase, resolves it
against today (the engine's clock: ``MEMSEARCH_TUI_NOW`` in tests) into an inclusive
:class:`Window`, and returns the question without it, so the search ranks the content by
the remaining words and :mod:`.windowed` ranks the window as a signal of its own.

A small table of patterns rather than a date library: dateparser (BSD) took ~110–150 ms to
import and ~4 s for its first dozen phrases here, returns a point rather than a range
("in October" → 30 October, "last week" → 7 days ago), does not find a phrase inside a
sentence without its slower ``search_dates``, and missed "the week before last", "9月份",
"三周前" and "上上周日" (README, Design notes). This module imports only ``re`` and
``datetime``. Weeks start on Monday (ISO, as in Chinese usage); a month name or number
without a year is the latest such month not after today.
"""

from __future__ import annotations

import re
from datetime import date, timedelta
from typing import NamedTuple

MAX_QUERY = 4096  # characters of a question looked at (queries are bounded before this)


class Window(NamedTuple):
    """An inclusive range of days, the words that named it, and whether the question asks
    for the most recent occurrence ("最近一次", "the last time": newest first)."""

    start: date
    end: date
    phrase: str
    latest: bool = False

    def covers(self, day: date) -> bool:
        return self.start <= day <= self.end

    def describe(self) -> str:
        """``last week = 2026-11-23…2026-11-29`` (one day: ``yesterday = 2026-11-29``)."""
        if self.start == date.min:
            span = f"…{self.end.isoformat()}"
        elif self.end == date.max:
            span = f"{self.start.isoformat()}…"
        else:
            span = self.start.isoformat() if self.start == self.end else f"{self.start}…{self.end}"
        return f"{self.phrase} = {span}" + (" (newest first)" if self.latest else "")


class Reading(NamedTuple):
    """A question read for time: the window (None: it names no time) and the rest of it."""

    window: Window | None
    rest: str


_EN_NUM = {
    "a": 1,
    "an": 1,
    "one": 1,
    "two": 2,
    "three": 3,
    "four": 4,
    "five": 5,
    "six": 6,
    "seven": 7,
    "eight": 8,
    "nine": 9,
    "ten": 10,
    "eleven": 11,
    "twelve": 12,
    "couple of": 2,
    "few": 3,
}
_ZH_DIGIT = {"零": 0, "一": 1, "二": 2, "两": 2, "三": 3, "四": 4, "五": 5, "六": 6, "七": 7, "八": 8, "九": 9}
_MONTHS = {
    m: i
    for i, names in enumerate(
        (
            "january jan",
            "february feb",
            "march mar",
            "april apr",
            "may",
            "june jun",
            "july jul",
            "august aug",
            "september sept sep",
            "october oct",
            "november nov",
            "december dec",
        ),
        1,
    )
    for m in names.split()
}
_WEEKDAYS = {
    d: i
    for i, names in enumerate(
        (
            "monday mon",
            "tuesday tue tues",
            "wednesday wed",
            "thursday thu thurs",
            "friday fri",
            "saturday sat",
            "sunday sun",
        )
    )
    for d in names.split()
}
_ZH_WEEKDAY = {"一": 0, "二": 1, "三": 2, "四": 3, "五": 4, "六": 5, "日": 6, "天": 6}

_N_EN = r"(\d{1,3}|a|an|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|a couple of|couple of|a few|few)"
_N_ZH = r"(\d{1,3}|[一二两三四五六七八九十]{1,3})"
_MONTH_RE = "|".join(sorted(_MONTHS, key=len, reverse=True))
_WEEKDAY_RE = "|".join(sorted(_WEEKDAYS, key=len, reverse=True))
_PREP = r"(?:(?:in|on|during|from|of|at|for|over)\s+)?(?:the\s+)?"

# Cues: literals of which every match of a rule holds one (case-folded): a question is run
# only through the rules whose cues it holds, and each rule is compiled on the first
# question that needs it ("recently" compiles one rule, not the table: ~10 ms of a one-shot
# CLI search). Every weekday and month name holds its three-letter prefix.
_DASH = ("-",)
_WEEK = ("week",)
_ZH_WEEK = ("周", "星期", "礼拜")
_WD = ("mon", "tue", "wed", "thu", "fri", "sat", "sun")
_MN = ("jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec")

# (pattern, kind, cues). Order matters: longer phrases before their parts. Every English
# pattern is word-bounded and case-insensitive; the named groups feed :func:`_resolve`.
_RULES: list[tuple[str, str, tuple[str, ...]]] = [
    (r"\b(?:on\s+)?(?P<y>(?:19|20)\d\d)-(?P<m>\d{1,2})-(?P<d>\d{1,2})\b", "iso_day", _DASH),
    (r"\b(?:in\s+)?(?P<y>(?:19|20)\d\d)-(?P<m>\d{1,2})\b(?!-)", "iso_month", _DASH),
    (
        r"(?P<y>\d{4})年(?P<m>\d{1,2}|[一二三四五六七八九十]{1,3})月(?:(?P<d>\d{1,2}|[一二三四五六七八九十]{1,3})[日号])?",
        "zh_ymd",
        ("年",),
    ),
    (
        r"(?P<m>\d{1,2}|十[一二]?|[一二三四五六七八九])月(?P<d>\d{1,2}|[一二三四五六七八九十]{1,3})[日号]",
        "zh_md",
        ("月",),
    ),
    (r"(?<![\d个])(?P<m>\d{1,2}|十[一二]?|[一二三四五六七八九])月份?(?!前|后|以后)", "zh_month", ("月",)),
    (r"\b(?:the\s+)?day\s+before\s+yesterday\b", "days_2", ("yesterday",)),
    (r"大前天", "days_3", ("前天",)),
    (r"前天", "days_2", ("前天",)),
    (r"\b(?:(?:on|from)\s+)?yesterday\b|昨天|昨日|昨晚", "days_1", ("yesterday", "昨")),
    (
        r"\b(?:today|tonight|this\s+morning|this\s+afternoon)\b|今天|今日|今晚",
        "days_0",
        ("today", "tonight", "morning", "afternoon", "今"),
    ),
    (rf"\b{_N_EN}\s+days?\s+ago\b", "n_days_en", ("ago",)),
    (rf"{_N_ZH}\s*天前", "n_days_zh", ("天前",)),
    (
        rf"\b(?:in\s+|over\s+|during\s+)?the\s+(?:past|last)\s+{_N_EN}\s+days\b|\b(?:past|last)\s+{_N_EN}\s+days\b",
        "past_days_en",
        ("days",),
    ),
    (rf"(?:过去|最近|近)\s*{_N_ZH}\s*天", "past_days_zh", ("天",)),
    (r"\b(?:in\s+|during\s+)?the\s+week\s+before\s+last\b", "weeks_2", _WEEK),
    (rf"\b(?:in\s+|during\s+)?(?:the\s+)?{_N_EN}\s+weeks?\s+ago\b", "n_weeks_en", _WEEK),
    (rf"{_N_ZH}\s*(?:个)?(?:周|星期|礼拜)(?:之?前)", "n_weeks_zh", _ZH_WEEK),
    (rf"\b(?:(?:on|last)\s+)?(?P<wd>{_WEEKDAY_RE})\s+(?:of\s+)?(?:the\s+)?week\s+before\s+last\b", "wd_weeks_2", _WEEK),
    (rf"\b(?:on\s+)?(?P<wd>{_WEEKDAY_RE})\s+(?:of\s+)?last\s+week\b", "wd_weeks_1", _WEEK),
    (rf"\b(?:(?:on|this)\s+)?(?P<wd>{_WEEKDAY_RE})\s+(?:of\s+)?this\s+week\b", "wd_weeks_0", _WEEK),
    (rf"\blast\s+(?P<wd>{_WEEKDAY_RE})\b", "wd_last", _WD),
    (rf"\b(?:on|this)\s+(?P<wd>{_WEEKDAY_RE})\b", "wd_recent", _WD),
    (r"(?P<w>上上|上|这|本)(?:个)?(?:周|星期|礼拜)(?P<wd>[一二三四五六日天])", "zh_wd", _ZH_WEEK),
    (r"(?<![上这本])(?:周|星期|礼拜)(?P<wd>[一二三四五六日天])", "zh_wd_recent", _ZH_WEEK),
    (r"上上(?:个)?(?:周|星期|礼拜)", "weeks_2", _ZH_WEEK),
    (
        r"\b(?:in\s+|during\s+)?(?:the\s+)?(?:last|previous|past)\s+week\b|上(?:个)?(?:周|星期|礼拜)",
        "weeks_1",
        _WEEK + _ZH_WEEK,
    ),
    (r"\b(?:in\s+|during\s+)?this\s+week\b|(?:这|本)(?:个)?(?:周|星期|礼拜)", "weeks_0", _WEEK + _ZH_WEEK),
    (r"\b(?:in\s+|during\s+)?the\s+month\s+before\s+last\b|上上(?:个)?月", "months_2", ("month", "月")),
    (rf"\b(?:in\s+|during\s+)?(?:the\s+)?{_N_EN}\s+months?\s+ago\b", "n_months_en", ("month",)),
    (rf"{_N_ZH}\s*个月(?:之?前)", "n_months_zh", ("个月",)),
    (r"\b(?:in\s+|during\s+)?(?:the\s+)?(?:last|previous|past)\s+month\b|上(?:个)?月", "months_1", ("month", "月")),
    (r"\b(?:in\s+|during\s+)?this\s+month\b|(?:这|本)(?:个)?月", "months_0", ("month", "月")),
    (r"\b(?:in\s+|during\s+)?last\s+year\b|去年", "years_1", ("year", "去年")),
    (r"\b(?:in\s+|during\s+)?this\s+year\b|今年", "years_0", ("year", "今年")),
    (r"前年", "years_2", ("前年",)),
    (
        rf"\b{_PREP}(?:(?P<mn>{_MONTH_RE})\.?\s+(?P<d>\d{{1,2}})(?:st|nd|rd|th)?|(?P<d2>\d{{1,2}})(?:st|nd|rd|th)?\s+(?:of\s+)?(?P<mn2>{_MONTH_RE}))\b(?:,?\s+(?P<y>\d{{4}})\b)?",
        "en_day",
        _MN,
    ),
    (
        rf"\b(?:in|during|since|after|before|until|of|last|this)\s+(?P<mn>{_MONTH_RE})\b(?!\s+\d{{1,2}}\b)(?:\s+(?P<y>\d{{4}})\b)?",
        "en_month",
        _MN,
    ),
    (r"\b(?:in|during)\s+(?P<y>(?:19|20)\d{2})\b", "year", ("19", "20")),
    (
        r"\b(?:the\s+)?(?:last|latest|most\s+recent)\s+time\b|\bmost\s+recent(?:ly)?\b"
        r"|最近一次|最后一次|上一次|上次",
        "latest",
        ("time", "recent", "次"),
    ),
]
_COMPILED: dict[int, re.Pattern[str]] = {}  # rule index → its pattern, compiled on first use
# Any time phrase holds a digit, one of these characters or one of these words (or both
# "last" and "time"): a question without any (most of them) is turned down by a set lookup,
# and compiling the table (~10–30 ms on this box) is paid only when it may be needed.
_HINT_CHARS = frozenset("天周月年昨今前次期拜近号日")
_HINT_WORDS = (
    frozenset(
        [
            "ago",
            "yesterday",
            "today",
            "tonight",
            "day",
            "days",
            "week",
            "weeks",
            "weekend",
            "month",
            "months",
            "year",
            "years",
            "recent",
            "recently",
            "latest",
        ]
    )
    | frozenset(_MONTHS)
    | frozenset(_WEEKDAYS)
)
_WORD = re.compile(r"[a-z]+")


def cue_text(text: str) -> str:
    """``text`` as the rules' cues are looked for in it: case-folded as ``re.I`` matches
    (``ſ`` → s, the Kelvin sign → k), the dotless ``ı`` (which ``re.I`` takes for i) as i."""
    return text.casefold().replace("ı", "i")


def may_name_time(text: str) -> bool:
    """False when ``text`` cannot hold a time phrase :func:`read` resolves (cheap)."""
    if any(c.isdigit() or c in _HINT_CHARS for c in text):
        return True
    words = set(_WORD.findall(text.lower()))
    return not _HINT_WORDS.isdisjoint(words) or ("last" in words and "time" in words)


# The open side of a window, read around a phrase found (and ``--since``/``--until``'s
# dates): patterns ``re`` compiles (and caches) on first use, so a question that names no
# time compiles none of them (issue 36 item 6: a one-shot search compiles what it needs).
_SINCE = r"(?i)\b(since|after)\s*$"
_BEFORE = r"(?i)\b(before|until|till)\s*$"
_LEAD = r"(?i)^(since|after|before|until)\b"
_ZH_SINCE = r"^\s*(?:以来|之后|以后)"
_ZH_BEFORE = r"^\s*(?:之前|以前)"
_ZH_FROM = r"(自从|自|从)\s*$"
_DATE_ARG = r"^\s*(\d{4})-(\d{1,2})(?:-(\d{1,2}))?\s*$"


def _zh_number(text: str) -> int:
    """``"3"``, ``"三"``, ``"十二"``, ``"二十"`` → the integer."""
    if text.isdigit():
        return int(text)
    if "十" in text:
        tens, _, ones = text.partition("十")
        return (_ZH_DIGIT.get(tens, 1) if tens else 1) * 10 + (_ZH_DIGIT.get(ones, 0) if ones else 0)
    return _ZH_DIGIT.get(text, 0)


def _en_number(text: str) -> int:
    t = " ".join(text.lower().split())
    if t.isdigit():
        return int(t)
    return _EN_NUM.get(t.removeprefix("a ").strip(), _EN_NUM.get(t, 1))


def _monday(day: date) -> date:
    return day - timedelta(days=day.weekday())


def _week(today: date, back: int) -> tuple[date, date]:
    start = _monday(today) - timedelta(weeks=back)
    return start, start + timedelta(days=6)


def _month(year: int, month: int) -> tuple[date, date]:
    first = date(year, month, 1)
    nxt = date(year + (month == 12), month % 12 + 1, 1)
    return first, nxt - timedelta(days=1)


def _months_back(today: date, back: int) -> tuple[date, date]:
    index = today.year * 12 + today.month - 1 - back
    return _month(index // 12, index % 12 + 1)


def _latest_month(today: date, month: int, year: str | None) -> tuple[date, date]:
    """The month ``month`` of ``year``, else the latest one not after today."""
    y = int(year) if year else (today.year if month <= today.month else today.year - 1)
    return _month(y, month)


def _latest_day(today: date, month: int, day: int, year: str | None) -> tuple[date, date]:
    y = int(year) if year else today.year
    d = date(y, month, day)
    if not year and d > today:
        d = date(y - 1, month, day)
    return d, d


def _weekday_before(today: date, weekday: int, strictly: bool) -> date:
    back = (today.weekday() - weekday) % 7
    if back == 0 and strictly:
        back = 7
    return today - timedelta(days=back)


def _resolve(kind: str, m: re.Match[str], today: date) -> tuple[date, date, bool]:
    """(start, end, latest) for one matched phrase; ValueError for an impossible date."""
    g = m.groupdict()
    n_en = next((x for x in m.groups() if x and not x.isspace()), "1") if kind.startswith(("n_", "past_days")) else "1"
    if kind.startswith("days_"):
        d = today - timedelta(days=int(kind[5:]))
        return d, d, False
    if kind == "n_days_en" or kind == "n_days_zh":
        d = today - timedelta(days=_en_number(n_en) if kind.endswith("en") else _zh_number(n_en))
        return d, d, False
    if kind == "past_days_en" or kind == "past_days_zh":
        n = _en_number(n_en) if kind.endswith("en") else _zh_number(n_en)
        return today - timedelta(days=max(n - 1, 0)), today, False
    if kind.startswith("weeks_"):
        return (*_week(today, int(kind[6:])), False)
    if kind == "n_weeks_en" or kind == "n_weeks_zh":
        return (*_week(today, _en_number(n_en) if kind.endswith("en") else _zh_number(n_en)), False)
    if kind.startswith("wd_weeks_"):
        start, _ = _week(today, int(kind[9:]))
        d = start + timedelta(days=_WEEKDAYS[g["wd"].lower()])
        return d, d, False
    if kind in ("wd_last", "wd_recent"):
        d = _weekday_before(today, _WEEKDAYS[g["wd"].lower()], strictly=kind == "wd_last")
        return d, d, False
    if kind == "zh_wd":
        back = {"上上": 2, "上": 1, "这": 0, "本": 0}[g["w"]]
        start, _ = _week(today, back)
        d = start + timedelta(days=_ZH_WEEKDAY[g["wd"]])
        return d, d, False
    if kind == "zh_wd_recent":
        d = _weekday_before(today, _ZH_WEEKDAY[g["wd"]], strictly=False)
        return d, d, False
    if kind.startswith("months_"):
        return (*_months_back(today, int(kind[7:])), False)
    if kind == "n_months_en" or kind == "n_months_zh":
        return (*_months_back(today, _en_number(n_en) if kind.endswith("en") else _zh_number(n_en)), False)
    if kind.startswith("years_"):
        y = today.year - int(kind[6:])
        return date(y, 1, 1), date(y, 12, 31), False
    if kind == "year":
        return date(int(g["y"]), 1, 1), date(int(g["y"]), 12, 31), False
    if kind == "iso_day":
        d = date(int(g["y"]), int(g["m"]), int(g["d"]))
        return d, d, False
    if kind == "iso_month":
        return (*_month(int(g["y"]), int(g["m"])), False)
    if kind == "zh_ymd":
        if g["d"]:
            d = date(int(g["y"]), _zh_number(g["m"]), _zh_number(g["d"]))
            return d, d, False
        return (*_month(int(g["y"]), _zh_number(g["m"])), False)
    if kind == "zh_md":
        return (*_latest_day(today, _zh_number(g["m"]), _zh_number(g["d"]), None), False)
    if kind == "zh_month":
        return (*_latest_month(today, _zh_number(g["m"]), None), False)
    if kind == "en_day":
        month = _MONTHS[(g["mn"] or g["mn2"]).lower()]
        return (*_latest_day(today, month, int(g["d"] or g["d2"]), g["y"]), False)
    if kind == "en_month":
        return (*_latest_month(today, _MONTHS[g["mn"].lower()], g["y"]), False)
    if kind == "latest":
        return date.min, today, True
    raise ValueError(kind)


def read(query: str, today: date) -> Reading:
    """The first time phrase of ``query`` (the earliest match; at equal places the longer
    rule first), resolved against ``today``, and the question without it. "since …",
    "before …", "…以来", "…之前" open the window on one side. A phrase that names an
    impossible day (2026-02-30) is left in the text and names no window."""
    text = query[:MAX_QUERY]
    if not may_name_time(text):
        return Reading(None, query)
    folded = cue_text(text)
    best: tuple[int, int, str, re.Match[str]] | None = None
    for i, (pattern, kind, cues) in enumerate(_RULES):
        if not any(c in folded for c in cues):
            continue
        rx = _COMPILED.get(i)
        if rx is None:
            rx = _COMPILED[i] = re.compile(pattern, re.I)
        m = rx.search(text)
        if m is not None and (best is None or m.start() < best[0] or (m.start() == best[0] and i < best[1])):
            best = (m.start(), i, kind, m)
    if best is None:
        return Reading(None, query)
    _, _, kind, m = best
    try:
        start, end, latest = _resolve(kind, m, today)
    except (ValueError, OverflowError, KeyError):  # KeyError: a name re.I matched through an odd letter ("ſaturday")
        return Reading(None, query)
    head, tail = text[: m.start()], text[m.end() :]
    phrase = " ".join(m.group(0).split())
    lead = re.match(_LEAD, phrase)
    side = lead.group(1).lower() if lead else ""
    for side_rx, word in ((_SINCE, None), (_BEFORE, None), (_ZH_FROM, "since")):
        found = re.search(side_rx, head)
        if not side and found:
            side = word or found.group(1).lower()
            head = head[: found.start()]
    for side_rx, word in ((_ZH_SINCE, "since"), (_ZH_BEFORE, "before")):
        if not side and re.match(side_rx, tail):
            side, tail = word, re.sub(side_rx, "", tail)
    if side in ("since", "after") and end < date.max:
        start, end = (start if side == "since" else end + timedelta(days=1)), max(end, today)
    elif side in ("before", "until", "till") and start > date.min:
        start, end = date.min, (start - timedelta(days=1) if side == "before" else end)
    if side and not lead:
        phrase = f"{side} {phrase}"
    rest = " ".join(f"{head} {tail}".split()).strip(" ,;?？，。").removeprefix("的")
    return Reading(Window(start, min(end, date.max), phrase, latest), rest)


def bound(text: str, today: date, *, upper: bool) -> date:
    """A ``--since`` / ``--until`` value as a day: ``YYYY-MM-DD``, ``YYYY-MM`` (its first or
    last day) or a phrase :func:`read` understands ("last week": its Monday or Sunday).
    ValueError, naming the value, for anything else."""
    value = text.strip()[:100]
    m = re.match(_DATE_ARG, value)
    try:
        if m:
            y, mo, d = int(m.group(1)), int(m.group(2)), m.group(3)
            if d:
                return date(y, mo, int(d))
            first, last = _month(y, mo)
            return last if upper else first
    except ValueError:
        raise ValueError(f"{value!r} is not a date (YYYY-MM-DD)") from None
    w = read(value, today).window
    if w is None or w.latest:
        raise ValueError(f"{value!r} is not a date: give YYYY-MM-DD, YYYY-MM or a phrase such as 'last week'")
    return w.end if upper else w.start


def explicit(since: str | None, until: str | None, today: date) -> Window | None:
    """The window ``--since``/``--until`` name (inclusive both ends); None when neither is given.
    ValueError when a value is not a date or the window is empty."""
    if not since and not until:
        return None
    start = bound(since, today, upper=False) if since else date.min
    end = bound(until, today, upper=True) if until else date.max
    if start > end:
        raise ValueError(f"--since {since} is after --until {until}")
    words = " ".join(x for x in (f"--since {since}" if since else "", f"--until {until}" if until else "") if x)
    return Window(start, end, words)
