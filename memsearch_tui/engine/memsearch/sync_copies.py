"""Conflicted copies that file-sync tools leave beside a journal day.

When two machines write ``2026-11-30.md`` before they have heard from each other, the sync
tool keeps one under the day's name and renames the other. Each tool has its own spelling
(from their documentation and what users report):

* Dropbox: ``2026-11-30 (conflicted copy).md``, ``2026-11-30 (Ana's conflicted copy 2026-11-30).md``
  (optionally with `` (1)`` after it);
* Nextcloud / ownCloud desktop client: ``2026-11-30 (conflicted copy 2026-11-30 101112).md``,
  with the user's name since client 3.x: ``2026-11-30 (conflicted copy Kim Lee 2026-12-01
  101530).md``; older ownCloud ``2026-11-30_conflict-20261130-101112.md``, with a user name
  ``2026-11-30_conflict_kim-20261201-101530.md``;
* Syncthing: ``2026-11-30.sync-conflict-20261130-101112-ABCDEFG.md`` (the device's short id,
  empty when unknown: ``…-101112-.md``);
* OneDrive: ``2026-11-30-DESKTOP-4F2KJ9.md``: the name of the computer that kept both
  (optionally ``-2``, ``-3`` after it); the Windows client writes the computer name as
  Windows has it (generated ones are ``DESKTOP-`` + 7 and ``LAPTOP-`` + 8 capitals and
  digits, servers ``WIN-`` + 11), a Mac's is ``Kims-MacBook-Pro``, the Linux client
  (abraunegg/onedrive) appends the host name;
* iCloud Drive: ``2026-11-30 2.md``; Google Drive: ``2026-11-30 (1).md``.

A name is read as a copy only when its date is a real date, and OneDrive's (``day-word``)
only when the word has a computer name's shape (:func:`_machine_name`): a Windows name of
two or more parts in capitals and digits, at most 15 characters, that is generated
(``DESKTOP-…``, ``LAPTOP-…``, ``WIN-…``), numbered (a part of 3 or more mixing letters and
digits: ``WS-A1B2C3``) or a PC's (``KIMS-PC``); a Mac's (``Kims-MacBook-Pro``); or this
machine's host name, in any case. A single word is a person's (``TODO``, ``NOTES``,
``DRAFT``, ``WIP``, ``README``, ``standup``) unless it is this machine's name: a copy made
by a computer named with one word (``ZEUS``) is recognised on that computer only, and
elsewhere indexed as a day of its own (nothing is lost either way: a copy is never deleted
without a merge a person accepted). A person's own ``2026-11-30-standup.md`` or
``2026-11-30-TODO.md`` stays a file of its own.

Such a copy is not a day of its own: the hook never indexes it, the journal list skips it,
and ``journal conflicts`` offers to merge it into its day, turn by turn.
"""

from __future__ import annotations

import functools
import re
from collections import namedtuple
from collections.abc import Collection

from memsearch_tui.engine.core.clock import real_date

_DAY = r"(?P<day>\d{4}-\d{2}-\d{2})"
# (tool, pattern, only beside its day): a name as plain as ``2026-11-30-laptop.md`` or
# ``2026-11-30 2.md`` could be a person's own file, so it counts as a copy only when the
# day file it copies is in the same folder. Compiled on the first name that is not a plain
# day (:func:`_compiled`): every search lists journals through here, few folders hold a copy.
PATTERNS: tuple[tuple[str, str, bool], ...] = (
    ("syncthing", _DAY + r"\.sync-conflict-\d{8}-\d{6}(?:-[A-Z0-9]{0,7})?\.md$", False),
    (
        "dropbox/nextcloud",
        _DAY + r" \((?:[^()]{1,80}'s )?conflicted copy(?: [^()]{1,100})?\)(?: \(\d{1,3}\))?\.md$",
        False,
    ),
    ("owncloud", _DAY + r"_conflict(?:_[^/]{1,80}?)?-\d{8}-\d{6}\.md$", False),
    ("google-drive", _DAY + r" \(\d{1,3}\)\.md$", True),
    ("icloud", _DAY + r" \d{1,3}\.md$", True),
    ("onedrive", _DAY + r"-(?P<host>[A-Za-z][A-Za-z0-9-]{0,62}?)(?:-\d{1,3})?\.md$", True),
)
# A Windows computer name as OneDrive appends it: NetBIOS, at most 15 characters, here in two
# or more parts; generated (DESKTOP-/LAPTOP-/WIN- + capitals and digits), numbered (a part
# of 3+ mixing letters and digits) or a PC's (…-PC). One word (TODO, NOTES) is a person's.
_ID = r"(?=[A-Z0-9]*[A-Z])(?=[A-Z0-9]*\d)[A-Z0-9]{3,}"  # a part mixing capitals and digits
_WINDOWS_NAME = (
    r"(?=.{3,15}$)(?:"
    r"(?i:desktop|laptop|win)-[A-Z0-9]{1,11}"
    rf"|(?:[A-Z0-9]+-)*{_ID}(?:-[A-Z0-9]+)+|(?:[A-Z0-9]+-)+{_ID}(?:-[A-Z0-9]+)*"
    r"|(?:[A-Z0-9]+-)+PC"
    r")"
)
_MAC_NAME = r"(?i:(?:[A-Za-z0-9]+-)*(?:MacBook|iMac|Mac-?mini|Mac-?Pro|Mac-?Studio)(?:-[A-Za-z0-9]+)*)"


@functools.cache
def _compiled() -> tuple[tuple[str, re.Pattern[str], bool], ...]:
    """``PATTERNS`` compiled, once (whole, before any caller sees it: the app's workers list
    journals from several threads); the last two entries are the computer-name patterns."""
    tools = tuple((tool, re.compile(p), beside) for tool, p, beside in PATTERNS)
    return tools + tuple(("", re.compile(p), False) for p in (_WINDOWS_NAME, _MAC_NAME))


_PLAIN_DAY = re.compile(_DAY + r"\.md$")
_DATED = re.compile(r"\d{4}-\d{2}-\d{2}")


TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing: the literal search lists journals
if TYPE_CHECKING:
    from typing import NamedTuple

    class CopyName(NamedTuple):
        """A conflicted copy's file name, read: which day it belongs to and which tool made it."""

        name: str
        day: str
        tool: str

else:  # a named tuple, not a dataclass: ``dataclasses`` costs the literal search 5–10 ms of imports
    CopyName = namedtuple("CopyName", "name day tool")


def copy_of(name: str, siblings: Collection[str] = ()) -> CopyName | None:
    """The day and tool of a conflicted copy's file name, or None for anything else;
    ``siblings``: the other names in its folder (see ``PATTERNS``)."""
    if _PLAIN_DAY.match(name):
        return None
    for tool, pattern, beside_day in _compiled()[: len(PATTERNS)]:
        if (m := pattern.match(name)) and (not beside_day or f"{m.group('day')}.md" in siblings):
            if not real_date(m.group("day")) or ("host" in m.groupdict() and not _machine_name(m.group("host"))):
                continue
            return CopyName(name, m.group("day"), tool)
    return None


def _machine_name(word: str) -> bool:
    """A computer's name as OneDrive appends it (see the module doc), not a person's word."""
    if any(pattern.fullmatch(word) for _, pattern, _ in _compiled()[len(PATTERNS) :]):
        return True
    import socket

    host = socket.gethostname().split(".")[0]
    return bool(host) and word.lower() == host.lower()


def is_day_file(name: str, siblings: Collection[str] = ()) -> bool:
    """A journal of its own: ``YYYY-MM-DD….md`` with a real date, not a sync tool's conflicted copy."""
    return (
        name.endswith(".md") and bool(_DATED.match(name)) and real_date(name[:10]) and copy_of(name, siblings) is None
    )
