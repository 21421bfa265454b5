"""The secret rules both ways: ordinary text refused (false positives) and disguised tokens let
through (misses), this tree side by side with a base revision (issue 31).

``python benchmarks/secret_rules_bench.py [--baseline e8625b6]``

* **false positives** on real text: every line of the dev data (LoCoMo journals and CMRC
  entries, read at run time from ../shared/data, never copied here), the project's own
  ``docs/``, README and source (``memsearch_tui/``, without the secret rules themselves), and
  a set of ordinary code notes written below (the kind an agent remembers: ``max_token=…``,
  a secret's *name*, code that reads a key). A line counts once whatever it holds; a hit is
  printed as file and kind only, never echoed.
* **misses** on a disguised set: seeded random tokens of 12 formats, each split by a tab,
  two spaces, U+2028, U+2029, a shell ``\\``-newline, a line break, a no-break space, a
  zero-width space, or with a Cyrillic or Greek look-alike letter in it; a token counts as
  caught only when ``redact`` leaves no 6-character piece of it visible.
* **speed**: ``find_secret`` and ``redact`` on the first megabyte of those lines, median of 5.

The base revision's scanner runs from ``git archive`` of its package in a child process, so
its rules and views are its own (loading only its ``secrets.py`` would pick up this tree's rules).
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import subprocess
import sys
import tarfile
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
SHARED = REPO.parent / "shared" / "data"
if not SHARED.is_dir():
    SHARED = Path("/work/shared/data")

_B62 = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789"
_HEX = "0123456789abcdef"

# Ordinary notes and code: none holds a credential. Built in pieces where a scanner of this
# repository might otherwise flag this file.
ORDINARY = [
    "max_token=128000",
    "max_tokens: 4096",
    "token: 1234567 tokens processed in the last run",
    "key = rsa.generate_private_key(public_exponent=65537, key_size=2048)",
    "private_key = rsa.generate_private_key(public_exponent=65537, key_size=2048)",
    "secret: db-credentials-v2",
    "client_secret: vault/oauth-client-2",
    "api_key = config.apiKey",
    "api_key=settings.OPENAI_API_KEY",
    "const token = req.headers.authorization",
    "token = tokenizer.encode(text)",
    "password = getpass.getpass()",
    "secret_key = os.environ['SECRET_KEY']",
    "SECRET_KEY = get_random_secret_key()",
    "access_key: ${AWS_ACCESS_KEY_ID}",
    "auth_token: str = Field(default=None)",
    "token_count = 128000",
    "tokens: 12000",
    "token_type: Bearer",
    "secretName: prod-db-password",
    "API_KEY=os.environ.get('API_KEY')",
    "self.token = token",
    "TOKEN_LIMIT=200000",
    "api_key: Optional[str] = None",
    "refresh_token = response.json()['refresh_token']",
    "the secret is to keep the index warm between queries",
    "password reset emails go through the notify-v3 queue",
    "Use `gh auth token` to print the current token (never paste it here)",
    "the access_key is read from ~/.aws/credentials at start-up",
    "secret: team-shared/staging-db",
    "max_completion_tokens=16384, temperature=0",
    "context window: 200000 tokens; output_tokens: 8192",
    "session_token: request.cookies.get(SESSION_COOKIE)",
    "secret_ref: projects/acme/secrets/db-pass/versions/3",
    "private_key_path = Path('~/.ssh/id_ed25519').expanduser()",
    "kubectl create secret generic app-secrets --from-env-file=.env.prod",
    "token=$(vault read -field=token auth/approle/login)",
    "password_min_length: 12",
    "the API key lives in 1Password under 'deploy key'",
    "sk-learn is spelt scikit-learn on PyPI",
    "ghp_ tokens are GitHub's personal tokens; rotate them yearly",
    "docker run -e API_KEY -e DB_PASSWORD myimage",
]


def _rng_token(rng: random.Random, n: int, alphabet: str = _B62) -> str:
    return "".join(rng.choice(alphabet) for _ in range(n))


def tokens(rng: random.Random) -> list[tuple[str, str]]:
    """(format, token): seeded random, never a real credential."""
    return [
        ("GitHub token", "ghp_" + _rng_token(rng, 36)),
        ("GitLab token", "glpat-" + _rng_token(rng, 20)),
        ("Anthropic API key", "sk-ant-api03-" + _rng_token(rng, 40)),
        ("OpenAI API key", "sk-proj-" + _rng_token(rng, 40)),
        ("AWS access key id", "AKIA" + _rng_token(rng, 16, "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567")),
        ("Stripe secret key", "sk_live_" + _rng_token(rng, 24)),
        ("Slack token", "xoxb-" + _rng_token(rng, 12, "0123456789") + "-" + _rng_token(rng, 24)),
        ("npm token", "npm_" + _rng_token(rng, 36)),
        ("Hugging Face token", "hf_" + _rng_token(rng, 34)),
        ("Google API key", "AIza" + _rng_token(rng, 35)),
        ("DigitalOcean token", "dop_v1_" + _rng_token(rng, 64, _HEX)),
        ("Databricks token", "dapi" + _rng_token(rng, 32, _HEX)),
    ]


# Latin letters and a Cyrillic / Greek look-alike of each (as Unicode's confusables list them).
_CYRILLIC = {"a": "\u0430", "e": "\u0435", "o": "\u043e", "p": "\u0440", "c": "\u0441", "A": "\u0410", "K": "\u041a"}
_GREEK = {"o": "\u03bf", "A": "\u0391", "K": "\u039a", "I": "\u0399", "p": "\u03c1"}


def _swap(token: str, table: dict[str, str]) -> str | None:
    """``token`` with its first letter that has a look-alike in ``table`` replaced."""
    for i, ch in enumerate(token):
        if ch in table:
            return token[:i] + table[ch] + token[i + 1 :]
    return None


DISGUISES: dict[str, Callable[[str], str | None]] = {
    "tab": lambda t: t[:10] + "\t" + t[10:],
    "two spaces": lambda t: t[:10] + "  " + t[10:],
    "U+2028": lambda t: t[:10] + "\u2028" + t[10:],
    "U+2029": lambda t: t[:10] + "\u2029" + t[10:],
    "shell \\-newline": lambda t: t[:10] + "\\\n" + t[10:],
    "line break": lambda t: t[:10] + "\n" + t[10:],
    "no-break space": lambda t: t[:10] + "\u00a0" + t[10:],
    "zero-width space": lambda t: t[:10] + "\u200b" + t[10:],
    "Cyrillic look-alike": lambda t: _swap(t, _CYRILLIC),
    "Greek look-alike": lambda t: _swap(t, _GREEK),
}


def disguised() -> list[tuple[str, str, str, str]]:
    """(format, disguise, text, the token as plain)."""
    rng = random.Random(31)
    out = []
    for name, tok in tokens(rng):
        for how, make in DISGUISES.items():
            text = make(tok)
            if text is not None:
                out.append((name, how, text, tok))
    return out


def caught(redact: Callable[[str], str], text: str, token: str) -> bool:
    """Masked, and no 6-character piece of the token's tail is left in the output."""
    shown = redact(f"deploy note: {text} (rotate monthly)")
    tail = token[-12:]
    return "[redacted: " in shown and all(tail[i : i + 6] not in shown for i in range(len(tail) - 5))


# -- the corpora -------------------------------------------------------------------------------
def _files(root: Path, suffixes: set[str], skip: tuple[str, ...] = ()) -> list[Path]:
    return [
        p
        for p in sorted(root.rglob("*"))
        if p.is_file() and p.suffix in suffixes and not any(s in p.as_posix() for s in skip)
    ]


def corpora(repo: Path) -> dict[str, list[tuple[str, str]]]:
    """corpus name → [(file name, line)]; the project's own text read from ``repo`` (this tree)."""
    out: dict[str, list[tuple[str, str]]] = {"ordinary code notes (written here)": [("notes", t) for t in ORDINARY]}
    sets = {
        "LoCoMo dev journals": _files(SHARED / "locomo-dev", {".md"}),
        "CMRC dev entries": _files(SHARED / "cmrc-dev" / "memory", {".md"}),
        "docs/ and README": [repo / "README.md", *_files(repo / "docs", {".md"})],
        "source (memsearch_tui/)": _files(repo / "memsearch_tui", {".py"}, skip=("secret_rules.py", "__pycache__")),
    }
    for name, files in sets.items():
        lines = []
        for p in files:
            text = p.read_text(encoding="utf-8", errors="replace")
            lines += [(p.name, line) for line in text.splitlines() if line.strip()]
        out[name] = lines
    return out


def measure(repo: Path) -> dict[str, object]:
    """Run in the tree whose scanner is measured (``sys.path[0]``); the texts always come
    from this tree and ../shared, so both scanners read the same lines."""
    from memsearch_tui.engine.core import secrets

    def kinds(text: str) -> list[str]:
        return sorted({k for k, _ in secrets.found_values(text)})

    fp: dict[str, dict[str, object]] = {}
    for name, lines in corpora(repo).items():
        hits = [f"{f}: {', '.join(k)}" for f, line in lines if (k := kinds(line))]
        fp[name] = {"lines": len(lines), "flagged": len(hits), "examples": hits[:8]}
    rows = disguised()
    missed = [f"{fmt} / {how}" for fmt, how, text, tok in rows if not caught(secrets.redact, text, tok)]
    by_how: dict[str, list[int]] = {}
    for fmt, how, _, _ in rows:
        by_how.setdefault(how, [0, 0])
        by_how[how][0] += 1
        by_how[how][1] += f"{fmt} / {how}" not in missed
    text = "\n".join(line for lines in corpora(repo).values() for _, line in lines)[:1_000_000]
    speed = {}
    for name, fn in (("find_secret", secrets.find_secret), ("redact", secrets.redact)):
        times = []
        for _ in range(5):
            t = time.perf_counter()
            fn(text)
            times.append((time.perf_counter() - t) * 1000)
        speed[name] = statistics.median(times)
    return {"fp": fp, "disguised": len(rows), "missed": missed, "by_how": by_how, "speed": speed}


def _tree_at(rev: str) -> Path | None:
    """The package as it is at ``rev``, unpacked in a temp dir."""
    where = Path(tempfile.mkdtemp(prefix="secret-rules-base-"))
    try:
        blob = subprocess.run(
            ["git", "archive", "--format=tar", rev, "memsearch_tui"], cwd=REPO, capture_output=True, check=True
        ).stdout
    except (subprocess.CalledProcessError, OSError):
        return None
    tar = where / "pkg.tar"
    tar.write_bytes(blob)
    with tarfile.open(tar) as tf:
        tf.extractall(where, filter="data")
    return where


def _run(tree: Path) -> dict[str, object]:
    env = {**os.environ, "PYTHONPATH": str(tree)}
    code = f"import sys; sys.path.insert(0, {str(tree)!r}); sys.path.insert(1, {str(REPO / 'benchmarks')!r}); "
    code += f"import json, secret_rules_bench as b; from pathlib import Path; print(json.dumps(b.measure(Path({str(REPO)!r}))))"
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True, cwd="/")
    return json.loads(out.stdout)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--baseline", default="e8625b6", help="git revision whose scanner runs side by side")
    args = ap.parse_args()
    base_tree = _tree_at(args.baseline)
    base = _run(base_tree) if base_tree else None
    new = _run(REPO)
    print(f"\n| corpus | lines | flagged at {args.baseline} | flagged here |\n| --- | --- | --- | --- |")
    for name, row in new["fp"].items():  # type: ignore[attr-defined]
        b = base["fp"][name]["flagged"] if base else "?"  # type: ignore[index]
        print(f"| {name} | {row['lines']} | {b} | {row['flagged']} |")
    tot = sum(r["lines"] for r in new["fp"].values())  # type: ignore[attr-defined]
    nf = sum(r["flagged"] for r in new["fp"].values())  # type: ignore[attr-defined]
    bf = sum(r["flagged"] for r in base["fp"].values()) if base else 0  # type: ignore[index]
    print(f"| **all** | {tot} | {bf} ({bf / tot:.3%}) | {nf} ({nf / tot:.3%}) |")
    print(f"\n| disguise | tokens | caught at {args.baseline} | caught here |\n| --- | --- | --- | --- |")
    for how, (n, ok) in new["by_how"].items():  # type: ignore[attr-defined]
        b = base["by_how"][how][1] if base else "?"  # type: ignore[index]
        print(f"| {how} | {n} | {b} | {ok} |")
    n = new["disguised"]
    bm = len(base["missed"]) if base else 0  # type: ignore[index]
    nm = len(new["missed"])  # type: ignore[arg-type]
    print(f"| **missed** | {n} | {bm} ({bm / n:.1%}) | {nm} ({nm / n:.1%}) |")  # type: ignore[operator]
    for name in ("find_secret", "redact"):
        b = f"{base['speed'][name]:.0f} ms" if base else "?"  # type: ignore[index]
        print(f"| {name} on 1 MB of those lines (median of 5) | | {b} | {new['speed'][name]:.0f} ms |")  # type: ignore[index]
    for name, row in new["fp"].items():  # type: ignore[attr-defined]
        for ex in row["examples"]:
            print(f"  flagged here, {name}: {ex}")
    for m in new["missed"]:  # type: ignore[attr-defined]
        print(f"  missed here: {m}")


if __name__ == "__main__":
    main()
