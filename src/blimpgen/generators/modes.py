"""Building paradigms in a lexicon mode (``gen --lexicon-mode colorless|nonce``).

:func:`mode_lexicon` gives the lexicon a mode samples from (the same lexicon, a colorless view
of it, or its nonce renaming for a seed; built once per lexicon, mode and seed).
:func:`refusal` says why a spec cannot be generated in a mode: probe suites have no modes, and a
shipped paradigm whose contrast needs what the mode takes away says so in
``grammar/lexicon_modes.yaml``. :func:`build_in_mode` builds the sources ``gen`` writes.
"""

from __future__ import annotations

import weakref
from collections.abc import Sequence
from typing import Any

from blimpgen.errors import OptionError
from blimpgen.generators.catalog import Catalog, build_source
from blimpgen.generators.source import Source
from blimpgen.grammar.loader import LoadedSpec
from blimpgen.grammar.modes import mode_table
from blimpgen.grammar.spec import ParadigmSpec
from blimpgen.records import Record
from blimpgen.vocab.lexicon import Lexicon
from blimpgen.vocab.modes import LEXICON_MODES, colorless_lexicon
from blimpgen.vocab.nonce import nonce_lexicon

_BUILT: weakref.WeakKeyDictionary[Lexicon, dict[tuple[str, int], Lexicon]] = weakref.WeakKeyDictionary()


def check_mode(mode: str) -> None:
    """Raise OptionError for an unknown mode name."""
    if mode not in LEXICON_MODES:
        raise OptionError(f"--lexicon-mode must be one of {', '.join(LEXICON_MODES)}, got {mode!r}")


def mode_lexicon(lexicon: Lexicon, mode: str, seed: int = 0) -> Lexicon:
    """The lexicon sampled in ``mode``: ``lexicon`` itself, its colorless view, or its nonce renaming
    for ``seed`` (cached per lexicon, mode and seed).

    Raises:
        OptionError: for an unknown mode.
    """
    check_mode(mode)
    if mode == "default":
        return lexicon
    built = _BUILT.setdefault(lexicon, {})
    key = (mode, seed if mode == "nonce" else 0)
    if key not in built:
        built[key] = colorless_lexicon(lexicon) if mode == "colorless" else nonce_lexicon(lexicon, seed)
    return built[key]


def refusal(loaded: LoadedSpec, mode: str) -> str | None:
    """Why a spec cannot be generated in ``mode`` (None when it can)."""
    if mode == "default":
        return None
    if not isinstance(loaded.spec, ParadigmSpec):
        return f"{loaded.spec.noun}s have no lexicon modes; they apply to minimal-pair paradigms"
    if loaded.design is not None and loaded.design.lexicon_factor is not None:
        return (
            f"its factor {loaded.design.lexicon_factor!r} chooses each cell's lexicon (default or colorless), "
            "so the whole paradigm takes no other mode"
        )
    return mode_table().refusal(loaded.spec.uid, mode)


def build_in_mode(
    catalog: Catalog,
    uids: Sequence[str],
    mode: str,
    seed: int = 0,
    skip_refused: bool = False,
    options: dict[str, Any] | None = None,
) -> tuple[list[Source[Record]], list[tuple[str, str]]]:
    """Sources for ``uids`` over the lexicon of ``mode``, and the (UID, reason) of those left out.

    Args:
        catalog: where the specs and the lexicon come from.
        uids: the specs to build, in order.
        mode: ``default``, ``colorless`` or ``nonce``.
        seed: the generation seed (nonce words are stable per seed).
        skip_refused: leave out specs that refuse the mode (``--all``) instead of raising.
        options: probe-suite options (the default mode only).

    Raises:
        OptionError: ``UID refuses --lexicon-mode MODE: reason`` for a spec named on its own.
    """
    check_mode(mode)
    if mode == "default":
        return catalog.build(uids, options=options), []
    lexicon = mode_lexicon(catalog.lexicon, mode, seed)
    sources, skipped = [], []
    for uid in uids:
        loaded = catalog.get(uid)
        reason = refusal(loaded, mode)
        if reason is not None:
            if not skip_refused:
                raise OptionError(f"{uid} refuses --lexicon-mode {mode}: {reason}")
            skipped.append((uid, reason))
            continue
        sources.append(build_source(loaded, lexicon, options))
    return sources, skipped
