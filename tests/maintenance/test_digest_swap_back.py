"""memsearch's input digest read through folder descriptors: byte for byte with memsearch, and a
digest of files not all read whole is never kept (review, session 19)."""

from __future__ import annotations

from memsearch.maintenance import _input_digest as memsearch_digest

from memsearch_tui.engine.memsearch import state


def test_digest_is_memsearch_byte_for_byte_on_a_varied_tree(env, monkeypatch) -> None:
    """Sound check: nested, hidden, Chinese, a folder named *.md, an inside file link, a
    folder link (rglob does not follow), names sorting across depths."""
    monkeypatch.setattr(state, "_DIGESTS", {}, raising=False)
    memory = env.project / ".memsearch" / "memory"
    for rel, text in {
        "a.md": "a\n",
        "a-b.md": "ab\n",
        "a/b.md": "nested\n",
        "a/zz.md": "z\n",
        "a/y/z.md": "deep\n",
        ".hidden/x.md": "hidden\n",
        "笔记/2026-12-07.md": "- 缓存\n",
        "b.md/inner.md": "in a folder named .md\n",
        "B.md": "upper\n",
        "empty.md": "",
    }.items():
        p = memory / rel
        p.parent.mkdir(parents=True, exist_ok=True)
        p.write_text(text, encoding="utf-8")
    (memory / "link.md").symlink_to(memory / "a" / "b.md")
    (memory / "dirlink").symlink_to(memory / "a", target_is_directory=True)
    assert state.input_digest(memory) == memsearch_digest(memory)


def test_a_folder_swapped_away_and_back_during_a_digest_is_not_kept(env, monkeypatch) -> None:
    """A folder renamed away (a sync tool, a backup, a hostile writer) between the listing
    and the reads, then back: its files' stamps are those listed again, unchanged (a rename
    changes the folder's ctime, not its files'). The digest that left those files out must
    not be kept for these stamps: the next status, in this process or a fresh one, would
    serve it while every file is back."""
    monkeypatch.setattr(state, "_DIGESTS", {}, raising=False)
    monkeypatch.setattr(state, "RACY_NS", 0, raising=False)  # the files count as settled
    memory = env.project / ".memsearch" / "memory"
    (memory / "笔记").mkdir()
    (memory / "笔记" / "2026-12-07.md").write_text("- 缓存预热的竞态\n", encoding="utf-8")
    (memory / "2026-12-06.md").write_text("- the cache warm-up race\n", encoding="utf-8")
    listed = state._md_files
    away = env.tmp / "away"

    def swap_after_listing(*args):  # type: ignore[no-untyped-def]
        files = listed(*args)
        (memory / "笔记").rename(away)
        return files

    monkeypatch.setattr(state, "_md_files", swap_after_listing)
    transient = state.input_digest(memory)
    monkeypatch.setattr(state, "_md_files", listed)
    away.rename(memory / "笔记")  # back: the same files, the same stamps
    assert transient != memsearch_digest(memory)
    assert state.input_digest(memory) == memsearch_digest(memory)  # in this process
    monkeypatch.setattr(state, "_DIGESTS", {}, raising=False)
    assert state.input_digest(memory) == memsearch_digest(memory)  # a fresh one: digest_kept
