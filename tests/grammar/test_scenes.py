"""The scene model (grammar/_scenes.yaml) and the per-verb object lists of the NPI paradigms.

A scene says who does what where; paradigms read its values as formulas (``fits(scene.doer)``).
These tests hold every scene to what the paradigms rely on: each value is a valid formula over
words that exist, every activity has someone in the scene who can do it (its ``arg1``), every
activity with an object has something in the scene it can be done to (its ``arg2``), and every
place, owned place and owner names at least one word. A scene that broke one of these would make
its paradigms run dry on it, or worse, fill a slot with a word of the wrong category.
"""

from __future__ import annotations

import re
from functools import cache
from typing import Any

import pytest

from blimpgen.errors import SpecError
from blimpgen.grammar import load_shipped_specs
from blimpgen.grammar.fragments import expand_text, fragment_folders, merge_includes, read_fragment
from blimpgen.vocab import load_lexicon, query

KEYS = {"name", "prep", "place", "owned_prep", "owned", "owner", "doer", "doing", "doing_to", "thing"}
PREPOSITIONS = {"in", "on", "at", "near", "outside", "behind"}
VERB_KEYS = {"doing", "doing_to"}
LEMMAS = re.compile(r"lemma=([A-Za-z_,'-]+)")


@cache
def fragment() -> dict[str, Any]:
    """The scenes fragment with the formulas of the fragments it includes."""
    folders = fragment_folders()
    found, problems = read_fragment("scenes", folders, SpecError("scenes"))
    assert found is not None and not problems, problems
    raw = dict(found.raw)
    _, problems = merge_includes(raw, found.table, folders)
    assert not problems, problems
    return raw


def scenes() -> list[dict[str, str]]:
    return fragment()["slots"]["scene"]["values"]


def expanded(text: str) -> str:
    out, problem = expand_text(text, fragment()["formulas"])
    assert problem is None, problem
    return out


def words(formula: str) -> list:
    return load_lexicon().filter(formula)


@pytest.mark.parametrize("scene", scenes(), ids=lambda s: s["name"])
def test_scenes_values_are_formulas_over_existing_words(scene: dict[str, str]) -> None:
    lexicon = load_lexicon()
    assert set(scene) == KEYS
    assert {scene["prep"], scene["owned_prep"]} <= PREPOSITIONS
    for key in KEYS - {"name", "prep", "owned_prep"}:
        formula = expanded(scene[key])
        assert not query.check(query.parse(formula), lexicon.inventory, None), (scene["name"], key)
        categories = {"V"} if key in VERB_KEYS else {"N", "PN"}
        known = {w.lemma for w in lexicon.words if w.category in categories}
        for match in LEMMAS.finditer(scene[key]):
            missing = set(match.group(1).split(",")) - known
            assert not missing, f"{scene['name']}.{key}: no {'/'.join(sorted(categories))} {sorted(missing)}"


@pytest.mark.parametrize("scene", scenes(), ids=lambda s: s["name"])
def test_scenes_every_activity_has_a_doer_and_every_object_activity_a_thing(scene: dict[str, str]) -> None:
    doer = expanded(scene["doer"])
    for key, frame in (("doing", "intransitive"), ("doing_to", "transitive")):
        listed = set(LEMMAS.search(scene[key]).group(1).split(","))
        verbs = words(f"V and vform=bare and frames={frame} and ({expanded(scene[key])})")
        assert {v.lemma for v in verbs} == listed, f"{scene['name']}.{key}: not {frame}"
        for verb in verbs:
            doers = words(f"(N or PN) and ({doer}) and ({verb.get('arg1') or 'N or PN'})")
            assert doers, f"{scene['name']}: nobody to {verb.lemma}"
            if key == "doing_to":
                things = words(f"N and ({expanded(scene['thing'])}) and ({verb.get('arg2') or 'N'})")
                assert things, f"{scene['name']}: nothing to {verb.lemma}"


@pytest.mark.parametrize("scene", scenes(), ids=lambda s: s["name"])
def test_scenes_places_and_owners_name_words(scene: dict[str, str]) -> None:
    for key in ("place", "owned"):
        assert words(f"N and number=sg and ({expanded(scene[key])})"), f"{scene['name']}.{key}"
    assert words(f"(N or PN) and number=sg and ({expanded(scene['owner'])})"), f"{scene['name']}.owner"


def test_scenes_named_formulas_name_words_of_their_category() -> None:
    lexicon = load_lexicon()
    verbs = {w.lemma for w in lexicon.category("V")}
    nouns = {w.lemma for w in lexicon.category("N")}
    formulas = fragment()["formulas"]
    assert set(LEMMAS.search(formulas["counted"]).group(1).split(",")) <= verbs
    for name in ("anyone", "grownup", "kids", "everyday_person"):
        assert set(LEMMAS.search(formulas[name]).group(1).split(",")) <= nouns, name


# Paradigms that pair each verb with the objects it is done to (a choice slot `act` of
# {verb, thing} formulas): every verb must take at least one of its things as object (arg2), or
# the pair runs dry on that value and the other values get its share.
ACT_PARADIGMS = ("only_npi_scope", "sentential_negation_npi_scope")


@pytest.mark.parametrize("uid", ACT_PARADIGMS)
def test_scenes_paradigm_acts_name_objects_their_verb_takes(uid: str) -> None:
    spec = load_shipped_specs()[uid].spec
    values = [
        value
        for branch in (spec.branches or {}).values()
        if "act" in branch.slots
        for value in branch.slots["act"]["values"]
    ]
    assert values, uid
    for value in values:
        verbs = words(f"V and vform=bare and ({value['verb']})")
        assert len(verbs) == 1, value
        listed = set(LEMMAS.search(value["thing"]).group(1).split(","))
        taken = {w.lemma for w in words(f"N and ({value['thing']}) and ({verbs[0].get('arg2')})")}
        assert taken == listed, f"{uid}: {verbs[0].lemma} does not take {sorted(listed - taken)}"
