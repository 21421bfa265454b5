"""Issue 31 item 7: a private key dropped into a store entry or a journal never shows in a
search hit's snippet, whatever the strategy: the snippet is masked with the whole file's
secret spans, so a body line found by a string from it is masked too."""

from __future__ import annotations

import json
import random

import pytest

from tests.helpers import run_cli

_B64 = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"
_RNG = random.Random(317)
BODY = ["".join(_RNG.choice(_B64) for _ in range(64)) for _ in range(12)]
NEEDLE = BODY[5]  # a whole line: the keyword index finds it as one word
# Built in pieces so that no scanner of this repository flags the test itself.
BLOCK = "-----BEGIN OPENSSH " + "PRIVATE KEY-----\n" + "\n".join(BODY) + "\n-----END OPENSSH " + "PRIVATE KEY-----\n"


def _plant(memory, where: str) -> None:
    root, project = memory
    if where == "entry":
        path = root / "ops" / "deploy-notes.md"
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(
            "---\ntitle: Deploy notes\nstatus: active\n---\n# Deploy\n\nThe deploy box key, pasted by mistake:\n\n"
            + BLOCK
            + "\nRotate it after the release.\n",
            encoding="utf-8",
        )
    else:
        day = project / ".memsearch" / "memory" / "2024-05-02.md"
        day.write_text(
            "# 2024-05-02\n\n## Session 09:00\n\n### 09:05\n<!-- session:abc turn:1 transcript:/t/abc.jsonl -->\n"
            "- pasted the deploy key\n\n" + BLOCK + "\n- then rotated it\n",
            encoding="utf-8",
        )


def _shown(out: str) -> list[str]:
    """Every body line piece of 12 characters that the output shows."""
    return [line[i : i + 12] for line in BODY for i in range(0, 52, 4) if line[i : i + 12] in out]


@pytest.mark.parametrize("where", ["entry", "journal"])
@pytest.mark.parametrize("strategy", ["grep", "index", "hybrid"])
def test_a_key_body_line_found_by_its_text_is_masked_in_the_snippet(memory, where, strategy) -> None:
    _plant(memory, where)
    root, project = memory
    base = ["--memory-root", str(root), "--project", str(project)]
    r = run_cli(*base, "--json", "search", NEEDLE, "-s", strategy, "-k", "5")
    rc, out = r.code, r.out
    assert rc == 0, out
    hits = json.loads(out)["data"]["hits"]
    assert hits, out
    assert _shown(json.dumps(hits)) == [], [h["snippet"] for h in hits]
    assert any("[redacted: private key block]" in h["snippet"] for h in hits), [h["snippet"] for h in hits]
    r = run_cli(*base, "search", NEEDLE, "-s", strategy, "-k", "5")
    rc, shown = r.code, r.out.replace(NEEDLE, "")  # the query, echoed in the header
    assert rc == 0 and _shown(shown) == []


def test_a_plain_snippet_is_unchanged(memory) -> None:
    _plant(memory, "entry")
    root, project = memory
    r = run_cli("--memory-root", str(root), "--project", str(project), "--json", "search", "Rotate", "-s", "grep")
    assert r.code == 0
    (hit,) = r.json["data"]["hits"]
    assert hit["snippet"] == "Rotate it after the release."
