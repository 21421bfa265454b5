"""The store-wide pass does each costly step once (issue 35, speed): no timings here, the
work itself is counted — an entry's values typed once however many pairs it is in, no
text listing built for ``--json``, the tokenizer's one-pass rewrite giving exactly the
tokens it gave, and the secret scanner's batch mode finding exactly what it found.
Timings are in benchmarks/hygiene_speed.py and benchmarks/README.md."""

from __future__ import annotations

import json

import pytest

from memsearch_tui.engine.core import secrets
from memsearch_tui.engine.hygiene import similar
from memsearch_tui.engine.hygiene.text import tokens
from tests.helpers import run_cli

from .conftest import World
from .test_kinds import AWS


def test_each_entry_is_typed_once_however_many_pairs(world: World, monkeypatch: pytest.MonkeyPatch) -> None:
    body = "The nightly export of the billing ledger runs from the reporting replica at {}."
    for n, zh in enumerate(["02:00", "02:00", "02:00", "02:00", "02:00"]):
        world.entry(f"ops/export-{n}", body.format(zh))
    calls: list[str] = []
    real = similar.values
    monkeypatch.setattr(similar, "values", lambda text: calls.append(text) or real(text))
    found = [f for f in world.scan("duplicate").findings if f.kind == "duplicate"]
    assert len(found) == 10  # five copies: every pair
    assert len(calls) <= 5  # before: twice per pair (20)


def test_json_builds_no_text_listing(world: World, monkeypatch) -> None:
    from memsearch_tui.cli import hygiene_cmds

    world.entry("ops/aws-access", f"key id {AWS} for the deploy user")
    world.entry("ops/staging", "Staging resets on Monday.", updated="2026-10-01")
    world.entry("team/staging", "Staging resets on Friday.")

    def no_render(report: object) -> str:
        raise AssertionError("the text listing was built for --json")

    monkeypatch.setattr(hygiene_cmds, "render", no_render)
    r = run_cli("--memory-root", str(world.root), "--project", str(world.project), "hygiene", "--json")
    code, out = r.code, r.out
    assert code == 0 and AWS not in out
    assert {f["kind"] for f in json.loads(out)["data"]["findings"]} >= {"secret", "contradiction"}


@pytest.mark.parametrize(
    ("sentence", "expected"),
    [
        ("Staging resets on Monday", [("staging", ""), ("resets", ""), ("on", ""), ("monday", "day")]),
        ("ask Jon, then Mel", [("ask", ""), ("jon", "name"), ("then", ""), ("mel", "name")]),
        ("on-call- Jon", [("on-call-", ""), ("jon", "")]),  # after a dash: a clause starts, not a name
        ("talk to  Jon", [("talk", ""), ("to", ""), ("jon", "name")]),
        ("we use PostgreSQL 15", [("we", ""), ("use", ""), ("postgresql", ""), ("15", "version")]),
        ("(Jon) at 12:30", [("jon", ""), ("at", ""), ("12:30", "time")]),
        ("周一 发布 1.2 版", [("monday", "day"), ("发", ""), ("布", ""), ("1.2", "version"), ("版", "")]),
        ("部署：Jon 负责", [("部", ""), ("署", ""), ("jon", ""), ("负", ""), ("责", "")]),
        ("a ,, Jon", [("a", ""), ("jon", "")]),
    ],
)
def test_tokens_and_their_types(sentence: str, expected: list[tuple[str, str]]) -> None:
    assert tokens(sentence) == expected


@pytest.mark.parametrize(
    "text",
    [
        f"key id {AWS} for the deploy user",
        "nothing to see here, a plain note about the build",
        "ghp_" + "a1B2" * 9,
        "部署密钥 password: hunter2-Sekrit-99 不要提交",
        "",
    ],
)
def test_batch_mode_finds_what_single_texts_find(text: str) -> None:
    before = (secrets.secret_spans(text), secrets.redact(text))
    secrets.prepare_batch()
    assert (secrets.secret_spans(text), secrets.redact(text)) == before
