"""``journal forget|redact|restore`` through the real CLI on real files."""

from __future__ import annotations

from pathlib import Path

from memsearch_tui.engine.core import frontmatter_io as fmio
from memsearch_tui.engine.memsearch.journal import load_journal, parse_journal
from memsearch_tui.engine.review import proposals
from tests.journals.conftest import DAY, JOURNAL


def _forget_first_turn(cli):
    r = cli("--json", "journal", "forget", DAY, "--session", "s1", "--turn", "t1", "--reason", "wrong and secret")
    assert r.code == 0, r.out + r.err
    return r.json["data"]


def test_forget_moves_the_turn_to_the_trash_and_keeps_every_other_byte(cli, proj, day_path):
    data = _forget_first_turn(cli)
    assert data["removed"]["lines"] == [5, 9] and data["removed"]["turn_id"] == "t1"
    assert data["removed"]["session_id"] == "s1" and data["trash_key"].startswith("2026-11-30/journal/")
    text = day_path.read_text(encoding="utf-8")
    lines = JOURNAL.splitlines(keepends=True)
    assert text == "".join(lines[:4] + lines[9:])  # exactly the turn's lines are gone
    assert "hunter2" not in text and "flaky login" not in text
    assert "<!-- reviewer:alice mood:happy -->" in text and "note written by hand" in text
    day = parse_journal(text, day_path)  # still a journal memsearch reads the same way
    assert [(s.time, [t.time for t in s.turns]) for s in day.sessions] == [("09:00", ["09:40"]), ("14:00", ["09:05"])]
    trashed = Path(data["trash_file"])
    doc = fmio.parse(trashed.read_bytes(), str(trashed))
    assert doc.body == "".join(lines[4:9])  # the removed text, whole, with its anchor
    assert doc.meta["journal_anchor"] == "<!-- session:s1 turn:t1 transcript:/tmp/s1.jsonl -->"
    assert (doc.meta["journal_day"], doc.meta["journal_session"], doc.meta["journal_turn"]) == (DAY, "09:00", "09:05")
    assert doc.meta["trash_reason"] == "wrong and secret"
    r = cli("--json", "trash", "list")
    [item] = r.json["data"]["items"]
    assert item["key"] == data["trash_key"] and item["reason"] == "wrong and secret"


def test_forgotten_turn_is_found_by_neither_grep_nor_keyword_search(cli, proj, day_path):
    r = cli("--json", "search", "-s", "index", "flaky login test")  # builds the keyword index
    assert any(h["path"] == str(day_path) and "flaky" in h["snippet"] for h in r.json["data"]["hits"])
    r = cli("--json", "search", "-s", "grep", "flaky login")  # fills the grep cache
    assert r.json["data"]["hits"]
    data = _forget_first_turn(cli)
    assert data["index"]["keyword"].startswith("1 changed")  # refreshed now, not at the next search
    for strategy in ("grep", "index"):
        r = cli("--json", "search", "-s", strategy, "flaky login")
        assert not any("flaky" in h["snippet"].lower() for h in r.json["data"]["hits"]), strategy
    r = cli("--json", "search", "-s", "index", "hunter2")
    assert r.json["data"]["hits"] == []
    r = cli("--json", "search", "-s", "index", "Postgres")  # the rest of the day is still there
    assert r.json["data"]["hits"][0]["path"] == str(day_path)


def test_forget_is_undone_by_undo_and_by_restore(cli, proj, day_path):
    data = _forget_first_turn(cli)
    r = cli("undo")
    assert r.code == 0, r.err
    assert day_path.read_text(encoding="utf-8") == JOURNAL and not Path(data["trash_file"]).exists()
    data = _forget_first_turn(cli)
    r = cli("--json", "journal", "restore", data["trash_key"])
    assert r.code == 0 and r.json["data"]["placed"] == "where it was"
    keys = ["restored", "original_id", "from", "day", "placed", "renamed", "related_dropped", "index"]
    assert list(r.json["data"]) == [*keys, "memsearch_index"]  # the wire keys, in order
    assert day_path.read_text(encoding="utf-8") == JOURNAL and not Path(data["trash_file"]).exists()
    r = cli("undo")  # the restore is logged too
    assert r.code == 0 and "flaky" not in day_path.read_text(encoding="utf-8")


def test_trash_restore_puts_journal_text_back_into_its_day(cli, proj, day_path):
    data = _forget_first_turn(cli)
    day_path.write_text(day_path.read_text(encoding="utf-8") + "\n### 18:00\n- appended by a hook later\n")
    r = cli("trash", "restore", data["trash_key"])
    assert r.code == 0, r.err
    text = day_path.read_text(encoding="utf-8")
    assert text == JOURNAL + "\n### 18:00\n- appended by a hook later\n"
    assert not (proj / "memory" / "journal").exists()  # not turned into a store entry


def test_redact_replaces_only_the_pattern_and_keeps_the_original_in_the_trash(cli, proj, day_path):
    r = cli("--json", "journal", "redact", DAY, "--turn", "t1", "--pattern", "hunter2-staging", "--reason", "secret")
    assert r.code == 0, r.out + r.err
    data = r.json["data"]
    text = day_path.read_text(encoding="utf-8")
    assert text == JOURNAL.replace("hunter2-staging", "[redacted]")
    doc = fmio.parse(Path(data["trash_file"]).read_bytes(), data["trash_file"])
    assert "hunter2-staging" in doc.body and doc.meta["journal_action"] == "redact"
    r = cli("--json", "search", "-s", "grep", "hunter2")
    assert r.json["data"]["hits"] == []
    r = cli("journal", "restore", data["trash_key"])
    assert r.code == 0 and day_path.read_text(encoding="utf-8") == JOURNAL


def test_redact_with_a_regex_over_a_whole_day(cli, proj, day_path):
    r = cli("--json", "journal", "redact", DAY, "--regex", "--pattern", r"Postgres \d+", "--reason", "vendor")
    assert r.code == 0 and "Postgres 16" not in day_path.read_text(encoding="utf-8")
    r = cli("--json", "journal", "redact", DAY, "--pattern", "not in there", "--reason", "x")
    assert r.code == 1 and r.json["error"]["code"] == "not_found"
    r = cli("--json", "journal", "redact", DAY, "--regex", "--pattern", "a*", "--reason", "x")
    assert r.code == 1 and r.json["error"]["code"] == "invalid"


def test_ambiguous_or_unknown_selections_change_nothing(cli, proj, day_path):
    r = cli("--json", "journal", "forget", DAY, "--turn", "09:05", "--reason", "x")
    assert r.code == 1 and r.json["error"]["code"] == "invalid" and "add --session" in r.json["error"]["message"]
    r = cli("--json", "journal", "forget", DAY, "--session", "s9", "--reason", "x")
    assert r.code == 1 and r.json["error"]["code"] == "not_found" and "09:00 (s1)" in r.json["error"]["message"]
    r = cli("--json", "journal", "forget", "../../etc/passwd", "--reason", "x")
    assert r.code == 1 and r.json["error"]["code"] == "invalid"
    r = cli("journal", "forget", DAY, "--turn", "t1", "--reason", "   ")
    assert r.code == 1 and "--reason" in r.err
    assert day_path.read_text(encoding="utf-8") == JOURNAL
    assert not (proj / "memory" / ".trash").exists()


def test_the_second_turn_at_the_same_time_is_chosen_by_its_session(cli, proj, day_path):
    r = cli("--json", "journal", "forget", DAY, "--session", "14:00", "--turn", "09:05", "--reason", "dup")
    assert r.code == 0
    day = load_journal(day_path)
    assert [len(s.turns) for s in day.sessions] == [2, 0]
    assert "release notes" not in day_path.read_text(encoding="utf-8")


def test_forget_a_session_and_a_whole_day(cli, proj, day_path):
    r = cli("--json", "journal", "forget", DAY, "--session", "09:00", "--reason", "bad session")
    assert r.code == 0 and r.json["data"]["removed"]["lines"] == [3, 14]
    assert [s.time for s in load_journal(day_path).sessions] == ["14:00"]
    r = cli("--json", "journal", "forget", "2026-11-27", "--reason", "whole day")
    assert r.code == 0 and r.json["data"]["file_deleted"] is True
    gone = proj / ".memsearch" / "memory" / "2026-11-27.md"
    assert not gone.exists()
    r = cli("journal", "restore", r.json["data"]["trash_key"])
    assert r.code == 0 and "Chose Fly.io" in gone.read_text(encoding="utf-8")


def test_pending_proposals_from_that_day_become_stale(cli, proj, day_path):
    target = proj / ".memsearch" / "PROJECT.md"
    prop = proposals.create(
        proj,
        platform="claude-code",
        task="project_review",
        target=target,
        content="# Project\n\n- staging password hunter2-staging\n",
        reason="from journals",
        input_digest="sha256:x",
    )
    data = _forget_first_turn(cli)
    assert data["stale_proposals"] == [prop.id]
    r = cli("--json", "proposals", "accept", prop.id)
    assert r.code == 1 and r.json["error"]["code"] == "conflict" and "stale" in r.json["error"]["message"]
    assert not target.exists()
    r = cli("--json", "proposals", "list")
    assert r.json["data"]["proposals"][0]["stale"].startswith(f"built from journal {DAY}")


def test_undoing_the_forget_or_restoring_the_turn_ends_the_stale_mark(cli, proj, day_path):
    from memsearch_tui.engine.review.journal_stale import stale_note

    target = proj / ".memsearch" / "PROJECT.md"
    prop = proposals.create(
        proj,
        platform="claude-code",
        task="project_review",
        target=target,
        content="# Project\n",
        reason="from journals",
        input_digest="sha256:z",
    )
    _forget_first_turn(cli)
    assert stale_note(proposals.get(proj, prop.id)).startswith(f"built from journal {DAY}")
    [record] = [p for p in (proj / ".memsearch").rglob(f"{prop.id}*") if p.is_file()]
    assert "hunter2" not in record.read_text(encoding="utf-8")  # the mark keeps a digest, never the text
    assert cli("undo").code == 0  # the forgotten lines are back: the mark no longer holds
    assert stale_note(proposals.get(proj, prop.id)) == ""
    data = _forget_first_turn(cli)
    assert data["stale_proposals"] == [prop.id] and stale_note(proposals.get(proj, prop.id))
    assert cli("--json", "journal", "restore", data["trash_key"]).code == 0
    assert stale_note(proposals.get(proj, prop.id)) == ""
    r = cli("--json", "proposals", "accept", prop.id)  # accepted without forcing: nothing stale any more
    assert r.code == 0, r.out
    assert target.read_text(encoding="utf-8") == "# Project\n"


def test_purging_the_forgotten_turn_keeps_the_proposal_stale(cli, proj, day_path):
    from memsearch_tui.engine.review.journal_stale import stale_note

    prop = proposals.create(
        proj,
        platform="claude-code",
        task="project_review",
        target=proj / ".memsearch" / "PROJECT.md",
        content="# Project\n",
        reason="from journals",
        input_digest="sha256:w",
    )
    _forget_first_turn(cli)
    assert cli("--json", "trash", "purge", "--all", "--yes").code == 0
    assert stale_note(proposals.get(proj, prop.id)).startswith(f"built from journal {DAY}")


def test_crlf_journal_keeps_its_line_ends(cli, proj, day_path):
    day_path.write_bytes(JOURNAL.replace("\n", "\r\n").encode())
    data = _forget_first_turn(cli)
    raw = day_path.read_bytes()
    assert b"flaky" not in raw and b"\r\n" in raw and b"\n" not in raw.replace(b"\r\n", b"")
    cli("journal", "restore", data["trash_key"])
    assert day_path.read_bytes() == JOURNAL.replace("\n", "\r\n").encode()


def test_human_output_names_the_trash_key_and_how_to_undo(cli, proj, day_path):
    r = cli("journal", "forget", DAY, "-S", "s1", "-T", "t2", "-r", "noise")
    assert r.code == 0 and "forgot 2026-11-28 session 09:00 09:40" in r.out and "memsearch-tui undo" in r.out
    r = cli("journal", "show", DAY)
    assert r.code == 0 and "09:05" in r.out and "turn_id:t1" in r.out and "09:40" not in r.out


def test_proposals_that_could_not_have_read_the_day_stay_fresh(cli, proj, monkeypatch):
    mem = proj / ".memsearch" / "memory"
    for i in range(1, 13):  # twelve newer days: the prompt's window no longer reaches 11-28
        (mem / f"2026-12-{i:02d}.md").write_text(f"# 2026-12-{i:02d}\n\n## Session 09:00\n\n### 09:01\n- day {i}\n")
    monkeypatch.setenv("MEMSEARCH_TUI_NOW", "2026-12-12T12:00:00Z")
    prop = proposals.create(
        proj,
        platform="claude-code",
        task="project_review",
        target=proj / ".memsearch" / "PROJECT.md",
        content="# Project\n",
        reason="r",
        input_digest="sha256:y",
    )
    data = _forget_first_turn(cli)
    assert data["stale_proposals"] == []
    assert not proposals.get(proj, prop.id).extra.get("stale")


def test_a_backtracking_regex_runs_in_linear_time_or_is_refused(cli, proj, day_path):
    """RE2: ``(q+)+Z`` on a long run of q's is the textbook catastrophic case for Python's
    re (minutes); here it simply does not match. Back-references are not RE2 syntax."""
    day_path.write_text(day_path.read_text(encoding="utf-8") + "q" * 60 + "\n", encoding="utf-8")
    r = cli("--json", "journal", "redact", DAY, "--regex", "--pattern", "(q+)+Z", "--reason", "x")
    assert r.code == 1 and r.json["error"]["code"] == "not_found"
    r = cli("--json", "journal", "redact", DAY, "--regex", "--pattern", r"(Post)gres \1", "--reason", "x")
    assert r.code == 1 and r.json["error"]["code"] == "invalid" and "RE2" in r.json["error"]["message"]
