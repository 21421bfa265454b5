"""A credential in a category or target path is refused like one in a title: a category is
a folder name and a root INDEX.md row, so a secret there would be stored on disk. Every
way a path arrives is covered: `add`, `import --category`, the API/MCP `remember` (also
in review mode, where it would land in a proposal file), relocate and split targets."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from memsearch_tui.engine.api import Memory
from memsearch_tui.engine.core.errors import Refused
from memsearch_tui.engine.curator import split
from memsearch_tui.engine.curator.relocate import relocate
from memsearch_tui.engine.store.store import Store

SECRETS = {
    "password assignment": ("password=" + "hunter2secret99", "hunter2secret99"),
    "Anthropic key": ("sk-ant-api03-" + "AAAAAAAAAAAAAAAAAAAAAAAA", "AAAAAAAAAAAAAAAAAAAAAAAA"),
    "AWS key id": ("AKIA" + "IOSFODNN7EXAMPLE", "IOSFODNN7"),
}


def _nowhere(root: Path, piece: str) -> bool:
    """``piece`` is in no file name and no file under ``root``."""
    return not any(piece in p.name or (p.is_file() and piece.encode() in p.read_bytes()) for p in root.rglob("*"))


@pytest.mark.parametrize("name", sorted(SECRETS))
@pytest.mark.parametrize("as_json", [False, True])
def test_add_refuses_a_secret_in_the_category(cli, store: Store, name: str, as_json: bool) -> None:
    secret, piece = SECRETS[name]
    r = cli("add", secret, "QA", "--body", "plain body text", *(["--json"] if as_json else []))
    assert r.code == 1, r.out + r.err
    assert piece not in r.out + r.err
    if as_json:
        assert r.json["ok"] is False and r.json["error"]["code"] == "secret"
    else:
        assert "looks like it contains a secret" in r.err
    assert _nowhere(store.root, piece)
    assert cli("ls", "--json").json["data"]["entries"] == []


def test_a_secret_in_a_nested_category_part_is_refused(cli, store: Store) -> None:
    secret, piece = SECRETS["password assignment"]
    r = cli("add", f"projects/{secret}/web", "QA", "--body", "plain body text", "--json")
    assert r.code == 1 and r.json["error"]["code"] == "secret"
    assert _nowhere(store.root, piece)


def test_import_refuses_a_secret_category_before_reading(cli, store: Store, tmp_path: Path) -> None:
    secret, piece = SECRETS["AWS key id"]
    src = tmp_path / "MEMORY.md"
    src.write_text("# Notes\n\n## Build\n\nuse make\n", encoding="utf-8")
    r = cli("import", str(src), "--category", secret, "--json")
    assert r.code == 1 and r.json["error"]["code"] == "secret", r.out
    assert piece not in r.out + r.err
    assert _nowhere(store.root, piece)


@pytest.mark.parametrize("writes", ["direct", "review"])
def test_the_api_remember_refuses_a_secret_category(store: Store, tmp_path: Path, writes: str) -> None:
    secret, piece = SECRETS["Anthropic key"]
    with Memory(store.root, tmp_path, writes=writes) as m, pytest.raises(Refused) as exc:
        m.entries.add(secret, "QA", "plain body text")
    assert exc.value.code == "secret" and piece not in str(exc.value)
    assert _nowhere(store.root, piece)


def test_relocate_refuses_a_secret_target(store: Store) -> None:
    secret, piece = SECRETS["password assignment"]
    entry = store.add("notes", "QA", "plain body text")
    with pytest.raises(Refused) as exc, store.edit("move", "move") as ed:
        relocate(store, ed, {entry.id: f"{secret}/qa"})
    assert exc.value.code == "secret"
    assert store.path_of(entry.id).is_file()
    assert _nowhere(store.root, piece)


def test_split_moves_refuse_a_secret_target(store: Store) -> None:
    secret, piece = SECRETS["AWS key id"]
    entry = store.add("notes", "QA", "plain body text")
    with pytest.raises(Refused) as exc:
        split.apply_moves(store, "notes", {entry.id: f"notes/{secret}/qa"})
    assert exc.value.code == "secret"
    assert store.path_of(entry.id).is_file()
    assert _nowhere(store.root, piece)


def test_a_plain_category_is_still_accepted(cli, store: Store) -> None:
    r = cli("add", "projects/web", "QA", "--body", "plain body text", "--json")
    assert r.code == 0, r.out
    assert json.loads(r.out)["data"]["entry"]["id"] == "projects/web/qa"
