"""What the Maintenance and Notes panes ask of ``status`` on their first visit (issue 37
item 5: at 10,000 journal days each first visit listed and stat-ed every day file for an
input digest the pane does not show). Day files opened are counted with an audit hook
(``tests/maintenance/test_status_reads.py``'s), folders listed with ``os.scandir``'s event.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
from memsearch.maintenance import _input_digest as memsearch_digest

from memsearch_tui.engine.maintenance.run import status
from memsearch_tui.engine.memsearch import state
from tests.maintenance.test_status_reads import _days, _opened_during

_LISTED: list[str] | None = None  # folders listed while a test listens, else None


def _listing_hook(event: str, args: tuple[object, ...]) -> None:
    if _LISTED is not None and event == "os.scandir" and "memory" in str(args[0]):
        _LISTED.append(str(args[0]))


sys.addaudithook(_listing_hook)  # idle unless listened to


def _listed_during(fn) -> list[str]:  # type: ignore[no-untyped-def]
    """The journal folders listed while ``fn`` runs."""
    global _LISTED
    _LISTED = []
    try:
        fn()
        return _LISTED
    finally:
        _LISTED = None


def _without_digest(rows):  # type: ignore[no-untyped-def]
    import dataclasses

    return [dataclasses.replace(r, input_digest="") for r in rows]


def test_status_without_disabled_digests_opens_no_day(env, monkeypatch: pytest.MonkeyPatch) -> None:
    """``disabled_digests=False`` (the Maintenance pane's ask): no day file opened nor listed
    when every task is disabled (memsearch's default); every field but ``input_digest`` as
    the CLI's ``status`` gives, which still digests."""
    _days(env, 6)
    monkeypatch.setattr(state, "_DIGESTS", {}, raising=False)
    listed = _listed_during(lambda: status(env.project, env.config(), disabled_digests=False))
    rows, opened = _opened_during(lambda: status(env.project, env.config(), disabled_digests=False))
    assert opened == [] and listed == [] and {r.input_digest for r in rows} == {""}
    full = status(env.project, env.config())
    assert rows == _without_digest(full) and full[0].input_digest == memsearch_digest(env.mem / "memory")


def test_status_digests_an_enabled_task_whose_state_keeps_one(env, monkeypatch: pytest.MonkeyPatch) -> None:
    import json

    _days(env, 6)
    env.config_file("[plugins.claude-code.project_review]\nenabled = true\n")
    digest = memsearch_digest(env.mem / "memory")
    entry = {"last_input_digest": digest, "last_success_at": "2020-01-01T00:00:00Z"}
    (env.mem / ".maintenance-state.json").write_text(json.dumps({"claude-code.project_review": entry}))
    rows = {(r.platform, r.task): r for r in status(env.project, env.config(), disabled_digests=False)}
    assert rows["claude-code", "project_review"].reason == "input unchanged"
    assert rows["claude-code", "project_review"].input_digest == digest
    assert rows["claude-code", "user_profile"].input_digest == ""  # disabled
    day = env.mem / "memory" / "2026-10-02.md"
    day.write_text(day.read_text(encoding="utf-8") + "- 新的一行 a new line\n", encoding="utf-8")
    rows = {(r.platform, r.task): r for r in status(env.project, env.config(), disabled_digests=False)}
    assert rows["claude-code", "project_review"].due and rows["claude-code", "project_review"].reason == "due"


def test_output_files_are_what_status_rows_name_without_reading_days(env, monkeypatch: pytest.MonkeyPatch) -> None:
    """The Notes pane's two paths: the first platform's that names one, a refused path as
    configured (as ``status``'s refused row), a platform known only from the state too."""
    from memsearch_tui.engine.maintenance.run import output_files

    _days(env, 6)
    monkeypatch.setattr(state, "_DIGESTS", {}, raising=False)
    env.config_file(
        '[plugins.codex.user_profile]\noutput_file = "notes/用户.md"\n'
        '[plugins.claude-code.user_profile]\noutput_file = "USER-en.md"\n'
    )
    (env.tmp / "outside.md").write_text("elsewhere\n", encoding="utf-8")
    (env.mem / "PROJECT.md").symlink_to(env.tmp / "outside.md")  # leads out of the project: refused
    (env.mem / ".maintenance-state.json").write_text('{"openclaw.project_review": {"last_action": "none"}}')
    rows = status(env.project, env.config())
    assert any(r.reason.startswith("refused") for r in rows)  # the project's path leads out
    want: dict[str, Path] = {}
    for r in rows:
        if r.output_file:
            want.setdefault(r.task, Path(r.output_file))
    listed = _listed_during(lambda: output_files(env.project, env.config()))
    got, opened = _opened_during(lambda: output_files(env.project, env.config()))
    assert got == want and opened == [] and listed == []


def test_status_resolves_each_distinct_task_setting_once(env, monkeypatch: pytest.MonkeyPatch) -> None:
    """Four platforms × three tasks share three path settings and three prompt texts: each
    is resolved once a call (each resolution ``lstat``s every part of its paths), and a
    platform's own output file still gets its own row value."""
    from memsearch_tui.engine.maintenance import run

    env.config_file(
        "".join(f"[plugins.{p}.project_review]\nenabled = false\n" for p in ("claude-code", "codex", "opencode"))
        + '[plugins.openclaw.user_profile]\noutput_file = "notes/用户.md"\n'
    )
    full = status(env.project, env.config())
    calls = {"paths": 0, "prompts": 0}
    real_locations, real_origin = run.task_locations, run._prompt_origin

    def locations(*args, **kw):  # type: ignore[no-untyped-def]
        calls["paths"] += 1
        return real_locations(*args, **kw)

    def origin(*args, **kw):  # type: ignore[no-untyped-def]
        calls["prompts"] += 1
        return real_origin(*args, **kw)

    monkeypatch.setattr(run, "task_locations", locations)
    monkeypatch.setattr(run, "_prompt_origin", origin)
    rows = status(env.project, env.config())
    assert rows == full and len(rows) == 12
    assert calls == {"paths": 4, "prompts": 3}  # dfc9a86: 12 and 12 (openclaw's user_profile is its own)
    assert [r.output_file for r in rows if r.task == "user_profile"][-1].endswith("notes/用户.md")
    calls.update(paths=0)
    assert run.output_files(env.project, env.config())["user_profile"].name == "USER.md" and calls["paths"] == 4
