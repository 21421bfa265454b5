"""Issue 31 item 6: ordinary code notes are not refused as secrets, and a token split by a tab,
two spaces, U+2028/2029 or a shell ``\\``-newline, or written with a Cyrillic or Greek
look-alike letter, is found and masked in the original text."""

from __future__ import annotations

import pytest

from memsearch_tui.engine.core.secrets import find_secret, redact

ORDINARY = [
    "max_token=128000",
    "rsa.generate_private_key(public_exponent=65537)",
    "private_key = rsa.generate_private_key(public_exponent=65537, key_size=2048)",
    "secret: db-credentials-v2",
    "api_key = config.apiKey",
    "token: 1234567 tokens processed",
    "api_key=settings.OPENAI_API_KEY",
    "client_secret: vault/oauth-client-2",
    "api_key: Optional[str] = None",
    "async def serve(sock: socket.socket, token: HttpToken) -> None:",
    'api_key = "env:OLLAMA_KEY"',
    "token = request.headers.get('X-Token')",
    "max_tokens: 4096, output_tokens: 8192",
    "secret_ref: projects/acme/secrets/db-pass/versions/3",
]


@pytest.mark.parametrize("text", ORDINARY)
def test_an_ordinary_code_note_is_no_secret(text: str) -> None:
    assert find_secret(f"note: {text}\n") is None
    assert redact(text) == text


# Built in pieces so that no scanner flags this file.
STILL_SECRETS = [
    ("token=" + "abc123XYZ789", "abc123XYZ789"),
    ("api_key = " + '"' + "q8Hf2kLm9Pz4" + '"', "q8Hf2kLm9Pz4"),
    ("secret: " + "Zx9vQ2mW7kLp", "Zx9vQ2mW7kLp"),
    ("client_secret: " + "8f3a9c1e7b2d4f60", "8f3a9c1e7b2d4f60"),
    ("SECRET_KEY = '" + "django-insecure-k3j$9x!2q" + "'", "k3j$9x!2q"),
    ("API_KEY=" + "AbCdEf123456", "AbCdEf123456"),
    ("password = " + "Passw0rd.Now", "Passw0rd.Now"),
    ("password: " + "hunter2", "hunter2"),
    ('password = "' + "correct horse" + '"', "correct horse"),
]


@pytest.mark.parametrize(("text", "value"), STILL_SECRETS)
def test_a_credential_after_the_same_words_is_still_refused(text: str, value: str) -> None:
    assert find_secret(text) in {"password/token assignment", "password in an environment variable"}
    assert value not in redact(text)


TOKEN = "ghp_" + "aB3dE6gH9jK2mN5pQ8sT1vW4yZ7bC0eF3hJ6"
AKIA = "AKIA" + "IOSFODNN7EXAMPL3"
DISGUISED = {
    "tab": TOKEN[:14] + "\t" + TOKEN[14:],
    "two spaces": TOKEN[:14] + "  " + TOKEN[14:],
    "U+2028": TOKEN[:14] + "\u2028" + TOKEN[14:],
    "U+2029": TOKEN[:14] + "\u2029" + TOKEN[14:],
    "shell continuation": TOKEN[:14] + "\\\n" + TOKEN[14:],
    "shell continuation, indented": TOKEN[:14] + " \\\n    " + TOKEN[14:],
    "Cyrillic er in the prefix": "gh\u0440_" + TOKEN[4:],
    "Cyrillic A and K": "\u0410\u041aIA" + AKIA[4:],
    "Greek omicron in the body": TOKEN[:20] + TOKEN[20:].replace("m", "m\u03bf", 1),
}


@pytest.mark.parametrize("name", sorted(DISGUISED))
def test_a_disguised_token_is_found_and_masked_in_the_original(name: str) -> None:
    text = DISGUISED[name]
    shown = redact(f"deploy with {text} then rotate")
    assert find_secret(text) in {"GitHub token", "AWS access key id"}
    assert shown.startswith("deploy with [redacted: ") and shown.endswith("] then rotate"), shown
    assert TOKEN[-8:] not in shown and AKIA[-8:] not in shown


@pytest.mark.parametrize(
    "text",
    [
        "Пароль от почты хранится в менеджере, а не здесь; сорок записей в журнале.",
        "Ο κωδικός δεν γράφεται εδώ: ΑΚΙΑ είναι απλώς ένα όνομα.",
        "word  word\tword\u2028word, a table  |  with  wide  gaps",
    ],
)
def test_prose_and_spacing_alone_make_no_secret(text: str) -> None:
    assert find_secret(text) is None
