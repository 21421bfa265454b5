"""Long CLI work shows a bar only to a person at a terminal; pipes and --json stay clean."""

from __future__ import annotations

import pytest

from memsearch_tui.cli import progress


def test_no_bar_when_piped_or_json(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(progress.sys.stderr, "isatty", lambda: True)
    monkeypatch.setenv("TERM", "xterm")
    assert progress.wanted(json_mode=False)
    assert not progress.wanted(json_mode=True)
    monkeypatch.setattr(progress.sys.stderr, "isatty", lambda: False)
    assert not progress.wanted(json_mode=False)
    with progress.bar("embedding", json_mode=False) as report:
        assert report is None


def test_the_bar_takes_the_engines_reports(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(progress.sys.stderr, "isatty", lambda: True)
    monkeypatch.setenv("TERM", "xterm")
    with progress.bar("embedding", json_mode=False) as report:
        assert report is not None
        for done in range(0, 11):
            report(done, 10)


def test_the_engine_says_the_model_is_loading_before_it_counts(memory) -> None:
    """`vectors index --force`: each slow step is named before it starts, and the count
    begins (0 of the known total) only once the model is loaded (QA: "embedding 0/?" for
    the whole model load read as a hang)."""
    from memsearch_tui.engine.search import Searcher
    from memsearch_tui.engine.search.indexer import EMBEDDING, LOADING_MODEL
    from memsearch_tui.engine.search.searcher import OPENING_INDEX, READING_FILES

    events: list[tuple] = []
    root, project = memory
    with Searcher(root, project) as searcher:
        searcher.index(
            force=True,
            progress=lambda d, t: events.append(("count", d, t)),
            phase=lambda p: events.append(("phase", p)),
        )
    phases = [e[1] for e in events if e[0] == "phase"]
    assert phases == [OPENING_INDEX, READING_FILES, LOADING_MODEL, EMBEDDING]
    first_count = next(i for i, e in enumerate(events) if e[0] == "count")
    assert events[first_count - 1] == ("phase", EMBEDDING)  # nothing counted while loading
    total = events[first_count][2]
    assert events[first_count] == ("count", 0, total) and total > 0
    assert events[-1] == ("count", total, total)


def test_the_bar_shows_each_phase_then_the_count(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(progress.sys.stderr, "isatty", lambda: True)
    monkeypatch.setenv("TERM", "xterm")
    with progress.bar("opening", json_mode=False) as report:
        assert report is not None
        report.phase("loading the embedding model…")
        task = report.progress.tasks[0]
        assert (task.description, task.total, task.fields["count"]) == ("loading the embedding model…", None, "")
        report.phase("embedding")
        report(3, 10)
        task = report.progress.tasks[0]
        assert (task.description, task.completed, task.total, task.fields["count"]) == ("embedding", 3, 10, "3/10")
