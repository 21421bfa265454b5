"""Issue 38, item 4: a warm searcher (the MCP server's) after a write through the API.

An API write used to make the next search re-walk and re-stat the whole store (twice:
the listing and the index sync), which, with agents writing all the time, made every
search of a busy server pay for it. The write's own transaction now says which files it
changed: the next search patches its listing with those paths alone (no walk, not even of
their categories: an agent's category of hundreds of entries was re-listed on each of its
writes), syncs only those files, and still finds (or no longer finds) what was just
written. What it worked out of each candidate chunk (its script, its speaker) is kept
across writes: a chunk id names one text for good."""

from __future__ import annotations

from pathlib import Path

import pytest

from memsearch_tui.engine.api import Memory
from memsearch_tui.engine.store import walk
from memsearch_tui.engine.store.store import Store


@pytest.fixture
def warm(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    store = Store(tmp_path / "memory")
    store.init()
    for i in range(30):
        store.add(f"area{i % 3}", f"Note {i}", f"ordinary note number {i} about topic {i * 7}\n")
    (tmp_path / "project" / ".git").mkdir(parents=True)
    with Memory(store.root, tmp_path / "project", writes="direct", refresh_behind=True, agent=True) as m:
        m.search.query("ordinary", strategy="index")
        m.warm.wait()
        walks: list[str] = []
        real = walk.walk_entry_paths

        def counted(root, under="", problems=None):
            walks.append(under)
            return real(root, under, problems)

        monkeypatch.setattr(walk, "walk_entry_paths", counted)
        yield m, walks


def _ids(m: Memory, query: str) -> list[str]:
    return [h.id for h in m.search.query(query, strategy="index").hits]


def test_a_search_after_an_api_write_finds_it_without_walking_the_store(warm) -> None:
    m, walks = warm
    out = m.entries.add("fresh", "Zebra crossing", "the zebrafish sighting near the pier\n")
    assert _ids(m, "zebrafish") == [out.entry.id]
    assert walks == []  # no walk of the store, nor of the written category


def test_an_update_and_a_trash_through_the_api_are_seen_at_once(warm) -> None:
    m, walks = warm
    m.entries.update("area1/note-1", body="now about the quokka colony\n")
    assert set(_ids(m, "quokka")) == {"area1/note-1"}  # its text and its version history
    assert walks == []
    m.trash.put("area1/note-1")
    # trash itself reads every entry's `related` list to name the referrers (links.scan: a
    # walk the write always made); what is counted here is the search after it
    walks.clear()
    assert _ids(m, "quokka") == []
    assert walks == []


def test_a_write_into_a_new_subcategory_is_found(warm) -> None:
    m, walks = warm
    out = m.entries.add("area1/deeper/层", "Kiwi 新西兰", "the kiwi orchard 果园 in the south\n")
    assert _ids(m, "kiwi") == [out.entry.id]
    assert _ids(m, "果园") == [out.entry.id]
    assert walks == []


def test_candidate_facts_are_not_worked_out_again_after_a_write(warm, monkeypatch) -> None:
    from memsearch_tui.engine.search import languages

    m, _ = warm
    assert len(_ids(m, "ordinary note")) > 5
    calls: list[str] = []
    real = languages.script_of
    monkeypatch.setattr(languages, "script_of", lambda text: calls.append(text) or real(text))
    m.entries.add("elsewhere", "Heron", "a grey heron by the canal\n")
    _ids(m, "ordinary note")
    assert calls == []  # the same candidates as before the write: nothing re-read
