"""The secret scanner: formats detected, false positives on real notes, speed (issue 19).

``python benchmarks/secret_scan_bench.py [--baseline main] [--runs 5]``

* **probes**: 30 credential formats (issue 19's list and common ones from gitleaks' and
  detect-secrets' rule lists), each counted as caught only when ``redact`` leaves no part
  of the secret visible; the same probes through the scanner of ``--baseline`` (a git
  revision, loaded from ``git show``) side by side.
* **false positives**: every hit on the demo store and project (seeded in a temp dir), the
  LoCoMo dev journals and the CMRC dev entries (read at run time from ../shared/data,
  never copied here). Printed as file and kind only: a hit is never echoed.
* **speed**: ``find_secret`` and ``redact`` on 1 MB and 10 MB of mixed text (LoCoMo and
  CMRC prose, code and config lines, a secret every ~50 KB), medians of ``--runs``; the
  baseline scanner and ``str.lower`` of the same text as anchors.
"""

from __future__ import annotations

import argparse
import base64
import functools
import importlib.util
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from types import ModuleType

REPO = Path(__file__).resolve().parents[1]
SHARED = REPO.parent / "shared" / "data"
if not SHARED.is_dir():
    SHARED = Path("/work/shared/data")
sys.path.insert(0, str(REPO))

_B62 = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789"
_RNG = random.Random(19)


def _r(n: int, alphabet: str = _B62) -> str:
    """A random-looking (seeded) string: no real credential is ever written down here."""
    return "".join(_RNG.choice(alphabet) for _ in range(n))


def _hex(n: int) -> str:
    return _r(n, "0123456789abcdef")


def probes() -> list[tuple[str, str, str]]:
    """(name, text, the part that must not be shown)."""
    body = "\n".join(_r(64, _B62 + "+/") for _ in range(6))
    docker_auth = base64.b64encode(b"ci-bot:" + _r(20).encode()).decode()
    key_data = base64.b64encode(b"-----BEGIN RSA PRIVATE KEY-----\n" + _r(60).encode()).decode()
    split = "ghp_" + _r(36)
    nbsp = "sk-ant-api03-" + _r(40)
    zw = "sk-proj-" + _r(32)
    gl = "glpat-" + _r(20)
    out = [
        ("private key body", f"-----BEGIN OPENSSH PRIVATE KEY-----\n{body}\n-----END OPENSSH PRIVATE KEY-----", body),
        ("PyPI upload token", "twine upload -u __token__ -p pypi-AgEIcHlwaS5vcmc" + _r(80), None),
        ("DB_PASS=", "DB_PASS=" + _r(14), None),
        ("PGPASSWORD=", "export PGPASSWORD=" + _r(16), None),
        (".netrc line", "machine api.example.com login alice password " + (pw := _r(12)), pw),
        ("password in prose", "the admin password is Hx" + _r(8) + "7", None),
        ("Telegram bot token", "bot 7123456789:AA" + _r(33, _B62 + "_-"), None),
        ("Vault token (hvs.)", "VAULT says hvs." + _r(92), None),
        ("Vault token (legacy s.)", "vault login s.Ab3" + _r(21), None),
        ("DigitalOcean token", "dop_v1_" + _hex(64), None),
        ("Shopify token", "shpat_" + _hex(32), None),
        ("Linear API key", "lin_api_" + _r(40), None),
        ("Atlassian API token", "ATATT3xFfGF0" + _r(170, _B62 + "_-") + "=" + _hex(8).upper(), None),
        (
            "docker config auths",
            '{"auths": {"https://index.docker.io/v1/": {"auth": "' + docker_auth + '"}}}',
            docker_auth,
        ),
        ("kubeconfig client key", "users:\n- name: dev\n  user:\n    client-key-data: " + key_data, key_data),
        (
            "Azure SAS URL",
            "https://acct.blob.core.windows.net/c/f?sv=2022-11-02&ss=b&sp=r&sig=" + _r(43, _B62 + "%") + "%3D",
            None,
        ),
        ("split token (two lines)", split[:20] + "\n" + split[20:], split[20:]),
        ("NBSP-broken token", nbsp[:18] + "\u00a0" + nbsp[18:], nbsp[18:]),
        ("zero-width inside a token", zw[:12] + "\u200b" + zw[12:], zw[12:]),
        ("combining mark inside a token", gl[:9] + "\u0301" + gl[9:], gl[9:]),
        ("GitHub token", "ghp_" + _r(36), None),
        ("AWS access key id", "AKIA" + _r(16, "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567"), None),
        ("Stripe secret key", "sk_live_" + _r(24), None),
        ("Google OAuth client secret", "GOCSPX-" + _r(28), None),
        ("Docker Hub token", "dckr_pat_" + _r(27), None),
        ("age secret key", "AGE-SECRET-KEY-1" + _r(58, "ACDEFGHJKLMNPQRSTUVWXYZ023456789"), None),
        ("Databricks token", "dapi" + _hex(32), None),
        ("Grafana service account token", "glsa_" + _r(32) + "_" + _hex(8), None),
        ("mysql -p password", "mysql -u root -p" + _r(12) + " app", None),
        ("curl -u user:password", "curl -u admin:" + (pw := _r(12)) + " https://api.example.com", pw),
    ]
    return [(n, t, core if core is not None else _longest(t)) for n, t, core in out]


def _longest(text: str) -> str:
    """The secret's tail: the last 10 characters of the text's longest word."""
    return max(text.replace(":", " ").replace("=", " ").split(), key=len)[-10:]


def caught(redact: Callable[[str], str], text: str, core: str) -> bool:
    shown = redact(f"note: {text} (end)")
    return "[redacted: " in shown and all(line not in shown for line in core.splitlines() if len(line) > 4)


def baseline(rev: str) -> ModuleType | None:
    """The scanner module as it is at ``rev`` (loaded from ``git show``), or None."""
    path = "memsearch_tui/engine/core/secrets.py"
    try:
        src = subprocess.run(["git", "show", f"{rev}:{path}"], cwd=REPO, capture_output=True, text=True, check=True)
    except (subprocess.CalledProcessError, OSError):
        return None
    tmp = Path(tempfile.mkdtemp()) / "baseline_secrets.py"
    tmp.write_text(src.stdout, encoding="utf-8")
    spec = importlib.util.spec_from_file_location("baseline_secrets", tmp)
    assert spec is not None and spec.loader is not None
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


# -- false positives -------------------------------------------------------------------------
def demo_files() -> list[Path]:
    """The demo's store and project, seeded in a temp dir by the demo seeder itself."""
    where = Path(tempfile.mkdtemp(prefix="secret-bench-demo-"))
    env = {**os.environ, "PYTHONPATH": str(REPO), "HOME": str(where / "home")}
    subprocess.run([sys.executable, "-m", "memsearch_tui.demo", str(where)], env=env, check=True, capture_output=True)
    return _texts(where, skip_state=True)


def _texts(root: Path, *, skip_state: bool = False) -> list[Path]:
    out = []
    for p in sorted(root.rglob("*")):
        if not p.is_file() or p.suffix.lower() not in {".md", ".json", ".jsonl", ".toml", ".txt", ""}:
            continue
        if skip_state and ".memsearch-tui" in p.parts:
            continue  # derived caches and the undo log: copies of the files above
        out.append(p)
    return out


def false_positives(find_hits: Callable[[str], list[str]], files: list[Path]) -> tuple[int, int, list[str]]:
    """(files, bytes, "file: kind" per hit)."""
    found, size = [], 0
    for p in files:
        text = p.read_text(encoding="utf-8", errors="replace")
        size += len(text.encode("utf-8"))
        found += [f"{p.name}: {kind}" for kind in find_hits(text)]
    return len(files), size, found


# -- speed -----------------------------------------------------------------------------------
def mixed_text(n_bytes: int) -> str:
    """Prose from LoCoMo and CMRC, code and config lines, a secret every ~50 KB."""
    prose = [p.read_text(encoding="utf-8", errors="replace") for p in _texts(SHARED / "locomo-dev")]
    prose += [p.read_text(encoding="utf-8", errors="replace") for p in _texts(SHARED / "cmrc-dev" / "memory")[:200]]
    code = (
        "def connect(host: str, port: int = 5432) -> Connection:\n"
        "    password = os.environ['DB_PASSWORD']  # read at run time\n"
        "    return psycopg.connect(host=host, port=port, password=password)\n"
        "[tool.ruff]\nline-length = 120\ntoken_budget = 4096\n"
        "curl -s https://api.example.com/v1/items?page=2 | jq '.items[].id'\n"
    )
    secrets = [t for _, t, _ in probes()]
    parts, size, i = [], 0, 0
    while size < n_bytes:
        chunk = prose[i % len(prose)][:20_000] + "\n" + code
        if i % 2 == 0:
            chunk += "\n" + secrets[(i // 2) % len(secrets)] + "\n"
        parts.append(chunk)
        size += len(chunk.encode("utf-8"))
        i += 1
    return "".join(parts)


def median_ms(fn: Callable[[], object], runs: int) -> float:
    times = []
    for _ in range(runs):
        t = time.perf_counter()
        fn()
        times.append((time.perf_counter() - t) * 1000)
    return statistics.median(times)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--baseline", default="main", help="git revision whose scanner runs side by side")
    ap.add_argument("--runs", type=int, default=5)
    args = ap.parse_args()
    from memsearch_tui.engine.core import secrets

    old = baseline(args.baseline)
    print(f"load average {os.getloadavg()[0]:.2f}; {len(secrets.RULES)} rules")
    rows = probes()
    new_ok = [caught(secrets.redact, t, c) for _, t, c in rows]
    old_ok = [caught(old.redact, t, c) for _, t, c in rows] if old else [False] * len(rows)
    print(f"\n| probe | {args.baseline} | this tree |\n| --- | --- | --- |")
    for (name, _, _), a, b in zip(rows, old_ok, new_ok, strict=True):
        print(f"| {name} | {'yes' if a else 'no'} | {'yes' if b else 'no'} |")
    print(f"| **caught** | **{sum(old_ok)}/{len(rows)}** | **{sum(new_ok)}/{len(rows)}** |")

    def kinds(text: str) -> list[str]:
        return [kind for kind, _ in secrets.found_values(text)]

    print("\n| corpus | files | MB | false positives |\n| --- | --- | --- | --- |")
    corpora = {
        "demo (store + project)": demo_files(),
        "LoCoMo dev journals": _texts(SHARED / "locomo-dev"),
        "CMRC dev entries": _texts(SHARED / "cmrc-dev" / "memory"),
    }
    for name, files in corpora.items():
        n, size, hits = false_positives(kinds, files)
        print(f"| {name} | {n} | {size / 1e6:.2f} | {len(hits)} |")
        for h in hits[:20]:
            print(f"|   {h} | | | |")

    print("\n| text | str.lower (anchor) | baseline find | find_secret | baseline redact | redact |")
    print("| --- | --- | --- | --- | --- | --- |")
    for mb in (1, 10):
        text = mixed_text(mb * 1_000_000)
        runs = args.runs if mb == 1 else max(1, args.runs // 2)
        low = median_ms(text.lower, runs)
        of = median_ms(functools.partial(old.find_secret, text), runs) if old else float("nan")
        nf = median_ms(functools.partial(secrets.find_secret, text), runs)
        orr = median_ms(functools.partial(old.redact, text), runs) if old else float("nan")
        nr = median_ms(functools.partial(secrets.redact, text), runs)
        print(
            f"| {mb} MB mixed | {low:.1f} ms | {of:.1f} ms | {nf:.1f} ms | {orr:.1f} ms | {nr:.1f} ms ({nr / orr:.2f}×) |"
        )


if __name__ == "__main__":
    main()
