"""A token wrapped over lines is masked in every face that prints it, not only in the app.

The trial (session 20, items 1 and 7) found four faces that masked after they had cut the
text into pieces, so the wrap-joining redactor saw short pieces and let them through: a
tampered proposal's target (``repr`` first turned its line break into ``\\n``), the CLI's
unified diffs (``proposals diff``, ``diff ENTRY``: masked line by line behind ``+``/``-``),
and a version's one-line summary (its first line masked alone). A 1,200-character tampered
target filled the screen, and an odd one got an odd name (``b]``, ``~``) in lists. Real
files in temp dirs, through the CLI and the engine's API; English and Chinese text.
"""

from __future__ import annotations

import json

import pytest

from memsearch_tui.engine.api.proposals import proposal_name, record_name
from tests.maintenance.conftest import env  # noqa: F401  (fixture)
from tests.maintenance.test_cli import cli, js
from tests.security.test_proposal_tamper import shipped

HEAD, TAIL = "ghp_A1b2C3d4E5f6G7h8", "I9j0K1l2M3n4O5p6Q7r8"  # one GitHub token, split in two
PREFIX = {"en": "~/", "zh": "~/笔记 私人/"}
WRAPPED = (  # a ghp_ token split after 22 characters, an sk-proj- key over three lines, one a character a line
    "CI token ghp_A1b2C3d4E5f6G7h8I9\nj0K1l2M3n4O5p6Q7r8\n"
    "openai key: sk-proj-Ab2dEf5hIj8lMn1pQr4tUv7xYz0bCd3fGh6jKl9nOp2rSt5vWx8zAb1dEf4h\n"
    "Ij7lMn0pQr3tUv6xYz9bCd2fGh5jKl8nOp1rSt4vWx7z\nQr3tUv6xYz9bCd2fGh5jKl8nOp1rSt4vWx7zAb1dEf4hIj7l\n"
    + "\n".join("ghp_A1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q7r8")
    + "\nNextLineMustStay 42\n"
)
PIECES = ("A1b2C3d4E5f6G7h8", "j0K1l2M3n4O5p6Q7r8", "Ij7lMn0pQr3tUv6x", "Qr3tUv6xYz9bCd2f", "O5p6Q7r8")
ZH = "小王提醒：发布前必须先备份用户数据库\n"


def _clear(out: str) -> list[str]:
    return [p for p in (*PIECES, HEAD, TAIL) if p in out]


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_a_tampered_target_with_a_wrapped_token_is_masked_in_every_face(env, lang):  # noqa: F811
    shipped(env, "20261201-tok", target=f"{PREFIX[lang]}{HEAD}\n{TAIL}")
    outs = [
        cli(env, "proposals", "list").stdout,
        cli(env, "proposals", "show", "20261201-tok").stdout,
        cli(env, "doctor").stdout,
        json.dumps(js(cli(env, "proposals", "list", "--json"))["data"], ensure_ascii=False),
    ]
    for out in outs:
        assert "TAMPERED" in out or "tampered" in out, out
        assert not _clear(out), out
    assert f"{PREFIX[lang]}[redacted: GitHub token]\\n[redacted: GitHub token]" in outs[0], outs[0]
    data = js(cli(env, "proposals", "list", "--json"))["data"]["proposals"][0]
    assert "[redacted: GitHub token]" in data["tampered"] and HEAD not in data["tampered"], data


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_a_very_long_tampered_target_is_cut_with_its_mask_whole(env, lang):  # noqa: F811
    part = "../" if lang == "en" else "../笔记/"
    written = part * 400 + f"{HEAD}{TAIL}"  # 1,200+ characters, a token at its end
    shipped(env, "20261201-long", target=written)
    for out in (cli(env, "proposals", "list").stdout, cli(env, "doctor").stdout):
        line = next(ln for ln in out.splitlines() if "20261201-long" in ln)
        assert len(line) < 600 and "…" in line and part * 60 not in line, line
        assert HEAD not in out and "[redacted: Git" not in out.replace("[redacted: GitHub token]", ""), out


@pytest.mark.parametrize(
    "written",
    ["~/.bashrc\x1b[2J\x1b[31m[b]bold[/b]", "PROJECT\u202edm.crhsab./~", "~/笔记/\u202e周报[/b]"],
)
def test_an_odd_tampered_target_is_named_by_its_escaped_text(env, written):  # noqa: F811
    from memsearch_tui.engine.api.proposals import project_proposal
    from memsearch_tui.engine.review import proposals as props

    shipped(env, "20261201-odd", target=written)
    rec = props.get(env.project, "20261201-odd")
    assert rec.tampered
    for name in (proposal_name(project_proposal(rec)), record_name(rec)):
        assert name == repr(written), name  # not "b]" nor "~"
    shipped(env, "20261201-ok", target=str(env.mem / "PROJECT.md"))
    assert proposal_name(project_proposal(props.get(env.project, "20261201-ok"))) == "PROJECT.md"


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_proposals_diff_masks_a_wrapped_token_and_keeps_the_prefixes(env, lang):  # noqa: F811
    body = (ZH if lang == "zh" else "") + WRAPPED
    shipped(env, "20261202-wrap", content=body)
    out = cli(env, "proposals", "diff", "20261202-wrap").stdout
    data = json.dumps(js(cli(env, "proposals", "diff", "20261202-wrap", "--json"))["data"], ensure_ascii=False)
    for text in (out, data):
        assert not _clear(text), text
        assert "NextLineMustStay 42" in text, text
    added = [ln for ln in out.splitlines() if "redacted" in ln]
    assert added and all(ln.startswith("+") for ln in added), out
    assert "+CI token [redacted: GitHub token]" in out, out
    if lang == "zh":
        assert "+小王提醒：发布前必须先备份用户数据库" in out, out


def _entry_with_history(env, body: str) -> str:  # noqa: F811
    """An entry whose first version was hand-written with ``body`` (``add`` refuses a
    secret), then updated: ``diff`` compares the two, ``versions`` lists both."""
    assert cli(env, "init").exit_code == 0
    made = js(cli(env, "add", "ops", "ci-setup", "--body", "placeholder", "--json"))["data"]["entry"]
    file = env.store / "ops" / "ci-setup.md"
    file.write_text(file.read_text(encoding="utf-8").replace("placeholder", body.rstrip("\n")), encoding="utf-8")
    r = cli(env, "update", made["id"], "--body", "clean body now")
    assert r.exit_code == 0, r.stdout + r.stderr
    return made["id"]


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_store_diff_and_versions_mask_a_wrapped_token(env, lang):  # noqa: F811
    body = WRAPPED if lang == "en" else WRAPPED.replace("CI token", "持续集成令牌")
    eid = _entry_with_history(env, body)
    diff = cli(env, "diff", eid)
    assert diff.exit_code == 0, diff.stdout + diff.stderr
    data = json.dumps(js(cli(env, "diff", eid, "--json"))["data"], ensure_ascii=False)
    for text in (diff.stdout, data):
        assert not _clear(text), text
    removed = [ln for ln in diff.stdout.splitlines() if "redacted" in ln]
    assert removed and all(ln.startswith("-") for ln in removed), diff.stdout


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_a_versions_summary_is_the_masked_texts_first_line(env, lang):  # noqa: F811
    """``versions`` (and the app's Versions pane, which lists the same rows) showed v1's
    first line masked alone: ``CI token ghp_A1b2C3d4E5f6G7h8I9``, half a token."""
    word = "CI token" if lang == "en" else "持续集成令牌"
    eid = _entry_with_history(env, WRAPPED.replace("CI token", word))
    versions = cli(env, "versions", eid).stdout
    assert not _clear(versions) and "ghp_" not in versions, versions
    assert f"{word} [redacted: GitHub token]" in versions, versions
    rows = js(cli(env, "versions", eid, "--json"))["data"]["versions"]
    assert rows[0]["summary"] == f"{word} [redacted: GitHub token]", rows


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_a_store_proposals_diff_masks_a_wrapped_token_in_the_body(lang):
    """``proposals diff`` of an agent's revise (a store proposal) diffs the entry's body as it
    is now: a token wrapped in it was masked after the diff, line by line."""
    from memsearch_tui.engine.review.agent_proposals import review_diff

    before = (ZH if lang == "zh" else "") + WRAPPED
    out = "".join(review_diff("ops/ci-setup", {"fields": [], "before": before, "after": "clean body now\n"}))
    from memsearch_tui.engine.core.secrets import redact

    shown = redact(out)  # as the CLI prints it (``say`` masks the whole text)
    assert not _clear(shown), shown
    assert "-CI token [redacted: GitHub token]" in shown and "-NextLineMustStay 42" in shown, shown
