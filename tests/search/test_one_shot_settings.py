"""A one-shot search skips the config module when there is no config file: same settings."""

from __future__ import annotations


def test_settings_without_config_files_equal_the_config_modules_defaults(memory, tmp_path):
    """A project and home without config files skip the config module: same settings."""
    from memsearch_tui.engine.memsearch.config import home_config_path, load_config, project_config_path
    from memsearch_tui.engine.search.settings import config_files, load_settings

    root, project = memory
    assert config_files(project) == (home_config_path(), project_config_path(project))
    assert not any(p.exists() for p in config_files(project))
    merged = load_config(project)
    assert load_settings(root, project) == load_settings(root, project, {**merged.raw, "_problems": merged.problems})
