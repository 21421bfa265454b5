"""Each kind of finding on real files: the planted case is flagged, its near miss is not."""

from __future__ import annotations

import pytest

from memsearch_tui.engine.api import Memory
from memsearch_tui.engine.api.errors import InvalidInput

from .conftest import World, write

AWS = "AKIA" + "Q3EGRT5YVBNW7XZP"  # built here so no scanner takes this file for a leak


def _ids(report, kind):
    return [f.ids for f in report.findings if f.kind == kind]


def test_secret_is_named_by_rule_and_line_never_shown(world: World) -> None:
    world.entry("ops/aws-access", f"The deploy user.\nkey id {AWS} for the deploy user\n")
    world.entry("ops/aws-docs", "Rotate the AWS access key every 90 days; never paste it here.\n")
    world.journal("2026-11-02", f"## 10:00\nI used {AWS} to deploy\n")
    report = world.scan("secret")
    found = {f.ids[0]: f for f in report.findings}
    assert set(found) == {"ops/aws-access", str(world.project / ".memsearch/memory/2026-11-02.md")}
    (ev,) = found["ops/aws-access"].evidence
    assert "line 11" in ev  # 9 lines of frontmatter, then the body's second line
    assert AWS not in repr(report)


def test_over_long_host_file_names_what_is_cut(world: World) -> None:
    long = world.claude_memory()
    write(long, "".join(f"- fact number {n}\n" for n in range(1, 231)))
    report = world.scan("over-long")
    (f,) = report.findings
    assert f.ids == (str(long),) and "loads 200 of 230 lines" in f.evidence[0]
    assert "lines 201–230" in f.evidence[1] and "fact number 201" in f.evidence[2]
    assert f.proposal == ""


def test_over_long_fix_names_the_lines_the_condense_moves_and_why(world: World) -> None:
    """Lines 201–230 are never loaded, but a condense moves 200–230: line 200 makes room for
    the pointer line. The fix says so, and names the same lines as the proposal's pointer."""
    long = world.claude_memory()
    write(long, "".join(f"- fact number {n} 第 {n} 条\n" for n in range(1, 231)))
    (f,) = world.scan("over-long").findings
    assert "never loaded: lines 201–230" in f.evidence[1]
    assert "move lines 200–230" in f.fix and "not 201: the pointer line needs room" in f.fix
    with Memory(world.root, world.project) as mem:
        (p,) = mem.hygiene.propose(["over-long"]).findings
        diff = mem.proposals.diff(p.proposal)
    assert "— lines 200–230 that were past" in repr(diff)


def test_host_file_within_what_is_loaded_is_not_over_long(world: World) -> None:
    write(world.claude_memory(), "".join(f"- fact {n}\n" for n in range(200)))
    write(world.project / "CLAUDE.md", "".join(f"- rule {n}\n" for n in range(900)))  # loaded in full
    assert world.scan("over-long").findings == ()


def test_dead_reference_with_the_nearest_existing_path(world: World) -> None:
    world.tracked("src/auth/login_flow.py", "docs/setup.md")
    world.entry("notes/auth", "The login lives in src/auth/login.py; see docs/setup.md first.\n")
    (f,) = world.scan("dead-reference").findings
    assert f.ids == ("notes/auth", "src/auth/login.py")
    assert "nearest existing path: src/auth/login_flow.py" in f.evidence


def test_live_paths_urls_and_prose_slashes_are_not_dead(world: World) -> None:
    world.tracked("src/auth/login.py", "docs/setup.md")
    world.entry(
        "notes/fine",
        "Read src/auth/login.py and docs/ and docs/setup.md.\n"
        "Client/server and and/or are words; https://example.com/src/old.py is a link;\n"
        "other/project/file.py is not rooted here.\n",
    )
    assert world.scan("dead-reference").findings == ()


def test_duplicate_entries_by_keyword_overlap_without_an_index(world: World) -> None:
    world.entry(
        "ops/staging-db",
        "Staging database is refreshed from a production snapshot every night at two.",
        updated="2026-11-01",
    )
    world.entry(
        "ops/staging-refresh", "Every night at two the staging database is refreshed from a production snapshot."
    )
    world.entry("ops/prod-db", "Production database backups are kept for thirty days in the eu bucket.")
    world.entry("ops/reset-a", "Staging resets on Monday.")  # the same words, another value: a contradiction
    world.entry("ops/reset-b", "Staging resets on Friday.")
    report = world.scan("duplicate")
    assert _ids(report, "duplicate") == [("ops/staging-db", "ops/staging-refresh")]
    assert not report.vectors and any("keyword overlap only" in n for n in report.notes)


def test_duplicate_between_a_store_entry_and_a_host_line_chinese(world: World) -> None:
    world.entry("团队/发布", "每次发布前必须先在预发环境跑完整回归测试。\n")
    write(world.claude_memory(), "- 每次发布前必须先在预发环境跑完整回归测试\n- 代码评审至少需要两个人批准\n")
    report = world.scan("duplicate")
    assert _ids(report, "duplicate") == [("团队/发布", str(world.claude_memory()))]


@pytest.mark.parametrize(
    ("a", "b", "values"),
    [
        ("Staging resets on Monday.", "Staging resets on Friday.", "monday ≠ friday"),
        ("生产库是 PostgreSQL 15。", "生产库是 PostgreSQL 16。", "15 ≠ 16"),
        ("预发环境每周一重置。", "预发环境每星期五重置。", "monday ≠ friday"),
        (
            "The release owner for the mobile app is Alice.",
            "The release owner for the mobile app is Bob.",
            "alice ≠ bob",
        ),
        ("We pin Node to 18.19 in CI.", "We pin Node to 20.11 in CI.", "18.19 ≠ 20.11"),
    ],
)
def test_contradiction_same_subject_different_value(world: World, a: str, b: str, values: str) -> None:
    world.entry("ops/first", a, updated="2026-10-01")
    world.entry("ops/second", b, updated="2026-11-01")
    (f,) = world.scan("contradiction").findings
    assert f.ids == ("ops/first", "ops/second") and values in f.evidence[2]


def test_not_contradictions(world: World) -> None:
    world.entry(
        "ops/one", "Staging resets on Monday.\nSprint 3 retro is done.\n1. Run step 1 first.\n2. Run step 2 first.\n"
    )
    world.entry("ops/two", "Staging resets on Monday.\nSprint 4 retro is done.\nProduction deploys on Friday.\n")
    world.entry("ops/three", "生产库是 PostgreSQL 15。测试库是 MySQL 8。\n")
    world.entry("知识/鱼甲", "背鳍硬棘10枚，软条10枚。\n")  # two species: too little around the number
    world.entry("知识/鱼乙", "背鳍硬棘10枚，软条11枚。\n")
    world.entry("chat/a", "Caroline: Thanks, Mel\n")  # a greeting, not a claim about a name
    world.entry("chat/b", "Caroline: Thanks, Jon\n")
    assert world.scan("contradiction").findings == ()


def test_a_number_after_hash_names_the_subject_not_a_value(world: World) -> None:
    """The demo's templated notes: "service #4" and "service #46" are two services, so their
    timeouts never contradict (270 false findings on the demo before); the same service's
    timeout given two values still does."""
    world.entry(
        "notes/svc-04", "The timeout for service #4 went to 30 seconds after incident 1021.\n", updated="2026-10-01"
    )
    world.entry(
        "notes/svc-46", "The timeout for service #46 went to 45 seconds after incident 1021.\n", updated="2026-10-02"
    )
    world.entry("notes/票-7", "工单 #7 的负责人是 Kim，截止日期是周一。\n", updated="2026-10-03")
    world.entry("notes/票-8", "工单 #8 的负责人是 Kim，截止日期是周五。\n", updated="2026-10-04")
    assert world.scan("contradiction").findings == ()
    world.entry(
        "notes/svc-04-again",
        "The timeout for service #4 went to 60 seconds after incident 1021.\n",
        updated="2026-11-01",
    )
    (f,) = world.scan("contradiction").findings
    assert f.ids == ("notes/svc-04", "notes/svc-04-again")


def test_a_number_after_a_noun_that_names_things_is_an_id_not_a_value(world: World) -> None:
    """ "incident 1021" and "incident 1022" are two incidents, both of which happened: never a
    contradiction, in English or Chinese; the same incident with two causes' numbers still is."""
    cause = "was caused by an expired TLS certificate on the payment gateway"
    world.entry("incidents/1021", f"Incident 1021 {cause}.\n", updated="2026-10-01")
    world.entry("incidents/1022", f"Incident 1022 {cause}.\n", updated="2026-10-02")
    world.entry("工单/3301", "工单 3301 的原因是支付网关证书过期，修复用了 2 小时。\n", updated="2026-10-03")
    world.entry("工单/3302", "工单 3302 的原因是支付网关证书过期，修复用了 5 小时。\n", updated="2026-10-04")
    assert world.scan("contradiction").findings == ()
    world.entry("工单/3301-again", "工单 3301 的原因是支付网关证书过期，修复用了 4 小时。\n", updated="2026-11-01")
    (f,) = world.scan("contradiction").findings
    assert f.ids == ("工单/3301", "工单/3301-again")


def test_stale_by_lifecycle_and_by_a_newer_entry_on_the_same_subject(world: World) -> None:
    world.entry("ops/old-runbook", "How we deployed in 2024.", updated="2025-01-01")
    world.entry("ops/ci", "CI runs on self-hosted runners with eight cores.", title="CI setup", updated="2026-10-20")
    world.entry("infra/ci", "CI moved to hosted runners; builds cache in S3.", title="CI setup", updated="2026-11-01")
    world.entry("ops/fresh", "Deploys go through the release train.", updated="2026-11-20")
    report = world.scan("stale")
    assert _ids(report, "stale") == [("ops/ci", "infra/ci"), ("ops/old-runbook",)]


def test_unknown_kind_is_refused_by_name(world: World) -> None:
    with pytest.raises(InvalidInput, match="unknown kind 'rot'"):
        world.scan("rot")


def test_a_day_over_the_read_limit_is_noted_naming_its_path_once(world: World) -> None:
    day = world.journal("2026-12-02", "## 会话 session\n" + "x" * 5_000_000)
    notes = [n for n in world.scan("secret").notes if "byte" in n]
    assert len(notes) == 1 and notes[0].count(str(day)) == 1, notes
    assert notes[0].startswith(f"{day}: ") and "limit" in notes[0]
