"""The one secret scanner and redactor: what comes in is refused, what goes out is masked.

In: every store write (body and every frontmatter value), import, an LLM answer before it
becomes a proposal, a proposal edit. Out: error messages, the state file, ``status`` /
``doctor``, ``--json`` fields and TUI toasts go through :func:`redact`, which replaces a
secret by the *kind* of secret it is, never a part of it.

Why RE2 (``google-re2``, BSD-3): every pattern runs on untrusted text (a 1 MB entry, an
LLM answer, a provider's stderr) under the store's write lock, and Python's backtracking
``re`` is quadratic on one long token (a 60 KB hex body took 20 s). RE2 matches in time
linear in the input whatever the pattern. RE2 has no look-around, so "a token starts
here" is a consumed ``(?:^|[^A-Za-z0-9])`` and each rule names the group to mask; checks
that need more than a regular language ("the value has a digit") run on the match only.

Obfuscated forms are folded first: full-width letters (NFKC) and zero-width characters
inside a key (``sk-ant\u200b-…``) are found like the plain form.
"""

from __future__ import annotations

import functools
import re
import unicodedata
from collections import namedtuple
from collections.abc import Callable, Iterator
from typing import Any

from memsearch_tui.engine.core.errors import Refused

# A token start (consumed: RE2 has no look-behind). Only rules whose prefix could end an
# ordinary word need it (``sk-`` in "disk-usage-…", ``SK`` + hex); distinctive prefixes
# (``glpat-``, ``ghp_``, ``AKIA`` …) match even glued to text before them ("\x1b[2Jghp_…").
_S = r"(?:^|[^A-Za-z0-9])"
_E = r"(?:[^A-Za-z0-9]|$)"  # a token end
_KEY_WORDS = (
    r"(?i:password|passwd|pwd|passphrase|secret|token|api[_-]?key|access[_-]?key|auth[_-]?token"
    r"|client[_-]?secret|private[_-]?key)"
)
# Characters that fold away: zero-width space/joiners, word joiner, BOM, soft hyphen, ….
_INVISIBLE = dict.fromkeys(
    map(ord, "\u00ad\u034f\u061c\u115f\u1160\u180e\u200b\u200c\u200d\u2060\u2061\u2062\u2063\u2064\ufeff")
)
_PLACEHOLDER_WORDS = {"string", "password", "secret", "token", "null", "none", "redacted", "hidden", "example"}
_DIGIT, _LOWER, _UPPER = re.compile(r"\d"), re.compile(r"[a-z]"), re.compile(r"[A-Z]")  # one class each: linear
MAX_QUOTED = 256  # a quoted password longer than this is prose, not a credential


# namedtuples, not dataclasses: the fast ``search -s grep`` path prints through the
# redactor and must not pay for importing ``dataclasses``.
class Rule(namedtuple("Rule", "name pattern group accept", defaults=(1, None))):
    """One kind of secret: ``group`` is the part to mask, ``accept`` vets a match."""

    __slots__ = ()
    name: str
    pattern: str
    group: int
    accept: Callable[[str], bool] | None


def _credential_like(value: str) -> bool:
    """An unquoted value is a credential when it has a digit or mixes case (6+ chars);
    ``${VAR}``, ``<your key>``, ``***`` and ``...`` are placeholders."""
    v = value.strip("'\"")
    if len(v) < 6 or _placeholder(v):
        return False
    return bool(_DIGIT.search(v) or (_LOWER.search(v) and _UPPER.search(v)))  # in C: a value may be 1 MB


def _quoted_secret(value: str) -> bool:
    """A quoted value after a password-like key is one, even in plain words ("two words")."""
    v = value[1:-1].strip()
    return 6 <= len(v) <= MAX_QUOTED and not _placeholder(v) and "your " not in v.casefold()


def _placeholder(v: str) -> bool:
    low = v.casefold()
    return (
        v.startswith(("<", "${", "{{", "%(", "$", "*", "…", "...", "[redacted"))
        or low.startswith("xxx")
        or low in _PLACEHOLDER_WORDS
    )


def _assignment_value(match: str) -> bool:
    return _quoted_secret(match) if match[:1] in "\"'" and match[-1:] == match[:1] else _credential_like(match)


RULES: list[Rule] = [
    Rule("private key block", r"(-----BEGIN (?:[A-Z0-9]+ )*PRIVATE KEY(?: BLOCK)?-----)"),
    Rule("Anthropic API key", r"(sk-ant-[A-Za-z0-9_\-]{20,})"),
    Rule("OpenAI API key", _S + r"(sk-(?:proj-|svcacct-|admin-)?[A-Za-z0-9_\-]{20,})"),
    Rule("AWS access key id", r"((?:AKIA|ASIA)[0-9A-Z]{16})(?:[^0-9A-Z]|$)"),
    Rule("AWS secret access key", r"(?i)aws_?secret_?(?:access_?)?key['\"]?\s*[=:]\s*['\"]?([A-Za-z0-9/+]{40})"),
    Rule("GitHub token", r"(gh[pousr]_[A-Za-z0-9]{36,}|github_pat_[A-Za-z0-9_]{22,})"),
    Rule("GitLab token", r"(glpat-[A-Za-z0-9_\-]{20,})"),
    Rule("npm token", r"(npm_[A-Za-z0-9]{36})" + _E),
    Rule("SendGrid API key", r"(SG\.[A-Za-z0-9_\-]{16,32}\.[A-Za-z0-9_\-]{16,64})"),
    Rule("Azure storage key", r"(?i)AccountKey\s*=\s*([A-Za-z0-9+/]{20,}={0,2})"),
    Rule("Twilio API key", _S + r"(SK[0-9a-fA-F]{32})" + _E),
    Rule("Google API key", r"(AIza[0-9A-Za-z_\-]{35})"),
    Rule("Slack token", r"(xox[abposre]-[A-Za-z0-9-]{10,})"),
    Rule("Slack webhook", r"(https://hooks\.slack\.com/(?:services|workflows)/[A-Za-z0-9/_\-]{20,})"),
    Rule("Discord bot token", _S + r"([MNO][A-Za-z0-9_\-]{23,27}\.[A-Za-z0-9_\-]{6}\.[A-Za-z0-9_\-]{27,40})"),
    Rule(
        "Discord webhook",
        r"(https://(?:ptb\.|canary\.)?discord(?:app)?\.com/api/webhooks/[0-9]{5,}/[A-Za-z0-9_\-]{30,})",
    ),
    Rule("Stripe secret key", r"((?:sk|rk)_(?:live|test)_[A-Za-z0-9]{16,})"),
    Rule("Hugging Face token", r"(hf_[A-Za-z0-9]{30,})"),
    Rule("JSON web token", r"(eyJ[A-Za-z0-9_\-]{10,}\.eyJ[A-Za-z0-9_\-]{10,}\.[A-Za-z0-9_\-]{10,})"),
    Rule("password in a URL", r"[A-Za-z][A-Za-z0-9+.\-]*://[^/\s:@]+:([^/\s@]{3,})@"),
    Rule(
        "authorization header",
        r"(?i)(?:authorization|proxy-authorization)['\"]?\s*[:=]\s*['\"]?(?:bearer|basic|token|digest)\s+"
        r"([A-Za-z0-9._~+/\-]{8,}=*)",
        accept=_credential_like,
    ),
    Rule("bearer token", r"(?i)" + _S + r"bearer\s+([A-Za-z0-9._~+/\-]{20,}=*)", accept=_credential_like),
    Rule(
        "password/token assignment",
        _S + r"(?:[A-Za-z0-9]+[_.\-])*" + _KEY_WORDS + r"['\"]?\s*[=:]\s*"
        r"(\"[^\"\n]+\"|'[^'\n]+'|[^\s'\",;]{6,})",  # lengths checked in Python: a counted
        # repetition is compiled into that many RE2 states (and costs ~10 ms per CLI call)
        accept=_assignment_value,
    ),
]


# Every rule's match holds one of these (case-insensitively) or fits _SHAPES: text with
# none of them holds no secret, and is passed without importing re2 or running 23 rules
# (most CLI output: the literal search prints through here and races grep).
_TRIGGERS = (
    "-----begin", "sk-", "akia", "asia", "aws", "ghp_", "gho_", "ghu_", "ghs_", "ghr_", "github_pat_",
    "glpat-", "npm_", "sg.", "accountkey", "aiza", "xox", "hooks.slack.com", "discord", "_live_",
    "_test_", "hf_", "eyj", "://", "authorization", "bearer", "passw", "pwd", "passphrase", "secret",
    "token", "apikey", "api_key", "api-key", "accesskey", "access_key", "access-key", "privatekey",
    "private_key", "private-key",
)  # fmt: skip
_SHAPES = re.compile(r"SK[0-9a-fA-F]{32}|[MNO][A-Za-z0-9_\-]{23,27}\.[A-Za-z0-9_\-]{6}\.")  # bounded: linear


def _maybe(text: str) -> bool:
    """Cheap and exact in one direction: False means no rule can match ``text``."""
    low = text.lower()
    return any(t in low for t in _TRIGGERS) or _SHAPES.search(text) is not None


@functools.cache
def _compiled() -> list[tuple[Rule, Any]]:
    """The rules compiled once, on first use (``re2`` stays off the hook's no-op path)."""
    import re2  # linear-time matching: see the module docstring

    opts = re2.Options()
    opts.max_mem = 64 << 20
    opts.log_errors = False
    return [(r, re2.compile(r.pattern, opts)) for r in RULES]


class Hit(namedtuple("Hit", "kind start end")):
    """One secret found: its kind and where it sits (character offsets of the masked part)."""

    __slots__ = ()
    kind: str
    start: int
    end: int


def _hits(text: str) -> Iterator[Hit]:
    if not _maybe(text):
        return
    for rule, rx in _compiled():
        for m in rx.finditer(text):
            value = m.group(rule.group)
            if value is None or (rule.accept is not None and not rule.accept(value)):
                continue
            yield Hit(rule.name, *m.span(rule.group))


def _fold(text: str) -> str | None:
    """``text`` with full-width forms and invisible characters folded; None if unchanged."""
    if text.isascii():
        return None
    folded = unicodedata.normalize("NFKC", text).translate(_INVISIBLE)
    return None if folded == text else folded


def find_secret(text: str) -> str | None:
    """Name of the first kind of secret in ``text`` (plain or obfuscated), or None."""
    if not text:
        return None
    for hit in _hits(text):
        return hit.kind
    folded = _fold(text)
    if folded is not None:
        for hit in _hits(folded):
            return hit.kind
    return None


def found_values(text: str) -> set[tuple[str, str]]:
    """(kind, matched text) of every secret in ``text`` (folded text included): what a
    rewrite may keep (it was there already) but must not add."""
    out = {(h.kind, text[h.start : h.end]) for h in _hits(text)} if text else set()
    folded = _fold(text or "")
    if folded is not None:
        out |= {(h.kind, folded[h.start : h.end]) for h in _hits(folded)}
    return out


def added_secrets(old: str, new: str) -> list[str]:
    """Kinds of the secrets in ``new`` that ``old`` does not already hold."""
    before = {value for _, value in found_values(old)}
    return sorted({kind for kind, value in found_values(new) if value not in before})


def redact(text: str) -> str:
    """``text`` with every secret replaced by ``[redacted: <kind>]`` (plain or obfuscated)."""
    if not text:
        return text
    out = _mask(text, list(_hits(text)))
    folded = _fold(out)
    if folded is not None and next(_hits(folded), None) is not None:
        out = _redact_folded(out)  # the slow, exact mapping only when a folded secret is there
    return out


def _mask(text: str, hits: list[Hit]) -> str:
    if not hits:
        return text
    parts: list[str] = []
    pos = 0
    for h in sorted(hits, key=lambda h: (h.start, -h.end)):
        if h.start < pos:  # overlaps a span already masked (OpenAI's rule under Anthropic's)
            pos = max(pos, h.end)
            continue
        parts += [text[pos : h.start], f"[redacted: {h.kind}]"]
        pos = h.end
    parts.append(text[pos:])
    return "".join(parts)


def _redact_folded(text: str) -> str:
    """Mask secrets that only show once folded, mapping folded offsets back to ``text``."""
    folded_chars: list[str] = []
    origin: list[int] = []  # folded index -> original index
    for i, ch in enumerate(text):
        piece = ch if ch.isascii() else unicodedata.normalize("NFKC", ch).translate(_INVISIBLE)
        folded_chars.append(piece)
        origin += [i] * len(piece)
    folded = "".join(folded_chars)
    hits = list(_hits(folded))
    if not hits:
        return text
    mapped = []
    for h in hits:
        start = origin[h.start]
        end = origin[h.end - 1] + 1 if h.end > h.start else start
        mapped.append(Hit(h.kind, start, end))
    return _mask(text, mapped)


def redact_data(value: Any) -> Any:
    """``value`` with every string inside (dict values, list items) redacted; for ``--json``.

    One scan of all the strings joined decides whether any needs masking (a search result
    holds thousands of short strings, and one scan per string would cost ~70 µs each)."""
    strings: list[str] = []
    _strings(value, strings)
    if not strings or find_secret("\n".join(strings)) is None:
        return value
    return _redact_each(value)


def _strings(value: Any, out: list[str]) -> None:
    if isinstance(value, str):
        out.append(value)
    elif isinstance(value, dict):
        for v in value.values():
            _strings(v, out)
    elif isinstance(value, (list, tuple)):
        for v in value:
            _strings(v, out)
    elif not isinstance(value, (int, float, type(None))):
        out.append(str(value))  # a Path, a date: what json.dumps(default=str) will print


def _redact_each(value: Any) -> Any:
    if isinstance(value, str):
        return redact(value)
    if isinstance(value, dict):
        return {k: _redact_each(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_redact_each(v) for v in value]
    if isinstance(value, (int, float, type(None))):
        return value
    return redact(str(value))


def refuse_secrets(where: str, *texts: str) -> None:
    """Raise Refused naming the kind of secret found (never the secret itself).

    ``where`` is redacted too: it is often a title, and a title can hold the secret.
    """
    for text in texts:
        name = find_secret(text)
        if name:
            raise Refused(
                f"{redact(where)}: looks like it contains a secret ({name}); memory must not hold credentials "
                "(remove it or store a reference such as 'see 1Password: deploy key')",
                code="secret",
            )
