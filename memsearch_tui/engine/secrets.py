"""Refuse to store credentials: memory files are read by agents and indexed in plain text.

Each rule has a name that the refusal shows; the matched text itself is never echoed.
"""

from __future__ import annotations

import re

from .errors import Refused

RULES: list[tuple[str, re.Pattern[str]]] = [
    ("private key block", re.compile(r"-----BEGIN (?:[A-Z0-9]+ )*PRIVATE KEY(?: BLOCK)?-----")),
    ("Anthropic API key", re.compile(r"\bsk-ant-[A-Za-z0-9_\-]{20,}")),
    ("OpenAI API key", re.compile(r"\bsk-(?:proj-|svcacct-|admin-)?[A-Za-z0-9_\-]{20,}")),
    ("AWS access key id", re.compile(r"\b(?:AKIA|ASIA)[0-9A-Z]{16}\b")),
    ("AWS secret access key", re.compile(r"(?i)aws_?secret_?(?:access_?)?key\s*[=:]\s*['\"]?[A-Za-z0-9/+]{40}")),
    ("GitHub token", re.compile(r"\b(?:gh[pousr]_[A-Za-z0-9]{36,}|github_pat_[A-Za-z0-9_]{22,})")),
    ("Google API key", re.compile(r"\bAIza[0-9A-Za-z_\-]{35}\b")),
    ("Slack token", re.compile(r"\bxox[abposr]-[A-Za-z0-9-]{10,}")),
    ("Stripe secret key", re.compile(r"\b(?:sk|rk)_live_[A-Za-z0-9]{16,}")),
    ("Hugging Face token", re.compile(r"\bhf_[A-Za-z0-9]{30,}\b")),
    ("JSON web token", re.compile(r"\beyJ[A-Za-z0-9_-]{10,}\.eyJ[A-Za-z0-9_-]{10,}\.[A-Za-z0-9_-]{10,}")),
    (
        "password/token assignment",
        re.compile(
            r"(?i)\b(?:password|passwd|pwd|secret|token|api[_-]?key|access[_-]?key|auth[_-]?token)"
            r"\s*[=:]\s*['\"]?(?!\s|<|\$\{|\*{3}|x{3}|\.\.\.)[^\s'\"]{6,}"
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
