"""Paths from ``~`` (``engine.api.text``): the one way the CLI and the app say a path."""

from __future__ import annotations

from memsearch_tui.engine.api.text import home_relative, home_relative_in


def test_only_the_home_folder_itself_becomes_tilde(monkeypatch):
    monkeypatch.setenv("HOME", "/home/ann")
    said = home_relative_in(
        "it targets '/home/ann/笔记/a.md', not /home/ann2/b.md nor /mnt/home/ann/c.md; home is /home/ann."
    )
    assert said == "it targets '~/笔记/a.md', not /home/ann2/b.md nor /mnt/home/ann/c.md; home is ~."
    assert home_relative("/home/ann/memory") == "~/memory" and home_relative("/home/ann") == "~"
    assert home_relative("/home/ann2/memory") == "/home/ann2/memory"


def test_a_root_home_shortens_nothing(monkeypatch):
    monkeypatch.setenv("HOME", "/")
    assert home_relative_in("it targets '/etc/passwd'") == "it targets '/etc/passwd'"
