"""The TUI's ``d``/``x`` on a journal turn pass the day file as the tree drew it
(``expected=``): a turn a hook appended meanwhile refuses the change, nothing written."""

from __future__ import annotations

from pathlib import Path

import pytest

from memsearch_tui.engine.core.errors import Conflict
from memsearch_tui.engine.curator import journals
from memsearch_tui.engine.memsearch.journal import read_journal
from memsearch_tui.engine.store.trash_index import list_trash
from tests.journals.conftest import DAY

APPENDED = "\n### 16:00\n<!-- session:s3 turn:t9 transcript:/tmp/s3.jsonl -->\n- A hook wrote this meanwhile\n"


@pytest.mark.parametrize("action", ["forget", "redact"])
def test_a_change_since_the_tree_drew_the_day_is_refused(proj: Path, day_path: Path, store, action: str) -> None:
    day, seen = read_journal(day_path)
    assert seen == day_path.read_bytes() and day.turns
    day_path.write_bytes(seen + APPENDED.encode())
    after = day_path.read_bytes()
    where = {"session": "s1", "turn": "t1", "reason": "wrong", "expected": seen}

    def call(**kw):
        if action == "forget":
            return journals.forget(store.root, proj, DAY, **kw)
        return journals.redact(store.root, proj, DAY, pattern="hunter2", **kw)

    with pytest.raises(Conflict, match=DAY):
        call(**where)
    assert day_path.read_bytes() == after and list_trash(store.root) == []
    out = call(**{**where, "expected": after})  # what is on screen after the reload
    assert out["action"] == action and b"hunter2" not in day_path.read_bytes()
    assert b"A hook wrote this meanwhile" in day_path.read_bytes()


def test_restoring_a_forgotten_turn_refuses_a_trash_file_changed_since_the_preview(
    proj: Path, day_path: Path, store
) -> None:
    from memsearch_tui.engine.curator import trash
    from memsearch_tui.engine.curator.trash_preview import preview

    journals.forget(store.root, proj, DAY, session="s1", turn="t1", reason="wrong")
    [item] = list_trash(store.root)
    seen = preview(item).raw
    assert seen is not None
    Path(item.path).write_bytes(seen.replace(b"flaky login", b"text nobody previewed"))
    day = day_path.read_bytes()
    with pytest.raises(Conflict, match=Path(item.path).name):
        trash.restore(store, item.key, expected=seen)
    assert day_path.read_bytes() == day and Path(item.path).exists()
    trash.restore(store, item.key, expected=Path(item.path).read_bytes())
    assert b"text nobody previewed" in day_path.read_bytes()
