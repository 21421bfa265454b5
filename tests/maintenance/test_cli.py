"""The maintenance CLI: proposals, maintenance status|run|enable|disable, doctor."""

from __future__ import annotations

import json

from memsearch_tui.engine.maintenance.locks import pid_lock_path
from tests.helpers import CliResult, run_cli
from tests.maintenance.conftest import answer_script

NEW = '{"action": "replace", "reason": "update", "content": "# Project\\n\\n- new"}'


def cli(env, *args: str) -> CliResult:
    return run_cli(
        "--project",
        str(env.project),
        "--memory-root",
        str(env.store),
        *args,
        env={"HOME": str(env.home), "XDG_DATA_HOME": str(env.home / "xdg_data_home")},
    )


def js(result) -> dict:
    return json.loads(result.stdout)


def test_proposal_review_cycle(env):
    assert cli(env, "init").exit_code == 0  # the global `undo` currently wants an initialised store
    target = env.mem / "PROJECT.md"
    target.write_text("old notes\n", encoding="utf-8")
    env.command_provider(answer_script(env, NEW))
    run = js(cli(env, "maintenance", "run", "--json"))
    assert run["ok"] and [t["result"] for t in run["data"]["tasks"]] == ["proposed", "disabled"]
    pid = run["data"]["tasks"][0]["proposal_id"]

    listed = js(cli(env, "proposals", "list", "--json"))["data"]["proposals"]
    assert [p["id"] for p in listed] == [pid] and listed[0]["content"] is None  # lists leave the text out
    human = cli(env, "proposals", "list").stdout
    assert pid in human and "PROJECT.md" in human
    shown = js(cli(env, "proposals", "show", pid, "--json"))["data"]["proposal"]
    assert shown["content"] == "# Project\n\n- new\n"
    diff = cli(env, "proposals", "diff", pid)
    assert "-old notes" in diff.stdout and "+- new" in diff.stdout

    target.write_text("edited meanwhile\n", encoding="utf-8")
    assert "warning:" in cli(env, "proposals", "diff", pid).stdout
    refused = cli(env, "proposals", "accept", pid, "--json")
    assert refused.exit_code == 1 and js(refused)["error"]["code"] == "conflict"
    assert target.read_text(encoding="utf-8") == "edited meanwhile\n"
    ok = cli(env, "proposals", "accept", pid, "--force")
    assert ok.exit_code == 0 and "accepted" in ok.stdout
    assert target.read_text(encoding="utf-8") == "# Project\n\n- new\n"
    assert cli(env, "proposals", "list").stdout.strip() == "no pending proposals"
    undo = cli(env, "undo", "--json")  # the global undo restores the text as it was before the accept
    assert undo.exit_code == 0, undo.stdout
    assert target.read_text(encoding="utf-8") == "edited meanwhile\n"


def test_accept_edit_uses_editor(env, monkeypatch):
    env.command_provider(answer_script(env, NEW))
    pid = js(cli(env, "maintenance", "run", "--json"))["data"]["tasks"][0]["proposal_id"]
    editor = env.script("ed", 'printf "# Edited\\n" > "$1"\n')
    monkeypatch.setenv("EDITOR", str(editor))
    monkeypatch.delenv("VISUAL", raising=False)
    assert cli(env, "proposals", "accept", pid, "--edit").exit_code == 0
    assert (env.mem / "PROJECT.md").read_text(encoding="utf-8") == "# Edited\n"


def test_reject_and_unknown(env):
    env.command_provider(answer_script(env, NEW))
    pid = js(cli(env, "maintenance", "run", "--json"))["data"]["tasks"][0]["proposal_id"]
    assert (
        js(cli(env, "proposals", "reject", pid, "--note", "no", "--json"))["data"]["proposal"]["status"] == "rejected"
    )
    assert js(cli(env, "proposals", "list", "--json"))["data"]["proposals"] == []
    everything = js(cli(env, "proposals", "list", "--all", "--json"))["data"]["proposals"]
    assert [(p["id"], p["status"], p["note"]) for p in everything] == [(pid, "rejected", "no")]
    missing = cli(env, "proposals", "show", "zzz", "--json")
    assert missing.exit_code == 1 and js(missing)["error"]["code"] == "not_found"


def test_enable_disable_keep_comments(env):
    path = env.config_file(
        '# my memsearch config\n[milvus]\nuri = "~/x.db"  # keep this comment\n\n'
        '[llm.providers.local]\ntype = "openai-compatible"\nmodel = "m"\n'
    )
    r = cli(
        env, "maintenance", "enable", "project_review", "--platform", "codex", "--provider", "local", "--interval", "6"
    )
    assert r.exit_code == 0, r.output
    text = path.read_text(encoding="utf-8")
    assert text.startswith('# my memsearch config\n[milvus]\nuri = "~/x.db"  # keep this comment\n')
    assert '[plugins.codex.project_review]\nenabled = true\nprovider = "local"\nmin_interval_hours = 6\n' in text
    cli(env, "maintenance", "disable", "project_review", "--platform", "codex")
    assert "enabled = false" in path.read_text(encoding="utf-8")
    assert "# keep this comment" in path.read_text(encoding="utf-8")
    status = js(cli(env, "maintenance", "status", "--platform", "codex", "--json"))["data"]["tasks"]
    assert status[0]["enabled"] is False and status[0]["provider"] == "local" and status[0]["min_interval_hours"] == 6


def test_enable_refuses_bad_input_and_writes_nothing(env):
    path = env.config_file("# only a comment\n")
    bad = cli(env, "maintenance", "enable", "project_review", "--platform", "codex", "--provider", "nope", "--json")
    assert bad.exit_code == 1 and "unknown provider" in js(bad)["error"]["message"]
    neg = cli(env, "maintenance", "enable", "project_review", "--platform", "codex", "--interval", "-1", "--json")
    assert neg.exit_code == 1
    noplat = cli(env, "maintenance", "enable", "all", "--json")
    assert noplat.exit_code == 1 and "--platform" in js(noplat)["error"]["message"]
    assert path.read_text(encoding="utf-8") == "# only a comment\n"
    env.config_file('[tui]\nreview = "yes"\n')
    broken = cli(env, "maintenance", "status", "--json")  # a bad [tui] value disables [tui] only
    assert broken.exit_code == 0
    assert "tui.review must be a boolean" in js(broken)["data"]["config"]["problems"]["tui"]


def test_project_file_option(env):
    r = cli(env, "maintenance", "enable", "user_profile", "--platform", "claude-code", "--project-file")
    assert r.exit_code == 0
    assert "[plugins.claude-code.user_profile]" in (env.project / ".memsearch.toml").read_text(encoding="utf-8")


def test_status_shows_last_error(env):
    env.command_provider(env.script("crash", "cat >/dev/null; echo kaput >&2; exit 2\n"))
    cli(env, "maintenance", "run")
    out = cli(env, "maintenance", "status", "--platform", "claude-code").stdout
    assert "last error" in out or "error at" in out
    assert "kaput" in out


def test_doctor_reports_with_fixes(env):
    env.config_file('[plugins.claude-code.project_review]\nenabled = true\nprovider = "ghost"\n')
    lock = pid_lock_path(env.mem, "codex", "user_profile")
    lock.write_text("999999999")
    (env.mem / ".maintenance-state.json").write_text("{oops", encoding="utf-8")
    report = js(cli(env, "doctor", "--json"))["data"]
    by_area = {}
    for c in report["checks"]:
        by_area.setdefault(c["area"], []).append(c)
    assert any("unknown LLM provider 'ghost'" in c["message"] and c["fix"] for c in by_area["tasks"])
    assert by_area["state"][0]["status"] == "problem" and "maintenance run --force" in by_area["state"][0]["fix"]
    assert by_area["locks"][0]["fix"] == "memsearch-tui doctor --fix"
    assert by_area["journals"][0]["status"] == "ok"
    assert report["problems"] >= 3
    vec = by_area["vector index"]  # the real search engine's status (Milvus Lite), drift reported
    assert any("index behind the files" in c["message"] and c["fix"] == "memsearch-tui vectors index" for c in vec)
    fixed = js(cli(env, "doctor", "--fix", "--json"))["data"]
    assert fixed["removed_locks"] == [str(lock)] and not lock.exists()


def test_enable_on_broken_toml_writes_nothing(env):
    path = env.config_file("[plugins\nbroken = \n")
    r = cli(env, "maintenance", "enable", "project_review", "--platform", "codex", "--json")
    assert r.exit_code == 1 and "invalid TOML" in js(r)["error"]["message"] and str(path) in js(r)["error"]["message"]
    assert path.read_text(encoding="utf-8") == "[plugins\nbroken = \n"


def test_doctor_flags_odd_journals(env):
    (env.mem / "memory" / "notes.md").write_bytes(b"- caf\xe9\n")
    checks = js(cli(env, "doctor", "--json"))["data"]["checks"]
    journal = [c for c in checks if c["area"] == "journals"]
    assert journal[0]["status"] == "ok" and "2 journal files" in journal[0]["message"]
    assert any("no YYYY-MM-DD" in c["message"] and c["fix"] for c in journal)
    assert any("not UTF-8" in c["message"] for c in journal)


def test_doctor_names_the_bad_key_not_a_path_and_never_the_value(env):
    """A task disabled by a bad value gets the key and the type to set, not the path hint."""
    value = "VALUE-NOT-TO-ECHO-9f2c"
    path = env.config_file(f'[plugins.codex.project_review]\nenabled = true\nmin_interval_hours = "{value}"\n')
    r = cli(env, "doctor", "--json")
    checks = js(r)["data"]["checks"]
    task = next(c for c in checks if c["area"] == "tasks" and c["message"].startswith("codex.project_review"))
    config = next(c for c in checks if c["area"] == "config" and c["status"] == "problem")
    for c in (task, config):
        assert c["status"] == "problem"
        assert (
            c["fix"]
            == f"set plugins.codex.project_review.min_interval_hours in {path}:3 to a number ≥ 0, without quotes (e.g. 24)"
        )
    assert "stays inside the project" not in task["fix"]
    assert value not in r.stdout and value not in r.stderr


def test_doctor_path_refusal_keeps_the_path_hint(env):
    env.config_file('[plugins.codex.memory_to_skill]\nenabled = true\npaths = "not-a-list"\n')
    checks = js(cli(env, "doctor", "--json"))["data"]["checks"]
    skill = next(c for c in checks if c["area"] == "tasks" and c["message"].startswith("codex.memory_to_skill"))
    assert "plugins.codex.memory_to_skill.paths" in skill["fix"] and "list of quoted paths" in skill["fix"]


def test_doctor_exits_1_on_a_failed_check_with_the_envelope(env):
    env.config_file('[plugins.codex.project_review]\nenabled = "maybe"\n')
    r = cli(env, "doctor", "--json")
    out = js(r)
    assert r.exit_code == 1 and out["ok"] is False and out["error"]["code"] == "doctor_problems"
    assert out["data"]["problems"] >= 1 and out["data"]["checks"]  # the whole report is still there
    human = cli(env, "doctor")
    assert human.exit_code == 1 and "[FAIL] config:" in human.stdout
    assert "fix: set plugins.codex.project_review.enabled" in human.stdout and "true or false" in human.stdout


def test_doctor_exits_0_with_warnings_only(env):
    (env.mem / "memory" / "notes.md").write_text("- a journal without a date\n", encoding="utf-8")
    r = cli(env, "doctor", "--json")
    out = js(r)
    statuses = {c["status"] for c in out["data"]["checks"]}
    assert "warn" in statuses and "problem" not in statuses, out["data"]["checks"]
    assert r.exit_code == 0 and out["ok"] is True and out["data"]["problems"] == 0
    assert cli(env, "doctor").stdout.rstrip().endswith("no problems")


def test_doctor_store_hints_are_true(env):
    import os

    assert cli(env, "init").exit_code == 0
    folder = env.store / "notes"
    folder.mkdir()
    os.mkfifo(folder / "pipe.md")
    os.symlink("loop.md", folder / "loop.md")
    (folder / "bad.md").write_text("---\ntitle: [broken\n---\nbody\n", encoding="utf-8")
    r = cli(env, "doctor", "--json")
    store = {c["message"].split(":")[0]: c for c in js(r)["data"]["checks"] if c["area"] == "store"}
    assert r.exit_code == 1
    assert store["notes/pipe.md"]["fix"].startswith(f"remove {folder / 'pipe.md'}")
    assert store["notes/loop.md"]["fix"].startswith(f"remove the symlink loop {folder / 'loop.md'}")
    assert store["notes/bad.md"]["fix"].startswith(f"fix the frontmatter of {folder / 'bad.md'}")
    assert not any("index check --fix" in store[f]["fix"] for f in ("notes/pipe.md", "notes/loop.md", "notes/bad.md"))
    assert store["notes/INDEX.md"]["fix"] == "memsearch-tui index check --fix"  # drift it does repair


def test_hooks_never_run_doctor_so_a_failed_check_never_fails_a_hook(env):
    """doctor exits 1 on a [FAIL]; the hook command is `--run-due`, which never loads it."""
    import os
    import subprocess
    import sys

    from memsearch_tui.engine.hosts.wiring import Launch, hook_group

    for host in ("claude-code", "codex"):  # what install writes: the hook command is --run-due
        assert " --run-due --hook " in hook_group(host, "Stop", Launch(("memsearch-tui",)))["hooks"][0]["command"]
    env.config_file('[plugins.codex.project_review]\nenabled = true\nmin_interval_hours = "abc"\n')
    assert cli(env, "doctor").exit_code == 1
    code = (
        "import sys\nfrom memsearch_tui.cli import main\ntry:\n    main()\nexcept SystemExit as e:\n"
        "    print(e.code, 'memsearch_tui.engine.maintenance.doctor' in sys.modules)\n"
    )
    environ = {**os.environ, "HOME": str(env.home), "MEMSEARCH_TUI_MEMORY_ROOT": str(env.store)}
    for args in (["--run-due"], ["--run-due", "--hook", "codex"]):
        proc = subprocess.run(
            [sys.executable, "-c", code, *args],
            cwd=env.project,
            env=environ,
            capture_output=True,
            text=True,
            timeout=120,
        )
        assert proc.stdout.split()[-2:] == ["0", "False"], (args, proc.stdout, proc.stderr)


def test_status_says_a_due_task_cannot_run_when_its_provider_is_missing(env):
    """The row said "due" while doctor said the provider was missing: one check for both."""
    env.config_file('[plugins.claude-code.project_review]\nenabled = true\nprovider = "ghost"\n')
    rows = js(cli(env, "maintenance", "status", "--json"))["data"]["tasks"]
    row = next(r for r in rows if r["platform"] == "claude-code" and r["task"] == "project_review")
    assert "unknown LLM provider 'ghost'" in row["blocked"]
    text = cli(env, "maintenance", "status").stdout
    assert "claude-code.project_review" in text and "cannot run: unknown LLM provider 'ghost'" in text
    checks = js(cli(env, "doctor", "--json"))["data"]["checks"]
    assert any(row["blocked"] in c["message"] for c in checks if c["area"] == "tasks")
