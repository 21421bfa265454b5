"""Pilot: odd day files in the Journal pane (polish, session 17).

A day file over the size limit is told once when the pane opens on it (the tree's
highlight and the row's count worker each raised the same "Not accepted" toast); a file
name holding an escape sequence is shown the same way, escaped, in the tree and in the
detail pane (the detail showed the raw name)."""

from __future__ import annotations

from tests.helpers import screen_lines, settle, told


def test_a_day_over_the_limit_is_told_once(drive, demo) -> None:  # type: ignore[no-untyped-def]
    _root, project = demo
    big = project / ".memsearch" / "memory" / "2099-01-01.md"
    big.write_bytes(b"# 2099-01-01\n\n## Session 10:00\n\n" + b"- \xe9\x83\xa8\xe7\xbd\xb2 deploy\n" * 300_000)

    async def flow(pilot, app) -> None:  # type: ignore[no-untyped-def]
        await pilot.press("2")
        await settle(pilot, app)
        await pilot.pause(0.1)
        await settle(pilot, app)

    app = drive(flow)
    over = [t for t in told(app) if "limit" in t.message]
    assert len(over) == 1, over


def test_an_escape_in_a_day_name_shows_the_same_in_tree_and_detail(drive, demo) -> None:  # type: ignore[no-untyped-def]
    _root, project = demo
    odd = project / ".memsearch" / "memory" / "notes\x1b]0;pwn\x07笔记.md"
    odd.write_text("# notes\n\n## Session 10:00\n\n### 10:01 部署\n\n- deploy\n", encoding="utf-8")
    shown: dict[str, str] = {}

    async def flow(pilot, app) -> None:  # type: ignore[no-untyped-def]
        await pilot.press("2")
        await settle(pilot, app)
        tree = app.query_one("#journal-tree")
        pane = app.query_one("#pane-journal")
        node = next(n for n in tree.root.children if n.data is not None and n.data.path == odd)
        shown["tree"] = str(node.label)
        pane.open_at(odd, 0)
        await settle(pilot, app)
        shown["tree open"] = str(node.label)
        shown["detail"] = "\n".join(screen_lines(app))

    drive(flow)
    for where, text in shown.items():
        assert "\x1b" not in text and "\x07" not in text, (where, text)
    assert shown["tree"].startswith("notes\\x1b]0;pwn\\x07笔记"), shown["tree"]
    assert "notes\\x1b]0;pwn\\x07笔记" in shown["detail"], shown["detail"]


def test_a_dated_day_name_is_shown_without_the_redactors_scan(monkeypatch) -> None:  # type: ignore[no-untyped-def]
    """The tree names 10,000 days at a big journal's first visit: a dated name has nothing
    to escape or mask, so it does not pay the redactor's scan (0.5 s for 10,000 names);
    any other name still goes through it."""
    from pathlib import Path

    from memsearch_tui.tui.panes import journal_pane

    calls: list[str] = []
    monkeypatch.setattr(journal_pane, "printable", lambda value, **kw: calls.append(value) or f"<{value}>")
    assert journal_pane.day_name(Path("/p/.memsearch/memory/2026-12-01.md")) == "2026-12-01"
    assert calls == []
    assert journal_pane.day_name(Path("/p/.memsearch/memory/2026-12-01x\x1b.md")) == "<2026-12-01x\x1b>"
    assert journal_pane.day_name(Path("/p/.memsearch/memory/二〇二六-12-01.md")) == "<二〇二六-12-01>"
    assert calls == ["2026-12-01x\x1b", "二〇二六-12-01"]
