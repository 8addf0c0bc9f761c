"""Help text built from the code it describes, so it cannot drift from it."""

from __future__ import annotations

import textwrap

from ..convergence.protect import DEFAULT_TESTS, SEAL_NAMES, SEAL_PATTERNS

__all__ = ["CONFIG_HELP", "PROTECTED_HELP", "protected_lines"]


def protected_lines(width: int = 78) -> list[str]:
    """The default protected globs, grouped, wrapped to ``width`` (used by --help and the README test)."""

    def wrap(title: str, items: list[str]) -> list[str]:
        return textwrap.wrap(f"{title}: " + ", ".join(items), width=width, subsequent_indent="    ",
                             break_on_hyphens=False, break_long_words=False)

    return [
        *wrap("tests (baseline tests may not change; new ones may be added)", list(DEFAULT_TESTS)),
        *wrap("tool configs, at any depth", sorted(SEAL_NAMES)),
        *wrap("also sealed", [*SEAL_PATTERNS, "files named in a stopping condition's command"]),
    ]


PROTECTED_HELP = "\n\n".join([
    "\b\nProtected by default (an edit, deletion or addition rejects the iteration):\n"
    + "\n".join("  " + line for line in protected_lines()),
    "\b\nChange that with --allow-edit GLOB (a protected file the maker may change, e.g. pyproject.toml\n"
    "to add a dependency), --protect GLOB (seal more), --no-default-protect (drop the test globs;\n"
    "tool configs, CI and ignore files stay sealed); later, `goalkeeper goal edit ID`.",
])

CONFIG_HELP = (
    "\b\nDefaults for every option above can come from [tool.goalkeeper.goal] in the workspace's\n"
    "pyproject.toml or [goal] in $GOALKEEPER_HOME/config.toml (flags win; see `goalkeeper schema config`)."
)
