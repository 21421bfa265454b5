"""Prove state-file compatibility with the real memsearch, both directions (run by hand).

memsearch is not a dependency of memsearch-tui, so it lives in a side venv:

    python3 -m venv /tmp/memsearch-venv && /tmp/memsearch-venv/bin/pip install memsearch
    .venv/bin/python benchmarks/memsearch_compat.py [--memsearch-python /tmp/memsearch-venv/bin/python]

Checks, each printed as PASS/FAIL (exit 1 on any FAIL):

1. same input digest for the same journals (memsearch's ``_input_digest`` vs ours);
2. memsearch → us: memsearch's ``run_due_tasks`` records a success (project_review) and a
   failure (user_profile); we read both entries, see the failure merged over nothing, and our
   due logic says ``skip: input unchanged`` for the success (so we would not redo its work);
3. us → memsearch: our ``run_tasks`` records a success and a failure; memsearch's
   ``run_due_tasks`` reads our file, skips the success as ``input unchanged`` (its LLM runner
   is never called for it) and its own failure merge keeps our last success;
4. the bytes: both sides write ``json.dumps(state, indent=2, sort_keys=True) + "\\n"``.
"""

from __future__ import annotations

import argparse
import builtins
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

MEMSEARCH_SIDE = r"""
import json, os, sys
from pathlib import Path
from memsearch.config import resolve_config
from memsearch.maintenance import _input_digest, run_due_tasks
mode, project = sys.argv[1], Path(sys.argv[2])
if mode == "digest":
    print(_input_digest(project / ".memsearch" / "memory")); sys.exit(0)
calls = []
def runner(ctx, prompt):
    calls.append(ctx.task)
    if ctx.task == "user_profile":
        raise RuntimeError("memsearch side: simulated provider failure")
    return '{"action": "none", "reason": "memsearch side"}'
os.chdir(project)
cfg = resolve_config()
out = []
try:
    for r in run_due_tasks(platform="claude-code", project_dir=project, cfg=cfg, llm_runner=runner):
        out.append([r.task, r.action, r.reason])
except RuntimeError as exc:          # memsearch stops at the first failing task
    out.append(["raised", str(exc)])
print(json.dumps({"results": out, "calls": calls}))
"""


def side(python: str, mode: str, project: Path, home: Path) -> str:
    env = {**os.environ, "HOME": str(home)}
    env.pop("MEMSEARCH_DIR", None)
    proc = subprocess.run(
        [python, "-c", MEMSEARCH_SIDE, mode, str(project)], capture_output=True, text=True, env=env, timeout=300
    )
    if proc.returncode != 0:
        raise SystemExit(f"memsearch side failed:\n{proc.stderr[-2000:]}")
    return proc.stdout.strip().splitlines()[-1]


def make_project(base: Path) -> tuple[Path, Path]:
    project, home = base / "proj", base / "home"
    (project / ".git").mkdir(parents=True)
    mem = project / ".memsearch" / "memory"
    (mem / "nested").mkdir(parents=True)
    (mem / "2026-11-28.md").write_text(
        "## Session 09:00\n### 09:05\n<!-- session:s turn:t transcript:/x -->\n- a\n", encoding="utf-8"
    )
    (mem / "nested" / "2026-11-29.md").write_bytes("- b ✓\n".encode())
    (home / ".memsearch").mkdir(parents=True)
    return project, home


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--memsearch-python", default="/tmp/memsearch-venv/bin/python")
    ap.add_argument("--append", type=Path, help="Append the report as a Markdown section to this file.")
    args = ap.parse_args()
    transcript: list[str] = []

    def print(*a: object) -> None:
        line = " ".join(str(x) for x in a)
        transcript.append(line)
        builtins.print(line)

    if not Path(args.memsearch_python).exists():
        print(f"memsearch side venv not found at {args.memsearch_python}; see the module docstring")
        return 2
    version = subprocess.run(
        [args.memsearch_python, "-c", "import importlib.metadata as m; print(m.version('memsearch'))"],
        capture_output=True,
        text=True,
    ).stdout.strip()
    print(f"memsearch {version} ({args.memsearch_python}) vs memsearch-tui ({ROOT})")

    from memsearch_tui.engine.maintenance import run_tasks
    from memsearch_tui.engine.maintenance.due import is_due
    from memsearch_tui.engine.memsearch.config import load_config
    from memsearch_tui.engine.memsearch.state import input_digest, load_state

    failures = 0

    def check(name: str, ok: bool, detail: str = "") -> None:
        nonlocal failures
        failures += not ok
        print(f"{'PASS' if ok else 'FAIL'}  {name}{f'  ({detail})' if detail and not ok else ''}")

    config_text = (
        '[plugins.claude-code.project_review]\nenabled = true\nprovider = "x"\n'
        '[plugins.claude-code.user_profile]\nenabled = true\nprovider = "y"\n'
    )

    with tempfile.TemporaryDirectory() as tmp:
        project, home = make_project(Path(tmp))
        ours = input_digest(project / ".memsearch" / "memory")
        theirs = side(args.memsearch_python, "digest", project, home)
        check("1. same input digest", ours == theirs, f"{ours} != {theirs}")

    # 2. memsearch writes, we read
    with tempfile.TemporaryDirectory() as tmp:
        project, home = make_project(Path(tmp))
        (home / ".memsearch" / "config.toml").write_text(config_text, encoding="utf-8")
        report = json.loads(side(args.memsearch_python, "run", project, home))
        mem = project / ".memsearch"
        raw = (mem / ".maintenance-state.json").read_text(encoding="utf-8")
        state, problem = load_state(mem)
        check(
            "2a. we read memsearch's state file",
            not problem and set(state) == {"claude-code.project_review", "claude-code.user_profile"},
            f"{problem} {list(state)}",
        )
        pr, up = state.get("claude-code.project_review", {}), state.get("claude-code.user_profile", {})
        check(
            "2b. success entry in the agreed schema",
            pr.get("last_action") == "none"
            and {"last_checked_at", "last_success_at", "last_input_digest", "output_file"} <= set(pr),
            json.dumps(pr),
        )
        check(
            "2c. failure entry in the agreed schema",
            up.get("last_action") == "error"
            and "simulated" in up.get("last_error", "")
            and "last_success_at" not in up,
            json.dumps(up),
        )
        cfg = load_config(project, home=home)
        due, why = is_due(cfg.task("claude-code", "project_review"), pr, input_digest(mem / "memory"))
        check("2d. our due logic honours memsearch's success", (due, why) == (False, "input unchanged"), why)
        check("2e. byte format identical to ours", raw == json.dumps(state, indent=2, sort_keys=True) + "\n")
        print(f"      memsearch said: {report}")

    # 3. we write, memsearch reads
    with tempfile.TemporaryDirectory() as tmp:
        project, home = make_project(Path(tmp))
        script = Path(tmp) / "answer.sh"
        script.write_text('#!/bin/sh\ncat >/dev/null\nprintf \'%s\' \'{"action": "none", "reason": "tui"}\'\n')
        script.chmod(0o755)
        crash = Path(tmp) / "crash.sh"
        crash.write_text("#!/bin/sh\ncat >/dev/null\nexit 3\n")
        crash.chmod(0o755)
        ours_cfg = config_text + (
            f'[llm.providers.x]\ntype = "command"\ncommand = ["{script}"]\n'
            f'[llm.providers.y]\ntype = "command"\ncommand = ["{crash}"]\n'
        )
        (home / ".memsearch" / "config.toml").write_text(ours_cfg, encoding="utf-8")
        results = run_tasks(project, load_config(project, home=home), platforms=["claude-code"])
        check(
            "3a. our run: one success, one recorded failure",
            [r.result for r in results] == ["none", "error"],
            str([r.to_dict() for r in results]),
        )
        mem = project / ".memsearch"
        ours_state = json.loads((mem / ".maintenance-state.json").read_text(encoding="utf-8"))
        report = json.loads(side(args.memsearch_python, "run", project, home))
        # memsearch raises at the failing task (it stops the run), so its result list is lost;
        # that its LLM runner was never called for project_review is the proof of the skip.
        check(
            "3b. memsearch skips our success (input unchanged: runner not called)",
            "project_review" not in report["calls"],
            json.dumps(report),
        )
        after = json.loads((mem / ".maintenance-state.json").read_text(encoding="utf-8"))
        check(
            "3c. memsearch keeps our success entry untouched",
            after["claude-code.project_review"] == ours_state["claude-code.project_review"],
        )
        check(
            "3d. memsearch re-runs our failed task and merges its failure",
            "user_profile" in report["calls"] and after["claude-code.user_profile"]["last_action"] == "error",
        )
    print(f"{failures} failure(s)")
    if args.append:
        with args.append.open("a", encoding="utf-8") as fh:
            fh.write(
                "\n## State-file compatibility with the real memsearch\n\n"
                "`benchmarks/memsearch_compat.py` (memsearch from PyPI in a side venv):\n\n```\n"
                + "\n".join(transcript)
                + "\n```\n"
            )
    return 1 if failures else 0


if __name__ == "__main__":
    raise SystemExit(main())
