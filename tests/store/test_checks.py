"""Pre-write checks: secrets are named but never echoed; near-duplicates are caught."""

from __future__ import annotations

import pytest

from memsearch_tui.engine.core.errors import Refused
from memsearch_tui.engine.core.secrets import find_secret
from memsearch_tui.engine.store.store import Change, Store
from tests.conftest import tree_bytes

SECRETS = {
    "OpenAI API key": "key sk-proj-" + "A1b2C3d4E5f6G7h8I9j0K1l2M3",
    "Anthropic API key": "sk-ant-api03-" + "abcdEFGHijklMNOPqrstUVWX0123",
    "AWS access key id": "AKIA" + "IOSFODNN7EXAMPLE",
    "AWS secret access key": "aws_secret_access_key = " + "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEYab",
    "GitHub token": "ghp_" + "a" * 36,
    "Google API key": "AIza" + "SyA-1234567890abcdefghijklmnopqrstu",
    "Slack token": "xoxb-" + "123456789012-abcdefghij",
    "Stripe secret key": "sk_live_" + "4eC39HqLyjWDarjtT1zdp7dc",
    "private key block": "-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAAA\n",
    "password/token assignment": "db password=hunter2hunter2",
    "JSON web token": "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U",
    "password in a URL": "postgres://admin:" + "s3cretPassw0rd@db.internal/app",
}


@pytest.mark.parametrize(
    "text", ["DB_PASSWORD=hunter2222", "GITHUB_TOKEN=abcdef123456", "export OPENAI_API_KEY=abcdefghij12"]
)
def test_env_style_assignments_are_secrets(text: str) -> None:
    assert find_secret(text) == "password/token assignment"


def test_secret_in_an_unknown_frontmatter_key_is_refused(store: Store) -> None:
    entry = store.add("p", "Meta", "harmless body text")
    assert entry.path is not None
    raw = entry.path.read_bytes().replace(
        b"title: Meta", b"title: Meta\napi_key: sk-proj-" + b"abcdefghijklmnopqrstuvwxyz0123"
    )
    with pytest.raises(Refused, match="OpenAI API key"):
        store.replace_raw(entry.id, raw)


@pytest.mark.parametrize("kind", sorted(SECRETS))
def test_each_secret_kind_is_refused_and_named(store: Store, kind: str) -> None:
    before = tree_bytes(store.root)
    with pytest.raises(Refused) as info:
        store.add("creds", f"Note {kind}", f"Some context.\n{SECRETS[kind]}\nmore text")
    assert info.value.code == "secret"
    assert kind in info.value.message
    secret_core = SECRETS[kind].split()[-1][-12:]
    assert secret_core not in info.value.message
    assert tree_bytes(store.root) == before


@pytest.mark.parametrize(
    "text",
    [
        "Our password policy requires 12 characters.",
        "The token bucket refills every second.",
        "Set api_key=${OPENAI_API_KEY} from the environment.",
        "password: <your password here>",
        "Ask for the secret = *** in 1Password.",
        "sk-short",
        "the token: everything else",
        "see https://example.com:8080/path and git@github.com:org/repo.git",
    ],
)
def test_ordinary_prose_is_not_a_secret(text: str) -> None:
    assert find_secret(text) is None


def test_secrets_in_tags_and_updates_are_refused_too(store: Store) -> None:
    entry = store.add("p", "Plain", "nothing secret here at all")
    with pytest.raises(Refused, match="GitHub token"):
        store.update(entry.id, Change(body="now with ghp_" + "b" * 36))
    with pytest.raises(Refused, match="AWS access key id"):
        store.add("p", "Tagged", "fine body", tags=["AKIA" + "IOSFODNN7EXAMPLE"])


def test_near_identical_body_under_another_title_is_a_duplicate(store: Store) -> None:
    body = (
        "We decided to use PostgreSQL for the billing service because it handles concurrent "
        "writes well, and the team already runs it in production for two other services."
    )
    first = store.add("decisions", "Billing database", body)
    near = body.replace("two other services.", "two other services!").replace("We decided", "we decided")
    with pytest.raises(Refused, match=first.id) as info:
        store.add("elsewhere", "DB for billing", near + " ok")
    assert info.value.code == "duplicate"
    different = "We decided to use SQLite for the CLI cache: single user, no server, one file to back up."
    assert store.add("decisions", "CLI cache", different).id == "decisions/cli-cache"


def test_updating_an_entry_with_its_own_text_is_not_a_duplicate(store: Store) -> None:
    entry = store.add("p", "Self", "a body long enough to be compared with fuzzy matching rules")
    store.update(entry.id, Change(body="a body long enough to be compared with fuzzy matching rules!"))
    assert store.get(entry.id).body.endswith("rules!\n")
