"""The literal search's cache: same answers as scanning the files, and never stale.

Every test changes real files the way people and tools do (in place with the old mtime
put back, atomic renames, moves, deletes, whole folders swapped) and checks the next
search sees exactly what a scan of the files sees.
"""

from __future__ import annotations

import os
import shutil
import time
from pathlib import Path

import pytest

from memsearch_tui.engine.search import grep_index
from memsearch_tui.engine.search.change_scan import ChangeScan, read_plan
from memsearch_tui.engine.search.grep import grep, literal_search
from memsearch_tui.engine.search.sources import searched_files


def entry(root: Path, rel: str, body: str, title: str = "T") -> Path:
    path = root / rel
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(f"---\ntitle: {title}\nstatus: active\n---\n\n{body}\n", encoding="utf-8")
    return path


@pytest.fixture(autouse=True)
def _short_margin(monkeypatch: pytest.MonkeyPatch) -> None:
    """50 ms instead of 2 s for 'too recent to trust', and fixtures older than that, so the
    files a test did not touch are not re-reported by every scan: each change must be
    found by the mechanism meant to find it."""
    monkeypatch.setattr(grep_index, "MARGIN_NS", 50_000_000)


@pytest.fixture
def mem(tmp_path: Path) -> tuple[Path, Path]:
    root = tmp_path / "memory"
    entry(root, "projects/alpha.md", "# Deploy\nalpha deploys with kubectl. Rollback by tag.\n")
    entry(root, "projects/web/beta.md", "beta uses Go and deploys twice; deploy deploy\n")
    entry(root, "people/用户偏好.md", "喜欢深色主题。回滚时先通知。\n")
    entry(root, "people/archived/old.md", "an archived note about kubectl\n")
    (root / "INDEX.md").write_text("| kubectl in an index is not an entry |\n", encoding="utf-8")
    (root / "tools").mkdir()
    (root / "tools/edge.md").write_bytes('say "hi" (AND) or* NEAR x 结尾回滚'.encode())  # no final newline
    project = tmp_path / "proj"
    journals = project / ".memsearch" / "memory"
    journals.mkdir(parents=True)
    (journals / "2026-11-29.md").write_text("## Session\n### 10:00\nwe discussed kubectl rollback\n", encoding="utf-8")
    (project / ".memsearch" / "PROJECT.md").write_text("# Project\nGo service, 回滚 via tags\n", encoding="utf-8")
    time.sleep(0.1)
    return root, project


def scanned(
    root: Path, project: Path | None, query: str, k: int = 20, category: str | None = None, source: str = "all"
) -> list[tuple[str, float, int]]:
    """Hits (id, score, line) from reading every file, plus ("files", count) at the end."""
    files = searched_files(root, project, category, source)
    return [(h.id, h.score, h.start) for h in grep(files, query, k)] + [("files", len(files), 0)]


def cached(
    root: Path, project: Path | None, query: str, k: int = 20, category: str | None = None, source: str = "all"
) -> list[tuple[str, float, int]]:
    """The same from the literal search through its cache."""
    res = literal_search(root, project, query, k, category, source)
    return [(h.id, h.score, h.start) for h in res.hits] + [("files", res.files, 0)]


def ids(hits: list[tuple[str, float, int]]) -> list[str]:
    return [h[0] for h in hits if h[0] != "files"]


QUERIES = [
    "kubectl",
    "DEPLOY",
    "deploy",
    "回滚",
    "深色",
    "go",
    "rollback tag",
    "kubectl nothing-here",
    "no such words",
    "be",
    "*",
    "beta uses",
    "x",
    "滚",
    '"hi"',
    '" (and',
    "(and)",
    "or*",
    "near",
    "回滚 x",
]


@pytest.mark.parametrize("query", QUERIES)
def test_same_hits_as_scanning_the_files(mem, query):
    root, project = mem
    assert cached(root, project, query) == scanned(root, project, query)
    assert cached(root, project, query) == scanned(root, project, query)  # warm cache, same answer


def test_filters_by_category_and_source(mem):
    root, project = mem
    for category, source in [("projects", "all"), ("people", "store"), (None, "journal"), (None, "store")]:
        assert cached(root, project, "kubectl", category=category, source=source) == scanned(
            root, project, "kubectl", category=category, source=source
        )
    assert ids(cached(root, project, "kubectl", source="store")) == ["people/archived/old", "projects/alpha"]
    res = literal_search(root, project, "kubectl", 10, None, "journal")
    assert res.files == 2 and [h.kind for h in res.hits] == ["journal"]


def test_index_md_and_dot_folders_are_not_entries(mem):
    root, project = mem
    entry(root, ".trash/gone.md", "kubectl in the trash\n")
    entry(root, "projects/.versions/alpha.1.md", "kubectl in a kept version\n")
    assert ids(cached(root, None, "kubectl")) == ["people/archived/old", "projects/alpha"]


def test_in_place_edit_with_the_old_mtime_put_back_is_seen(mem):
    root, project = mem
    path = root / "projects/alpha.md"
    assert ids(cached(root, None, "zebra")) == []
    st = path.stat()
    text = path.read_text(encoding="utf-8").replace("kubectl", "zebrax")  # same length
    with open(path, "r+", encoding="utf-8") as fh:  # in place: the folder does not change
        fh.write(text)
    os.utime(path, ns=(st.st_atime_ns, st.st_mtime_ns))
    assert path.stat().st_size == st.st_size and path.stat().st_mtime_ns == st.st_mtime_ns
    assert ids(cached(root, None, "zebrax")) == ["projects/alpha"]


def test_settled_files_are_not_reread_but_changes_after_settling_are_seen(mem, monkeypatch):
    root, _ = mem
    cached(root, None, "kubectl")
    reads: list[str] = []
    real = grep_index.read_lowered
    monkeypatch.setattr(grep_index, "read_lowered", lambda p: reads.append(p) or real(p))
    cached(root, None, "kubectl")
    cached(root, None, "kubectl")
    assert reads == []
    new = entry(root, "people/new.md", "kubectl arrives later\n")
    assert "people/new" in ids(cached(root, None, "kubectl"))
    assert reads == [os.path.realpath(new)]


def test_adds_deletes_renames_and_moves_in(mem, tmp_path):
    root, project = mem
    cached(root, project, "kubectl")
    (root / "projects/alpha.md").unlink()
    entry(root, "tools/new.md", "kubectl helper\n")
    (root / "people").rename(root / "folks")
    outside = entry(tmp_path / "elsewhere", "moved.md", "kubectl from elsewhere\n")
    os.utime(outside, ns=(1_000_000_000, 1_000_000_000))  # an old mtime, as mv keeps it
    shutil.move(str(outside), root / "tools" / "moved.md")
    got = cached(root, project, "kubectl")
    assert got == scanned(root, project, "kubectl")
    assert set(ids(got)) >= {"tools/new", "tools/moved", "folks/archived/old"}
    assert "projects/alpha" not in set(ids(got))


def test_a_folder_swapped_for_another_of_the_same_name(mem, tmp_path):
    root, _ = mem
    spare = tmp_path / "spare"
    entry(spare, "archived/old.md", "a different note about pandas\n")
    time.sleep(0.1)  # the spare's files are old news by the time it is swapped in
    cached(root, None, "kubectl")
    shutil.rmtree(root / "people")
    spare.rename(root / "people")
    assert cached(root, None, "pandas") == scanned(root, None, "pandas")
    assert ids(cached(root, None, "pandas")) == ["people/archived/old"]
    assert cached(root, None, "kubectl") == scanned(root, None, "kubectl")


def test_journals_follow_their_files(mem):
    root, project = mem
    cached(root, project, "kubectl")
    journals = project / ".memsearch" / "memory"
    (journals / "2026-11-30.md").write_text("### 09:00\nnew journal about kubectl\n", encoding="utf-8")
    (journals / "2026-11-29.md").unlink()
    assert cached(root, project, "kubectl") == scanned(root, project, "kubectl")


def test_symlinks_count_only_inside_the_root(mem, tmp_path):
    root, _ = mem
    secret = entry(tmp_path / "outside", "secret.md", "kubectl secret outside the root\n")
    (root / "projects/leak.md").symlink_to(secret)
    inner = root / "projects/alias.md"
    inner.symlink_to(root / "projects/web/beta.md")
    assert "projects/alias" in ids(cached(root, None, "deploy"))
    assert cached(root, None, "secret") == scanned(root, None, "secret")
    assert ids(cached(root, None, "secret")) == []
    (root / "projects/web/beta.md").write_text("now about zebras\n", encoding="utf-8")
    assert ids(cached(root, None, "zebras")) == ["projects/alias", "projects/web/beta"]


def test_a_damaged_cache_is_rebuilt(mem):
    root, project = mem
    before = cached(root, project, "kubectl")
    db = root / ".memsearch-tui" / grep_index.DB_NAME
    for suffix in ("-wal", "-shm"):
        Path(f"{db}{suffix}").unlink(missing_ok=True)
    db.write_bytes(b"this is not a database" * 100)
    assert cached(root, project, "kubectl") == before
    assert cached(root, project, "kubectl") == before


def test_a_lost_stamp_means_a_full_look(mem):
    root, _ = mem
    cached(root, None, "kubectl")
    (root / ".memsearch-tui" / "grep.stamp").unlink()
    path = root / "projects/alpha.md"
    st = path.stat()
    path.write_text(path.read_text(encoding="utf-8").replace("kubectl", "zebrax"), encoding="utf-8")
    os.utime(path, ns=(st.st_atime_ns, st.st_mtime_ns))
    assert ids(cached(root, None, "zebrax")) == ["projects/alpha"]


def test_without_find_the_store_is_walked(mem, monkeypatch, tmp_path):
    root, _ = mem
    cached(root, None, "kubectl")
    monkeypatch.setenv("PATH", str(tmp_path / "no-tools-here"))
    scan = ChangeScan(root)
    assert scan.paths() is None
    entry(root, "tools/new.md", "kubectl later\n")
    assert cached(root, None, "kubectl") == scanned(root, None, "kubectl")


def test_the_scan_is_split_over_cpus_and_still_sees_everything(mem, monkeypatch):
    root, _ = mem
    monkeypatch.setattr(grep_index, "SPLIT_SCAN_FROM", 1)
    monkeypatch.setattr(os, "cpu_count", lambda: 2)
    entry(root, "tools/x.md", "kubectl x\n")
    cached(root, None, "kubectl")
    entry(root, "tools/y.md", "kubectl y\n")  # the stamp advances and records the plan
    cached(root, None, "kubectl")
    plan = read_plan((root / ".memsearch-tui" / "grep.stamp").read_bytes())
    assert len(plan) == 2 and sorted(n for g in plan for n in g) == ["people", "projects", "tools"]
    path = root / "people/archived/old.md"
    path.write_text(path.read_text(encoding="utf-8").replace("kubectl", "zebrax"), encoding="utf-8")
    shutil.rmtree(root / "tools")
    entry(root, "brand-new/z.md", "kubectl z\n")
    assert cached(root, None, "kubectl") == scanned(root, None, "kubectl")
    assert ids(cached(root, None, "zebrax")) == ["people/archived/old"]


def test_no_memory_root_searches_journals_without_creating_it(mem, tmp_path):
    _, project = mem
    missing = tmp_path / "nowhere"
    assert ids(cached(missing, project, "kubectl")) == [str(project / ".memsearch/memory/2026-11-29.md")]
    assert not missing.exists()


def test_a_root_where_no_cache_can_be_kept_is_scanned(mem):
    root, project = mem
    (root / ".memsearch-tui").write_text("a file where the cache folder would go\n", encoding="utf-8")
    assert cached(root, project, "kubectl") == scanned(root, project, "kubectl")
    assert len(ids(cached(root, project, "kubectl"))) == 3
    assert (root / ".memsearch-tui").is_file()


def test_results_report_paths_as_the_caller_spelled_the_root(mem, tmp_path):
    root, _ = mem
    link = tmp_path / "via-link"
    link.symlink_to(root)
    res = literal_search(link, None, "kubectl", 5)
    assert res.hits and all(h.path.startswith(str(link)) for h in res.hits)
    assert cached(root, None, "kubectl") == cached(link, None, "kubectl")


def test_a_file_name_that_is_not_utf8_is_skipped_not_fatal(mem):
    root, _ = mem
    cached(root, None, "kubectl")
    bad = os.path.join(os.fsencode(root), b"projects", b"bad\xff.md")
    with open(bad, "wb") as fh:
        fh.write(b"---\ntitle: Bad\n---\n\nkubectl in a file with a broken name\n")
    os.mkdir(os.path.join(os.fsencode(root), b"odd\xfe"))
    assert ids(cached(root, None, "kubectl")) == ["people/archived/old", "projects/alpha"]
    os.unlink(bad)
    assert ids(cached(root, None, "kubectl")) == ["people/archived/old", "projects/alpha"]
