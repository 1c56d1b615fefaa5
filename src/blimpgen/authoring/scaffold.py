"""``blimpgen new``: a commented skeleton paradigm that passes ``blimpgen check`` as written.

The skeleton is a working determiner-noun agreement paradigm whose comments say what each key
means and what to change; an author edits it into their own phenomenon one key at a time,
running ``blimpgen check`` and ``blimpgen show`` after each edit.
"""

from __future__ import annotations

from pathlib import Path

from blimpgen.errors import SpecError, did_you_mean
from blimpgen.grammar.spec import FIELDS, LINGUISTICS_TERMS, UID_RE

# BLiMP's field for each phenomenon (the skeleton's default field).
TERM_FIELDS = {
    "anaphor_agreement": "morphology",
    "argument_structure": "syntax",
    "binding": "syntax_semantics",
    "control_raising": "syntax_semantics",
    "determiner_noun_agreement": "morphology",
    "ellipsis": "syntax",
    "filler_gap_dependency": "syntax",
    "irregular_forms": "morphology",
    "island_effects": "syntax",
    "npi_licensing": "semantics",
    "quantifiers": "semantics",
    "s-selection": "syntax_semantics",
    "subject_verb_agreement": "morphology",
}

SKELETON = """\
# {uid}: a new paradigm. Written by `blimpgen new`; it runs as is. Edit one key at a time and
# run `blimpgen check FOLDER` and `blimpgen show {uid} --paradigm-path FOLDER -n 10` after each edit.
# The spec language is described in docs/reference.md, the walk-through in docs/authoring.md.

uid: {uid}                      # must equal the file name (without .yaml)
field: {field}                  # one of: {fields}
linguistics_term: {term}        # the phenomenon (BLiMP's linguistics_term)
description: "TODO: one sentence saying what the good sentence has that the bad one lacks."
simple_LM_method: true          # compare whole sentences
one_prefix_method: false        # true needs a one_prefix block (shared prefix, then one critical word)
two_prefix_method: false

# What may differ between good and bad: slot names or literal words. `blimpgen check` samples
# pairs and reports any other difference.
contrast: [noun]

# Slots are filled in order; a later slot may refer to an earlier one (noun.number, fits(verb.arg2)).
# Kinds: word (where), choice (values), dp (head, det), verb_group (verb, subject, aux, tense),
# args (verb, frames), clause. Constraints use the lexicon's features (docs/reference.md).
slots:
  subj: {{kind: dp, head: "(N and animate) or PN"}}                       # a determiner phrase: "the cat", "Mary"
  verb: {{kind: verb_group, verb: "frames=transitive", subject: subj}}    # agrees with subj
  noun: {{kind: word, where: "N and plural_type=regular and fits(verb.arg2)", distinct: [subj]}}
  dem: {{kind: word, where: "D and demonstrative and number = noun.number"}}   # this/these agree with noun

# Templates (sandboxed Jinja2). Filters: flip('number'), form(vform='en'), a_an, det_for(noun), cap.
good: "{{{{ subj }}}} {{{{ verb }}}} {{{{ dem }}}} {{{{ noun }}}}."
bad: "{{{{ subj }}}} {{{{ verb }}}} {{{{ dem }}}} {{{{ noun | flip('number') }}}}."
"""


def render_skeleton(uid: str, phenomenon: str, field: str | None = None) -> str:
    """The skeleton spec text for ``uid``.

    Raises:
        SpecError: for a UID that is not an identifier or an unknown field.
    """
    if not UID_RE.match(uid):
        raise SpecError("a UID starts with a letter and has only letters, digits and _", key="uid")
    if not phenomenon.strip() or any(c.isspace() or c in ":#{}[]'\"" for c in phenomenon):
        raise SpecError(
            f"phenomenon {phenomenon!r} must be one word{did_you_mean(phenomenon, LINGUISTICS_TERMS)}",
            key="--phenomenon",
        )
    field = field or TERM_FIELDS.get(phenomenon, "syntax")
    if field not in FIELDS:
        raise SpecError(f"unknown field {field!r}{did_you_mean(field, FIELDS)}", key="--field")
    return SKELETON.format(uid=uid, field=field, term=phenomenon, fields=", ".join(FIELDS[:4]))


def write_skeleton(uid: str, phenomenon: str, folder: Path | str, field: str | None = None) -> Path:
    """Write ``folder/uid.yaml`` (the folder is created); never overwrites.

    Raises:
        SpecError: when the file exists or cannot be written.
    """
    text = render_skeleton(uid, phenomenon, field)
    target = Path(folder) / f"{uid}.yaml"
    if target.exists():
        raise SpecError("file exists; choose another UID or delete it", str(target))
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(text, encoding="utf-8")
    except OSError as exc:
        raise SpecError(f"cannot write: {exc.strerror or exc}", str(target)) from None
    return target
