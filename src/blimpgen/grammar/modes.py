"""Which lexicon modes each shipped paradigm supports: ``grammar/lexicon_modes.yaml``, read once.

A paradigm refuses a mode when its contrast needs what the mode takes away (see the file's
header): its entry under the mode is the one-line reason, which ``gen`` prints and
``docs/paradigms.md`` tabulates. Paradigms not named there (a user's own) support every mode:
their author decides.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from importlib import resources

from blimpgen._yaml import load_yaml_text
from blimpgen.errors import SpecError

MODES_FILE = "lexicon_modes.yaml"
REFUSING_MODES = ("colorless", "nonce")


@dataclass(frozen=True)
class ModeTable:
    """Refusals per mode (``mode -> {uid: reason}``) and the shipped paradigms decided."""

    refusals: dict[str, dict[str, str]]
    decided: frozenset[str]

    def refusal(self, uid: str, mode: str) -> str | None:
        """Why paradigm ``uid`` refuses ``mode`` (None when it supports it)."""
        return self.refusals.get(mode, {}).get(uid)


def parse_mode_table(text: str, file: str = MODES_FILE) -> ModeTable:
    """Read a mode table.

    Raises:
        SpecError: at ``file:line`` for an unknown mode, a reason that is not one line of text,
            or a malformed ``decided`` list.
    """
    raw, lines = load_yaml_text(text, file)
    if not isinstance(raw, dict):
        raise SpecError("expected a mapping of modes", file, 1)
    refusals: dict[str, dict[str, str]] = {}
    for key, value in raw.items():
        if key == "decided":
            continue
        if key not in REFUSING_MODES:
            raise SpecError(
                f"unknown lexicon mode {key!r}; use one of {', '.join(REFUSING_MODES)}",
                file,
                lines.line_of((key,)),
                str(key),
            )
        if not isinstance(value, dict):
            raise SpecError("expected UID: reason lines", file, lines.line_of((key,)), str(key))
        for uid, reason in value.items():
            if not isinstance(reason, str) or not reason.strip() or "\n" in reason.strip():
                raise SpecError("a reason is one line of text", file, lines.line_of((key, uid)), f"{key}.{uid}")
        refusals[key] = {str(uid): reason.strip() for uid, reason in value.items()}
    decided = raw.get("decided", [])
    if not isinstance(decided, list) or not all(isinstance(uid, str) for uid in decided):
        raise SpecError("decided: a list of paradigm UIDs", file, lines.line_of(("decided",)), "decided")
    return ModeTable(refusals, frozenset(decided))


@cache
def mode_table() -> ModeTable:
    """The shipped table (read once per process)."""
    path = resources.files("blimpgen.grammar") / MODES_FILE
    return parse_mode_table(path.read_text(encoding="utf-8"), f"grammar/{MODES_FILE}")
