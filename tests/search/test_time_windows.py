"""Issue 36 item 4: a time window ranks as its own signal in search — journal days by
their date, entries by ``created``/``updated`` — and ``--since``/``--until`` filter, through
the engine, the CLI (``--explain`` shows the window) and the MCP tool."""

from __future__ import annotations

import json
from pathlib import Path

import anyio
import pytest

from memsearch_tui.engine.search import Searcher
from memsearch_tui.engine.search.windowed import journal_day
from tests.helpers import run_cli
from tests.search import time_questions as tq


@pytest.fixture
def journals(tmp_path: Path, data_dir: Path, monkeypatch: pytest.MonkeyPatch) -> tuple[Path, Path]:
    monkeypatch.setenv("MEMSEARCH_TUI_NOW", tq.NOW)
    return tq.write(tmp_path)


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_time_scoped_questions_get_the_right_day_first(journals: tuple[Path, Path], lang: str) -> None:
    root, project = journals
    asked = [(q, ok) for lg, q, ok in tq.questions() if lg == lang]
    assert len(asked) >= 20
    wrong = []
    with Searcher(root, project) as s:
        for q, ok in asked:
            res = s.search(q, strategy="index", k=5)
            day = journal_day(res.hits[0].path) if res.hits else None
            if day not in ok:
                wrong.append((q, day, sorted(ok)))
    assert len(wrong) <= 0.1 * len(asked), wrong


def test_a_better_worded_day_outside_the_window_does_not_drown_it(journals: tuple[Path, Path]) -> None:
    root, project = journals
    with Searcher(root, project) as s:
        plain = s.search("what did we decide about the release", strategy="index", k=3)
        timed = s.search("what did we decide about the release last week", strategy="index", k=3, explain=True)
    assert journal_day(plain.hits[0].path) not in tq.answers("release", tq.PHRASES[2][2])  # content alone: another week
    assert journal_day(timed.hits[0].path) in tq.answers("release", tq.PHRASES[2][2])
    assert "time window last week = 2026-11-23…2026-11-29" in timed.reason
    assert timed.query == "what did we decide about the release last week"
    assert timed.explain is not None and timed.explain.window == "last week = 2026-11-23…2026-11-29"
    assert "last" not in timed.explain.terms and "week" not in timed.explain.terms  # time words left the text query
    first = timed.hits[0].explain
    assert first is not None and first.boost.startswith("in the time window (2026-11-2")


def test_a_question_naming_only_a_time_lists_that_days_journal(journals: tuple[Path, Path]) -> None:
    root, project = journals
    # A time-only question takes the auto path, which embeds every day first: the ~11 days
    # around each asked one compete as well as four months did, for a sixth of the model's work.
    for day in (project / ".memsearch" / "memory").glob("*.md"):
        if not ("2026-09-10" <= day.stem <= "2026-09-22" or day.stem >= "2026-11-19"):
            day.unlink()
    with Searcher(root, project) as s:
        res = s.search("昨天", k=3)
        what = s.search("what did I do on 2026-09-16", k=3)
    assert res.hits and res.hits[0].title == "2026-11-29"
    assert what.hits and what.hits[0].title == "2026-09-16"


def test_a_literal_grep_keeps_its_time_words(journals: tuple[Path, Path]) -> None:
    root, project = journals
    with Searcher(root, project) as s:
        res = s.search("yesterday", strategy="grep", k=3)
    assert res.hits == [] or all("yesterday" in h.snippet.lower() for h in res.hits)
    assert "time window" not in res.reason


ENTRY = "---\ntitle: {title}\nstatus: active\ncreated: {created}\nupdated: {updated}\n---\n{body}\n"


def test_store_entries_rank_by_created_or_updated(
    tmp_path: Path, data_dir: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("MEMSEARCH_TUI_NOW", tq.NOW)
    root = tmp_path / "memory"
    (root / "ops").mkdir(parents=True)
    (root / "INDEX.md").write_text("| name | description |\n|---|---|\n", encoding="utf-8")  # a store
    body = "Backups of the orders database run nightly with pg_dump; 订单库每天备份。"
    for name, created, updated, extra in [
        ("old", "2026-03-02", "2026-03-02", " Backups backups backups of the database."),
        ("touched", "2026-02-01", "2026-11-25", ""),
        ("new", "2026-11-30", "2026-11-30", ""),
    ]:
        text = ENTRY.format(title=f"Backups {name}", created=created, updated=updated, body=body + extra)
        (root / "ops" / f"{name}.md").write_text(text, encoding="utf-8")
    with Searcher(root, None) as s:
        assert s.search("database backups", strategy="index", k=3).hits[0].id == "ops/old"  # most words
        last_week = s.search("database backups last week", strategy="index", k=3)
        march = s.search("数据库备份 3月份", strategy="auto", k=3)
        latest = s.search("the most recent database backups", strategy="index", k=3)
    assert last_week.hits[0].id == "ops/touched"  # updated in the window
    assert march.hits[0].id == "ops/old"  # created in the window
    assert latest.hits[0].id == "ops/new"


@pytest.fixture
def cli(journals: tuple[Path, Path]):
    root, project = journals

    def call(*args: str) -> tuple[int, str, str]:
        r = run_cli("--memory-root", str(root), "--project", str(project), *args)
        return r.code, r.out, r.err

    return call


def test_cli_since_until_filter_and_explain_shows_the_window(cli) -> None:
    rc, out, _ = cli("--json", "search", "on-call handover", "--since", "2026-10", "--until", "2026-10-31", "-k", "20")
    assert rc == 0
    hits = json.loads(out)["data"]["hits"]
    assert hits and all(h["title"].startswith("2026-10-") for h in hits)
    rc, text, _ = cli("search", "on-call handover", "--since", "last week", "--explain", "-s", "index")
    assert rc == 0
    assert "explain: time window --since last week = 2026-11-23…" in text
    assert "in the time window (2026-11-2" in text


def test_cli_bad_since_is_a_one_line_error(cli) -> None:
    rc, _, err = cli("search", "release", "--since", "someday")
    assert rc != 0
    assert "'someday' is not a date" in err and "Traceback" not in err


def test_mcp_search_takes_since_and_until(journals: tuple[Path, Path]) -> None:
    from mcp import Client  # here, not at collection: ~1 s of CPU in every worker

    from memsearch_tui.mcp.server import build_server

    root, project = journals
    got: dict[str, object] = {}

    async def main() -> None:
        async with Client(build_server(root, project, writes="review")) as c:
            r = await c.call_tool(
                "search", {"query": "cloud bill", "since": "2026-09-01", "until": "2026-09-30", "k": 20}
            )
            got["r"] = r.structured_content

    anyio.run(main)
    data = got["r"]
    assert isinstance(data, dict)
    assert data["hits"] and all(h["title"].startswith("2026-09-") for h in data["hits"])


def test_batch_lines_take_since_and_until(cli, tmp_path: Path) -> None:
    """``search --batch``: a line's own since/until window its hits; the flags window every
    line that names none; a bad bound is that line's error row, the stream goes on."""
    lines = [
        {"id": "oct", "query": "on-call handover", "since": "2026-10", "until": "2026-10-31", "k": 20},
        {"id": "sep", "query": "云账单复盘", "since": "2026-09-01", "until": "2026-09-30", "k": 20},
        {"id": "bad", "query": "release", "since": "someday"},
        {"id": "typed", "query": "release", "until": 5},
        {"id": "flags", "query": "on-call handover", "k": 20},
    ]
    f = tmp_path / "q.jsonl"
    f.write_text("".join(json.dumps(x, ensure_ascii=False) + "\n" for x in lines), encoding="utf-8")
    rc, out, _ = cli("search", "--batch", str(f), "-s", "index")
    assert rc == 0
    rows = {r["id"]: r for r in map(json.loads, out.splitlines())}
    assert [r for r in rows] == ["oct", "sep", "bad", "typed", "flags"]
    for qid, month in (("oct", "2026-10-"), ("sep", "2026-09-")):
        hits = rows[qid]["data"]["hits"]
        assert hits and all(h["title"].startswith(month) for h in hits), qid
    assert rows["bad"]["ok"] is False and "'someday' is not a date" in rows["bad"]["error"]["message"]
    assert rows["typed"]["ok"] is False and rows["typed"]["error"]["code"] == "invalid"
    unwindowed = {h["title"][:7] for h in rows["flags"]["data"]["hits"]}
    assert len(unwindowed) > 1  # no window named: hits from several months
    rc, out, _ = cli("search", "--batch", str(f), "-s", "index", "--since", "2026-11-01", "--explain")
    rows = {r["id"]: r for r in map(json.loads, out.splitlines())}
    flagged = rows["flags"]["data"]
    assert flagged["hits"] and all(h["title"] >= "2026-11-01" for h in flagged["hits"])
    assert flagged["explain"]["window"].startswith("--since 2026-11-01")
    assert all(h["title"].startswith("2026-10-") for h in rows["oct"]["data"]["hits"])  # its own since wins
