"""The spec-language reference page, generated from the code and data so it is always current.

``blimpgen reference -o docs/reference.md`` writes it; a test fails when the committed file is
not what the command would write. Sources: the spec model's fields, each registered slot kind's
``Params`` model and docstring, the template filters, the constraint-language grammar (the
docstring of :mod:`blimpgen.vocab.query`) and the feature inventory (``features.yaml``).
"""

from __future__ import annotations

import inspect
import re
import sys
import types
from typing import Any, Literal, Union, get_args, get_origin

from pydantic_core import PydanticUndefined

from blimpgen.generators.kinds import slot_kinds
from blimpgen.grammar import templates
from blimpgen.grammar.probe_spec import ProbeSpec, Split
from blimpgen.grammar.spec import FIELDS, LINGUISTICS_TERMS, Branch, OnePrefix, ParadigmSpec, TwoPrefix
from blimpgen.vocab import query
from blimpgen.vocab.features import PSEUDO_FEATURES, FeatureInventory, load_inventory


def _cell(text: Any) -> str:
    return str(text).replace("|", "\\|").replace("\n", " ")


# parameters whose strings are constraint formulas, and those that name slots
FORMULA_KEYS = frozenset(
    {
        "where",
        "subject_where",
        "verb_where",
        "head",
        "verb",
        "object",
        "subject",
        "det",
        "quantifiers",
        "by",
        "formulas",
    }
)
SLOT_KEYS = frozenset({"negated_by", "agree_with", "of", "anchor", "embedded_under", "same_time_as"})
SPECIAL = {
    "include": "fragment names (`[subjects]` reads `_subjects.yaml`)",
    "contrast": "slot names and words (what may differ between good and bad)",
}
NAMED_TYPES = {
    OnePrefix: "`one_prefix` block",
    TwoPrefix: "`two_prefix` block",
    Branch: "branch (see below)",
    Split: "split (see below)",
}


def _type(annotation: Any, key: str = "") -> str:
    """A field's type in the spec's own words: "formula", "one or more of: a, b", "slot names"."""
    if key in SPECIAL:
        return SPECIAL[key] + (" (optional)" if type(None) in get_args(annotation) else "")
    origin, args = get_origin(annotation), get_args(annotation)
    if origin in (Union, types.UnionType):
        kept = [a for a in args if a is not type(None)]
        inner = " or ".join(_type(a, key) for a in kept)
        return f"{inner} (optional)" if len(kept) < len(args) else inner
    if origin is Literal:
        return "one of: " + ", ".join(f"`{a}`" for a in args)
    if origin in (tuple, list):
        item = args[0] if args else Any
        if get_origin(item) is Literal:
            return "one or more of: " + ", ".join(f"`{a}`" for a in get_args(item))
        if key == "distinct" or key in SLOT_KEYS:
            return "slot names"
        return f"list of {_plural(_type(item, key))}"
    if origin is dict:
        value = args[1] if len(args) > 1 else Any
        if get_origin(value) is dict:
            return "mapping of slot name to slot"
        if value in NAMED_TYPES:
            return f"mapping of name to {NAMED_TYPES[value]}"
        return f"mapping of name to {_type(value, key)}"
    if annotation in NAMED_TYPES:
        return NAMED_TYPES[annotation]
    if annotation is str:
        return "formula" if key in FORMULA_KEYS else "slot name" if key in SLOT_KEYS else "text"
    if annotation is bool:
        return "true or false"
    if annotation is int:
        return "integer"
    if annotation is float:
        return "number"
    if annotation is Any:
        return "any value"
    return re.sub(r"typing\.|blimpgen\.[\w.]+\.", "", getattr(annotation, "__name__", str(annotation)))


def _plural(text: str) -> str:
    return {"text": "texts", "formula": "formulas", "integer": "integers", "slot name": "slot names"}.get(text, text)


def _default(info: Any) -> str:
    if info.is_required():
        return "required"
    value = info.default_factory() if info.default is PydanticUndefined else info.default
    return f"`{value!r}`"


def _fields_table(model: Any, skip: set[str] | frozenset[str] = frozenset()) -> list[str]:
    lines = ["| key | type | default |", "|---|---|---|"]
    for name, info in model.model_fields.items():
        if name in skip:
            continue
        lines.append(f"| `{name}` | {_cell(_type(info.annotation, name))} | {_cell(_default(info))} |")
    return lines


def _doc(obj: Any) -> str:
    """A docstring as Markdown: reStructuredText's double backticks become single ones."""
    return re.sub(r"``([^`]+)``", r"`\1`", inspect.cleandoc(obj.__doc__ or "").strip())


def _fence_tables(doc: str) -> str:
    """Put reStructuredText ``====`` tables of a docstring in a Markdown code block."""
    lines = doc.split("\n")
    rules = [i for i, line in enumerate(lines) if line.startswith("====")]
    if len(rules) >= 2:
        lines[rules[-1]] += "\n```"
        lines[rules[0]] = "```text\n" + lines[rules[0]]
    return "\n".join(lines)


def render_reference(inventory: FeatureInventory | None = None) -> str:
    """Markdown reference for the spec language and the feature inventory."""
    inventory = inventory or load_inventory()
    lines = [
        "# Spec language and feature reference",
        "",
        "Generated by `blimpgen reference -o docs/reference.md` from the code and "
        "`vocab/data/features.yaml`; do not edit. The walk-through is in `docs/authoring.md`.",
        "",
        "## Top-level keys",
        "",
        *_fields_table(ParadigmSpec),
        "",
        f"`field` is one of: {', '.join(f'`{f}`' for f in FIELDS)}. BLiMP's `linguistics_term` values: "
        f"{', '.join(f'`{t}`' for t in LINGUISTICS_TERMS)} (any word is accepted).",
        "",
        "`one_prefix` block:",
        "",
        *_fields_table(OnePrefix),
        "",
        "`two_prefix` block:",
        "",
        *_fields_table(TwoPrefix),
        "",
        "`branches` maps a name to a body with its own `slots`, `good`, `bad`, `one_prefix`, `two_prefix` "
        "and optional `contrast`; the top-level slots are shared by every branch.",
        "",
        "`one_prefix_method` and `two_prefix_method` may be left out: they are true exactly when the spec "
        "(or every branch) has the block. `@name` in a slot parameter is a named formula, from `formulas:` "
        "or a fragment named under `include:` (see `docs/authoring.md`).",
        "",
        "## Probe suite keys",
        "",
        "A document with an `item:` key is a probe suite. Besides `uid`, `field`, `linguistics_term`, "
        "`description`, `version`, `include` and `formulas` (as above):",
        "",
        *_fields_table(ProbeSpec, skip=set(ParadigmSpec.model_fields) - {"slots", "good", "bad", "notes"}),
        "",
        "A split (`--option split=NAME` generates one) sets option values and narrows the `where` "
        "formula of the slots it names:",
        "",
        *_fields_table(Split),
        "",
        "## Slot kinds",
        "",
        "Written `kind: NAME` (the newest version) or `kind: NAME.vN`. Every other key of a slot is a "
        "parameter of its kind; unknown keys are errors.",
        "",
    ]
    for name in slot_kinds.names():
        kind = slot_kinds.get(name)
        doc = _doc(kind)
        if "module docstring" in doc:  # the kind documents itself in its module
            doc = _fence_tables(_doc(sys.modules[kind.__module__]))
        lines += [f"### `{name}`", "", doc, "", *_fields_table(kind.Params), ""]
    lines += [
        "## Template filters",
        "",
        "Templates are Jinja2 expressions run in a sandbox with `StrictUndefined`: only the slots "
        "are visible; private attributes, `include`/`import`, `*`/`**` and Jinja's globals are "
        "rejected at load.",
        "",
        "| filter | what it does |",
        "|---|---|",
    ]
    for name in ("flip", "form", "a_an", "det_for", "possessive", "cap"):
        summary = _doc(getattr(templates, name)).split("\n")[0]
        lines.append(f"| `{name}` | {_cell(summary)} |")
    doc = _doc(query)
    lines += [
        "",
        "## Constraint language",
        "",
        "Used in slot constraints (`where`, `head`, `verb`...) and in the lexicon's selectional restrictions.",
        "",
        "```text",
        doc.split("::", 1)[1].split("Grammar::", 1)[0].strip("\n"),
        "```",
        "",
        "Grammar:",
        "",
        "```text",
        doc.split("Grammar::", 1)[1].split("\n\n", 2)[1].strip("\n"),
        "```",
        "",
        f"Besides the features below, every word has: {', '.join(f'`{p}`' for p in PSEUDO_FEATURES)}.",
        "",
        "## Categories",
        "",
        "| category | description |",
        "|---|---|",
    ]
    lines += [f"| `{cat}` | {_cell(desc)} |" for cat, desc in inventory.categories.items()]
    lines += [
        "",
        "## Features",
        "",
        "Declared in `src/blimpgen/vocab/data/features.yaml`; derived features are "
        "computed by the loader and cannot be written in lexicon rows.",
        "",
        "| feature | type | values | categories | derived | description |",
        "|---|---|---|---|---|---|",
    ]
    for name, feature in inventory.features.items():
        lines.append(
            f"| `{name}` | {feature.type} | {_cell(', '.join(feature.values)) or '-'} | "
            f"{', '.join(sorted(feature.categories))} | {'yes' if feature.derived else ''} | "
            f"{_cell(feature.doc)} |"
        )
    return "\n".join(lines) + "\n"
