"""What a secret looks like: one rule per kind, written for RE2 (linear time, no look-around).

Formats were collected by reading the public rule lists of gitleaks and detect-secrets and
the providers' own token documentation; the patterns are ours. Each rule names the group
to mask and may vet the match in Python (``accept``), for checks that are not a regular
language ("has a digit", "decodes to user:password") or would cost RE2 states (a long
counted repetition like ``{150,}`` is compiled into that many states: such lengths are
checked on the match instead).

``triggers`` are lowercase literals of which every match holds one: a rule whose triggers
are all absent from a text is not run at all (most text holds none of them), and a rule
with no triggers always runs. A rule whose only literals are common in prose (a Discord
token's ``.``, a Vault token's ``s.``) also has a ``gate``: a Python ``re`` pattern on the
lowercased UTF-8 that every match also matches, bounded (no unbounded repetition but a run
of one class), so the check is linear; where it finds nothing the rule is not compiled in
RE2 (issue 36 item 6: most one-shot search output then never imports re2). ``joinable`` rules are distinctive tokens that are also
looked for with line breaks and odd spaces inside them removed (a token wrapped by a
terminal or an editor); rules that read context ("password is …") are not, because
joining two lines of prose makes words that were never written.
"""

from __future__ import annotations

import binascii
import re
from collections import namedtuple
from collections.abc import Callable

# A token start (consumed: RE2 has no look-behind). Only rules whose prefix could end an
# ordinary word need it (``sk-`` in "disk-usage-…", ``SK`` + hex); distinctive prefixes
# (``glpat-``, ``ghp_``, ``AKIA`` …) match even glued to text before them ("\x1b[2Jghp_…").
_S = r"(?:^|[^A-Za-z0-9])"
_E = r"(?:[^A-Za-z0-9]|$)"  # a token end
_PASSWORD_WORDS = r"(?i:password|passwd|pwd|passphrase)"
# Words that also name ordinary things in code and notes (``max_token``, a secret's *name*,
# ``private_key = rsa.generate_private_key(…)``): their values are vetted harder.
_TOKEN_WORDS = r"(?i:secret|token|api[_-]?key|access[_-]?key|auth[_-]?token|client[_-]?secret|private[_-]?key)"
# An assigned value: quoted (checked in Python) or a bare word. Lengths are checked in
# Python: a counted repetition is compiled into that many RE2 states.
_VALUE = r"(\"[^\"\n]+\"|'[^'\n]+'|[^\s'\",;]{6,})"
_PLACEHOLDER_WORDS = {"string", "password", "secret", "token", "null", "none", "redacted", "hidden", "example"}
_DIGIT, _LOWER, _UPPER = re.compile(r"\d"), re.compile(r"[a-z]"), re.compile(r"[A-Z]")  # one class each: linear
MAX_QUOTED = 256  # a quoted password longer than this is prose, not a credential
_TRAILING = ".,;:!?)]}>"  # punctuation that ends a sentence, not a password


class Rule(
    namedtuple(
        "Rule", "name pattern group accept triggers joinable extend gate", defaults=(1, None, (), True, None, None)
    )
):
    """One kind of secret: ``group`` is the part to mask, ``accept`` vets a match,
    ``extend(text, end, seen)`` moves the end of the masked part (a key block to its END
    line; ``seen`` is a dict the calls on one text share); ``gate``: see the module docstring."""

    __slots__ = ()
    name: str
    pattern: str
    group: int
    accept: Callable[[str], bool] | None
    triggers: tuple[str, ...]
    joinable: bool
    extend: Callable[[str, int, dict[str, int]], int] | None
    gate: str | None


# -- checks on a match ---------------------------------------------------------------------
#: a value that is our marker, whole ("[redacted]", "[secret removed: GitHub token]"), or
#: its first word ("[redacted:" before the space): a placeholder. Only whole: a value that
#: merely starts so ("[redacted]Hunter22") is a password glued to it, not ours.
_MARKER_VALUE = re.compile(r"\[(?:redacted|secret removed)(?::|(?:: [^\]\n]{0,80})?\])")


def _placeholder(v: str) -> bool:
    low = v.casefold()
    return (
        v.startswith(("<", "${", "{{", "%(", "$", "*", "…", "...", "env:", "op://"))
        or _MARKER_VALUE.fullmatch(v) is not None
        or low.startswith("xxx")
        or low in _PLACEHOLDER_WORDS
    )


def credential_like(value: str) -> bool:
    """An unquoted value is a credential when it has a digit or mixes case (6+ chars);
    ``${VAR}``, ``<your key>``, ``***``, ``...`` and paths (``/run/secrets/db``) are not."""
    v = value.strip("'\"")
    if len(v) < 6 or _placeholder(v) or v.startswith(("/", "~/", "./")):
        return False
    return bool(_DIGIT.search(v) or (_LOWER.search(v) and _UPPER.search(v)))  # in C: a value may be 1 MB


def _quoted_secret(value: str) -> bool:
    """A quoted value after a password-like key is one, even in plain words ("two words")."""
    v = value[1:-1].strip()
    return 6 <= len(v) <= MAX_QUOTED and not _placeholder(v) and "your " not in v.casefold()


def _assignment_value(match: str) -> bool:
    return _quoted_secret(match) if match[:1] in "\"'" and match[-1:] == match[:1] else credential_like(match)


# Code, not a value: a dotted name (``config.apiKey``, ``settings.OPENAI_API_KEY``), maybe
# called or indexed (``rsa.generate_private_key(``, ``os.environ[``), or one name that is
# (``Optional[str]``, a parameter's type ``HttpToken)``).
_CODE_REF = re.compile(r"[A-Za-z_$][\w$]*((?:\.|->|::)[A-Za-z_$][\w$]*)*[(\[)]?")
# A name made of words: ``db-credentials-v2``, ``vault/oauth-client-2`` (lower-case words,
# each maybe ending in a version number, or short numbers), two parts at least.
_NAME_PART = re.compile(r"[a-z]+[0-9]{0,2}|[0-9]{1,4}")
_NUMBER = re.compile(r"[0-9][0-9_.]*")


def _code_ref(v: str) -> bool:
    """``v`` is a dotted name, or starts with one that is called or indexed."""
    m = _CODE_REF.match(v)
    if not m:
        return False
    called = v[m.end() - 1] in "([)"
    return (m.end() == len(v) and m.group(1) is not None) or called


def _code_or_name(v: str, *, digits_ok: bool) -> bool:
    """``v`` is a reference in code, a number (a count: ``max_token=128000``) or a name made
    of words, not a credential. ``digits_ok``: a dotted name may hold digits (a password
    ``Passw0rd.Now`` may not)."""
    if _NUMBER.fullmatch(v) or (_code_ref(v) and (digits_ok or not _DIGIT.search(v))):
        return True
    parts = [p for p in re.split(r"[-_./:]", v) if p]
    return len(parts) >= 2 and all(_NAME_PART.fullmatch(p) for p in parts)


def _password_value(value: str) -> bool:
    """A value after ``password=``: quoted, any words (``"correct horse"``); bare, a
    credential-like word that is not a dotted name in code."""
    if value[:1] in "\"'" and value[-1:] == value[:1]:
        return _quoted_secret(value)
    return credential_like(value) and not (_code_ref(value) and not _DIGIT.search(value))


def _token_value(value: str) -> bool:
    """A value after ``token=``, ``secret:``, ``api_key =``: one credential-like word
    (quoted or not; a quoted phrase with spaces is a description), not a number, a name
    made of words or a reference in code."""
    v = value[1:-1].strip() if value[:1] in "\"'" and value[-1:] == value[:1] else value
    if len(v) > MAX_QUOTED or " " in v or "your" in v.casefold():
        return False
    return credential_like(v) and not _code_or_name(v, digits_ok=True)


def _prose_password(value: str) -> bool:
    """A word after "the password is": a credential only if it has a digit, a symbol
    inside it or a capital after its first letter ("Required." is a word, "hunter2" is not)."""
    v = value.rstrip(_TRAILING)
    if len(v) < 6 or _placeholder(v):
        return False
    inner = v[1:]
    return bool(_DIGIT.search(v) or any(not c.isalnum() for c in inner) or (_UPPER.search(inner) and _LOWER.search(v)))


def _mixed_with_digit(value: str) -> bool:
    """Random base62 (a Vault token's body): digits, lower and upper case all present."""
    return bool(_DIGIT.search(value) and _LOWER.search(value) and _UPPER.search(value))


def _at_least(n: int) -> Callable[[str], bool]:
    def check(value: str) -> bool:
        return len(value) >= n

    check.__doc__ = f"at least {n} characters (a length RE2 would compile into {n} states)"
    return check


def _basic_auth_b64(value: str) -> bool:
    """A docker ``auths`` value is base64 of ``user:password``."""
    try:
        raw = binascii.a2b_base64(value + "=" * (-len(value) % 4))
    except (binascii.Error, ValueError):
        return False
    user, sep, password = raw.partition(b":")
    return bool(sep and user and password)


# -- private key blocks ----------------------------------------------------------------------
KEY_BLOCK_MAX = 65_536  # the longest key block looked for (an 8192-bit RSA key is ~6.5 KB)
_KEY_BODY = re.compile(r"(?:[A-Za-z0-9+/=\s\\]|[A-Za-z-]+: [^\n]*\n)*")  # base64 lines, ``\n``, headers


def key_block_end(text: str, end: int, seen: dict[str, int]) -> int:
    """Where the key block whose BEGIN line ends at ``end`` ends: after its END line, or,
    for a truncated key, after the run of base64 (and ``Proc-Type:``-style header) lines
    that follows; never more than ``KEY_BLOCK_MAX`` characters on.

    ``seen`` carries what earlier blocks of the same text learnt (where the next END line
    is, up to where there is none), so a text of many BEGIN lines is still read once."""
    limit = min(len(text), end + KEY_BLOCK_MAX)
    close = seen.get("close", -1)
    if close < end:  # the END found before belongs to an earlier block: look on
        start = max(end, seen.get("clear", 0))
        close = text.find("-----END ", start, limit) if start < limit else -1
        seen["close"] = close
        if close < 0:
            seen["clear"] = limit  # no END line before here
    if 0 <= close < limit:
        tail = text.find("-----", close + 9, min(limit, close + 80))
        if tail >= 0:
            return tail + 5
    m = _KEY_BODY.match(text, end, close if 0 <= close < limit else limit)
    run = text[end : m.end()] if m else ""
    return end + len(run.rstrip())  # the space after a truncated key is not part of it


# -- the rules -------------------------------------------------------------------------------
def _token(
    name: str, pattern: str, *triggers: str, accept: Callable[[str], bool] | None = None, gate: str | None = None
) -> Rule:
    """A distinctive token, found glued, wrapped or split by invisible characters too."""
    return Rule(name, pattern, 1, accept, triggers or (), True, None, gate)


def _context(
    name: str, pattern: str, *triggers: str, accept: Callable[[str], bool] | None = None, gate: str | None = None
) -> Rule:
    """A value known by the words around it: never looked for across joined lines."""
    return Rule(name, pattern, 1, accept, triggers, False, None, gate)


_ENV_PREFIX = r"(?:[A-Z0-9]+_)*(?:PG|MYSQL_?|REDIS_?|SMTP_?|LDAP_?|FTP_?|SUDO_?|ROOT_?|ADMIN_?)?"
_ENV_PASSWORD = _ENV_PREFIX + r"(?:PASS|PASSWD|PASSWORD|PASSPHRASE)"
_ENV_TOKEN = _ENV_PREFIX + r"(?:SECRET|TOKEN|API_?KEY|ACCESS_?KEY|SECRET_?KEY|PRIVATE_?KEY|AUTH_?TOKEN)"

RULES: list[Rule] = [
    Rule(
        "private key block",
        r"(-----BEGIN (?:[A-Z0-9]+ )*PRIVATE KEY(?: BLOCK)?-----)",
        triggers=("-----begin",),
        joinable=False,
        extend=key_block_end,
    ),
    _token(
        "PuTTY private key",
        r"(PuTTY-User-Key-File-[0-9]+:[^\n]*(?:\n[A-Za-z-]+: [^\n]*|\n[A-Za-z0-9+/=]+)*)",
        "putty-user-key-file",
    ),
    _token("age secret key", r"(AGE-SECRET-KEY-1[0-9A-Z]{58})", "age-secret-key-1"),
    _token("Anthropic API key", r"(sk-ant-[A-Za-z0-9_\-]{20,})", "sk-ant-"),
    _token("OpenAI API key", _S + r"(sk-(?:proj-|svcacct-|admin-|or-v1-)?[A-Za-z0-9_\-]{20,})", "sk-"),
    _token("AWS access key id", r"((?:AKIA|ASIA)[0-9A-Z]{16})(?:[^0-9A-Z]|$)", "akia", "asia"),
    _context(
        "AWS secret access key",
        r"(?i)aws_?secret_?(?:access_?)?key['\"]?\s*[=:]\s*['\"]?([A-Za-z0-9/+]{40})",
        "aws",
    ),
    _token(
        "GitHub token",
        r"(gh[pousr]_[A-Za-z0-9]{36,}|github_pat_[A-Za-z0-9_]{22,})",
        *(f"gh{c}_" for c in "pousr"),  # not "gh": "though", "laugh" (issue 36 item 6)
        "github_pat_",
    ),
    _token(
        "GitLab token",
        r"(gl(?:pat|dt|rt|ptt|cbt|ft|imt|oas|soat|agent)-[A-Za-z0-9_\-]{20,})",
        *(
            f"gl{p}-" for p in ("pat", "dt", "rt", "ptt", "cbt", "ft", "imt", "oas", "soat", "agent")
        ),  # not "gl": "glad"
    ),
    _token("npm token", r"(npm_[A-Za-z0-9]{36})" + _E, "npm_"),
    _token("PyPI token", r"(pypi-AgE[A-Za-z0-9_\-]+)", "pypi-age", accept=_at_least(60)),
    _token("RubyGems API key", r"(rubygems_[a-f0-9]{48})", "rubygems_"),
    _token("Docker Hub token", r"(dckr_(?:pat|oat)_[A-Za-z0-9_\-]{27,})", "dckr_"),
    _token("SendGrid API key", r"(SG\.[A-Za-z0-9_\-]{16,32}\.[A-Za-z0-9_\-]{16,64})", "sg."),
    _context("Azure storage key", r"(?i)AccountKey\s*=\s*([A-Za-z0-9+/]{20,}={0,2})", "accountkey"),
    _context("Azure shared access key", r"(?i)SharedAccessKey\s*=\s*([A-Za-z0-9+/]{20,}={0,2})", "sharedaccesskey"),
    _context("Azure SAS signature", r"(?i)[?&;]sig=([A-Za-z0-9%+/]{20,}(?:=|%3[dD])*)", "sig="),
    _token("Azure client secret", _S + r"([A-Za-z0-9_~.]{3}[0-9]Q~[A-Za-z0-9_~.\-]{31,34})" + _E, "q~"),
    _token("Twilio API key", _S + r"(SK[0-9a-fA-F]{32})" + _E, "sk"),
    _token("Google API key", r"(AIza[0-9A-Za-z_\-]{35})", "aiza"),
    _token("Google OAuth client secret", r"(GOCSPX-[A-Za-z0-9_\-]{28})", "gocspx-"),
    _token("Google OAuth refresh token", _S + r"(1//0[A-Za-z0-9_\-]{40,})", "1//0"),
    _context("Google service account key", r"\"private_key_id\"\s*:\s*\"([a-f0-9]{40})\"", "private_key_id"),
    _token("Slack token", r"(xox[abposre]-[A-Za-z0-9-]{10,})", "xox"),
    _token("Slack app token", r"(xapp-[0-9]+-[A-Za-z0-9\-]{20,})", "xapp-"),
    _token(
        "Slack webhook", r"(https://hooks\.slack\.com/(?:services|workflows)/[A-Za-z0-9/_\-]{20,})", "hooks.slack.com"
    ),
    _token(
        "Discord bot token",
        _S + r"([MNO][A-Za-z0-9_\-]{23,27}\.[A-Za-z0-9_\-]{6}\.[A-Za-z0-9_\-]{27,40})",
        ".",
        gate=r"\.[a-z0-9_\-]{6}\.",  # "." is in nearly every text: the six between two dots is not
    ),
    _token(
        "Discord webhook",
        r"(https://(?:ptb\.|canary\.)?discord(?:app)?\.com/api/webhooks/[0-9]{5,}/[A-Za-z0-9_\-]{30,})",
        "discord",
    ),
    _token("Stripe secret key", r"((?:sk|rk)_(?:live|test)_[A-Za-z0-9]{16,})", "_live_", "_test_"),
    _token("Stripe webhook secret", r"(whsec_[A-Za-z0-9]{32,})", "whsec_"),
    _token("Hugging Face token", r"(hf_[A-Za-z0-9]{30,}|api_org_[A-Za-z0-9]{30,})", "hf_", "api_org_"),
    _token("JSON web token", r"(eyJ[A-Za-z0-9_\-]{10,}\.eyJ[A-Za-z0-9_\-]{10,}\.[A-Za-z0-9_\-]{10,})", "eyj"),
    _token("Telegram bot token", _S + r"([0-9]{8,10}:AA[A-Za-z0-9_\-]{33})" + _E, ":aa"),
    _token("Vault token", r"(hv[sbr]\.[A-Za-z0-9_\-]{24,})", "hvs.", "hvb.", "hvr."),
    _token(
        "Vault token",
        _S + r"([sb]\.[A-Za-z0-9]{24})" + _E,
        "s.",
        "b.",
        accept=_mixed_with_digit,
        gate=r"[sb]\.[a-z0-9]{24}",  # "s." ends many an English word
    ),
    _token("DigitalOcean token", r"(do[opr]_v1_[a-f0-9]{64})", "_v1_"),
    _token("Shopify token", r"(shp(?:at|ca|pa|ss)_[a-fA-F0-9]{32})", "shp"),
    _token("Linear API key", r"(lin_(?:api|oauth)_[A-Za-z0-9]{40})", "lin_"),
    _token("Atlassian API token", r"(ATATT3[A-Za-z0-9_\-=]+)", "atatt3", accept=_at_least(100)),
    _context(
        "Atlassian API token",
        r"(?i)(?:atlassian|jira|confluence)[a-z0-9_.\-]*['\"]?\s*[=:]\s*['\"]?([A-Za-z0-9]{24})" + _E,
        "atlassian",
        "jira",
        "confluence",
        accept=credential_like,
    ),
    _token("Databricks token", _S + r"(dapi[a-f0-9]{32}(?:-[0-9]+)?)" + _E, "dapi"),
    _token("Postman API key", r"(PMAK-[a-f0-9]{24}-[a-f0-9]{34})", "pmak-"),
    _token("Grafana token", r"(glsa_[A-Za-z0-9]{32}_[A-Fa-f0-9]{8}|glc_[A-Za-z0-9+/]{32,}={0,2})", "glsa_", "glc_"),
    _token("Sentry token", r"(sntry[su]_[A-Za-z0-9+/=_\-]{40,})", "sntry"),
    _token("New Relic key", r"(NRAK-[A-Z0-9]{27}|NRJS-[a-f0-9]{19})", "nrak-", "nrjs-"),
    _token("Doppler token", r"(dp\.(?:pt|st|sa|ct|scim|audit)\.[A-Za-z0-9]{40,44})", "dp."),
    _token("Supabase token", r"(sbp_[a-f0-9]{40})", "sbp_"),
    _token("PlanetScale token", r"(pscale_(?:tkn|pw|oauth)_[A-Za-z0-9_\-.=]{32,64})", "pscale_"),
    _token("Pulumi token", r"(pul-[a-f0-9]{40})", "pul-"),
    _token("Terraform Cloud token", r"([A-Za-z0-9]{14}\.atlasv1\.[A-Za-z0-9_=\-]{60,70})", ".atlasv1."),
    _token("Fly.io token", r"(fm[12][ar]?_[A-Za-z0-9+/=_\-]{40,})", "fm1", "fm2"),
    _token("Square token", r"(sq0(?:atp|csp)-[A-Za-z0-9_\-]{22,43})", "sq0"),
    _token("Mailgun key", _S + r"(key-[a-f0-9]{32})" + _E, "key-"),
    _token("Mailchimp key", _S + r"([a-f0-9]{32}-us[0-9]{1,2})" + _E, "-us"),
    _token("Groq API key", r"(gsk_[A-Za-z0-9]{48,})", "gsk_"),
    _token("xAI API key", r"(xai-[A-Za-z0-9]{60,})", "xai-"),
    _token("Perplexity API key", r"(pplx-[A-Za-z0-9]{40,})", "pplx-"),
    _token("Replicate token", _S + r"(r8_[A-Za-z0-9]{37})" + _E, "r8_"),
    _token("Notion token", r"(ntn_[A-Za-z0-9]{40,}|secret_[A-Za-z0-9]{43})" + _E, "ntn_", "secret_"),
    _token("Figma token", r"(figd_[A-Za-z0-9_\-]{40,})", "figd_"),
    _token("Airtable token", r"(pat[A-Za-z0-9]{14}\.[a-f0-9]{64})", "pat"),
    _token("Mapbox secret token", r"(sk\.eyJ[A-Za-z0-9_\-]{50,}\.[A-Za-z0-9_\-]{20,})", "sk.eyj"),
    _token("Buildkite token", r"(bkua_[a-f0-9]{40})", "bkua_"),
    _token("Typeform token", r"(tfp_[A-Za-z0-9_\-.=]{59})", "tfp_"),
    _token("Heroku API key", r"(HRKU-[A-Za-z0-9_\-]{60})", "hrku-"),
    _context(
        "Heroku API key",
        r"(?i)heroku[a-z0-9_ .\-]{0,20}['\"]?\s*[=:]\s*['\"]?"
        r"([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})",
        "heroku",
    ),
    _context("password in a URL", r"[A-Za-z][A-Za-z0-9+.\-]*://[^/\s:@]+:([^/\s@]{3,})@", "://"),
    _context("docker registry auth", r"\"auth\"\s*:\s*\"([A-Za-z0-9+/]{8,}={0,2})\"", '"auth"', accept=_basic_auth_b64),
    _context("kubeconfig key data", r"(?i)client-key-data\s*:\s*([A-Za-z0-9+/]{20,}={0,2})", "client-key-data"),
    _context(
        ".netrc password",
        r"(?i)(?:^|\s)(?:machine\s+[^\s]+|default)(?:\s+(?:account|port)\s+[^\s]+)*\s+login\s+[^\s]+"
        r"(?:\s+(?:account|port)\s+[^\s]+)*\s+password\s+([^\s]+)",
        "machine",
    ),
    _context(
        "command-line password",
        r"(?:^|\s)--(?:password|passwd|pass|token|api-key|secret)(?:=|\s+)(\"[^\"\n]+\"|'[^'\n]+'|[^\s'\"]{6,})",
        "--pass",
        "--token",
        "--api-key",
        "--secret",
        accept=_assignment_value,
    ),
    _context(
        "command-line password",
        r"(?:^|[^A-Za-z0-9_])(?:mysql|mysqldump|mariadb|sshpass)\s[^\n]*?-p\s?(\"[^\"\n]+\"|'[^'\n]+'|[^\s'\"-][^\s'\"]{5,})",
        "mysql",
        "mariadb",
        "sshpass",
        accept=_assignment_value,
    ),
    _context(
        "password in a command",
        r"(?:^|[^A-Za-z0-9_])(?:curl|wget|http)(?:\s[^\n]*?)?\s(?:-u|--user)\s+['\"]?[^\s:'\"]+:([^\s'\"@]{4,})",
        "curl",
        "wget",
        "http",
    ),
    _context(
        "authorization header",
        r"(?i)(?:authorization|proxy-authorization)['\"]?\s*[:=]\s*['\"]?(?:bearer|basic|token|digest)\s+"
        r"([A-Za-z0-9._~+/\-]{8,}=*)",
        "authorization",
        accept=credential_like,
    ),
    _context("bearer token", r"(?i)" + _S + r"bearer\s+([A-Za-z0-9._~+/\-]{20,}=*)", "bearer", accept=credential_like),
    _context(
        "password/token assignment",
        _S + r"(?:[A-Za-z0-9]+[_.\-])*" + _PASSWORD_WORDS + r"['\"]?\s*[=:]\s*" + _VALUE,
        "passw",
        "pwd",
        "passphrase",
        accept=_password_value,
    ),
    _context(
        "password/token assignment",
        _S + r"(?:[A-Za-z0-9]+[_.\-])*" + _TOKEN_WORDS + r"['\"]?\s*[=:]\s*" + _VALUE,
        "secret",
        "token",
        "key",
        accept=_token_value,
    ),
    _context(
        "password in an environment variable",
        _S + _ENV_PASSWORD + r"\s*=\s*" + _VALUE,
        "pass",
        accept=_password_value,
        gate=r"pass(?:wd|word|phrase)?\s*=",  # "pass": "passed", "passion"
    ),
    _context(
        "password in an environment variable",
        _S + _ENV_TOKEN + r"\s*=\s*" + _VALUE,
        "secret",
        "token",
        "key",
        accept=_token_value,
    ),
    _context(
        "password in prose",
        r"(?i)"
        + _S
        + r"(?:password|passphrase|passcode|passwd)\s+(?:is|was|is set to|set to)\s+[\"'`]?([^\s\"'`]{6,})",
        "password",
        "passphrase",
        "passcode",
        "passwd",
        accept=_prose_password,
    ),
    _context(
        "password in prose",
        r"(?:密码|口令)\s*(?:是|为|：|:)\s*[\"'“]?([!-~]{6,})",
        "密码",
        "口令",
        accept=_prose_password,
    ),
]
