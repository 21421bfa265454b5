"""The input digest checks where the memory folder leads before it opens it.

``input_dir`` may be a symlink (configured so, or put there by a repository). The digest
opened it, following the link, and only then asked whether it leads out of the project: a
link swapped from a folder outside to one inside between the two had the listing go through
the descriptor of the outside folder, its files read and hashed. Now the resolved folder is
checked, opened without following a last link, and must be the one the link leads to, inside.
A link that stays inside is followed, with memsearch 0.4.23's digest, byte for byte.
"""

from __future__ import annotations

import hashlib

import pytest
from memsearch.maintenance import _input_digest as memsearch_digest

from memsearch_tui.engine.memsearch import state

NOTHING = "sha256:" + hashlib.sha256().hexdigest()


def _days(folder, words: str) -> None:
    folder.mkdir(parents=True)
    (folder / "2026-12-08.md").write_text(f"# 2026-12-08\n{words}", encoding="utf-8")
    (folder / "笔记").mkdir()
    (folder / "笔记" / "2026-12-09.md").write_text(f"# 2026-12-09\n{words}", encoding="utf-8")


def test_a_root_link_swapped_from_outside_to_inside_is_not_listed_through(env, monkeypatch) -> None:
    monkeypatch.setattr(state, "_DIGESTS", {}, raising=False)
    inside, outside = env.mem / "memory" / "kept", env.tmp / "someone-elses"
    _days(inside, "- 缓存预热 cache warm-up\n")
    _days(outside, "- the ssh key 私钥 SECRET\n")
    link = env.mem / "linked"
    link.symlink_to(outside, target_is_directory=True)  # leads out when the digest begins
    listed = state._md_files

    def swap_then_list(root, top):  # type: ignore[no-untyped-def]
        link.unlink()
        link.symlink_to(inside, target_is_directory=True)  # inside by the time it is checked
        return listed(root, top)

    monkeypatch.setattr(state, "_md_files", swap_then_list)
    digest = state.input_digest(link)
    assert digest != memsearch_digest(outside), "the outside folder was listed and hashed"
    assert digest == NOTHING  # it led out when it was opened: nothing


@pytest.mark.parametrize("words", ["- the cache warm-up race\n", "- 缓存预热的竞态\n"], ids=["en", "zh"])
def test_a_root_link_inside_the_project_keeps_memsearchs_digest(env, monkeypatch, words) -> None:
    monkeypatch.setattr(state, "_DIGESTS", {}, raising=False)
    inside = env.project / "journal"
    _days(inside, words)
    link = env.mem / "linked"
    link.symlink_to(inside, target_is_directory=True)
    assert state.input_digest(link) == memsearch_digest(link) == memsearch_digest(inside) != NOTHING
    assert state.input_digest(inside) == memsearch_digest(inside)
