"""Regular English morphology: ``inflect`` for plurals and a/an, spelling rules for verbs.

Irregular forms never come from here: the lexicon lists them and they win. Derived forms are
checked by tests against the Unix word list (``../shared/corpora/words.zip``).

Importing inflect costs seconds (its module body), so its answers for every shipped word are
kept in ``data/morphology.json``: loading the shipped lexicon never imports inflect. Words the
memo lacks (user overlays, new rows) are derived by inflect, imported on first need. Refresh the
memo after editing the lexicon with ``python -m blimpgen.vocab.refresh``; a test fails while
it is stale.
"""

from __future__ import annotations

import hashlib
import json
import re
from functools import cache
from importlib import resources
from typing import Any

VOWELS = set("aeiou")
MEMO_FILE = "morphology.json"
_computed: dict[str, dict[str, str]] = {"plural": {}, "article": {}}


@cache
def inflect_engine() -> Any:
    """inflect's engine, imported on first use (the memo answers the shipped lexicon without it)."""
    import inflect

    return inflect.engine()


@cache
def memo_digest() -> str:
    """A hash of the shipped morphology memo (part of the lexicon hash: it decides derived forms)."""
    path = resources.files("blimpgen.vocab") / "data" / MEMO_FILE
    try:
        return hashlib.sha256(path.read_bytes()).hexdigest()
    except FileNotFoundError:
        return ""


@cache
def _memo() -> dict[str, dict[str, str]]:
    path = resources.files("blimpgen.vocab") / "data" / MEMO_FILE
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        return {"plural": {}, "article": {}}
    return {"plural": dict(data.get("plural", {})), "article": dict(data.get("article", {}))}


def _lookup(kind: str, word: str) -> str | None:
    return _memo()[kind].get(word) or _computed[kind].get(word)


def plural_noun(lemma: str) -> str:
    """Regular plural of a noun (cat -> cats, box -> boxes, city -> cities), via inflect."""
    found = _lookup("plural", lemma)
    if found is None:
        found = _computed["plural"][lemma] = inflect_engine().plural_noun(lemma)
    return found


def suffixed_plurals(lemma: str) -> set[str]:
    """The plurals plain suffixation allows (cats, boxes, potatoes/potatos, cities): a listed plural
    among them is a regular one whose spelling inflect gets wrong (egos, tuxedos), not an irregular one."""
    forms = {lemma + "s"}
    if re.search(r"(s|x|z|ch|sh|o)$", lemma):
        forms.add(lemma + "es")
    if re.search(r"[^aeiou]y$", lemma):
        forms.add(lemma[:-1] + "ies")
    return forms


def indefinite_article(word: str) -> str:
    """``a`` or ``an`` for the word that follows (an apple, a university, an hour), via inflect."""
    first = word.split(" ", 1)[0]
    found = _lookup("article", first)
    if found is None:
        found = _computed["article"][first] = inflect_engine().a(first).split(" ", 1)[0]
    return found


def remember_articles(articles: dict[str, str]) -> None:
    """Record the article of words inflect has never seen (pseudo-words: see
    :mod:`blimpgen.vocab.nonce`), so :func:`indefinite_article` need not import it for them."""
    _computed["article"].update(articles)


def with_article(word: str) -> str:
    """The word with its indefinite article (``an apple``)."""
    return f"{indefinite_article(word)} {word}"


def _doubles_final_consonant(lemma: str) -> bool:
    """Monosyllables ending consonant-vowel-consonant double it (stop -> stopping).

    Doubling in longer verbs depends on stress (admit/admitting vs visit/visiting), which
    spelling does not show; those verbs list their forms in the lexicon.
    """
    syllables = re.findall(r"[aeiouy]+", lemma[1:] if lemma[:1] == "y" else lemma)
    return (
        len(syllables) == 1
        and len(lemma) >= 3
        and lemma[-1] not in "aeiouwxy"
        and lemma[-2] in VOWELS
        and lemma[-3] not in VOWELS
    )


def present_participle(lemma: str) -> str:
    """-ing form (run -> running, make -> making, see -> seeing, lie -> lying).

    inflect's participle doubles by spelling alone (it gives "visitting"), so we use
    the stress-safe monosyllable rule instead.
    """
    if lemma.endswith("ie"):
        return lemma[:-2] + "ying"
    if lemma.endswith("e") and not lemma.endswith(("ee", "ye", "oe")) and len(lemma) > 2:
        return lemma[:-1] + "ing"
    if _doubles_final_consonant(lemma):
        return lemma + lemma[-1] + "ing"
    if lemma.endswith("ic"):
        return lemma + "king"
    return lemma + "ing"


def third_singular(lemma: str) -> str:
    """Third-person singular present (eat -> eats, watch -> watches, carry -> carries)."""
    if lemma.endswith(("s", "x", "z", "ch", "sh", "o")):
        return lemma + "es"
    if lemma.endswith("y") and len(lemma) > 1 and lemma[-2] not in VOWELS:
        return lemma[:-1] + "ies"
    return lemma + "s"


def regular_past(lemma: str) -> str:
    """Regular simple past (walk -> walked, bake -> baked, carry -> carried, stop -> stopped).

    Consonant doubling uses the same rule as :func:`present_participle`.
    """
    if lemma.endswith("e"):
        return lemma + "d"
    if lemma.endswith("y") and len(lemma) > 1 and lemma[-2] not in VOWELS:
        return lemma[:-1] + "ied"
    if _doubles_final_consonant(lemma):
        return lemma + lemma[-1] + "ed"
    if lemma.endswith("ic"):
        return lemma + "ked"
    return lemma + "ed"
