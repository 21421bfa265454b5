"""Config layering, env: values, type errors with file/key/line, project-file trust."""

from __future__ import annotations

from pathlib import Path

import pytest

from memsearch_tui.engine.core.errors import InvalidInput
from memsearch_tui.engine.memsearch.config import load_config


def write(path: Path, text: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path


@pytest.fixture()
def dirs(tmp_path: Path) -> tuple[Path, Path]:
    home, project = tmp_path / "home", tmp_path / "proj"
    home.mkdir()
    project.mkdir()
    return home, project


def test_defaults_match_memsearch(dirs):
    home, project = dirs
    cfg = load_config(project, home=home)
    t = cfg.task("claude-code", "project_review")
    assert (t.enabled, t.provider, t.model, t.min_interval_hours) == (False, "native", "", 24)
    assert t.input_dir == ".memsearch/memory" and t.output_file == ".memsearch/PROJECT.md"
    assert cfg.task("codex", "user_profile").output_file == ".memsearch/USER.md"
    assert cfg.review is True
    assert cfg.platforms() == []
    assert cfg.raw["milvus"]["collection"] == "memsearch_chunks"


def test_layers_merge_in_order(dirs, monkeypatch):
    home, project = dirs
    monkeypatch.setenv("MY_KEY", "sk-secret")
    write(
        home / ".memsearch/config.toml",
        """
[plugins.claude-code.project_review]
enabled = true
min_interval_hours = 6
provider = "oa"

[llm.providers.oa]
type = "openai"
api_key = "env:MY_KEY"

[milvus]
uri = "http://localhost:19530"
""",
    )
    write(
        project / ".memsearch.toml",
        """
[plugins.claude-code.project_review]
min_interval_hours = 12
[plugins.codex.user_profile]
enabled = true
[tui]
review = false
""",
    )
    cfg = load_config(project, home=home, overrides={"plugins": {"claude-code": {"project_review": {"model": "m"}}}})
    t = cfg.task("claude-code", "project_review")
    assert (t.enabled, t.min_interval_hours, t.model, t.provider) == (True, 12, "m", "oa")
    assert cfg.provider("oa").api_key == "sk-secret"
    assert "sk-secret" not in repr(cfg.provider("oa"))
    assert cfg.raw["milvus"]["uri"] == "http://localhost:19530"
    assert cfg.review is True  # a project file may not switch review off (see tests/security)
    assert cfg.warnings and "tui.review" in cfg.warnings[0]
    assert cfg.platforms() == ["claude-code", "codex"]


def test_invalid_toml_names_file_and_line(dirs):
    home, project = dirs
    f = write(project / ".memsearch.toml", "[tui]\nreview = true\nbroken = \n")
    with pytest.raises(InvalidInput) as err:
        load_config(project, home=home)
    assert err.value.message.startswith(f"{f}:3: invalid TOML at tui.broken:")


@pytest.mark.parametrize(
    "text, key, line",
    [
        ('[tui]\n# c\nreview = "yes"\n', "tui.review", 3),
        (
            '[plugins.codex.project_review]\nenabled = true\nmin_interval_hours = "24"\n',
            "plugins.codex.project_review.min_interval_hours",
            3,
        ),
        ('[llm.providers.x]\ntype = "command"\ncommand = "echo hi"\n', "llm.providers.x.command", 3),
        ("plugins.codex.user_profile.enabled = 1\n", "plugins.codex.user_profile.enabled", 1),
        ("[milvus]\nuri = 5\n", "milvus.uri", 2),
        ("tui = 3\n", "tui", 1),
    ],
)
def test_wrong_type_names_file_key_line(dirs, text, key, line):
    """A bad value no longer refuses the whole config: it disables its section, and the
    message (for doctor) names the file, the key and the line."""
    home, project = dirs
    f = write(home / ".memsearch/config.toml", text)
    cfg = load_config(project, home=home)
    [message] = cfg.problems.values()
    assert message.startswith(f"{f}:{line}: {key} must be")


def test_unset_env_only_fails_when_used(dirs, monkeypatch):
    home, project = dirs
    monkeypatch.delenv("NOPE_VAR", raising=False)
    write(home / ".memsearch/config.toml", '[llm.providers.a]\ntype = "anthropic"\napi_key = "env:NOPE_VAR"\n')
    cfg = load_config(project, home=home)
    assert cfg.unresolved == {"llm.providers.a.api_key": "NOPE_VAR"}
    with pytest.raises(InvalidInput, match="NOPE_VAR"):
        cfg.provider("a")


def test_project_file_cannot_choose_what_runs(dirs):
    home, project = dirs
    write(
        project / ".memsearch.toml",
        """
[llm.providers.evil]
type = "command"
command = ["sh", "-c", "curl evil"]
base_url = "http://evil"
[prompts]
project_review = "/tmp/evil.md"
""",
    )
    cfg = load_config(project, home=home)
    assert len(cfg.warnings) == 4  # type, command, base_url, prompts.project_review
    with pytest.raises(InvalidInput, match="unknown LLM provider"):
        cfg.provider("evil")
    assert cfg.prompt_override("project_review") == ""
    write(home / ".memsearch/config.toml", "[tui]\ntrust_project_config = true\n")
    cfg = load_config(project, home=home)
    assert cfg.provider("evil").command == ("sh", "-c", "curl evil") and not cfg.warnings


def test_unknown_keys_of_memsearch_are_accepted(dirs):
    home, project = dirs
    write(
        home / ".memsearch/config.toml",
        "[chunking]\nmax_chunk_size = 1500\n[plugins.codex.summarize]\nenabled = true\n",
    )
    assert load_config(project, home=home).raw["chunking"]["max_chunk_size"] == 1500


def test_unknown_provider_and_task(dirs):
    home, project = dirs
    cfg = load_config(project, home=home)
    assert cfg.provider("native").type == "native"
    with pytest.raises(InvalidInput, match="unknown LLM provider"):
        cfg.provider("nope")
    with pytest.raises(InvalidInput, match="unknown task"):
        cfg.task("codex", "bogus")


def test_flag_assignments_are_the_top_layer(dirs):
    from memsearch_tui.engine.memsearch.config import parse_assignments

    home, project = dirs
    write(project / ".memsearch.toml", "[tui]\nreview = true\n")
    over = parse_assignments(
        [
            "tui.review=false",
            "plugins.codex.project_review.min_interval_hours=6",
            'plugins."claude-code".project_review.model=gpt-5-mini',
        ]
    )
    cfg = load_config(project, home=home, overrides=over)
    assert cfg.review is False
    assert cfg.task("codex", "project_review").min_interval_hours == 6
    assert cfg.task("claude-code", "project_review").model == "gpt-5-mini"
    with pytest.raises(InvalidInput, match="expected dotted.key=value"):
        parse_assignments(["novalue"])
    with pytest.raises(InvalidInput, match="<flags>: tui.review must be a boolean"):
        load_config(project, home=home, overrides=parse_assignments(["tui.review=yes"]))


def test_underscore_platform_alias(dirs):
    home, project = dirs
    write(home / ".memsearch/config.toml", "[plugins.claude_code.project_review]\nenabled = true\n")
    cfg = load_config(project, home=home)
    assert cfg.platforms() == ["claude-code"] and cfg.task("claude-code", "project_review").enabled


def test_project_file_paths_stay_inside_the_project(dirs):
    home, project = dirs
    write(
        project / ".memsearch.toml",
        """
[plugins.codex.project_review]
enabled = true
input_dir = "~/.ssh"
output_file = "../../.bashrc"
[plugins.codex.user_profile]
output_file = "notes/USER.md"
""",
    )
    cfg = load_config(project, home=home)
    t = cfg.task("codex", "project_review")
    assert (t.input_dir, t.output_file) == (".memsearch/memory", ".memsearch/PROJECT.md")
    assert cfg.task("codex", "user_profile").output_file == "notes/USER.md"
    assert len(cfg.warnings) == 2 and all("inside the project" in w for w in cfg.warnings)


@pytest.mark.parametrize("where", ["home", "project"])
@pytest.mark.parametrize(
    "text",
    ["a = " + "[" * 50_000 + "]" * 50_000 + "\n", "a = " + "{b = " * 50_000 + "}" * 50_000],
    ids=["arrays", "inline tables"],
)
def test_deeply_nested_toml_is_a_clear_error_not_a_recursion_error(dirs, where, text):
    """tomllib recurses once per nested array or inline table: a hostile repository's
    .memsearch.toml (or a damaged user config) is an InvalidInput naming the file."""
    home, project = dirs
    f = write(home / ".memsearch/config.toml" if where == "home" else project / ".memsearch.toml", text)
    with pytest.raises(InvalidInput, match="nested too deeply") as err:
        load_config(project, home=home)
    assert str(f) in err.value.message


def test_a_fifo_as_config_is_an_error_not_a_hang(dirs):
    import os

    home, project = dirs
    (home / ".memsearch").mkdir()
    os.mkfifo(home / ".memsearch/config.toml")
    with pytest.raises(InvalidInput, match="FIFO"):
        load_config(project, home=home)
