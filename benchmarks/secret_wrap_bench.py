"""``redact`` on 1 MB texts of wrapped and glued tokens, two trees side by side (s19 fix4, s20 edges).

``python benchmarks/secret_wrap_bench.py BASE_TREE THIS_TREE``: each case in a fresh child
per tree, three runs alternating the order; medians and the ratio printed. Cases: the
linear-time test's units that reach the joined view (a token broken on every line, no-break
spaces), a token wrapped over two lines and glued to the next line's word, a token one
character a line, and hex as an anchor that never joins.
"""

import json
import statistics
import subprocess
import sys

TREES = {"base": sys.argv[1], "fix4": sys.argv[2]}  # two worktrees: the base revision's and this one
UNITS = {
    "line-breaks": "ghp_\n",
    "nbsp": "a\u00a0",
    "wrapped-glued": "ghp_A1b2C3d4E5f6G7h8I9j0\nK1l2M3n4O5p6Q7r8\nabc ",
    "one-char-lines": "g\nh\np\n_\n" + "A\n1\n" * 20,
    "hex": "0123456789abcdef",
    # s20: a JWT whose header is one character a line over 200 lines (whole only at its end)
    "long-one-char": "\n".join("eyJ" + "a1B2" * 50) + ".eyJ" + "b" * 12 + "." + "c" * 12 + "\nabc def\n",
}
CODE = r"""
import sys, time, json
from memsearch_tui.engine.core.secrets import find_secret, redact
unit = json.loads(sys.argv[1]); text = unit * (1_000_000 // len(unit))
redact(unit * 50)
t = time.perf_counter(); find_secret(text); redact(text); print(time.perf_counter() - t)
"""
res = {k: {} for k in TREES}
for name, unit in UNITS.items():
    for rep in range(3):
        order = list(TREES.items()) if rep % 2 == 0 else list(reversed(TREES.items()))
        for tree_name, tree in order:
            out = subprocess.run(
                [sys.executable, "-c", CODE, json.dumps(unit)],
                cwd=tree,
                env={"PYTHONPATH": tree, "PATH": "/usr/bin:/bin"},
                capture_output=True,
                text=True,
                timeout=300,
            )
            if out.returncode:
                print(out.stderr[-400:])
                sys.exit(1)
            res[tree_name].setdefault(name, []).append(float(out.stdout))
for name in UNITS:
    b, f = statistics.median(res["base"][name]), statistics.median(res["fix4"][name])
    print(f"{name:15} base {b:6.2f} s  fix4 {f:6.2f} s  fix4/base {f / b:5.2f}")
