"""Reads never write, and a write changes only what it changes (issue #12, items 1 and 2)."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from memsearch_tui.engine.core import frontmatter_io as fmio
from memsearch_tui.engine.curator import lifecycle
from memsearch_tui.engine.history import oplog, undo
from memsearch_tui.engine.store.store import Change, Store

# Valid entries in shapes a line-editor of ``accessed:`` used to corrupt.
SHAPES = {
    "flow mapping": "---\n{title: F, status: active}\n---\nbody\n",
    "quoted accessed key": '---\ntitle: Q\n"accessed": 2026-01-01\n---\nbody\n',
    "complex accessed key": "---\ntitle: C\n? accessed\n: 2026-01-01\n---\nbody\n",
    "block list value": "---\ntitle: B\nrelated:\n- a/x\n- a/y\n---\nbody\n",
    "store style": "---\ntitle: S\nstatus: active\ncreated: 2026-01-01\n---\nbody\n",
}


@pytest.mark.parametrize("shape", SHAPES)
def test_show_never_writes_the_entry(cli, tmp_path: Path, shape: str) -> None:
    from memsearch_tui.engine.store import access  # new module: imported here so each case fails alone

    cli("init")
    path = tmp_path / "memory" / "a" / "e.md"
    path.parent.mkdir(parents=True)
    path.write_text(SHAPES[shape], encoding="utf-8")
    before = path.read_bytes()
    for _ in range(2):
        res = cli("show", "a/e", "--json")
        assert res.code == 0 and res.json["ok"], res.out
    assert path.read_bytes() == before
    assert Store(tmp_path / "memory").get("a/e").title  # the next read works
    assert access.last_read(tmp_path / "memory") == {"a/e": "2026-11-30"}


def test_the_read_record_keeps_lifecycle_and_undo_working(store: Store, monkeypatch: pytest.MonkeyPatch) -> None:
    def at(day: str) -> None:
        monkeypatch.setenv("MEMSEARCH_TUI_NOW", f"{day}T12:00:00Z")

    at("2026-01-01")
    e = store.add("p", "Old", "an old note\n")
    at("2026-10-01")
    records = len(oplog.records(store.root))
    assert lifecycle.touch_accessed(store, e.id) is True
    assert lifecycle.touch_accessed(store, e.id + ".md") is False  # same id, once a day
    assert len(oplog.records(store.root)) == records  # nothing logged: nothing written
    at("2026-11-30")
    assert e.id not in {m["id"] for m in lifecycle.plan(store)}  # read 60 days ago: kept
    at("2027-03-01")
    assert e.id in {m["id"] for m in lifecycle.plan(store)}
    undo.undo_last(store.root)  # the add is undone; the read never blocked it
    assert not e.path.exists()


def test_a_damaged_read_record_is_thrown_away(store: Store) -> None:
    from memsearch_tui.engine.store import access

    e = store.add("p", "One", "a note\n")
    (store.root / ".memsearch-tui" / access.ACCESS_FILE).write_bytes(b"not sqlite at all" * 100)
    assert access.last_read(store.root) == {}
    assert lifecycle.touch_accessed(store, e.id) is True
    assert access.last_read(store.root) == {e.id: "2026-11-30"}


# -- round trip -------------------------------------------------------------------------
HAND = (
    "---\n"
    "# written by hand\n"
    "title: 'Quoted title'   # keep me\n"
    "status: active\n"
    "defaults: &d {retries: 3, verbose: false}\n"
    "prod: *d\n"
    "tags: [alpha, beta]\n"
    "notes: |\n"
    "  line one\n"
    "  line two\n"
    '"odd key": "double"\n'
    "related:\n"
    "  - p/one\n"
    "  - p/two\n"
    "---\n"
    "first line\r\nsecond line\nthird\r\n"
)


def test_update_changes_only_the_edited_keys(store: Store) -> None:
    path = store.root / "p" / "hand.md"
    path.parent.mkdir()
    path.write_bytes(HAND.encode())
    store.update("p/hand", Change(tags=["gamma"]))
    expected = HAND.replace("tags: [alpha, beta]\n", "tags: [gamma]\n").replace(
        "related:\n", "related:\nupdated: 2026-11-30\n", 0
    )
    text = path.read_bytes().decode()
    assert text == expected.replace("---\nfirst", "updated: 2026-11-30\n---\nfirst")
    store.update("p/hand", Change(related=["p/three"]))
    text = path.read_bytes().decode()
    assert "related:\n  - p/three\nupdated: 2026-11-30\n---\n" in text  # block style kept
    assert text.endswith("---\nfirst line\r\nsecond line\nthird\r\n")  # mixed endings kept
    assert "prod: *d\n" in text and "# keep me" in text and '"odd key": "double"' in text


def test_body_edit_keeps_the_frontmatter_and_appended_text_follows_the_file(store: Store) -> None:
    path = store.root / "p" / "crlf.md"
    path.parent.mkdir()
    raw = "---\r\ntitle: C  # comment\r\n---\r\nbody\r\n"
    path.write_bytes(raw.encode())
    store.update("p/crlf", Change(body="body\nmore\n"))
    assert path.read_bytes() == b"---\r\ntitle: C  # comment\r\nupdated: 2026-11-30\r\n---\r\nbody\r\nmore\r\n"


_WORD = st.text("abcdefghij", min_size=1, max_size=6)
_VALUE_STYLES = ["plain", "single", "double", "flow", "block", "literal", "anchor"]


@st.composite
def _frontmatter(draw: st.DrawFn) -> tuple[list[tuple[str, str]], str]:
    """(key, text of its chunk) pairs — comments, every value style, anchors — and a newline."""
    nl = draw(st.sampled_from(["\n", "\r\n"]))
    keys = draw(st.lists(_WORD, min_size=2, max_size=6, unique=True))
    chunks: list[tuple[str, str]] = []
    anchors: list[str] = []
    for i, key in enumerate(keys):
        key = f"k{i}{key}"
        style = draw(st.sampled_from(_VALUE_STYLES if not anchors else [*_VALUE_STYLES, "alias"]))
        w = draw(_WORD)
        value = {
            "plain": f"{key}: {w}",
            "single": f"{key}: '{w} x'",
            "double": f'{key}: "{w}\\t"',
            "flow": f"{key}: [{w}, {{a: 1}}]",
            "block": f"{key}:{nl}  - {w}{nl}  - 2",
            "literal": f"{key}: |{nl}  {w}{nl}  more",
            "anchor": f"{key}: &a{i} [{w}]",
            "alias": f"{key}: *{anchors[-1] if anchors else ''}",
        }[style]
        if style == "anchor":
            anchors.append(f"a{i}")
        comment = draw(st.sampled_from(["", f"# note {w}{nl}"]))
        chunks.append((key, f"{comment}{value}{nl}"))
    return chunks, nl


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(fm=_frontmatter(), pick=st.integers(0, 5), new=st.sampled_from(["v", ["x", "y"], 7, "two\nlines"]))
def test_editing_one_key_keeps_every_other_byte(fm, pick: int, new) -> None:
    chunks, nl = fm
    body = f"first{nl}second\nthird\r\n"
    raw = ("---" + nl + "".join(c for _, c in chunks) + "---" + nl + body).encode()
    doc = fmio.parse(raw, "gen.md")
    key, _ = chunks[pick % len(chunks)]
    doc.meta[key] = new
    out = fmio.dump(doc)
    again = fmio.parse(out, "out.md")
    assert again.meta == doc.meta
    text = out.decode()
    i = pick % len(chunks)
    before = "---" + nl + "".join(c for _, c in chunks[:i])
    after = "".join(c for _, c in chunks[i + 1 :]) + "---" + nl + body
    anchored = any("*" in c for _, c in chunks[i + 1 :]) and "&" in chunks[i][1]
    if not anchored:  # changing an anchored value may re-dump (aliases would follow it)
        assert text.startswith(before) and text.endswith(after)
    assert text.endswith("---" + nl + body)  # the body, mixed endings and all, always kept


@settings(max_examples=100, deadline=None)
@given(fm=_frontmatter())
def test_unchanged_documents_write_back_byte_for_byte(fm) -> None:
    chunks, nl = fm
    raw = ("---" + nl + "".join(c for _, c in chunks) + "---" + nl + "a\r\nb\n").encode()
    assert fmio.dump(fmio.parse(raw, "gen.md")) == raw


def test_a_link_rewrite_in_a_mixed_body_keeps_each_lines_ending() -> None:
    raw = b"---\ntitle: M\n---\nintro\r\nsee [a](a.md)\nlast\r\n"
    doc = fmio.parse(raw, "m.md")
    doc.body = doc.body.replace("(a.md)", "(archived/a.md)")
    assert fmio.dump(doc) == b"---\ntitle: M\n---\nintro\r\nsee [a](archived/a.md)\r\nlast\r\n"
