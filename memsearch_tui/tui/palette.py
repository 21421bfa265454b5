"""Semantic colours for rich renderables (labels, tables, diffs), taken from the theme.

Rich ``Text`` styles cannot name Textual's theme variables, and a plain colour name
ignores the theme (unreadable on the light one). So panes style text by
role (``PALETTE.warning``), and the app copies the current theme's ``text-*`` colours into
``PALETTE`` whenever the theme changes, then redraws the panes.
"""

from __future__ import annotations

from dataclasses import dataclass

# role → the Textual CSS variable it is read from
ROLES = {
    "primary": "text-primary",
    "secondary": "text-secondary",
    "accent": "text-accent",
    "success": "text-success",
    "warning": "text-warning",
    "error": "text-error",
}


@dataclass
class Palette:
    """One colour per role; the defaults are Textual's dark theme's."""

    primary: str = "#57A5E2"
    secondary: str = "#5684A5"
    accent: str = "#FFC473"
    success: str = "#8AD4A1"
    warning: str = "#FFC473"
    error: str = "#D17E92"

    def use(self, variables: dict[str, str]) -> None:
        """Take the colours of a theme (``App.get_css_variables()``)."""
        for role, var in ROLES.items():
            value = variables.get(var)
            if value and value.startswith("#"):
                setattr(self, role, value[:7])  # rich takes #RRGGBB; drop any alpha


PALETTE = Palette()


def status_style(status: str) -> str:
    """The style of an entry status word (active, archived, expired, invalid)."""
    return {
        "active": PALETTE.success,
        "archived": PALETTE.warning,
        "expired": PALETTE.secondary,
        "invalid": f"bold {PALETTE.error}",
    }.get(status, "dim")


def move_style(action: str) -> str:
    """The style of a lifecycle move (archive, expire, trash, purge)."""
    return {
        "archive": PALETTE.warning,
        "expire": PALETTE.secondary,
        "trash": PALETTE.error,
        "purge": f"bold {PALETTE.error}",
    }.get(action, PALETTE.accent)
