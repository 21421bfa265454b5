"""Seed a demo memory that shows every pane of the app with something in it.

``python -m memsearch_tui.demo DIR`` creates ``DIR/memory`` (the three-tier store) and
``DIR/project/.memsearch`` (journals over several weeks, PROJECT.md, USER.md, maintenance
state and a pending proposal). Everything goes through the engine's own APIs, with the
engine clock frozen (``MEMSEARCH_TUI_NOW``) so two runs produce the same store.

Idempotent: each part checks whether it is already there, so running it again on an
existing DIR adds nothing twice and never overwrites what a person changed.
"""

from __future__ import annotations

import json
import os
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import date, timedelta
from pathlib import Path
from typing import Any

from memsearch_tui.engine.core import clock
from memsearch_tui.engine.core.atomic import atomic_write_text
from memsearch_tui.engine.core.errors import MemsearchError
from memsearch_tui.engine.store.store import Change, Store

DEMO_NOW = "2026-11-30T09:00:00Z"
DEMO_TODAY = date(2026, 11, 30)
DEMO_PROPOSAL_ID = "20261130-083000-project-review-demo"


@contextmanager
def frozen(day: date | str) -> Iterator[None]:
    """Run engine calls as if it were ``day`` (09:00 UTC), restoring the clock after."""
    old = os.environ.get(clock.NOW_ENV)
    stamp = day if isinstance(day, str) else f"{day.isoformat()}T09:00:00Z"
    os.environ[clock.NOW_ENV] = stamp
    try:
        yield
    finally:
        if old is None:
            os.environ.pop(clock.NOW_ENV, None)
        else:
            os.environ[clock.NOW_ENV] = old


# (category, title, days ago, tags, importance, related titles, body)
ENTRIES: list[tuple[str, str, int, list[str], float | None, list[str], str]] = [
    (
        "projects/web",
        "Alpha dashboard",
        3,
        ["react", "dashboard"],
        0.8,
        ["Deploy checklist"],
        "# Alpha dashboard\n\nThe customer dashboard for project Alpha. React 19 + Vite, served from the\n"
        "`web/` folder. Charts use ECharts because recharts was too slow above 10k points.\n\n"
        "## Open questions\n\n- Move auth to the shared gateway?\n- Dark mode toggle persists in localStorage.\n",
    ),
    (
        "projects/web",
        "Deploy checklist",
        9,
        ["deploy", "ops"],
        0.9,
        [],
        "# Deploy checklist\n\n1. `npm run build` and check the bundle size stays under 400 kB.\n"
        "2. Run the smoke tests against staging.\n3. Tag the release `vYYYY.MM.DD` and push the tag.\n"
        "4. Watch the error dashboard for 15 minutes.\n",
    ),
    (
        "projects/web",
        "CSS conventions",
        40,
        ["css", "style"],
        0.4,
        [],
        "Use CSS modules, no global class names. Spacing comes from the 4px scale tokens.\n",
    ),
    (
        "projects/cli",
        "Release process",
        20,
        ["release", "pypi"],
        0.7,
        [],
        "Releases go through the GitHub workflow `release.yml`; never upload to PyPI by hand.\n"
        "The changelog is generated from merged PR titles.\n",
    ),
    (
        "projects/cli",
        "Typer quirks",
        15,
        ["python", "typer"],
        0.5,
        [],
        "Typer vendors click as `typer._click` since 0.29: catch its UsageError, not click's.\n",
    ),
    (
        "projects/data/pipelines",
        "Nightly ETL",
        12,
        ["etl", "airflow"],
        0.6,
        [],
        "The nightly ETL runs at 02:00 UTC on Airflow. A failed run retries twice, then pages on-call.\n",
    ),
    (
        "projects/data/pipelines",
        "Parquet schema rules",
        130,
        ["parquet", "schema"],
        0.3,
        [],
        "Never change a column type in place: add a new column and backfill it.\n",
    ),
    (
        "decisions",
        "Use SQLite for the local cache",
        30,
        ["sqlite", "cache"],
        0.8,
        [],
        "We keep the local cache in SQLite (WAL mode) instead of JSON files: concurrent readers,\n"
        "atomic writes and FTS5 for free.\n",
    ),
    (
        "decisions",
        "Postgres 16 in production",
        60,
        ["postgres", "database"],
        0.9,
        [],
        "Production runs Postgres 16 with logical replication to the analytics replica.\n",
    ),
    (
        "decisions",
        "Old logging library",
        200,
        ["logging"],
        0.2,
        [],
        "We used loguru for a while; it was replaced by structlog in the spring.\n",
    ),
    (
        "preferences",
        "Code review style",
        5,
        ["review", "style"],
        0.7,
        [],
        "Prefer small PRs (< 400 lines). Comments that are nits start with `nit:`.\n",
    ),
    (
        "preferences",
        "Editor setup",
        25,
        ["editor", "neovim"],
        0.3,
        [],
        "Neovim with the LSP for Python (basedpyright) and ruff on save.\n",
    ),
    ("用户偏好", "回复语言", 2, ["语言", "沟通"], 0.9, [], "用户希望用中文回复，但代码、命令和错误信息保持英文。\n"),
    ("用户偏好", "代码风格", 18, ["风格"], 0.6, [], "函数保持短小，类型注解完整；注释解释为什么，而不是做什么。\n"),
    (
        "项目/数据平台",
        "数据库迁移规范",
        35,
        ["数据库", "迁移"],
        0.8,
        [],
        "所有迁移脚本必须可回滚；上线前在预发布环境完整跑一遍。\n\n- 大表加索引使用 CONCURRENTLY。\n",
    ),
    (
        "项目/数据平台",
        "监控告警阈值",
        8,
        ["监控", "告警"],
        0.5,
        [],
        "接口 P99 超过 800 毫秒持续五分钟触发告警；错误率超过 1% 立即告警。\n",
    ),
    (
        "people",
        "Dana (platform team)",
        50,
        ["team"],
        0.4,
        [],
        "Dana owns the deploy pipeline and the staging cluster; ask her before changing CI runners.\n",
    ),
    (
        "snippets",
        "Find large files",
        70,
        ["shell"],
        0.2,
        [],
        "```sh\nfind . -type f -size +50M -exec ls -lh {} +\n```\n",
    ),
]

# A few extra entries so a category shows lazy batches in the Index pane.
BULK_CATEGORY = "notes/inbox"
BULK_COUNT = 60


def seed_store(root: Path) -> Store:
    """Create the store and its entries (skipping any that already exist)."""
    store = Store(root)
    with frozen(DEMO_TODAY - timedelta(days=220)):
        store.init()
    existing = {(s.category, s.title) for s in store.list()} | _trashed(store)
    ids: dict[str, str] = {s.title: s.id for s in store.list()}
    for category, title, ago, tags, importance, _related, body in sorted(ENTRIES, key=lambda e: -e[2]):
        if (category, title) in existing:
            continue
        with frozen(DEMO_TODAY - timedelta(days=ago)):
            entry = store.add(category, title, body, tags=tags, importance=importance)
        ids[title] = entry.id
    for _category, title, ago, _tags, _imp, related, _body in ENTRIES:
        if not related or title not in ids:
            continue
        entry = store.get(ids[title])
        wanted = [ids[r] for r in related if r in ids]
        if entry.related != wanted:
            with frozen(DEMO_TODAY - timedelta(days=ago)):
                store.update(entry.id, Change(related=wanted))
    _seed_bulk(store, existing)
    return store


def _trashed(store: Store) -> set[tuple[str, str]]:
    """(category, title) of trashed entries: a second run must not add them again."""
    from memsearch_tui.engine.store.trash_index import list_trash

    return {(i.original_id.rsplit("/", 1)[0] if "/" in i.original_id else "", i.title) for i in list_trash(store.root)}


def _seed_bulk(store: Store, existing: set[tuple[str, str]]) -> None:
    import random

    topics = ["retry policy", "cache key", "feature flag", "timeout", "migration", "rate limit"]
    words = [
        "queue",
        "worker",
        "shard",
        "replica",
        "token",
        "gateway",
        "cron",
        "lambda",
        "bucket",
        "index",
        "schema",
        "proxy",
        "canary",
        "rollout",
        "backoff",
        "quota",
        "tenant",
        "webhook",
        "ledger",
        "cursor",
        "batch",
    ]
    for i in range(BULK_COUNT):
        rng = random.Random(i)  # fixed seed per note: the same text on every run
        title = f"Inbox note {i + 1:02d}: {topics[i % len(topics)]}"
        if (BULK_CATEGORY, title) in existing:
            continue
        detail = " ".join(rng.sample(words, 8))
        body = (
            f"The {topics[i % len(topics)]} for service #{i + 1} changed after incident "
            f"{1000 + i * 7}. Context: {detail}.\n"
        )
        with frozen(DEMO_TODAY - timedelta(days=i % 45)):
            store.add(BULK_CATEGORY, title, body, tags=["inbox"])


# -- project memory (memsearch layout) ----------------------------------------------------

SESSION_TOPICS = [
    (
        "Alpha dashboard charts",
        [
            "Swapped recharts for ECharts; 10k points render in 120 ms.",
            "Kept the old chart behind a feature flag for one release.",
        ],
    ),
    (
        "Deploy pipeline",
        [
            "Staging deploy failed: missing `NODE_ENV`; added it to the workflow.",
            "Dana confirmed the staging cluster can take the new runner image.",
        ],
    ),
    (
        "Nightly ETL retries",
        [
            "ETL retried twice and paged on-call; root cause was a schema change.",
            "Agreed: never change a parquet column type in place.",
        ],
    ),
    ("数据库迁移", ["为 orders 表添加索引，使用 CONCURRENTLY 避免锁表。", "迁移脚本补充了回滚步骤。"]),
    (
        "Release 2026.11",
        ["Tagged v2026.11.0; changelog generated from PR titles.", "PyPI upload went through release.yml, as decided."],
    ),
    (
        "Code review",
        ["User asked for smaller PRs; split the refactor into three.", "Nits are prefixed with `nit:` from now on."],
    ),
]


def journal_text(day: date, n: int, transcripts: Path | None = None) -> str:
    """One day's journal in memsearch's format, with Claude Code and Codex anchors.

    With ``transcripts``, the anchors of day ``TRANSCRIPT_DAY`` point at the demo's own
    transcript file there (written by ``seed_transcript``), so ``o`` has something to open."""
    lines = [f"# {day.isoformat()}", ""]
    for s in range(1 + n % 2):
        topic, bullets = SESSION_TOPICS[(n + s) % len(SESSION_TOPICS)]
        hour = 9 + 4 * s
        sid = f"{day.strftime('%m%d')}{s}a7"
        lines += [f"## Session {hour:02d}:{n % 6 * 10:02d}", ""]
        for t in range(2):
            minute = (n % 6) * 10 + 5 * t
            lines.append(f"### {hour:02d}:{minute:02d} {topic}")
            if transcripts is not None and n == TRANSCRIPT_DAY and s == 0:
                where = _tilde(transcripts / f"{sid}.jsonl")
                lines.append(f"<!-- session:{sid} turn:{t + 1} transcript:{where} -->")
            elif (n + s) % 3 == 0:
                lines.append(f"<!-- session:{sid} rollout:~/.codex/sessions/rollout-{sid}.jsonl -->")
            else:
                lines.append(f"<!-- session:{sid} turn:{t + 1} transcript:~/.claude/projects/demo/{sid}.jsonl -->")
            lines += [f"- {b}" for b in bullets[t:] + bullets[:t]]
            lines.append("")
    return "\n".join(lines)


PROJECT_MD = """# Project notes

## Decisions
- Postgres 16 in production, SQLite (WAL) for the local cache.
- Releases only through `release.yml`.

## Active threads
- Alpha dashboard: ECharts migration behind a feature flag.

## Risks
- Nightly ETL breaks on schema changes.
"""

PROPOSED_PROJECT_MD = """# Project notes

## Decisions
- Postgres 16 in production, SQLite (WAL) for the local cache.
- Releases only through `release.yml`; changelog generated from PR titles.
- Parquet columns never change type in place (add + backfill).

## Active threads
- Alpha dashboard: ECharts is now the default; remove the recharts flag after 2026.12.
- 数据库迁移: orders 表索引已上线，回滚脚本已补齐。

## Risks
- Nightly ETL breaks on schema changes (mitigated by the parquet rule).

## Next steps
- Move auth to the shared gateway.
"""

USER_MD = """# User profile

- Prefers small PRs (< 400 lines); nits prefixed with `nit:`.
- 回复用中文，代码和命令保持英文。
- Uses Neovim with basedpyright and ruff.
"""

PROJECT_TOML = """# memsearch settings for the demo project
[plugins.claude-code.project_review]
enabled = true
min_interval_hours = 24

[plugins.claude-code.user_profile]
enabled = false
"""

JOURNAL_DAYS = 42
TRANSCRIPT_DAY = 2  # days before DEMO_TODAY: the journal day whose session has a real transcript


def _tilde(path: Path) -> str:
    """``~/…`` for a path under the home folder (readable, and the same on every machine)."""
    try:
        return "~/" + path.relative_to(Path.home()).as_posix()
    except ValueError:
        return path.as_posix()


def transcript_lines(sid: str) -> list[dict[str, Any]]:
    """A short Claude Code transcript (JSONL objects) for the demo's anchored session."""
    topic, bullets = SESSION_TOPICS[TRANSCRIPT_DAY % len(SESSION_TOPICS)]
    day = (DEMO_TODAY - timedelta(days=TRANSCRIPT_DAY)).isoformat()

    def msg(i: int, role: str, content: Any, minute: int) -> dict[str, Any]:
        return {
            "type": role,
            "uuid": f"{sid}-{i}",
            "sessionId": sid,
            "timestamp": f"{day}T09:{minute:02d}:00Z",
            "message": {"role": role, "content": content},
        }

    return [
        msg(1, "user", "The nightly ETL paged on-call again. Can you find out why it retried twice?", 20),
        msg(
            2,
            "assistant",
            [
                {"type": "text", "text": "Let me look at the last run's log."},
                {"type": "tool_use", "id": "t1", "name": "Bash", "input": {"command": "tail -n 40 logs/etl.log"}},
            ],
            20,
        ),
        msg(
            3,
            "user",
            [
                {
                    "type": "tool_result",
                    "tool_use_id": "t1",
                    "content": "ERROR parquet: column amount changed type int64 -> decimal(12,2)\nretry 1/2 …\nretry 2/2 … giving up",
                }
            ],
            21,
        ),
        msg(4, "assistant", f"{bullets[0]} The upstream export changed `amount` from int64 to decimal.", 21),
        msg(5, "user", "So what do we do so this does not happen again?", 25),
        msg(6, "assistant", f"{bullets[1]} Add a new column, backfill it, then switch readers over.", 25),
    ]


def seed_transcript(transcripts: Path) -> None:
    sid = f"{(DEMO_TODAY - timedelta(days=TRANSCRIPT_DAY)).strftime('%m%d')}0a7"
    path = transcripts / f"{sid}.jsonl"
    if not path.exists():
        text = "".join(json.dumps(o, ensure_ascii=False) + "\n" for o in transcript_lines(sid))
        atomic_write_text(path, text)


def seed_project(project: Path, transcripts: Path | None = None) -> None:
    """Journals over six weeks, PROJECT.md, USER.md, config, state and a pending proposal."""
    from memsearch_tui.engine.memsearch.project import memsearch_dir

    ms = memsearch_dir(project)
    journals = ms / "memory"
    for n in range(0, JOURNAL_DAYS, 2 if JOURNAL_DAYS > 20 else 1):
        day = DEMO_TODAY - timedelta(days=n)
        path = journals / f"{day.isoformat()}.md"
        if not path.exists():
            atomic_write_text(path, journal_text(day, n, transcripts))
    _write_once(ms / "PROJECT.md", PROJECT_MD)
    _write_once(ms / "USER.md", USER_MD)
    _write_once(project / ".memsearch.toml", PROJECT_TOML)
    _seed_state(ms, journals)
    _seed_proposal(project, ms, journals)


def _write_once(path: Path, text: str) -> None:
    if not path.exists():
        atomic_write_text(path, text)


def _seed_state(ms: Path, journals: Path) -> None:
    from memsearch_tui.engine.memsearch import state as mstate

    current, _ = mstate.load_state(ms)
    if current:
        return
    older = "sha256:" + "0" * 64
    current = {
        "claude-code.project_review": {
            "last_checked_at": "2026-11-29T18:02:11Z",
            "last_success_at": "2026-11-29T18:02:11Z",
            "last_input_digest": older,
            "last_action": "replace",
            "output_file": str(ms / "PROJECT.md"),
        },
        "claude-code.user_profile": {
            "last_checked_at": "2026-11-28T08:00:00Z",
            "last_failed_at": "2026-11-28T08:00:00Z",
            "failed_input_digest": older,
            "last_action": "error",
            "last_error": "native provider: `claude` not found on PATH",
        },
    }
    mstate.save_state(ms, current)


def _seed_proposal(project: Path, ms: Path, journals: Path) -> None:
    from memsearch_tui.engine.memsearch.state import input_digest
    from memsearch_tui.engine.review import proposals

    if proposals.list_all(project):
        return
    _seed_history(project, ms, journals)
    prop = proposals.create(
        project,
        platform="claude-code",
        task="project_review",
        target=ms / "PROJECT.md",
        content=PROPOSED_PROJECT_MD,
        input_digest=input_digest(journals),
        reason="Six weeks of sessions: parquet rule agreed, ECharts shipped, orders index migrated.",
    )
    _freeze_proposal_time(project, prop.id)


def _seed_history(project: Path, ms: Path, journals: Path) -> None:
    """Two decided proposals (one accepted, one rejected) for the proposal history."""
    from memsearch_tui.engine.memsearch.state import input_digest
    from memsearch_tui.engine.review import proposals

    digest = input_digest(journals)
    with frozen("2026-11-23T07:00:00Z"):
        acc = proposals.create(
            project,
            platform="claude-code",
            task="project_review",
            target=ms / "PROJECT.md",
            content=PROJECT_MD,
            input_digest=digest,
            reason="Postgres 16 and the release workflow settled; ETL risk noted.",
        )
        proposals.accept(project, acc.id, memory_root=None)  # type: ignore[arg-type]  # no oplog: the demo has nothing to undo
    _rename_proposal(project, acc.id, "20261123-070000-project-review-demo", "2026-11-23T07:00:00Z")
    with frozen("2026-11-20T07:00:00Z"):
        rej = proposals.create(
            project,
            platform="claude-code",
            task="user_profile",
            target=ms / "USER.md",
            content=USER_MD + "- Likes long explanations with every detail.\n",
            input_digest=digest,
            reason="Added a preference seen once in a single session.",
        )
        proposals.reject(project, rej.id, note="seen once; not a preference")
    _rename_proposal(project, rej.id, "20261120-070000-user-profile-demo", "2026-11-20T07:00:00Z")


def _rename_proposal(project: Path, pid: str, new_id: str, created: str) -> None:
    from memsearch_tui.engine.review.proposals import proposals_dir

    path = proposals_dir(project) / f"{pid}.json"
    data: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    data["created"], data["id"] = created, new_id
    atomic_write_text(path.with_name(f"{new_id}.json"), json.dumps(data, indent=2, ensure_ascii=False) + "\n")
    path.unlink()


def _freeze_proposal_time(project: Path, pid: str) -> None:
    """Give the demo proposal a fixed id and creation time so screenshots are reproducible."""
    from memsearch_tui.engine.review.proposals import proposals_dir

    path = proposals_dir(project) / f"{pid}.json"
    data: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    data["created"] = "2026-11-30T08:30:00Z"
    data["id"] = DEMO_PROPOSAL_ID
    atomic_write_text(path.with_name(f"{DEMO_PROPOSAL_ID}.json"), json.dumps(data, indent=2, ensure_ascii=False) + "\n")
    path.unlink()


# -- curator extras: versions, conflicts, trash ------------------------------------------


def seed_curation(store: Store) -> list[str]:
    """Versions, a conflict and trashed entries through the curator engine."""
    notes: list[str] = []
    for step in (_seed_versions, _seed_trash):
        try:
            step(store)
        except MemsearchError as exc:
            notes.append(f"{step.__name__}: {exc}")
    return notes


def _seed_versions(store: Store) -> None:
    """Two contradicting updates: v1 → v2 (conflict, then confirmed) → v3 (conflict, open)."""
    from memsearch_tui.engine.curator import versions

    target = next((s for s in store.list("decisions") if s.title == "Postgres 16 in production"), None)
    if target is None or store.get(target.id).version > 1:
        return
    with frozen(DEMO_TODAY - timedelta(days=20)):
        versions.update_entry(
            store,
            target.id,
            Change(
                body="Production runs Postgres 17 with logical replication to the analytics replica.\n"
                "Connection pooling through PgBouncer in transaction mode.\n"
            ),
        )
        if "conflict" in store.get(target.id).meta:
            versions.confirm(store, target.id)
    with frozen(DEMO_TODAY - timedelta(days=4)):
        versions.update_entry(
            store,
            target.id,
            Change(
                body="Production runs Postgres 17 without logical replication; the analytics replica was retired.\n"
                "Connection pooling through PgBouncer in session mode.\n"
            ),
        )


def _seed_trash(store: Store) -> None:
    from memsearch_tui.engine.curator import trash

    for title, reason in (
        ("Old logging library", "replaced by structlog"),
        ("Find large files", "belongs in the dotfiles repo"),
    ):
        hit = next((s for s in store.list() if s.title == title), None)
        if hit is None:
            continue
        with frozen(DEMO_TODAY - timedelta(days=6)):
            trash.trash(store, hit.id, reason=reason)


def seed(base: Path) -> tuple[Path, Path, list[str]]:
    """Seed ``base/memory`` and ``base/project``; returns both paths and notes."""
    base = Path(base).expanduser().absolute()
    root, project = base / "memory", base / "project"
    project.mkdir(parents=True, exist_ok=True)
    store = seed_store(root)
    seed_transcript(base / "transcripts")
    seed_project(project, base / "transcripts")
    notes = seed_curation(store)
    return root, project, notes


def main(argv: list[str] | None = None) -> int:
    args = list(sys.argv[1:] if argv is None else argv)
    if len(args) != 1 or args[0].startswith("-"):
        print("usage: python -m memsearch_tui.demo DIR", file=sys.stderr)
        return 2
    try:
        with frozen(DEMO_NOW):
            root, project, _notes = seed(Path(args[0]))
    except MemsearchError as exc:
        print(f"demo: {exc}", file=sys.stderr)
        return 1
    print(f"demo memory ready: memsearch-tui --memory-root {root} --project {project}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
