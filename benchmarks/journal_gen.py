"""Deterministic daily journals in English and Chinese, for the cost curve (issue 37).

    python benchmarks/journal_gen.py OUT --turns 10000 [--per-day 100] [--seed 37]
    → OUT/memory (an empty store) and OUT/project/.memsearch/memory/YYYY-MM-DD.md

Each day is memsearch's journal layout (``# date``, ``## Session HH:MM``, one ``### HH:MM``
turn per exchange with its session/turn comment), and each turn is one chunk of ours. About
a third of the turns are in Chinese. The words vary (projects, tools, files, errors, people,
numbers) so that the keyword index sees a realistic vocabulary, not a handful of repeated
sentences. The same arguments always write the same bytes (a test checks it).
"""

from __future__ import annotations

import argparse
import random
from datetime import date, timedelta
from pathlib import Path

PROJECTS = [
    "alpha", "beta", "gamma", "atlas", "orion", "nova", "zephyr", "kepler", "lyra", "vega",
    "billing", "checkout", "search-api", "ingest", "webapp", "mobile", "payments", "auth",
]  # fmt: skip
TOOLS = [
    "PostgreSQL", "SQLite", "Redis", "Kafka", "pytest", "GitHub Actions", "Milvus", "DuckDB",
    "ruff", "uv", "Terraform", "nginx", "gRPC", "Textual", "tmux", "Docker", "Kubernetes",
    "Celery", "FastAPI", "React", "webpack", "mypy", "Prometheus", "Grafana", "S3", "OpenSearch",
]  # fmt: skip
FILES = [
    "src/app.py", "src/db/models.py", "api/routes.ts", "config/settings.toml", "Makefile",
    "tests/test_login.py", "deploy/values.yaml", "docs/README.md", "cmd/server/main.go",
    "lib/cache.rs", "migrations/0042_add_index.sql", ".github/workflows/ci.yml",
]  # fmt: skip
ERRORS = [
    "a deadlock on the orders table", "an off-by-one in pagination", "a race in the cache warm-up",
    "a missing timezone in timestamps", "an expired TLS certificate", "a memory leak in the worker",
    "a flaky login test", "a slow N+1 query", "a wrong retry backoff", "a stale lock file",
]  # fmt: skip
PEOPLE = ["Alice", "Bob", "Carol", "Dmitri", "Eve", "Farah", "Gus", "Hana", "Ivan", "Jun"]
EN_ASK = [
    "Why does {p} fail with {e}?",
    "Can you refactor {f} so that {p} uses {t}?",
    "What did we decide about {t} for {p}?",
    "Please add a test for {e} in {f}.",
    "How do I roll back the {p} deploy?",
    "Summarise what {who} changed in {f} yesterday.",
    "Is {t} fast enough for {n} requests per second in {p}?",
]
EN_DO = [
    "Found {e} in {f}; fixed it and added a regression test.",
    "Switched {p} from {t} to {t2}; latency went from {n} ms to {m} ms.",
    "{who} prefers {t} for {p}; noted it in the decisions file.",
    "The {p} CI job now runs {t} before the tests (about {m} s).",
    "Rolled back {p} by re-tagging the previous image; {who} confirmed.",
    "Kept {t} for {p}: migrating would cost {n} hours for little gain.",
    "Opened an issue about {e}; the workaround is to pin {t} to {v}.",
    "Read {f}: the retry loop sleeps {m} ms and gives up after {n} tries.",
]
ZH_ASK = [
    "为什么{p}会出现{e}？",
    "能把{f}重构一下，让{p}改用{t}吗？",
    "我们之前对{p}的{t}是怎么决定的？",
    "请给{f}里的{e}加一个测试。",
    "{p}的部署怎么回滚？",
    "{who}昨天在{f}里改了什么？",
]
ZH_DO = [
    "在{f}里找到了{e}，已修复并加了回归测试。",
    "把{p}从{t}换成了{t2}，延迟从{n}毫秒降到{m}毫秒。",
    "{who}更喜欢在{p}里用{t}，已记录到决策文件。",
    "{p}的持续集成现在先跑{t}，大约{m}秒。",
    "通过重新标记上一个镜像回滚了{p}，{who}已确认。",
    "{p}继续用{t}：迁移要{n}小时，收益不大。",
    "关于{e}开了一个问题；临时办法是把{t}固定在{v}版本。",
]
ZH_ERRORS = [
    "订单表死锁",
    "分页差一错误",
    "缓存预热竞争",
    "时间戳缺少时区",
    "证书过期",
    "工作进程内存泄漏",
    "登录测试不稳定",
]


def _fill(rng: random.Random, template: str, zh: bool) -> str:
    t, t2 = rng.sample(TOOLS, 2)
    return template.format(
        p=rng.choice(PROJECTS),
        t=t,
        t2=t2,
        f=rng.choice(FILES),
        e=rng.choice(ZH_ERRORS if zh else ERRORS),
        who=rng.choice(PEOPLE),
        n=rng.randint(2, 900),
        m=rng.randint(1, 120),
        v=f"{rng.randint(1, 9)}.{rng.randint(0, 20)}",
    )


def turn_lines(rng: random.Random, day: int, session: int, turn: int, hh: int, mm: int) -> list[str]:
    """One ``### HH:MM`` turn: the question and two to four lines of what was done."""
    zh = rng.random() < 0.33
    ask, do = (ZH_ASK, ZH_DO) if zh else (EN_ASK, EN_DO)
    lines = [
        f"### {hh:02d}:{mm:02d}",
        f"<!-- session:s{day}-{session} turn:t{turn} transcript:/home/u/.claude/projects/p/s{day}-{session}.jsonl -->",
        f"- {'用户' if zh else 'User'}: {_fill(rng, rng.choice(ask), zh)}",
    ]
    lines += [f"- {_fill(rng, rng.choice(do), zh)}" for _ in range(rng.randint(2, 4))]
    return [*lines, ""]


def day_text(rng: random.Random, day: int, when: date, turns: int) -> str:
    """One journal day of ``turns`` turns over sessions of up to 25 turns."""
    lines = [f"# {when.isoformat()}", ""]
    session = 0
    for t in range(turns):
        if t % 25 == 0:
            lines += [f"## Session {8 + session:02d}:00", ""]
            session += 1
        minute = t * 7
        lines += turn_lines(rng, day, session, t, 8 + minute // 60 % 16, minute % 60)
    return "\n".join(lines)


def generate(out: Path, turns: int, per_day: int = 100, seed: int = 37) -> int:
    """Write ``turns`` turns, ``per_day`` a day, ending 2026-11-30; returns the number of days."""
    from memsearch_tui.engine.store.store import Store

    Store(out / "memory").init()
    journals = out / "project" / ".memsearch" / "memory"
    journals.mkdir(parents=True, exist_ok=True)
    rng = random.Random(seed)
    end = date(2026, 11, 30)
    days = (turns + per_day - 1) // per_day
    for d in range(days):
        n = min(per_day, turns - d * per_day)
        when = end - timedelta(days=d)
        (journals / f"{when.isoformat()}.md").write_text(day_text(rng, d, when, n), encoding="utf-8")
    return days


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("out", type=Path)
    ap.add_argument("--turns", type=int, default=10_000)
    ap.add_argument("--per-day", type=int, default=100)
    ap.add_argument("--seed", type=int, default=37)
    a = ap.parse_args()
    days = generate(a.out, a.turns, a.per_day, a.seed)
    print(f"{a.out}: {a.turns} turns over {days} journal days")


if __name__ == "__main__":
    main()
