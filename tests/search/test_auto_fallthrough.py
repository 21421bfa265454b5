"""``auto`` falls through grep → index → hybrid while a question has fewer than k
hits, and hits carry the entry's title (and the journal turn's heading)."""

from __future__ import annotations

import pytest

from memsearch_tui.engine.search import Searcher, search
from memsearch_tui.engine.search import strategy as strat
from tests.helpers import run_cli

ROLLBACK = """
# Rollbacks

To revert a release: run `fly releases`, pick the previous image and
`fly deploy --image <that image>`. Deploys roll back in two minutes.
"""


@pytest.fixture
def small(memory, add_entry):
    root, project = memory
    add_entry(root, "ops/rollback", "Rolling back a release", ["ops"], ROLLBACK)
    return root, project


def test_natural_language_question_finds_the_note_on_a_small_memory(small):
    root, project = small
    res = search(root, project, "how do we roll back a deploy", k=3)
    assert res.files < strat.GREP_BELOW  # the seed's first choice is the literal scan …
    assert res.strategy.startswith("grep+index")  # … which found nothing, so the index ran too
    assert "grep found 0 of 3 for a question, fell through to index" in res.reason
    assert res.hits and res.hits[0].id == "ops/rollback", res.reason
    assert res.hits[0].title == "Rolling back a release"


def test_literal_hits_stay_first_and_are_not_repeated(small):
    root, project = small
    res = search(root, project, "fly releases", k=5)
    assert res.strategy.split("+")[0] == "grep" and "fell through to index" in res.reason
    assert res.hits[0].id == "ops/rollback" and res.hits[0].snippet.startswith("To revert")
    assert res.hits[0].title == "Rolling back a release"  # the literal scan's hit has the title too
    spans = [(h.path, h.start) for h in res.hits]
    assert len(spans) == len(set(spans))
    overl = [h for h in res.hits[1:] if h.path == res.hits[0].path and h.start <= res.hits[0].start <= h.end]
    assert overl == []  # the index's chunk around the grep line is not shown twice


def test_enough_hits_or_one_word_do_not_fall_through(small):
    root, project = small
    one = search(root, project, "gruvbox", k=3)
    assert one.strategy == "grep" and "fell through" not in one.reason
    enough = search(root, project, "fly releases", k=1)
    assert enough.strategy == "grep" and len(enough.hits) == 1


def test_next_tier_rule():
    assert strat.next_tier("grep", "roll back", 0, 10) == "index"
    assert strat.next_tier("index", "roll back", 3, 10) == "hybrid"
    assert strat.next_tier("hybrid", "roll back", 3, 10) is None
    assert strat.next_tier("grep", "rollback", 0, 10) == "index"  # nothing literal: the stemmed index looks
    assert strat.next_tier("grep", "rollback", 1, 10) is None  # one word found literally: that is the answer
    assert strat.next_tier("index", "rollback", 0, 10) == "hybrid"  # found by no keyword: the meaning leg's guesses
    assert strat.next_tier("index", "rollback", 1, 10) is None  # one word the keyword index found: that is the answer
    assert strat.next_tier("grep", "roll back", 10, 10) is None
    assert strat.next_tier("grep", "证书怎么续期？", 0, 10) == "index"  # a CJK sentence is a question
    assert strat.next_tier("index", "证书怎么续期？", 2, 10) == "hybrid"
    assert strat.next_tier("index", "证书", 1, 10) is None  # one two-character word is not a question


def test_journal_hits_carry_the_day_and_the_turn_heading(small):
    root, project = small
    with Searcher(root, project) as s:
        lit = s.search("flaky login", strategy="grep")
        idx = s.search("flaky login test", strategy="index")
    for res in (lit, idx):
        hit = next(h for h in res.hits if h.source == "journal")
        assert hit.title == "2024-05-01" and hit.turn == "### 14:05", res.strategy
    ent = next(h for h in idx.hits if h.source == "store") if any(h.source == "store" for h in idx.hits) else None
    assert ent is None or ent.title


def test_cli_json_shows_fallthrough_and_titles(small):
    root, project = small
    r = run_cli("--memory-root", str(root), "--project", str(project), "search", "how do we roll back a deploy")
    rc, out = r.code, r.out
    assert rc == 0 and "Rolling back a release" in out and "fell through" in out.splitlines()[0]
    r = run_cli(
        "--memory-root", str(root), "--project", str(project), "--json", "search", "how do we roll back a deploy"
    )
    rc, data = r.code, r.json["data"]
    assert rc == 0 and data["requested"] == "auto" and data["hits"][0]["title"] == "Rolling back a release"
