"""``mem.config``: the settings a face asks about — review on or off, trusted projects.

Only the user's own config decides what runs and where data goes: ``trust`` records a
project's real path in ``~/.memsearch/config.toml``, never in the project.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from memsearch_tui.engine.core.errors import InvalidInput, MemsearchError

if TYPE_CHECKING:
    from memsearch_tui.engine.api.memory import Memory


@dataclass(frozen=True)
class TrustChange:
    project: str  # the real path recorded
    trusted: bool
    config: str  # the file it is recorded in
    all: tuple[str, ...]  # every trusted project now


def check_overrides(items: list[str] | None) -> None:
    """Refuse (InvalidInput naming the item) a ``--set KEY=VALUE`` list that is malformed
    or names no known setting: the CLI turns it into a usage error (exit 2)."""
    from memsearch_tui.engine.memsearch.config import check_assignments

    check_assignments(items)


class UserSettings:
    """The user's settings for one (memory root, project), as ``mem.config``."""

    def __init__(self, mem: Memory) -> None:
        self.mem = mem

    def review(self) -> bool:
        """``[tui] review`` (default True: automated changes become proposals first)."""
        from memsearch_tui.engine.memsearch.config import load_config

        tui = load_config(self.mem.project).raw.get("tui", {})
        return bool(tui.get("review", True)) if isinstance(tui, dict) else True

    def trusted(self) -> tuple[str, ...]:
        """The projects whose ``.memsearch.toml`` the user trusts (an unreadable config: none)."""
        from memsearch_tui.engine.memsearch.config import home_config_path, read_toml
        from memsearch_tui.engine.memsearch.trust import trusted_list

        try:
            data = read_toml(home_config_path())
        except MemsearchError:
            data = None
        return tuple(trusted_list(data))

    def trust(self, project: Path | None, *, trusted: bool = True) -> TrustChange:
        """Trust ``project``'s config file (or stop trusting it)."""
        from memsearch_tui.engine.memsearch.config import home_config_path
        from memsearch_tui.engine.memsearch.trust import real, set_trusted

        if project is None:
            raise InvalidInput("name the project to trust: memsearch-tui trust PROJECT")
        home_file = home_config_path()
        listed = set_trusted(home_file, project, trusted=trusted)
        return TrustChange(str(real(project)), trusted, str(home_file), tuple(listed))
