"""A labelled set of time-scoped questions (issue 36, item 4) over generated journals.

Four months of journal days (2026-08-03 … 2026-11-29) where the same seven topics come back
on many days, each turn written in English and Chinese, as agents' daily notes do. A
question names a topic and a time ("what did we decide about the release last week?",
"上周关于发布的决定是什么？"); its answer is any journal day in that time that talks about
the topic. The windows are written out by hand for ``NOW`` (a Monday), not computed by
the resolver under test. Used by ``tests/search/test_time_windows.py`` and
``benchmarks/time_quality.py``.
"""

from __future__ import annotations

from datetime import date, timedelta
from pathlib import Path

NOW = "2026-11-30T12:00:00Z"  # a Monday
TODAY = date(2026, 11, 30)
FIRST = date(2026, 8, 3)

# topic: (English line, Chinese line, English question words, Chinese question words)
TOPICS = {
    "release": (
        "Decided to ship release {n}.{d} of the mobile app after the smoke tests passed.",
        "决定在冒烟测试通过后发布移动应用 {n}.{d} 版本。",
        "what did we decide about the release",
        "关于发布做了什么决定",
    ),
    "database": (
        "Migrated the orders database schema (step {n}) and added an index on customer_id.",
        "迁移了订单数据库的表结构（第 {n} 步），给 customer_id 加了索引。",
        "what changed in the orders database",
        "订单数据库改了什么",
    ),
    "oncall": (
        "On-call handover: {d} pages overnight, the payment webhook alarm fired twice.",
        "值班交接：夜里告警 {d} 次，支付回调的告警响了两次。",
        "how did the on-call handover go",
        "值班交接情况怎么样",
    ),
    "flaky": (
        "Chased the flaky checkout test again; run {n} failed on a timing race.",
        "又排查了结账流程里不稳定的测试，第 {n} 次运行因为时序竞争失败。",
        "what happened with the flaky checkout test",
        "结账流程不稳定的测试怎么样了",
    ),
    "design": (
        "Design review of the settings page: agreed on {d} tabs and a dark theme.",
        "设置页面的设计评审：确定了 {d} 个标签页和深色主题。",
        "what did the design review of the settings page agree",
        "设置页面设计评审定了什么",
    ),
    "cost": (
        "Cloud bill review: storage costs up {d} percent, moved logs to cold storage.",
        "云账单复盘：存储费用上涨了百分之 {d}，把日志挪到了冷存储。",
        "what did the cloud bill review find",
        "云账单复盘发现了什么",
    ),
    "hiring": (
        "Interviewed backend candidate number {n}; strong on Go, weak on SQL.",
        "面试了第 {n} 位后端候选人，Go 很扎实，SQL 偏弱。",
        "how did the backend interview go",
        "后端候选人面试得怎么样",
    ),
}
NAMES = list(TOPICS)


def topics_on(day: date) -> list[str]:
    """The topics a day's journal talks about (none on a few days: not every day is written)."""
    i = (day - FIRST).days
    if i % 11 == 10:
        return []
    first, second = NAMES[i % 7], NAMES[(i * 5 + 2) % 7]
    return [first] if first == second else [first, second]


def days() -> list[date]:
    out, d = [], FIRST
    while d < TODAY:
        if topics_on(d):
            out.append(d)
        d += timedelta(days=1)
    return out


def journal(day: date) -> str:
    i = (day - FIRST).days
    lines = [f"# {day.isoformat()}", "", "## Session 09:00", ""]
    for t, topic in enumerate(topics_on(day)):
        en, zh, _, _ = TOPICS[topic]
        n, d = i + 1, (i * 7) % 30 + 2
        lines += [f"### {9 + t * 2:02d}:15", f"- {en.format(n=n, d=d)}", f"- {zh.format(n=n, d=d)}", ""]
        if i % 3 == 0:  # some days dwell on a topic: more words for it than the asked-for day has
            lines += [
                f"### {10 + t * 2:02d}:40",
                f"- More on it: {en.format(n=n, d=d)}",
                f"- 补充：{zh.format(n=n, d=d)}",
                "",
            ]
    lines += ["### 17:30", "- Wrote the daily summary.", "- 写了每日总结。", ""]
    return "\n".join(lines)


def write(base: Path) -> tuple[Path, Path]:
    """(memory_root, project) under ``base``: an empty store and the journal days."""
    root = base / "memory"
    root.mkdir(parents=True)
    (root / "INDEX.md").write_text("| name | description |\n|---|---|\n", encoding="utf-8")
    project = base / "proj"
    mem = project / ".memsearch" / "memory"
    mem.mkdir(parents=True)
    for d in days():
        (mem / f"{d.isoformat()}.md").write_text(journal(d), encoding="utf-8")
    return root, project


def _span(a: str, b: str | None = None) -> tuple[date, date]:
    start = date.fromisoformat(a)
    return start, date.fromisoformat(b) if b else start


LATEST = "latest"
# (English phrase, Chinese phrase, the window by hand for NOW; LATEST: the newest day of the topic)
PHRASES: list[tuple[str, str, tuple[date, date] | str]] = [
    ("yesterday", "昨天", _span("2026-11-29")),
    ("two days ago", "前天", _span("2026-11-28")),
    ("last week", "上周", _span("2026-11-23", "2026-11-29")),
    ("the week before last", "上上周", _span("2026-11-16", "2026-11-22")),
    ("three weeks ago", "三周前", _span("2026-11-09", "2026-11-15")),
    ("in October", "上个月", _span("2026-10-01", "2026-10-31")),
    ("in September", "9月份", _span("2026-09-01", "2026-09-30")),
    ("on 2026-09-16", "2026年9月16日", _span("2026-09-16")),
    ("last Monday", "上周一", _span("2026-11-23")),
    ("last Friday", "上周五", _span("2026-11-27")),
    ("on Wednesday of last week", "上周三", _span("2026-11-25")),
    ("on Sunday of the week before last", "上上周日", _span("2026-11-22")),
    ("in August", "8月份", _span("2026-08-01", "2026-08-31")),
    ("the last time", "最近一次", LATEST),
]


def answers(topic: str, window: tuple[date, date] | str) -> set[date]:
    """The days that answer a question on ``topic`` in ``window``."""
    talk = [d for d in days() if topic in topics_on(d)]
    if window == LATEST:
        return {max(talk)}
    start, end = window
    return {d for d in talk if start <= d <= end}


def questions() -> list[tuple[str, str, set[date]]]:
    """(language, question, the days that answer it): two topics per phrase and language,
    the ones talked about in the window (a question with no answer is not asked)."""
    out: list[tuple[str, str, set[date]]] = []
    for p, (en, zh, window) in enumerate(PHRASES):
        for lang in ("en", "zh"):
            asked = 0
            for j in range(len(NAMES)):
                topic = NAMES[(p * 3 + j + (lang == "zh")) % len(NAMES)]
                ok = answers(topic, window)
                if not ok or asked == 2:
                    continue
                _, _, qen, qzh = TOPICS[topic]
                q = f"{qen} {en}?" if lang == "en" else f"{zh}{qzh}？"
                out.append((lang, q, ok))
                asked += 1
    return out
