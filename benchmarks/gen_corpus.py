"""Generate a benchmark corpus: a three-tier store and memsearch journals.

    python benchmarks/gen_corpus.py --entries 10000 --days 365 OUT
    → OUT/memory (store: nested categories, English and Chinese bodies, indexes built)
      OUT/project/.memsearch/memory/YYYY-MM-DD.md (journals)

``--big-category N`` puts N of the entries in one category (``inbox``) for the ls /
lazy-expand targets. Deterministic for a given --seed. Writes files directly (this is a
fixture generator, not a test of add) and then builds the indexes with the real store.
"""

from __future__ import annotations

import argparse
import random
import sys
from datetime import date, timedelta
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from memsearch_tui.engine.store.store import Store

TOPICS_EN = [
    ("database", "We chose {x} for the {p} service because it handles concurrent writes and the team knows it."),
    ("deploy", "Deploys of {p} go through the {x} pipeline; roll back by re-tagging the previous image."),
    ("testing", "The {p} test suite uses {x}; flaky tests are quarantined, never skipped silently."),
    ("preference", "The user prefers {x} and short functions with type hints in {p}."),
    ("incident", "On the {p} outage the root cause was {x}; we added an alert and a runbook."),
    ("api", "The {p} API paginates with cursors; {x} clients must pass the cursor back unchanged."),
]
TOPICS_ZH = [
    ("数据库", "我们为{p}服务选择了{x}，因为它能处理并发写入，团队也熟悉它。"),
    ("部署", "{p}的部署通过{x}流水线进行；回滚时重新标记上一个镜像。"),
    ("偏好", "用户喜欢{x}，在{p}中偏好简洁的函数和类型注解。"),
    ("事故", "{p}故障的根本原因是{x}；我们增加了告警和处理手册。"),
]
THINGS = [
    "PostgreSQL",
    "SQLite",
    "Redis",
    "Kafka",
    "pytest",
    "GitHub Actions",
    "Milvus",
    "DuckDB",
    "ruff",
    "uv",
    "Terraform",
    "nginx",
    "gRPC",
    "Textual",
    "tmux",
    "vim",
]
PROJECTS = ["alpha", "beta", "gamma", "delta", "atlas", "orion", "nova", "zephyr", "kepler", "lyra"]
CATEGORIES = [
    "projects/{p}",
    "projects/{p}/decisions",
    "people",
    "preferences",
    "tools/{x}",
    "incidents/{y}",
    "知识/{p}",
    "偏好/编码",
]


def entry_text(rng: random.Random, i: int, day: date) -> tuple[str, str, str]:
    p, x = rng.choice(PROJECTS), rng.choice(THINGS)
    if rng.random() < 0.25:
        topic, tmpl = rng.choice(TOPICS_ZH)
        title = f"{p} {topic} {i}"
        sentences = [tmpl.format(p=p, x=rng.choice(THINGS)) for _ in range(rng.randint(2, 6))]
        body = "".join(sentences)
    else:
        topic, tmpl = rng.choice(TOPICS_EN)
        title = f"{p.title()} {topic} note {i}"
        sentences = [tmpl.format(p=p, x=rng.choice(THINGS)) for _ in range(rng.randint(2, 8))]
        body = " ".join(sentences)
    body = f"{body}\n\n- decided on {day.isoformat()}\n- ref #{i}\n"
    cat = rng.choice(CATEGORIES).format(p=p, x=x.lower().replace(" ", "-"), y=day.year)
    return cat, title, body


def write_entry(
    root: Path, cat: str, slug: str, title: str, body: str, day: date, status: str, rng: random.Random
) -> None:
    folder = root / cat / ("archived" if status == "archived" else "")
    folder.mkdir(parents=True, exist_ok=True)
    tags = rng.sample(["db", "ops", "ui", "perf", "security", "team", "中文"], k=2)
    fm = (
        f"---\ntitle: {title}\nstatus: {status}\ncreated: {day.isoformat()}\nupdated: {day.isoformat()}\n"
        f"version: 1\ntags: [{', '.join(tags)}]\nimportance: {rng.random():.2f}\nrelated: []\n---\n"
    )
    (folder / f"{slug}.md").write_text(fm + body, encoding="utf-8")


def gen_store(root: Path, n: int, big: int, seed: int) -> None:
    rng = random.Random(seed)
    Store(root).init()
    start = date(2025, 1, 1)
    for i in range(n):
        day = start + timedelta(days=rng.randint(0, 700))
        cat, title, body = entry_text(rng, i, day)
        if i < big:
            cat = "inbox"
        status = "archived" if rng.random() < 0.1 else "active"
        write_entry(root, cat, f"note-{i}", title, body, day, status, rng)
    Store(root).rebuild_index()


def gen_journals(memdir: Path, days: int, seed: int) -> None:
    rng = random.Random(seed + 1)
    memdir.mkdir(parents=True, exist_ok=True)
    end = date(2026, 11, 30)
    for d in range(days):
        day = end - timedelta(days=d)
        lines = [f"# {day.isoformat()}", ""]
        for s in range(rng.randint(1, 3)):
            hh = 9 + 3 * s
            lines += [f"## Session {hh:02d}:00", ""]
            for t in range(rng.randint(2, 5)):
                p, x = rng.choice(PROJECTS), rng.choice(THINGS)
                lines += [
                    f"### {hh:02d}:{10 * t:02d}",
                    f"<!-- session:s{d}-{s} turn:t{t} transcript:/home/u/.claude/projects/{p}/s{d}.jsonl -->",
                    f"- Worked on {p}: switched the cache to {x}.",
                    f"- Open question: should {p} keep {rng.choice(THINGS)}?",
                    "",
                ]
        (memdir / f"{day.isoformat()}.md").write_text("\n".join(lines), encoding="utf-8")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("out", type=Path)
    ap.add_argument("--entries", type=int, default=10_000)
    ap.add_argument("--days", type=int, default=365)
    ap.add_argument("--big-category", type=int, default=0, help="entries put in the single category 'inbox'")
    ap.add_argument("--seed", type=int, default=7)
    a = ap.parse_args()
    gen_store(a.out / "memory", a.entries, a.big_category, a.seed)
    gen_journals(a.out / "project" / ".memsearch" / "memory", a.days, a.seed)
    print(f"{a.out}: {a.entries} entries, {a.days} journal days")


if __name__ == "__main__":
    main()
