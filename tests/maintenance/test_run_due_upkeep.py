"""``--run-due --hook``: vector upkeep never runs inside the hook; one coalesced runner does it."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from memsearch_tui.engine.search import Searcher
from memsearch_tui.engine.search.manifest import Manifest
from memsearch_tui.engine.search.settings import load_settings
from memsearch_tui.engine.upkeep import background

HEAVY = ("torch", "sentence_transformers", "pymilvus", "milvus_lite", "safetensors", "tokenizers")

HOOK = (
    "import json, sys\nfrom memsearch_tui.cli import main\n"
    "try:\n    main(sys.argv[1:])\nexcept SystemExit:\n    pass\n"
    f"heavy = {HEAVY!r}\n"
    "print(json.dumps(sorted(m for m in sys.modules if m.split('.')[0] in heavy)))\n"
)

TURN = "\n### 09:{m:02d}\n<!-- session:s1 turn:t{m} transcript:/tmp/s1.jsonl -->\n- {text}\n"


@pytest.fixture()
def indexed(env):
    """The maintenance test project, its journal indexed once (model + Milvus Lite)."""
    env.config_file("[plugins.claude-code.project_review]\nenabled = false\n")
    with Searcher(env.store, env.project) as s:
        s.index()
        state_dir = s.s.state_dir
    return env, state_dir


def add_turn(env, minute: int, text: str) -> None:
    journal = env.mem / "memory" / "2026-11-28.md"
    with journal.open("a", encoding="utf-8") as fh:
        fh.write(TURN.format(m=minute, text=text))


def hook(env, *args: str, extra: dict[str, str] | None = None) -> tuple[dict, list[str]]:
    """Run the hook in a fresh interpreter; (its --json report from stderr, heavy modules it
    loaded). ``extra``: more environment, which the runner it spawns inherits too."""
    r = subprocess.run(
        [sys.executable, "-c", HOOK, "--run-due", "--hook", "claude-code", "--json", *args],
        input=b"{}",
        capture_output=True,
        cwd=env.project,
        env={**os.environ, "HOME": str(env.home), "MEMSEARCH_TUI_MEMORY_ROOT": str(env.store), **(extra or {})},
        timeout=60,
    )
    assert r.returncode == 0, r.stderr
    lines = r.stdout.decode().splitlines()
    return json.loads(r.stderr.decode().strip().splitlines()[-1]), json.loads(lines[-1])


def vector_row(report: dict) -> dict:
    return next(r for r in report["data"]["tasks"] if r["task"] == "vectors")


def wait_idle(env, state_dir: Path, timeout: float = 180.0) -> None:
    """Until no runner works or starts and the manifest has nothing pending."""
    s = load_settings(env.store, env.project)
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if background.runner_active(state_dir) is None:
            m = Manifest(s.manifest_path)
            try:
                if m.count_pending() == (0, 0):
                    return
            finally:
                m.close()
        time.sleep(0.2)
    raise AssertionError(f"background upkeep did not finish: {background.last_result(state_dir)}")


def embedded_texts(env) -> list[str]:
    s = load_settings(env.store, env.project)
    m = Manifest(s.manifest_path)
    try:
        return [r[0] for r in m.db.execute("SELECT text FROM chunks WHERE embedded=1 AND vec IS NOT NULL")]
    finally:
        m.close()


def test_hook_queues_vector_work_and_a_detached_runner_embeds_it(indexed):
    env, state_dir = indexed
    add_turn(env, 30, "Chose pgvector over Qdrant for the billing service")
    report, heavy = hook(env)
    row = vector_row(report)
    assert row["result"] == "queued" and "background process" in row["reason"], row
    assert heavy == []  # the hook itself loaded no model, no Milvus: it did not embed
    wait_idle(env, state_dir)
    last = background.last_result(state_dir)
    assert last["result"] == "replaced" and "1 changed" in last["reason"] and last["pid"] != os.getpid()
    assert any("pgvector over Qdrant" in t for t in embedded_texts(env))
    with Searcher(env.store, env.project) as s:
        hits = s.search("which vector database did we choose for billing", strategy="vector", k=2).hits
    assert any("pgvector" in h.snippet for h in hits)


#: put on the hooks' PYTHONPATH (their runners inherit it): a runner's pass waits while the
#: test holds the gate file's lock, so it is still at work when the next hook comes
GATE = """import fcntl, importlib, os
gate = os.environ.get("UPKEEP_TEST_GATE")
if gate:
    module = importlib.import_module("memsearch_tui.engine.search.upkeep")
    real = module.upkeep
    def held(*args, **kwargs):
        with open(gate, "rb") as fh:
            fcntl.flock(fh, fcntl.LOCK_SH)
        return real(*args, **kwargs)
    module.upkeep = held
"""


def test_two_quick_hooks_start_one_runner(indexed, tmp_path):
    """A hook while the first hook's runner is still at work merges its request into that
    runner. The runner is held at its pass (a lock the test holds): under load the second
    hook (a fresh interpreter) took longer than the whole first pass, so it rightly started
    a runner of its own, one after the other, and the test failed."""
    import fcntl

    env, state_dir = indexed
    site = tmp_path / "gate-site"
    site.mkdir()
    (site / "sitecustomize.py").write_text(GATE, encoding="utf-8")
    gate = tmp_path / "gate"
    gate.write_bytes(b"")
    path = os.pathsep.join(p for p in (str(site), os.environ.get("PYTHONPATH", "")) if p)
    extra = {"PYTHONPATH": path, "UPKEEP_TEST_GATE": str(gate)}
    with gate.open("rb") as held:
        fcntl.flock(held, fcntl.LOCK_EX)  # the first runner waits at its pass until this closes
        add_turn(env, 31, "First note about the release train")
        first, _ = hook(env, extra=extra)
        add_turn(env, 32, "Second note about the freeze window")
        second, _ = hook(env, extra=extra)
    a, b = vector_row(first), vector_row(second)
    assert a["result"] == b["result"] == "queued"
    pid = int(a["reason"].rsplit(" ", 1)[1])
    assert "merged into the running background upkeep" in b["reason"], b
    assert f"pid {pid}" in b["reason"] or "pid" not in b["reason"]
    wait_idle(env, state_dir)
    texts = embedded_texts(env)
    assert any("release train" in t for t in texts) and any("freeze window" in t for t in texts)
    assert background.last_result(state_dir)["pid"] == pid


def test_nothing_changed_queues_nothing(indexed):
    env, state_dir = indexed
    report, heavy = hook(env)
    assert vector_row(report)["result"] == "none" and heavy == []
    assert background.runner_active(state_dir) is None and background.last_result(state_dir) is None


def test_plain_and_foreground_runs_do_the_work_inline(indexed):
    env, _ = indexed
    add_turn(env, 33, "Inline run note")
    r = subprocess.run(
        [sys.executable, "-c", HOOK, "--run-due", "--json"],
        capture_output=True,
        cwd=env.project,
        env={**os.environ, "HOME": str(env.home), "MEMSEARCH_TUI_MEMORY_ROOT": str(env.store)},
        stdin=subprocess.DEVNULL,
        timeout=120,
    )
    report = json.loads(r.stdout.decode().splitlines()[0])
    assert vector_row(report)["result"] == "replaced"
    add_turn(env, 34, "Foreground run note")
    report, _ = hook(env, "--foreground")
    assert vector_row(report)["result"] == "replaced"


def test_runner_merges_requests_that_arrive_during_a_pass(tmp_path):
    """Coalescing, in process: a request during pass 1 costs one more pass, not a runner."""
    state = tmp_path / "state"
    state.mkdir()
    passes: list[str] = []

    def work() -> dict:
        passes.append(background._read(state / background.REQUEST))
        if len(passes) == 1:
            background._write(state / background.REQUEST, "arrived-during-pass-1")
        return {"result": "replaced", "reason": f"pass {len(passes)}"}

    background._write(state / background.REQUEST, "first")
    assert background.run(state, work) == 2
    assert passes == ["first", "arrived-during-pass-1"]
    assert background.last_result(state)["reason"] == "pass 2"


def test_a_request_as_the_runner_leaves_is_not_lost(tmp_path, monkeypatch):
    """A hook that comes after the runner's last look at the request but before it stops
    counting as active merges into it: the runner must still see that request (it ran no
    pass for it and exited: the change waited for the next hook). 中文 turn too."""
    state = tmp_path / "state"
    state.mkdir()
    background._write(state / background.PID_FILE, background._pid_record(os.getpid()))  # as the hook wrote it
    spawned: list[int] = []
    monkeypatch.setattr(background, "spawn", lambda *a: spawned.append(1) or 999_999)
    real_forget = background._forget_pid
    asked: list[tuple[str, int]] = []

    def forget(state_dir):  # the hook arrives in the instant before the runner forgets its pid
        if not asked:
            asked.append(background.request(state_dir, tmp_path / "store", tmp_path / "项目"))
        real_forget(state_dir)

    monkeypatch.setattr(background, "_forget_pid", forget)
    background._write(state / background.REQUEST, "first")
    passes = background.run(state, lambda: {"result": "replaced", "reason": "pass"})
    assert asked == [("merged", os.getpid())]
    assert passes == 2 and not spawned  # the merged request got its pass
    assert not (state / background.PID_FILE).exists()


def test_a_second_runner_leaves_the_work_to_the_first(tmp_path):
    state = tmp_path / "state"
    state.mkdir()
    import fcntl

    fd = os.open(state / background.RUNNER_LOCK, os.O_RDWR | os.O_CREAT)
    fcntl.flock(fd, fcntl.LOCK_EX)
    try:
        assert background.runner_active(state) == 0
        assert background.run(state, lambda: pytest.fail("a second runner must not work")) == 0
    finally:
        os.close(fd)
    assert background.runner_active(state) is None


def test_a_failing_pass_is_recorded_not_raised(tmp_path):
    state = tmp_path / "state"
    state.mkdir()

    def work() -> dict:
        raise RuntimeError("milvus exploded")

    assert background.run(state, work) == 1
    last = background.last_result(state)
    assert last["result"] == "error" and "milvus exploded" in last["reason"]


def test_readme_hook_recipes_are_valid_and_claude_code_stop_is_async():
    """README promises: Claude Code's Stop hook runs async; Codex's has no such field."""
    import re

    readme = (Path(__file__).resolve().parents[2] / "README.md").read_text(encoding="utf-8")
    section = readme.split("### Hooks: `memsearch-tui --run-due`", 1)[1].split("#### ", 1)[0]
    blocks = [json.loads(b) for b in re.findall(r"```json\n(.*?)```", section, re.S)]
    claude, codex = blocks[0]["hooks"], blocks[1]["hooks"]
    (stop,) = claude["Stop"][0]["hooks"]
    assert stop["async"] is True and stop["command"] == "/path/to/venv/bin/memsearch-tui --run-due --hook claude-code"
    assert "async" not in claude["SessionEnd"][0]["hooks"][0]
    assert all("async" not in h for h in codex["Stop"][0]["hooks"])


OWNER = (
    "import sys\nfrom pathlib import Path\nfrom memsearch_tui.engine.api import Memory\n"
    "mem = Memory(Path(sys.argv[1]), Path(sys.argv[2]), share=True)\n"
    "mem.search.query('release', strategy='hybrid', k=1)\n"
    "print('owner' if mem.warm.owner is not None else 'not owner', flush=True)\n"
    "sys.stdin.readline()\n"
)


def test_hook_hands_upkeep_to_the_face_holding_the_index(indexed):
    """An open face (the app, the MCP server) owns the warm index and holds Milvus Lite: the
    hook hands the pass to it and returns (no runner queued behind it, no model loaded), and
    the owner embeds the new turn while it still holds the index. Before: the hook's runner
    found Milvus Lite locked ("locked") and the vectors stayed queued."""
    env, state_dir = indexed
    owner = subprocess.Popen(
        [sys.executable, "-c", OWNER, str(env.store), str(env.project)],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
        env={**os.environ, "HOME": str(env.home)},
    )
    try:
        assert owner.stdout is not None and owner.stdout.readline().strip() == "owner"
        add_turn(env, 40, "Moved the nightly backups to the Hetzner storage box")
        report, heavy = hook(env)
        row = vector_row(report)
        assert row["result"] == "queued" and f"owner (pid {owner.pid})" in row["reason"], row
        assert heavy == []
        assert background.runner_active(state_dir) is None  # no runner queued behind the owner
        # the owner reads the day when it takes the pass: until then nothing is pending, so the
        # manifest alone cannot say it is done (a race seen under load)
        deadline = time.monotonic() + 120
        while not any("Hetzner storage box" in t for t in embedded_texts(env)) and time.monotonic() < deadline:
            time.sleep(0.2)
        wait_idle(env, state_dir, timeout=120)
        assert owner.poll() is None
        assert any("Hetzner storage box" in t for t in embedded_texts(env))
    finally:
        assert owner.stdin is not None
        owner.stdin.close()
        owner.wait(timeout=60)
