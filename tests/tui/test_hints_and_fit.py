"""Key hints come from the key registry (or a modal's own bindings), toasts pass through the
one safety function, and text fits 80×24 (wrapped, or ended with "…", never cut mid-word).

The QA findings of issue 14 (second pass): ``ctrl+b builds the vector index`` after the key
moved to ctrl+o; the undo list's "by" column showing the kind while who did it was cut off
at the end of the summary; an undo toast printing a secret; hints and paths cut at 80
columns; absolute paths where the header says ``~/memory``.
"""

from __future__ import annotations

import ast
import asyncio
import re
import shutil
from pathlib import Path

import pytest
from textual.app import App
from textual.widgets import Input

from memsearch_tui.tui.actions import APP, BY_ID, KEY_NAMES, PANES, key_of, specs
from memsearch_tui.tui.app import MemsearchApp
from tests.helpers import SIZE, SNAPSHOT_SIZES, make_app, screen_lines, settle, shown, until
from tests.textual_private import notifications

TUI = Path(__file__).resolve().parents[2] / "memsearch_tui" / "tui"
NARROW = (80, 24)
SECRET = "password=hunter2secret99"

# A key named in prose: "u undoes", "(y)", "Press a", "(t: how)", "← r", "ctrl+b builds".
LITERAL_HINT = re.compile(
    r"\bctrl\+\w"
    r"|(?<![\w/.-])[A-Za-z] (?:undoes|redoes|runs|opens|shows|creates|restores|purges|confirms|trashes|edits"
    r"|accepts|cancels?|saves?|closes|goes|builds|tries|computes|loads|follows|looks|next)\b"
    r"|(?<!\w)\((?:[A-Za-z]|Esc)\)|\bPress [A-Za-z]\b|\([A-Za-z]: |← [A-Za-z]\b|\bEsc (?!leaves)\w+"
)


def _string_literals(tree: ast.AST) -> list[tuple[int, str]]:
    """Every string constant (f-string parts too) except docstrings and key arguments of
    ``Binding(...)`` / ``ActionSpec(...)`` (those are the bindings themselves)."""
    skip: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and getattr(node.func, "id", "") in ("Binding", "ActionSpec"):
            skip |= {id(n) for arg in node.args for n in ast.walk(arg)}
        body = getattr(node, "body", None)
        first = body[0] if isinstance(body, list) and body else None
        if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant) and isinstance(first.value.value, str):
            skip.add(id(first.value))
    return [
        (n.lineno, n.value)
        for n in ast.walk(tree)
        if isinstance(n, ast.Constant) and isinstance(n.value, str) and id(n) not in skip
    ]


def test_no_key_hint_in_the_tui_is_a_literal():
    """A key named in a label, toast or empty state is derived (``key_of`` / ``bound_key``):
    a literal one goes stale when the registry or the user's keymap moves the key."""
    found = []
    for path in sorted(TUI.rglob("*.py")):
        if path.name == "actions.py":  # the registry itself
            continue
        for line, text in _string_literals(ast.parse(path.read_text(encoding="utf-8"))):
            if m := LITERAL_HINT.search(text):
                found.append(f"{path.relative_to(TUI)}:{line}: {m.group()!r} in {text!r}")
    assert not found, "literal key hints:\n" + "\n".join(found)


def test_the_literal_hint_check_catches_what_qa_found():
    for text in (
        "ctrl+s tries another strategy; ctrl+b builds the vector index",
        " (u undoes)",
        "Cancel (n)",
        "Press i to create it",
        "disabled (t: how)",
        "undone ← r",
        "Esc closes",
        "Close (Esc)",
    ):
        assert LITERAL_HINT.search(text), text
    assert not LITERAL_HINT.search("Esc leaves an input box · Enter runs · Tab next field · digits switch panes")
    assert not LITERAL_HINT.search("3 hit(s) hidden · a journal day(s)")


def _textual_key(shown_key: str) -> str:
    back = {v: k for k, v in KEY_NAMES.items()}
    return back.get(shown_key, shown_key)


REBOUND = {
    "search.index": "ctrl+x",
    "search.strategy": "ctrl+y",
    "search.filter": "ctrl+l",
    "app.undo": "U",
    "index.add": "n",
    "maintenance.run": "ctrl+k",
    "maintenance.detail": "D",
    "trash.plan": "L",
    "index.trash": "X",
}


@pytest.mark.slow
def test_every_hint_names_a_key_bound_to_its_action_after_a_keymap(demo):
    """With keys moved by a user keymap, each pane's hints name the new keys, and every key
    ``key_of`` would name is the one that runs that action on that pane."""
    root, project = demo
    table = "".join(f'"{k}" = "{v}"\n' for k, v in REBOUND.items())
    (project / ".memsearch.toml").write_text(
        (project / ".memsearch.toml").read_text(encoding="utf-8") + f"\n[tui.keymap]\n{table}", encoding="utf-8"
    )

    async def flow():
        app = make_app((root, project), remember_theme=False)
        async with app.run_test(size=SIZE) as pilot:
            await settle(pilot, app)
            for pane in PANES:
                await pilot.press("escape")
                await pilot.press(pane.key)
                await settle(pilot, app)
                if isinstance(app.focused, Input):  # the Search box keeps the focus: leave it
                    await pilot.press("escape", "escape")  # the keys of the pane, not of its input box
                active = app.screen.active_bindings
                for spec in [s for s in [*specs(pane.id), *specs(APP)] if not s.id.startswith("nav.")]:
                    key = _textual_key(key_of(app.keymap, spec.id))
                    assert key in active, f"{pane.id}: {spec.id} names {key!r}, which nothing binds here"
                    if key != "enter":  # Enter: the focused list's own select, which the pane handles
                        assert active[key].binding.action == spec.action, (pane.id, spec.id, key)
            # the empty states say the rebound keys
            await pilot.press("6")
            await settle(pilot, app)
            app.query_one("#pane-search").strategy = "grep"
            app.query_one("#pane-search").focus_query("zzqqxxnothinglikethis")
            await pilot.press("enter")
            await settle(pilot, app)
            text = " ".join(shown(app.query_one("#search-preview")).split())
            assert "ctrl+x builds the vector index" in text and "ctrl+y tries another strategy" in text
            assert "ctrl+b" not in text and "ctrl+o" not in text

    asyncio.run(flow())


def test_empty_states_follow_the_keymap():
    from memsearch_tui.tui.empty_states import empty_store, no_hits, no_proposals_hint, no_store, trash_empty

    class Row:
        enabled = False

    texts = [
        no_hits("q", 2, REBOUND).plain,
        no_proposals_hint([Row()], REBOUND).plain,
        trash_empty(REBOUND).plain,
        no_store("~/memory", {"app.init": "ctrl+n"}).plain,
        empty_store(REBOUND).plain,
    ]
    joined = " ".join(texts)
    for spec_id in ("search.index", "search.strategy", "search.filter", "maintenance.detail", "index.trash"):
        assert REBOUND[spec_id] in joined, spec_id
    assert "U undoes" in texts[2] and "L here" in texts[2] and "Press n to add" in texts[4]
    assert "Press ctrl+n" in texts[3]
    default = no_hits("q", 0).plain
    assert f"{BY_ID['search.index'].keys} builds" in default and "ctrl+b" not in default


# -- undo history: who, a hint that fits, toasts through the one safety function -------------


def _add_with_secret(root: Path, face: str, monkeypatch) -> None:
    """A logged operation whose summary names a secret: the store refuses one in a
    category now, but a folder made by hand (or before that check) still gets into
    summaries, so the toasts must mask it wherever it comes from."""
    from memsearch_tui.engine.history.txn import transaction

    monkeypatch.setenv("MEMSEARCH_TUI_FACE", face)
    note = root / "hand-made" / "deploy-notes.md"
    note.parent.mkdir(parents=True, exist_ok=True)
    with transaction(root, "add", f"add to {SECRET}: Deploy notes") as txn:
        txn.write(note, "---\ntitle: Deploy notes\n---\nWhere the deploy key lives.\n")
    monkeypatch.setenv("MEMSEARCH_TUI_FACE", "tui")


@pytest.mark.slow
def test_undo_history_shows_who_and_its_undo_notes_are_redacted(demo, monkeypatch):
    """The undo and redo notes are drawn on the history's own line (no toast over it),
    through the one safety function like every notice."""
    from memsearch_tui.engine.history import undo
    from memsearch_tui.tui.modals import UndoModal

    root, project = demo
    _add_with_secret(root, "cli", monkeypatch)
    newest = undo.history(root, limit=1)[0]
    assert newest["by"] == "cli" and "[by" not in str(newest["summary"])
    said: list[str] = []

    def line(modal) -> str:
        return shown(modal.query_one("#dialog-error")) if modal.query_one("#dialog-error").display else ""

    async def flow():
        app = make_app((root, project), remember_theme=False)
        async with app.run_test(size=NARROW) as pilot:
            await settle(pilot, app)
            await pilot.press("u")
            await until(pilot, lambda: isinstance(app.screen, UndoModal), "the undo history")
            await settle(pilot, app)
            modal = app.screen
            lines = screen_lines(app)
            row = next((line for line in lines if "add to password" in line), "\n".join(lines))
            assert " cli " in row and "[by" not in row
            assert SECRET not in "\n".join(lines)
            hint = next(line for line in lines if "undoes the newest" in line)
            assert "Esc closes" in hint  # the whole hint on one row at 80 columns
            await pilot.press("u")
            await until(pilot, lambda: line(modal).startswith("undone"), "the undo note")
            said.append(line(modal))
            assert SECRET not in "\n".join(screen_lines(app))
            await settle(pilot, app)
            await pilot.press("r")
            await until(pilot, lambda: line(modal).startswith("redone"), "the redo note")
            said.append(line(modal))
            assert SECRET not in "\n".join(screen_lines(app))
            assert not [n for n in notifications(app) if "undone" in n.message or "redone" in n.message]

    asyncio.run(flow())
    undone, redone = (" ".join(s.split()) for s in said)  # the line wraps at 80 columns
    assert undone.startswith("undone: add to password=") and "r redoes" in undone
    assert redone.startswith("redone: add to password=")
    for note in (undone, redone):
        assert "[redacted" in note and "[by" not in note and "hunter2secret99" not in note


def test_cli_undo_list_still_says_who(tmp_path, monkeypatch):
    """The ``by`` field is parsed off in one place (the operation record); ``undo --list``
    shows it as before and the API item carries it."""
    from memsearch_tui.engine.api import Memory
    from memsearch_tui.engine.history.oplog import split_actor, with_actor
    from memsearch_tui.engine.store.store import Store

    assert split_actor(with_actor("add to x: T", "mcp:claude-code")) == ("add to x: T", "mcp:claude-code")
    assert split_actor("add to x: T") == ("add to x: T", "")
    assert split_actor("add to [by]: T [by hook]") == ("add to [by]: T", "hook")
    root = tmp_path / "memory"
    monkeypatch.setenv("MEMSEARCH_TUI_FACE", "hook")
    Store(root).init()
    Store(root).add("notes", "Hook wrote this", "Something the hook remembered for later.")
    item = Memory(root, tmp_path).history.list(1)[0]
    assert item.by == "hook" and item.summary == "add to notes: Hook wrote this"


# -- 80×24: nothing cut mid-word, paths home-relative ------------------------------------------


def _first_run_app(tmp_path: Path, monkeypatch) -> tuple[Path, MemsearchApp]:
    home = tmp_path / "home"
    project = home / "code" / "demo"
    project.mkdir(parents=True)
    monkeypatch.setenv("HOME", str(home))
    return home / "memory", make_app((home / "memory", project), remember_theme=False)


def test_first_run_at_80x24_after_esc_says_what_to_press_home_relative(tmp_path, monkeypatch):
    from memsearch_tui.tui.screens.first_run import FirstRunScreen

    root, app = _first_run_app(tmp_path, monkeypatch)

    async def flow():
        async with app.run_test(size=NARROW) as pilot:
            await settle(pilot)
            await until(pilot, lambda: isinstance(app.screen, FirstRunScreen), "the first-run screen")
            assert str(tmp_path) not in "\n".join(screen_lines(app))
            await pilot.press("escape")
            await settle(pilot)
            screen = "\n".join(screen_lines(app))
            assert str(tmp_path) not in screen, screen
            assert "no memory store at ~/memory" in screen and "yet: i creates it" in screen
            assert "No memory store at ~/memory. Press i to create" in screen and "it (memsearch-tui init)." in screen
            await pilot.press("5")
            await settle(pilot)
            flat = " ".join(" ".join(screen_lines(app)).split())
            assert "No task is enabled" in flat and "which provider it would use." in flat
            await pilot.press("f1")
            await settle(pilot)
            screen = "\n".join(screen_lines(app))
            assert "Esc leaves an input box" in screen and "ctrl+p commands" in screen  # wrapped, whole

    asyncio.run(flow())


@pytest.mark.slow
def test_80x24_search_placeholder_tree_dates_and_add_dialog(demo, drive):
    from textual.widgets import Input

    from memsearch_tui.tui.modals import AddEntryModal

    async def flow(pilot, app):
        lines = screen_lines(app)
        tree_rows = [line for line in lines if re.search(r"\d{4}-\d{2}-\d{1,2}", line)]
        for line in tree_rows:  # a date in the tree is whole or absent
            assert not re.search(r"\d{4}-\d{2}-\d(?!\d)", line), line
        await pilot.press("1")
        app.query_one("#pane-index").select_entry("projects/web/alpha-dashboard")
        await settle(pilot, app)
        rows = [line for line in screen_lines(app) if "Alpha dashboard" in line or "…" in line]
        assert rows and all(not re.search(r"\d{4}-\d{2}-\d(?!\d)", r) for r in rows), rows
        await pilot.press("6")
        await settle(pilot, app)
        assert "type to search · Enter: by meaning" in "\n".join(screen_lines(app))
        # the Add dialog: the first empty field has focus; Tab back keeps what was typed
        await pilot.press("escape", "escape", "1")
        await settle(pilot, app)
        app.query_one("#pane-index").tree.move_cursor(app.query_one("#pane-index").tree.root)
        await settle(pilot, app)
        await pilot.press("a")
        await until(pilot, lambda: isinstance(app.screen, AddEntryModal), "the add dialog")
        await pilot.pause(0.05)
        first = next(i for i in app.screen.query(Input) if not i.value)
        assert app.focused is first
        if first.id == "category":
            await pilot.press(*"notes")
            await pilot.press("tab")
            await pilot.press("shift+tab")
            await pilot.press("x")
            assert app.screen.query_one("#category", Input).value.startswith("notes")
        await pilot.press("escape")

    drive(flow, size=NARROW)


@pytest.mark.slow
def test_add_in_an_empty_store_selects_the_new_entry(tmp_path, monkeypatch):
    from textual.widgets import Input, TextArea

    from memsearch_tui.tui.modals import AddEntryModal

    root, app = _first_run_app(tmp_path, monkeypatch)
    from memsearch_tui.engine.store.store import Store

    Store(root).init()

    async def flow():
        async with app.run_test(size=NARROW) as pilot:
            await settle(pilot)
            await pilot.press("a")
            await until(pilot, lambda: isinstance(app.screen, AddEntryModal), "the add dialog")
            await pilot.pause(0.05)
            assert app.focused is app.screen.query_one("#category", Input)  # empty store: nothing prefilled
            app.screen.query_one("#category", Input).value = "notes"
            app.screen.query_one("#title", Input).value = "First thing"
            app.screen.query_one("#body", TextArea).text = "The first entry of a fresh store."
            await pilot.press("ctrl+s")
            await settle(pilot)
            pane = app.query_one("#pane-index")
            await until(pilot, lambda: pane.current == "notes/first-thing", "the new entry selected")
            node = pane.tree.cursor_node
            assert node is not None and node.data is not None and node.data.key == "notes/first-thing"
            assert "First thing" in shown(app.query_one("#entry-meta"))

    asyncio.run(flow())


@pytest.mark.slow
def test_invalid_entry_shows_its_file_and_reason(demo, drive):
    root, _ = demo
    (root / "notes" / "broken.md").write_text("---\ntitle: [unclosed\n---\nbody\n", encoding="utf-8")

    async def flow(pilot, app):
        app.refresh_panes()
        await settle(pilot, app)
        pane = app.query_one("#pane-index")
        await until(
            pilot,
            lambda: pane.model.find("notes/broken") is not None and not pane.model.partial,
            "the invalid entry listed",
        )
        pane.select_entry("notes/broken")
        await settle(pilot, app)
        text = shown(app.query_one("#entry-meta"))
        assert "invalid" in text and "malformed YAML" in text
        assert "~/" not in text or "notes/broken.md" in text
        assert "notes/broken.md" in text

    drive(flow)


@pytest.mark.slow
def test_trash_preview_renders_markdown_like_the_index(demo, drive):
    from textual.widgets import Markdown

    async def flow(pilot, app):
        await pilot.press("4")
        await settle(pilot, app)
        body = app.query_one("#trash-preview-body", Markdown)
        assert "```" in body.source  # the Markdown source, drawn by the same widget as the Index
        drawn = "\n".join(screen_lines(app))
        assert "find . -type f -size +50M" in drawn and "```" not in drawn
        assert "R restores it" in shown(app.query_one("#trash-preview-keys"))

    drive(flow, size=SNAPSHOT_SIZES["160x48"])


@pytest.mark.slow
def test_journal_and_search_show_home_relative_paths(tmp_path, monkeypatch):
    from tests.tui.home_demo import seed_home

    home = tmp_path / "home"
    monkeypatch.setenv("HOME", str(home))
    root, project = seed_home(home)

    async def flow():
        app = make_app((root, project), remember_theme=False)
        async with app.run_test(size=SNAPSHOT_SIZES["120x36"]) as pilot:
            await settle(pilot)
            await pilot.press("2")
            await settle(pilot)
            await pilot.press("enter", "j", "enter", "j")
            await settle(pilot)
            text = shown(app.query_one("#journal-detail"))
            assert "~/project/.memsearch/memory/" in text and str(home) not in text
            await pilot.press("6")
            await settle(pilot)
            app.query_one("#pane-search").strategy = "grep"
            await pilot.press(*"ECharts", "enter")
            await settle(pilot)
            await pilot.press("j")
            await settle(pilot)
            assert str(home) not in "\n".join(screen_lines(app))

    asyncio.run(flow())
    shutil.rmtree(home, ignore_errors=True)


@pytest.mark.slow
def test_every_pane_toast_is_masked_where_toasts_are_shown(demo, drive, monkeypatch):
    """A pane's write note, a modal's note and an error all reach Textual's toast through the
    app's ``notify``: secrets masked, escapes shown, ``[red]`` drawn as typed."""
    from memsearch_tui.tui.panes.base import Outcome, WriteDone
    from memsearch_tui.tui.writes import Write

    toasts: list[tuple[str, bool]] = []
    shown_by_textual = App.notify

    def record(self, message, **kw):
        toasts.append((message, kw.get("markup", True)))
        shown_by_textual(self, message, **kw)

    monkeypatch.setattr(App, "notify", record)

    async def flow(pilot, app):
        for pid in ("index", "trash", "maintenance"):
            app.pane(pid).post_message(
                WriteDone(
                    Write("x", lambda: Outcome("")), Outcome(f"{pid}: {SECRET} \x1b[2J [red]x[/red]", refresh=False)
                )
            )
        app.screen.notify(f"straight from a widget {SECRET}")
        await settle(pilot, app)

    drive(flow)
    assert len(toasts) == 4
    for message, markup in toasts:
        assert "hunter2secret99" not in message and "\x1b" not in message and markup is False
    assert sum("[red]x[/red]" in m for m, _ in toasts) == 3


@pytest.mark.slow
def test_secrets_in_journal_titles_and_folder_names_are_masked_on_screen(demo):
    """Journals and hand-made folders are untrusted text: a credential in a turn title, a
    bullet or a category folder's name is drawn masked, like every toast and label."""
    root, project = demo
    day = project / ".memsearch" / "memory" / "2026-11-30.md"
    day.write_text(
        f"# 2026-11-30\n\n## Session 09:00 {SECRET}\n\n### 09:05 deploy with {SECRET}\n- used {SECRET} to log in\n",
        encoding="utf-8",
    )
    folder = root / SECRET
    folder.mkdir()
    (folder / "note.md").write_text("---\ntitle: A note\nstatus: active\n---\nzebracorn body\n", encoding="utf-8")
    gone = root / SECRET / "gone.md"
    gone.write_text("---\ntitle: Gone note\nstatus: active\n---\ngone body\n", encoding="utf-8")
    from memsearch_tui.engine.curator import trash
    from memsearch_tui.engine.store.store import Store

    trash.trash(Store(root), f"{SECRET}/gone", reason="test")

    async def flow():
        app = make_app((root, project), remember_theme=False)
        async with app.run_test(size=SNAPSHOT_SIZES["160x48"]) as pilot:
            await settle(pilot, app)
            tree = app.query_one("#index-tree")
            assert any("password=[redacted" in str(n.label) for n in tree.root.children)
            assert SECRET not in "\n".join(screen_lines(app))
            await pilot.press("2")
            await settle(pilot, app)
            jtree = app.query_one("#journal-tree")
            first = jtree.root.children[0]
            first.expand_all()
            await settle(pilot, app)
            jtree.move_cursor(first.children[0].children[0])
            await settle(pilot, app)
            screen = "\n".join(screen_lines(app))
            assert "deploy with password=[redacted" in screen
            assert "hunter2secret99" not in screen
            await pilot.press("4")  # the trashed entry's "from" names the folder
            await settle(pilot, app)
            screen = "\n".join(screen_lines(app))
            assert "Gone note" in screen and "hunter2secret99" not in screen
            await pilot.press("6")
            await settle(pilot, app)  # the pane's own activation first, then the query
            search = app.query_one("#pane-search")
            # the hits as the pane draws them (the search itself is tested elsewhere; here it
            # runs on this thread so the check does not wait on a worker under load)
            result = app.ctx.mem.search.query("zebracorn", k=30, strategy="grep")
            assert result.hits, result.reason
            search._show(result, {h.id: h.title for h in result.hits if h.title})
            await settle(pilot, app)
            screen = "\n".join(screen_lines(app))
            assert "password=[redacted" in screen and "hunter2secret99" not in screen
            assert app.errors == []

    asyncio.run(flow())
