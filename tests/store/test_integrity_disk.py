"""Nothing on disk or on the command line makes a traceback (issue #12, items 3-5).

The commands run as real processes with a timeout: a FIFO that blocks a read must fail
the test, not hang the suite.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from memsearch_tui.engine.core.errors import InvalidInput, NotFound
from memsearch_tui.engine.core.frontmatter_io import parse
from memsearch_tui.engine.curator import trash
from memsearch_tui.engine.store.store import Store

MAIN = "from memsearch_tui.cli import main; main()"
TIMEOUT = float(os.environ.get("MEMSEARCH_TUI_TEST_TIMEOUT", "60"))  # a hang fails the test


def run(root: Path, *args: str | bytes, cwd: Path | None = None) -> subprocess.CompletedProcess[bytes]:
    env = {**os.environ, "MEMSEARCH_TUI_MEMORY_ROOT": str(root), "PYTHONPATH": os.getcwd()}
    return subprocess.run(
        [sys.executable, "-c", MAIN, *args],
        env=env,
        cwd=cwd or root.parent,
        capture_output=True,
        timeout=TIMEOUT,
        stdin=subprocess.DEVNULL,
    )


def no_traceback(proc: subprocess.CompletedProcess[bytes]) -> None:
    assert b"Traceback" not in proc.stderr, proc.stderr.decode(errors="replace")


@pytest.fixture
def hostile(store: Store, tmp_path: Path) -> Store:
    """A store holding a good entry and every kind of file it cannot use."""
    store.add("p", "Good", "a good note about deploys\n")
    folder = store.root / "p"
    os.mkfifo(folder / "pipe.md")
    os.symlink("loop.md", folder / "loop.md")
    (folder / "big-int.md").write_text(f"---\ntitle: Big\nn: {'9' * 5000}\n---\nbody\n")
    os.symlink(str(tmp_path), folder / "up")  # a symlinked folder: never entered
    (folder / os.fsdecode(b"caf\xe9.md")).write_text("---\ntitle: Latin-1 name\n---\nbody\n")
    latin = store.root / os.fsdecode(b"d\xe9j\xe0")  # a category folder with a Latin-1 name
    latin.mkdir()
    (latin / "x.md").write_text("---\ntitle: X\n---\nbody\n")
    return store


COMMANDS = [
    ["ls", "--json"],
    ["add", "p", "Another", "--body", "a second, different note", "--json"],
    ["trash", "p/good", "--json"],
    ["search", "deploys", "--json"],
    ["index", "check", "--json"],
    ["lifecycle", "plan", "--json"],
    ["show", "p/big-int", "--json"],
    ["show", "p/pipe", "--json"],
    ["show", "p/loop", "--json"],
]


@pytest.mark.parametrize("args", COMMANDS, ids=lambda a: " ".join(a[:2]))
def test_fifo_loop_huge_int_and_bad_names_never_hang_or_trace(hostile: Store, args: list[str]) -> None:
    proc = run(hostile.root, *args)
    no_traceback(proc)
    out = json.loads(proc.stdout)  # the envelope, success or not
    assert set(out) == {"ok", "data", "error"}
    if args[0] == "show":
        assert proc.returncode == 1 and out["error"]["code"] == "invalid"
        assert "p/" in out["error"]["message"]  # names the file


def test_doctor_and_import_with_a_fifo(hostile: Store, tmp_path: Path) -> None:
    src = tmp_path / "agent"
    src.mkdir()
    (src / "note.md").write_text("# A note\nsome remembered text\n")
    os.mkfifo(src / "pipe.md")
    os.symlink("self.md", src / "self.md")
    for args in (["doctor", "--json"], ["import", str(src), "--json"]):
        proc = run(hostile.root, *args)
        no_traceback(proc)
        json.loads(proc.stdout)


def test_index_check_reports_every_file_it_cannot_use(hostile: Store) -> None:
    proc = run(hostile.root, "index", "check", "--json")
    problems = {(p["file"], p["kind"]) for p in json.loads(proc.stdout)["data"]["problems"]}
    assert ("p/pipe.md", "unreadable_file") in problems
    assert ("p/loop.md", "unreadable_file") in problems
    assert ("p/big-int.md", "invalid_entry") in problems
    assert ("p/caf\\xe9.md", "unreadable_file") in problems
    assert ("d\\xe9j\\xe0", "unreadable_file") in problems
    fix = run(hostile.root, "index", "check", "--fix", "--json")
    no_traceback(fix)
    remaining = {p["file"] for p in json.loads(fix.stdout)["data"]["remaining"]}
    assert {"p/pipe.md", "p/loop.md", "p/big-int.md"} <= remaining  # hand fixes, still named


def test_ls_lists_the_good_entries_beside_a_huge_integer(hostile: Store) -> None:
    proc = run(hostile.root, "ls", "--json")  # a process: a FIFO read would hang, not fail
    rows = {r["id"]: r for r in json.loads(proc.stdout)["data"]["entries"]}
    assert rows["p/good"]["status"] == "active"
    assert rows["p/big-int"]["status"] == "invalid" and "digits" in rows["p/big-int"]["error"]


@pytest.mark.parametrize("arg", [b"caf\xe9", b"\xff\xfe"])
def test_non_utf8_argument_is_a_usage_error(store: Store, arg: bytes) -> None:
    proc = run(store.root, "show", arg, "--json")
    no_traceback(proc)
    assert proc.returncode == 2
    assert json.loads(proc.stdout)["error"]["code"] == "usage"
    plain = run(store.root, "add", "p", arg)
    assert plain.returncode == 2 and b"not valid UTF-8" in plain.stderr
    hook = run(store.root, "--run-due", "--hook", "codex", "--project", arg)
    no_traceback(hook)
    assert hook.returncode == 1 and hook.stdout == b'{"continue":true}\n'  # never 2 under a hook


def test_alias_bomb_and_deep_nesting_are_clear_errors(tmp_path: Path) -> None:
    bomb = ["a0: &a0 [x, x, x, x, x, x, x, x, x]"]
    for i in range(1, 9):
        bomb.append(f"a{i}: &a{i} [" + ", ".join([f"*a{i - 1}"] * 9) + "]")
    with pytest.raises(InvalidInput, match="alias"):
        parse(("---\n" + "\n".join(bomb) + "\n---\nbody\n").encode(), "bomb.md")
    with pytest.raises(InvalidInput, match="deep.md"):
        parse(("---\nk: " + "[" * 5000 + "]" * 5000 + "\n---\n").encode(), "deep.md")
    with pytest.raises(InvalidInput, match="characters"):
        parse(("---\n" + "k: v\n" * 30000 + "---\n").encode(), "long.md")


def test_oversized_entry_is_refused_before_parsing(store: Store) -> None:
    path = store.root / "p" / "huge.md"
    path.parent.mkdir()
    path.write_bytes(b"---\ntitle: Huge\n---\n" + b"x" * 3_000_000)
    with pytest.raises(InvalidInput, match="limit"):
        store.get("p/huge")
    assert store.list()[0].error


def test_invalid_utf8_trash_index_is_rebuilt(store: Store) -> None:
    e = store.add("p", "Gone", "to be trashed\n")
    trash.trash(store, e.id)
    index = store.root / ".trash" / "INDEX.md"
    index.write_bytes(b"# Trash\n\xff\xfe broken\n")
    assert any(p["kind"] == "trash_index" for p in store.check_index())
    store.rebuild_index()
    assert store.check_index() == [] and "Gone" in index.read_text(encoding="utf-8")


def test_broken_derived_files_are_rebuilt(store: Store) -> None:
    store.add("p", "One", "first note\n")
    state = store.root / ".memsearch-tui"
    (state / "lifecycle-scan.json").write_text("[" * 100_000 + "]" * 100_000)
    (state / "catalog.sqlite3").write_bytes(b"\x00garbage" * 1000)
    proc = run(store.root, "lifecycle", "plan", "--json")
    no_traceback(proc)
    assert json.loads(proc.stdout)["ok"]
    assert [s.id for s in store.list()] == ["p/one"]


# -- change detection ---------------------------------------------------------------------
def test_a_same_size_edit_that_keeps_the_mtime_is_seen(store: Store) -> None:
    e = store.add("p", "Alpha", "first note\n")
    assert store.list()[0].title == "Alpha"
    st = e.path.stat()
    e.path.write_bytes(e.path.read_bytes().replace(b"title: Alpha", b"title: Omega"))  # cp -p, rsync -a
    os.utime(e.path, ns=(st.st_atime_ns, st.st_mtime_ns))
    assert e.path.stat().st_size == st.st_size and e.path.stat().st_mtime_ns == st.st_mtime_ns
    assert store.list()[0].title == "Omega"
    assert any(p["kind"] == "wrong_title" for p in store.check_index())


def test_temp_files_of_killed_writers_are_reported_and_swept(store: Store) -> None:
    store.add("p", "One", "first note\n")
    left = store.root / "p" / ".one.md.k2j4h5l6.tmp"
    left.write_text("half a file")
    kept = store.root / "p" / ".notes.tmp"  # not our temp-file name: left alone
    kept.write_text("mine")
    found = {(p["kind"], p["file"]) for p in store.check_index()}
    assert ("temp_file", "p/.one.md.k2j4h5l6.tmp") in found and ("temp_file", "p/.notes.tmp") not in found
    store.rebuild_index()
    assert not left.exists() and kept.exists()
    assert store.check_index() == []


# -- ids -----------------------------------------------------------------------------------
def test_doubled_md_suffix_trashes_cleanly(store: Store) -> None:
    store.add("p", "Beta", "beta note\n")
    trash.trash(store, "p/beta.md.md")
    assert store.check_index() == []  # no orphan INDEX row


@pytest.mark.parametrize("spelling", ["p/beta", " p/beta.md ", "P/Beta", "p/BETA.MD", "p\\beta"])
def test_every_spelling_of_an_id_finds_the_entry(store: Store, spelling: str) -> None:
    store.add("p", "Beta", "beta note\n")
    assert store.get(spelling).id == "p/beta"


def test_nfc_and_nfd_spellings_are_one_id(store: Store) -> None:
    e = store.add("p", "Café", "coffee note\n")
    assert store.get("p/cafe\u0301").id == e.id  # decomposed é


def test_an_id_that_names_nothing_lists_the_nearest(store: Store) -> None:
    store.add("p", "Deploy notes", "deploy note\n")
    with pytest.raises(NotFound) as info:
        store.get("p/deploy-note")
    assert "did you mean: p/deploy-notes" in info.value.message


def test_search_through_the_grep_index_skips_a_fifo(store: Store) -> None:
    folder = store.root / "many"
    folder.mkdir()
    for i in range(80):  # enough files for the indexed literal search
        (folder / f"n{i}.md").write_text(f"---\ntitle: N{i}\n---\nnote {i} about rollbacks\n")
    os.mkfifo(folder / "pipe.md")
    proc = run(store.root, "search", "rollbacks", "--strategy", "grep", "--json")
    no_traceback(proc)
    out = json.loads(proc.stdout)
    assert out["ok"] and len(out["data"]["hits"]) >= 1, out


def test_deeply_nested_json_in_derived_state_is_skipped(store: Store) -> None:
    store.add("p", "One", "first note\n")
    deep = "[" * 100_000 + "]" * 100_000
    state = store.root / ".memsearch-tui"
    (state / "proposals").mkdir(exist_ok=True)
    (state / "proposals" / "deep.json").write_text(deep)
    (state / "oplog" / "999999.json").write_text(deep)
    (state / "upkeep.json").write_text(deep)
    for args in (["lifecycle", "proposals", "--json"], ["undo", "--list", "--json"], ["--run-due", "--json"]):
        proc = run(store.root, *args)
        no_traceback(proc)
    assert run(store.root, "undo", "--list", "--json").returncode == 0


def test_fifos_where_derived_indexes_belong_are_replaced(store: Store) -> None:
    e = store.add("p", "One", "first note\n")
    trash.trash(store, e.id)
    store.add("p", "Two", "second note\n")
    for index in (store.root / "p" / "INDEX.md", store.root / ".trash" / "INDEX.md"):
        index.unlink()
        os.mkfifo(index)
    check = run(store.root, "index", "check", "--json")
    no_traceback(check)
    kinds = {(p["file"], p["kind"]) for p in json.loads(check.stdout)["data"]["problems"]}
    assert ("p/INDEX.md", "missing_index") in kinds and (".trash/INDEX.md", "trash_index") in kinds
    fix = run(store.root, "index", "check", "--fix", "--json")
    no_traceback(fix)
    assert json.loads(fix.stdout)["data"]["remaining"] == []
    assert (store.root / "p" / "INDEX.md").is_file() and (store.root / ".trash" / "INDEX.md").is_file()


def test_trash_restore_takes_the_same_spellings(store: Store) -> None:
    store.add("p", "Beta", "beta note\n")
    trash.trash(store, " P/Beta.md.md ")
    assert store.check_index() == []
    trash.restore(store, "p/BETA.md")
    assert store.get("p/beta").title == "Beta" and store.check_index() == []


def test_fifos_in_place_of_derived_state_files_never_hang(store: Store) -> None:
    store.add("p", "One", "first note\n")
    state = store.root / ".memsearch-tui"
    for name in ("catalog.sqlite3", "lifecycle-scan.json", "access.sqlite3", "upkeep.json"):
        (state / name).unlink(missing_ok=True)
        os.mkfifo(state / name)
    for args in (["ls", "--json"], ["show", "p/one", "--json"], ["lifecycle", "plan", "--json"], ["--run-due"]):
        proc = run(store.root, *args)
        no_traceback(proc)
        assert proc.returncode == 0, (args, proc.stderr)


@pytest.mark.parametrize("option", ["--memory-root", "--project"])
def test_a_looping_folder_option_is_a_usage_error(store: Store, tmp_path: Path, option: str) -> None:
    loop = tmp_path / "loop"
    os.symlink("loop", loop)
    for args in (["ls", "--json"], ["doctor", "--json"], ["search", "x", "--json"]):
        proc = run(store.root, option, str(loop), *args)
        no_traceback(proc)
        assert proc.returncode == 2 and json.loads(proc.stdout)["error"]["code"] == "usage"
    hook = run(store.root, option, str(loop), "--run-due", "--hook", "claude-code")
    no_traceback(hook)
    assert hook.returncode == 1 and hook.stdout == b""


def test_a_looping_memory_root_from_the_environment_is_named(tmp_path: Path) -> None:
    loop = tmp_path / "rootloop"
    os.symlink("rootloop", loop)
    proc = run(loop, "ls", "--json")
    no_traceback(proc)
    assert proc.returncode == 1 and "symlink loop" in json.loads(proc.stdout)["error"]["message"]
