"""``blimpgen list`` and ``show``: what a catalogue holds, and a preview of one spec's records.

Both work for every spec type: each type says how it is listed (``list_title``,
``list_column``, ``list_order``) and previewed (``heading`` and its records' ``preview``).
"""

from __future__ import annotations

from collections.abc import Iterator

from blimpgen.generators.catalog import Catalog
from blimpgen.generators.generate import generate_records
from blimpgen.generators.modes import build_in_mode
from blimpgen.grammar.loader import SPEC_TYPES


def render_list(catalog: Catalog, phenomenon: str | None = None) -> str | None:
    """One line per spec (UID, phenomenon, field or item type, description), a block per spec
    type; None when no spec has ``phenomenon`` as its ``linguistics_term``.

    Raises:
        SpecErrors: for invalid specs, and for invalid lexicon overlays (reported here too).
    """
    if catalog.overlays:
        catalog.lexicon  # noqa: B018 - building it reports overlay problems
    groups = []
    for spec_type in SPEC_TYPES.values():
        specs = [loaded.spec for loaded in catalog.specs(spec_type)
                 if phenomenon in (None, loaded.spec.linguistics_term)]
        if specs:
            groups.append((spec_type, sorted(specs, key=lambda spec: spec.list_order())))
    if not groups:
        return None
    every = [spec for _, specs in groups for spec in specs]
    width = max(len(spec.uid) for spec in every)
    term_width = max(len(spec.linguistics_term) for spec in every)
    lines: list[str] = []
    for spec_type, specs in groups:
        if spec_type.list_title is not None:
            lines += [""] if lines else []
            lines.append(spec_type.list_title)
        lines += [f"{spec.uid:<{width}}  {spec.linguistics_term:<{term_width}}  {spec.list_column():<16}  "
                  f"{spec.description}" for spec in specs]
    return "\n".join(lines)


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
