"""Issue 19, secrets: every credential format found and masked whole, next to a near miss
that is left alone; key blocks masked from BEGIN to END; tokens disguised by no-break
spaces, zero-width characters, combining marks or a line break still found; a refusal
names the kind and never echoes the value."""

from __future__ import annotations

import base64
import random

import pytest

from memsearch_tui.engine.core.errors import Refused
from memsearch_tui.engine.core.secrets import added_secrets, find_secret, found_values, redact, refuse_secrets

_RNG = random.Random(1919)
_B62 = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789"


def _r(n: int, alphabet: str = _B62) -> str:
    """Seeded random characters: no real credential is written down in this file."""
    return "".join(_RNG.choice(alphabet) for _ in range(n))


def _hex(n: int) -> str:
    return _r(n, "0123456789abcdef")


_PW = "Zq8v" + _r(8)
_DOCKER = base64.b64encode(b"ci-bot:" + _PW.encode()).decode()
_DOCKER_NO_PASSWORD = base64.b64encode(b"just-some-bytes-here").decode()

# name: (text holding the secret, the secret part, the kind named, a near miss)
FORMATS: dict[str, tuple[str, str, str, str]] = {
    "PyPI": (
        "twine upload -p pypi-AgEIcHlwaS5vcmc" + (v := _r(70)),
        v,
        "PyPI token",
        "pip install pypi-AgEIcHlwaS5vcmc-short",
    ),
    "DB_PASS": ("DB_PASS=" + _PW, _PW, "password in an environment variable", "DB_PASS=${DB_PASS}"),
    "PGPASSWORD": ("export PGPASSWORD=" + _PW, _PW, "password in an environment variable", "PGPASSWORD_FILE=/run/pg"),
    "netrc": (
        "machine api.example.com login alice password " + _PW,
        _PW,
        ".netrc password",
        "the machine learning password course",
    ),
    "prose password": (
        "the admin password is " + _PW + ".",
        _PW,
        "password in prose",
        "the admin password is Required.",
    ),
    "Chinese prose password": ("管理员密码是 " + _PW, _PW, "password in prose", "密码是必填项"),
    "Telegram": ("7123456789:AA" + (v := _r(33)), v, "Telegram bot token", "7123456789:AAA short"),
    "Vault hvs": ("token hvs." + (v := _r(90)), v, "Vault token", "see docs at hvs.example"),
    "Vault legacy": ("vault s.Ab3" + (v := _r(21)), v, "Vault token", "s.abcdefghijklmnopqrstuvwx"),
    "DigitalOcean": ("dop_v1_" + (v := _hex(64)), v, "DigitalOcean token", "dop_v1_" + _hex(20)),
    "Shopify": ("shpat_" + (v := _hex(32)), v, "Shopify token", "shpat_" + _hex(31) + "z"),
    "Linear": ("lin_api_" + (v := _r(40)), v, "Linear API key", "lin_api_" + _r(12)),
    "Atlassian": ("ATATT3xFfGF0" + (v := _r(180)), v, "Atlassian API token", "ATATT3 is a prefix"),
    "docker auths": (
        '{"auths": {"https://index.docker.io/v1/": {"auth": "' + _DOCKER + '"}}}',
        _DOCKER,
        "docker registry auth",
        '{"auths": {"r": {"auth": "' + _DOCKER_NO_PASSWORD + '"}}}',
    ),
    "kubeconfig key": (
        "    client-key-data: "
        + (v := base64.b64encode(b"-----BEGIN RSA PRIVATE KEY-----\n" + _r(40).encode()).decode()),
        v,
        "kubeconfig key data",
        "    client-key-data: see the vault",
    ),
    "Azure SAS": (
        "https://a.blob.core.windows.net/c?sv=2022-11-02&sp=r&sig=" + (v := _r(43)) + "%3D",
        v,
        "Azure SAS signature",
        "https://a.blob.core.windows.net/c?sig=short",
    ),
    "Azure shared access key": (
        "Endpoint=sb://x.servicebus.windows.net/;SharedAccessKeyName=root;SharedAccessKey=" + (v := _r(43)) + "=",
        v,
        "Azure shared access key",
        "SharedAccessKeyName=root",
    ),
    "Google OAuth secret": ("GOCSPX-" + (v := _r(28)), v, "Google OAuth client secret", "GOCSPX-" + _r(5)),
    "Docker Hub": ("dckr_pat_" + (v := _r(27)), v, "Docker Hub token", "dckr_pat_" + _r(5)),
    "age": (
        "AGE-SECRET-KEY-1" + (v := _r(58, "ACDEFGHJKLMNPQRSTUVWXYZ023456789")),
        v,
        "age secret key",
        "AGE-SECRET-KEY-1 docs",
    ),
    "Databricks": ("dapi" + (v := _hex(32)), v, "Databricks token", "dapi" + _hex(12)),
    "Grafana": ("glsa_" + (v := _r(32) + "_" + _hex(8)), v, "Grafana token", "glsa_" + _r(8)),
    "Sentry": ("sntrys_" + (v := _r(60)), v, "Sentry token", "sntrys_" + _r(8)),
    "Doppler": ("dp.pt." + (v := _r(43)), v, "Doppler token", "dp.pt." + _r(8)),
    "Postman": ("PMAK-" + (v := _hex(24) + "-" + _hex(34)), v, "Postman API key", "PMAK-" + _hex(24)),
    "Slack app": ("xapp-1-" + (v := _r(30)), v, "Slack app token", "xapp-1-" + _r(4)),
    "Stripe webhook": ("whsec_" + (v := _r(32)), v, "Stripe webhook secret", "whsec_" + _r(8)),
    "Mailgun": ("api key-" + (v := _hex(32)), v, "Mailgun key", "monkey-" + _hex(32)),
    "Groq": ("gsk_" + (v := _r(52)), v, "Groq API key", "gsk_" + _r(10)),
    "Terraform": (
        _r(14) + ".atlasv1." + (v := _r(66)),
        v,
        "Terraform Cloud token",
        "app.atlasv1.docs",
    ),
    "mysql -p": ("mysql -u root -p" + _PW + " app", _PW, "command-line password", "mysql -u root -p app"),
    "--password": ("deploy --password " + _PW, _PW, "command-line password", "deploy --password-file ./pw"),
    "curl -u": ("curl -u admin:" + _PW + " https://x", _PW, "password in a command", "curl -u admin https://x"),
    "Heroku": (
        "HEROKU_API_KEY: " + (v := f"{_hex(8)}-{_hex(4)}-{_hex(4)}-{_hex(4)}-{_hex(12)}"),
        v,
        "Heroku API key",
        "heroku app id " + f"{_hex(8)}-{_hex(4)}-{_hex(4)}-{_hex(4)}-{_hex(12)}",
    ),
}


@pytest.mark.parametrize("name", sorted(FORMATS))
def test_each_format_is_found_and_masked_whole(name: str) -> None:
    text, secret, kind, _ = FORMATS[name]
    assert find_secret(f"before\n{text}\nafter") is not None
    shown = redact(f"note: {text} (end)")
    assert f"[redacted: {kind}]" in shown, shown
    assert secret not in shown and secret[-8:] not in shown, shown
    assert shown.startswith("note: ") and shown.endswith(" (end)")


@pytest.mark.parametrize("name", sorted(FORMATS))
def test_each_near_miss_is_left_alone(name: str) -> None:
    near = FORMATS[name][3]
    assert find_secret(near) is None, near
    assert redact(near) == near


def _key_body(lines: int = 6) -> list[str]:
    return [_r(64, _B62 + "+/") for _ in range(lines)]


@pytest.mark.parametrize("kind", ["OPENSSH", "RSA", "EC", "ENCRYPTED", ""])
def test_a_private_key_is_masked_from_begin_to_end(kind: str) -> None:
    label = f"{kind} PRIVATE KEY".strip()
    body = _key_body()
    block = f"-----BEGIN {label}-----\n" + "\n".join(body) + f"\n-----END {label}-----"
    shown = redact(f"my key:\n{block}\nthat was it")
    assert shown == "my key:\n[redacted: private key block]\nthat was it"


def test_a_key_in_json_with_escaped_newlines_is_masked_whole() -> None:
    body = _key_body(3)
    value = "-----BEGIN PRIVATE KEY-----\\n" + "\\n".join(body) + "\\n-----END PRIVATE KEY-----\\n"
    shown = redact('{"type": "service_account", "private_key": "' + value + '", "x": 1}')
    assert all(line not in shown for line in body)
    assert "[redacted: " in shown and shown.endswith(', "x": 1}')


def test_a_truncated_key_is_masked_to_the_end_of_its_body() -> None:
    body = _key_body(4)
    shown = redact("pasted:\n-----BEGIN OPENSSH PRIVATE KEY-----\n" + "\n".join(body) + "\n\n(rest lost) done")
    assert all(line not in shown for line in body)
    assert shown.startswith("pasted:\n[redacted: private key block]") and shown.endswith("(rest lost) done")


def test_two_keys_are_two_blocks_and_the_text_between_stays() -> None:
    one, two = _key_body(2), _key_body(2)
    text = (
        "-----BEGIN RSA PRIVATE KEY-----\n" + "\n".join(one) + "\n-----END RSA PRIVATE KEY-----\n"
        "between\n-----BEGIN EC PRIVATE KEY-----\n" + "\n".join(two) + "\n-----END EC PRIVATE KEY-----"
    )
    assert redact(text) == "[redacted: private key block]\nbetween\n[redacted: private key block]"


_GH = "ghp_" + _r(36)
_ANT = "sk-ant-api03-" + _r(40)
_GL = "glpat-" + _r(20)
OBFUSCATED = {
    "no-break space": (_ANT[:18] + "\u00a0" + _ANT[18:], _ANT[18:]),
    "narrow no-break space": (_GH[:10] + "\u202f" + _GH[10:], _GH[10:]),
    "zero-width space": (_GH[:10] + "\u200b" + _GH[10:], _GH[10:]),
    "word joiner and BOM": (_GL[:8] + "\u2060\ufeff" + _GL[8:], _GL[8:]),
    "combining mark": (_GL[:9] + "\u0301" + _GL[9:], _GL[9:]),
    "combining mark past U+034F": (_GL[:9] + "\u0363" + _GL[9:], _GL[9:]),
    "full width": ("".join(chr(ord(c) + 0xFEE0) if "!" <= c <= "~" else c for c in _GH), None),
    "line break": (_GH[:20] + "\n" + _GH[20:], _GH[20:]),
    "line break and indent": (_ANT[:25] + "\r\n    " + _ANT[25:], _ANT[25:]),
}


@pytest.mark.parametrize("name", sorted(OBFUSCATED))
def test_obfuscated_tokens_are_found_and_masked_in_the_original(name: str) -> None:
    text, tail = OBFUSCATED[name]
    assert find_secret(f"x {text} y") is not None
    shown = redact(f"before {text} after")
    assert shown.startswith("before [redacted: ") and shown.endswith("] after"), shown
    if tail is not None:
        assert tail[-12:] not in shown


def test_joined_lines_of_prose_make_no_secret() -> None:
    text = "We went to the beach at sk\n-ant and then\nghp_ is a prefix\nAKIA\nIOSFODNN7 etc.\n" * 3
    assert find_secret(text) is None
    assert redact(text) == text


def test_a_refusal_names_the_kind_and_never_echoes_the_value() -> None:
    for name, (text, secret, kind, _) in FORMATS.items():
        with pytest.raises(Refused) as info:
            refuse_secrets(f"notes/{text[:40]}", f"body {text}")
        assert kind in info.value.message, name
        assert secret[-8:] not in info.value.message, name
        assert info.value.code == "secret"


def test_a_token_glued_to_the_next_line_is_the_same_token_not_a_new_one() -> None:
    old = "deploy with " + _GH + "\n"
    assert added_secrets(old, old + "more\n") == []
    assert {kind for kind, _ in found_values(old + "more\n")} == {"GitHub token"}
