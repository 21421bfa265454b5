"""The one secret scanner: every kind found and named, obfuscated forms too, prose left
alone, and every rule linear in time on pathological 1 MB input."""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap
import time

import pytest

from memsearch_tui.engine.core.secrets import RULES, added_secrets, find_secret, redact, redact_data

# Built from pieces so that no scanner of this repository flags the test itself.
KINDS = {
    "JSON password": ('{"user": "ci", "password": "' + "hunter2" + ' rocks"}', "password/token assignment"),
    "two-word password": ('password = "' + "correct horse" + '"', "password/token assignment"),
    "bearer header": ("Authorization: Bearer " + "abcDEF123456ghiJKL789", "authorization header"),
    "bearer alone": ("curl -H 'bearer " + "Zm9vYmFyYmF6cXV4MTIzNDU2Nzg5" + "'", "bearer token"),
    "GitLab": ("glpat-" + "xY3kP9mQ2rT7vW1zB4nC", "GitLab token"),
    "npm": ("npm_" + "a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8", "npm token"),
    "SendGrid": (
        "SG." + "aBcDeFgHiJkLmNoPqRsTuV" + "." + "wXyZ0123456789aBcDeFgHiJkLmNoPqRsTuVwXyZ01234",
        "SendGrid API key",
    ),
    "Azure": ("DefaultEndpointsProtocol=https;AccountName=x;AccountKey=" + "q" * 86 + "==", "Azure storage key"),
    "Twilio": ("SK" + "0123456789abcdef" * 2, "Twilio API key"),
    "Slack": ("xoxb-" + "123456789012-abcdefghij", "Slack token"),
    "Slack webhook": ("https://hooks.slack.com/services/" + "T000/B000/XXXXXXXXXXXXXXXXXXXXXXXX", "Slack webhook"),
    "Discord": ("MTk4NjIyNDgzNDcxOTI1MjQ4" + ".Cl2FMQ." + "ZnCjm1XVW7vRze4b7Cq4se7kKWs", "Discord bot token"),
    "Discord webhook": (
        "https://discord.com/api/webhooks/" + "123456789012/" + "abcdefghijklmnopqrstuvwxyz0123456789",
        "Discord webhook",
    ),
    "Stripe": ("sk_live_" + "4eC39HqLyjWDarjtT1zdp7dc", "Stripe secret key"),
    "Stripe test": ("rk_test_" + "4eC39HqLyjWDarjtT1zdp7dc", "Stripe secret key"),
    "Google": ("AIza" + "SyA-1234567890abcdefghijklmnopqrstu", "Google API key"),
    "JWT": (
        "eyJhbGciOiJIUzI1NiJ9" + ".eyJzdWIiOiIxMjM0NTY3ODkwIn0." + "dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U",
        "JSON web token",
    ),
    "Anthropic": ("sk-ant-api03-" + "abcdEFGHijklMNOPqrstUVWX0123", "Anthropic API key"),
    "AWS": ("AKIA" + "IOSFODNN7EXAMPLE", "AWS access key id"),
    "private key": ("-----BEGIN RSA " + "PRIVATE KEY-----", "private key block"),
    "URL password": ("postgres://admin:" + "s3cretPassw0rd@db.internal/app", "password in a URL"),
}


def _core(text: str) -> str:
    """A distinctive slice of the secret (what must never be echoed): the last 8
    characters of its longest word, or of a quoted password."""
    if "://" in text and "@" in text:
        return text.split(":")[2].split("@")[0]
    if '"' in text:
        return text.split('"')[-2][-8:]
    return max(text.replace("'", " ").split(), key=len)[-8:]


@pytest.mark.parametrize("name", sorted(KINDS))
def test_each_kind_is_found_named_and_redacted(name: str) -> None:
    text, kind = KINDS[name]
    assert find_secret(f"context before\n{text}\nafter") == kind
    shown = redact(f"note: {text} (end)")
    assert f"[redacted: {kind}]" in shown
    assert _core(text) not in shown, shown
    assert shown.startswith("note: ") and shown.endswith(" (end)")


@pytest.mark.parametrize(
    "text",
    [
        "ｓｋ－ａｎｔ－ａｐｉ０３－ａｂｃｄＥＦＧＨｉｊｋｌＭＮＯＰｑｒｓｔＵＶＷＸ０１２３",  # full-width
        "sk-ant-api03-abcd\u200bEFGHijkl\u200cMNOPqrstUVWX0123",  # zero-width inside
        "gh\u200bp_" + "a" * 36,
        "ＡＫＩＡ" + "IOSFODNN7EXAMPLE",
    ],
)
def test_obfuscated_forms_are_found_and_redacted(text: str) -> None:
    assert find_secret(text) is not None
    shown = redact(f"x {text} y")
    assert "[redacted: " in shown and shown.startswith("x ") and shown.endswith(" y")
    assert "EXAMPLE" not in shown and "qrst" not in shown.casefold() and "aaaaaaaaaa" not in shown


@pytest.mark.parametrize(
    "text",
    [
        "Our password policy requires 12 characters.",
        'the "password": field is required',
        'password = "<your password here>"',
        'token = "${TOKEN}"',
        "Authorization: Bearer <token>",
        "a bearer token travels in the header",
        "SKIP this step",
        "see https://hooks.slack.com for the docs",
        "the secret: everything else",
    ],
)
def test_prose_and_placeholders_are_not_secrets(text: str) -> None:
    assert find_secret(text) is None
    assert redact(text) == text


def test_redact_data_masks_every_string_and_leaves_the_rest() -> None:
    data = {"title": "ok", "n": 3, "rows": [{"reason": "key " + KINDS["GitLab"][0]}, None, 1.5]}
    out = redact_data(data)
    assert out["n"] == 3 and out["title"] == "ok" and out["rows"][1:] == [None, 1.5]
    assert out["rows"][0]["reason"] == "key [redacted: GitLab token]"
    clean = {"a": ["nothing", "to", "see"]}
    assert redact_data(clean) is clean  # one joined scan, no copy when nothing is found


def test_a_rewrite_may_keep_a_secret_but_not_add_one() -> None:
    old = "# Project\n\nDeploy with " + KINDS["Stripe"][0] + "\n"
    assert added_secrets(old, old + "- more\n") == []
    assert added_secrets(old, old + KINDS["npm"][0]) == ["npm token"]


PATHOLOGICAL = {
    "hex": "0123456789abcdef",
    "letters": "a",
    "sk-dash": "sk-",
    "jwt-ish": "eyJa.",
    "scheme": "ab://",
    "userinfo": "a:",
    "assign": "password=",
    "assign-quote": 'password="',
    "bearer": "bearer ",
    "key-prefix": "DB_",
    "pem": "-----BEGIN A ",
    "dots": "SG.",
    "full-width": "ｓ",
    "zero-width": "a\u200b",
    "base64": "Zm9v",
    # the old rules took 17.9 s, 9.1 s, 3.3 s and 1.9 s on 20 KB of these:
    "underscored": "a_",
    "assign-repeat": "password=a",
    "mixed": "A1",
    "hex-dash": "0123456789abcde-",
    # issue 19: a key block per line, a token broken on every line, no-break spaces
    "key-blocks": "-----BEGIN RSA PRIVATE KEY-----\n",
    "key-no-end": "-----BEGIN PRIVATE KEY-----\nTUlJRQ==\n",
    "line-breaks": "ghp_\n",
    "nbsp": "a\u00a0",
    "netrc": "machine a ",
    # trial s19 problem 1: a token glued to the next line's word, wrapped, one character a line
    "wrapped-glued": "ghp_A1b2C3d4E5f6G7h8I9j0\nK1l2M3n4O5p6Q7r8\nabc ",
    "one-char-lines": "g\nh\np\n_\n" + "A\n1\n" * 20,
}


def test_every_rule_is_linear_on_a_pathological_megabyte() -> None:
    """Each input is one 1 MB token built to make a backtracking regex quadratic (the old
    rules took 20 s on 60 KB of hex). Run in a child with a generous hang guard; the
    measured times are printed, not asserted."""
    code = textwrap.dedent(
        f"""
        import json, time
        from memsearch_tui.engine.core.secrets import find_secret, redact
        cases = {PATHOLOGICAL!r}
        out = {{}}
        for name, unit in cases.items():
            text = unit * (1_000_000 // len(unit))
            t = time.perf_counter(); find_secret(text); redact(text)
            out[name] = round(time.perf_counter() - t, 3)
        print(json.dumps(out))
        """
    )
    start = time.perf_counter()
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0, proc.stderr
    times = json.loads(proc.stdout)
    assert set(times) == set(PATHOLOGICAL)
    print(
        f"\nsecret scan + redact of 1 MB tokens ({len(RULES)} rules): {times}; total {time.perf_counter() - start:.1f}s"
    )
