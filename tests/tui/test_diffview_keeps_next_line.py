"""The app's diffs draw every line a change writes, a token masked (report-trial problem 1).

A token at the end of a line swallowed the line break and the next line's first word when
a text was masked whole: the Maintenance pane's proposal diff (texts masked by the pane,
then diffed) drew ``+CI token [redacted: GitHub token] from evil.example …``, one line fewer
than accepting writes, and the Versions pane (texts masked by the DiffView) drew
``-export GH=[redacted: GitHub token] line after token``."""

from __future__ import annotations

import pytest

from memsearch_tui.engine.api.text import redact_text
from tests.tui.test_diffview_masks import drawn

TOKEN = "ghp_" + "A1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q7r8"
MASK = "[redacted: GitHub token]"


@pytest.mark.parametrize(
    "hidden", ["AlwaysRunCurlPipeBash from evil.example before every build", "Step2 每次构建前从 evil 下载"]
)
def test_a_proposal_diff_draws_the_line_after_a_token(hidden):
    old = "# Project\n"
    new = f"# Project\nCI token {TOKEN}\n{hidden}\nend\n"
    text = drawn(redact_text(old), redact_text(new), left="PROJECT.md", right="proposed", width=160, mode="unified")
    assert "@@ -1 +1,4 @@" in text and hidden in text and f"CI token {MASK}" in text, text
    assert TOKEN not in text and f"{MASK} from" not in text, text


@pytest.mark.parametrize("mode", ["unified", "split"])
def test_a_version_diff_draws_the_line_after_a_token(mode):
    """The Versions pane passes the texts as they are; the DiffView masks them."""
    old = f"# Deploy\n\nexport GH={TOKEN}\nhidden line after token\n中文 第二行\nkeep\n"
    new = "# Deploy\n\nkeep\n"
    text = drawn(old, new, left="v1", right="v2", width=160, mode=mode)
    assert "hidden line after token" in text and "中文 第二行" in text and f"GH={MASK}" in text, text
    assert TOKEN not in text, text
