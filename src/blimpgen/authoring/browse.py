"""``blimpgen list`` and ``show``: what a catalogue holds, and a preview of one spec's records.

Both work for every spec type: each type says how it is listed (``list_title``,
``list_column``, ``list_order``) and previewed (``heading`` and its records' ``preview``).
"""

from __future__ import annotations

from collections.abc import Iterator

from blimpgen.generators.catalog import Catalog
from blimpgen.generators.generate import generate_records
from blimpgen.generators.modes import build_in_mode
from blimpgen.grammar.loader import SPEC_TYPES, LoadedSpec
from blimpgen.grammar.spec import SpecBase

DESIGNS_TITLE = "factorial designs (gen -p UID --design full; not in --all: docs/factors.md):"


def render_list(catalog: Catalog, phenomenon: str | None = None) -> str | None:
    """One line per spec (UID, phenomenon, field or item type, description), a block per spec
    type, then the shipped factorial designs (their factors in the third column); None when no
    spec has ``phenomenon`` as its ``linguistics_term``.

    Raises:
        SpecErrors: for invalid specs, and for invalid lexicon overlays (reported here too).
    """
    if catalog.overlays:
        catalog.lexicon  # noqa: B018 - building it reports overlay problems
    groups: list[tuple[str | None, list[tuple[SpecBase, str]]]] = []
    for spec_type in SPEC_TYPES.values():
        specs = [
            loaded.spec for loaded in catalog.specs(spec_type) if phenomenon in (None, loaded.spec.linguistics_term)
        ]
        if specs:
            groups.append(
                (
                    spec_type.list_title,
                    [(spec, spec.list_column()) for spec in sorted(specs, key=lambda spec: spec.list_order())],
                )
            )
    designs = [loaded for loaded in catalog.designs() if phenomenon in (None, loaded.spec.linguistics_term)]
    if designs:
        groups.append(
            (
                DESIGNS_TITLE,
                [
                    (loaded.spec, design_column(loaded))
                    for loaded in sorted(designs, key=lambda loaded: loaded.spec.list_order())
                ],
            )
        )
    if not groups:
        return None
    every = [spec for _, rows in groups for spec, _ in rows]
    width = max(len(spec.uid) for spec in every)
    term_width = max(len(spec.linguistics_term) for spec in every)
    lines: list[str] = []
    for title, rows in groups:
        if title is not None:
            lines += [""] if lines else []
            lines.append(title)
        lines += [
            f"{spec.uid:<{width}}  {spec.linguistics_term:<{term_width}}  {column:<16}  {spec.description}"
            for spec, column in rows
        ]
    return "\n".join(lines)


def design_column(loaded: LoadedSpec) -> str:
    """A design's factors and their level counts: ``attractor(3) x distance(2)``."""
    design = loaded.design
    return "" if design is None else " x ".join(f"{factor}({len(levels)})" for factor, levels in design.factors)


def render_preview(catalog: Catalog, uid: str, n: int, seed: int, lexicon_mode: str = "default") -> Iterator[str]:
    """The spec's heading, then ``n`` records as ``show`` prints them (a pair: good, then *bad),
    generated in ``lexicon_mode`` (see :mod:`blimpgen.generators.modes`).

    Raises:
        UnknownNameError: for an unknown UID; OptionError when the paradigm refuses the mode;
            SpecErrors, GenerationError as generation does.
    """
    (source,), _ = build_in_mode(catalog, [catalog.get(uid, noun="paradigm").uid], lexicon_mode, seed)
    yield source.loaded.spec.heading()
    for record, _ in generate_records(source, n, seed):
        yield from record.preview()
