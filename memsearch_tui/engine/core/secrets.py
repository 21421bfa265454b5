"""Refuse to store credentials: memory files are read by agents and indexed in plain text.

Each rule has a name that the refusal shows; the matched text itself is never echoed.
"""

from __future__ import annotations

import re

from memsearch_tui.engine.core.errors import Refused

_B = r"(?<![A-Za-z0-9])"  # a token start: unlike \b, this also holds after '_' (DB_PASSWORD=…)
# A credential-looking value: 6+ non-space characters with at least one digit, or 12+
# characters mixing upper and lower case; "the token: everything else" is prose.
_VALUE = r"['\"]?(?!<|\$\{|\*{3}|x{3}|\.\.\.)(?=[^\s'\"]*\d|[^\s'\"]*[a-z][^\s'\"]*[A-Z]|[^\s'\"]*[A-Z][^\s'\"]*[a-z])[^\s'\"]{6,}"

RULES: list[tuple[str, re.Pattern[str]]] = [
    ("private key block", re.compile(r"-----BEGIN (?:[A-Z0-9]+ )*PRIVATE KEY(?: BLOCK)?-----")),
    ("Anthropic API key", re.compile(_B + r"sk-ant-[A-Za-z0-9_\-]{20,}")),
    ("OpenAI API key", re.compile(_B + r"sk-(?:proj-|svcacct-|admin-)?[A-Za-z0-9_\-]{20,}")),
    ("AWS access key id", re.compile(_B + r"(?:AKIA|ASIA)[0-9A-Z]{16}(?![0-9A-Z])")),
    ("AWS secret access key", re.compile(r"(?i)aws_?secret_?(?:access_?)?key\s*[=:]\s*['\"]?[A-Za-z0-9/+]{40}")),
    ("GitHub token", re.compile(_B + r"(?:gh[pousr]_[A-Za-z0-9]{36,}|github_pat_[A-Za-z0-9_]{22,})")),
    ("Google API key", re.compile(_B + r"AIza[0-9A-Za-z_\-]{35}")),
    ("Slack token", re.compile(_B + r"xox[abposr]-[A-Za-z0-9-]{10,}")),
    ("Stripe secret key", re.compile(_B + r"(?:sk|rk)_live_[A-Za-z0-9]{16,}")),
    ("Hugging Face token", re.compile(_B + r"hf_[A-Za-z0-9]{30,}")),
    ("JSON web token", re.compile(_B + r"eyJ[A-Za-z0-9_-]{10,}\.eyJ[A-Za-z0-9_-]{10,}\.[A-Za-z0-9_-]{10,}")),
    ("password in a URL", re.compile(r"[a-z][a-z0-9+.\-]*://[^/\s:@]+:[^/\s@]{3,}@", re.IGNORECASE)),
    (
        "password/token assignment",
        re.compile(
            r"(?<![A-Za-z0-9])(?:[A-Za-z0-9]+_)*(?i:password|passwd|pwd|secret|token|api[_-]?key|access[_-]?key"
            r"|auth[_-]?token|client[_-]?secret)\s*[=:]\s*" + _VALUE
        ),
    ),
]


def find_secret(text: str) -> str | None:
    """Name of the first rule that matches ``text``, or None."""
    for name, pattern in RULES:
        if pattern.search(text):
            return name
    return None


def refuse_secrets(where: str, *texts: str) -> None:
    """Raise Refused naming the kind of secret found (never the secret itself)."""
    for text in texts:
        name = find_secret(text)
        if name:
            raise Refused(
                f"{where}: looks like it contains a secret ({name}); memory must not hold credentials "
                "(remove it or store a reference such as 'see 1Password: deploy key')",
                code="secret",
            )
