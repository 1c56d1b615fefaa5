"""Nonce lexicons: pronounceable pseudo-words, never real words, regular forms, same features, stable per seed."""

from __future__ import annotations

import random
import sys
from functools import cache
from pathlib import Path

from hypothesis import given
from hypothesis import strategies as st

from blimpgen.vocab import Lexicon, load_lexicon, morphology
from blimpgen.vocab.nonce import (
    FORM_FEATURES,
    NONCE_CATEGORIES,
    forms,
    nonce_lexicon,
    pronounceable,
    pseudo_word,
    regular_plural,
    renamed_lemmas,
    shipped_pool,
    usable,
)
from blimpgen.vocab.query import parse


@cache
def nonce(seed: int = 0) -> Lexicon:
    return nonce_lexicon(load_lexicon(), seed)


def open_words(lexicon: Lexicon) -> list:
    return [w for w in lexicon.words if w.category in NONCE_CATEGORIES]


def test_nonce_replaces_every_open_class_word_and_keeps_the_rest() -> None:
    real, fake = load_lexicon(), nonce()
    assert fake.mode == "nonce" and fake.fingerprint != real.fingerprint
    assert [w.category for w in fake.words] == [w.category for w in real.words]
    real_forms = {w.text.lower() for w in real.words}
    assert not real_forms & {w.text.lower() for w in open_words(fake)}
    closed = [(w.id, w.text) for w in real.words if w.category not in NONCE_CATEGORIES]
    assert closed == [(w.id, w.text) for w in fake.words if w.category not in NONCE_CATEGORIES]
    assert all(w.position == i for i, w in enumerate(real.words)), "the real lexicon's words were renumbered"


def test_nonce_keeps_features_but_not_irregular_forms() -> None:
    real, fake = load_lexicon(), nonce()
    inventory = real.inventory.features
    for before, after in zip(real.lexemes, fake.lexemes):
        if before.category not in NONCE_CATEGORIES:
            assert after is before
            continue
        kept = {
            k: v
            for k, v in before.features.items()
            if k not in FORM_FEATURES + ("_text",)
            and inventory.get(k, None) is not None
            and inventory[k].type != "relation"
        }
        assert kept == {k: v for k, v in after.features.items() if k in kept}, before.lemma
        relations = [k for k in before.features if k in inventory and inventory[k].type == "relation"]
        for name in relations:
            target = inventory[name].target
            renamed = {w.lemma for w in fake.category(target)}
            assert after.features[name] <= renamed and len(after.features[name]) == len(before.features[name])


def test_nonce_lemma_lists_name_the_same_rows() -> None:
    """A slot formula naming everyday lemmas (lemma=hire,meet) selects the same lexemes, renamed;
    closed-class lemmas and lemmas no row has stay as they are."""
    real, fake = load_lexicon(), nonce()
    formula = "V and vform=bare and lemma=hire,meet,the,nosuchword"
    node = renamed_lemmas(parse(formula), fake.lemma_aliases)
    renamed = fake.filter_node(node)
    assert len(renamed) == 2 and all(w.lemma not in ("hire", "meet") for w in renamed)
    order = [lexeme.lemma for lexeme in real.lexemes]
    assert sorted(order.index(lemma) for lemma in ("hire", "meet")) == sorted(
        fake.lexemes.index(w.lexeme) for w in renamed
    )
    assert renamed_lemmas(parse("D and lemma=the"), fake.lemma_aliases) == parse("D and lemma=the")
    assert real.lemma_aliases == {} and fake.filter("V and lemma=hire") == []


def test_nonce_forms_are_regular() -> None:
    for word in open_words(nonce()):
        lemma, vform = word.lemma, word.get("vform")
        if word.category == "N" and word.get("number") == "pl":
            assert word.text == regular_plural(lemma) and word.get("plural_type") == "regular"
        if word.category == "V":
            pres = morphology.third_singular(lemma) if word.get("number") == "sg" else lemma
            expected = {
                "bare": lemma,
                "pres": pres,
                "past": morphology.regular_past(lemma),
                "en": morphology.regular_past(lemma),
                "ing": morphology.present_participle(lemma),
            }[vform]
            assert word.text == expected and not word.get("distinct_en") and not word.get("syncretic_past")


def test_nonce_words_are_pronounceable_and_distinct() -> None:
    seen: dict[str, str] = {}
    for word in open_words(nonce()):
        assert usable(word.category, word.lemma), word.id
        owner = seen.setdefault(word.text.lower(), word.lexeme.lemma)
        assert owner == word.lexeme.lemma, f"{word.text} is a form of {owner} and of {word.lexeme.lemma}"


def test_nonce_pool_is_pronounceable_and_covers_the_lexicon() -> None:
    pool = shipped_pool()
    for category, words in pool.items():
        assert all(usable(category, w) for w in words), category
        needed = sum(1 for lexeme in load_lexicon().lexemes if lexeme.category == category)
        assert len(words) >= 1.3 * needed, f"grow the {category} pool: tools/lexicon/build_nonce_pool.py"


def test_nonce_is_stable_per_seed() -> None:
    again = nonce_lexicon(load_lexicon(), 0)
    assert [w.text for w in again.words] == [w.text for w in nonce(0).words]
    assert again.fingerprint == nonce(0).fingerprint
    other = nonce_lexicon(load_lexicon(), 1)
    different = sum(a.text != b.text for a, b in zip(open_words(nonce(0)), open_words(other)))
    assert different > 0.9 * len(open_words(other)) and other.fingerprint != nonce(0).fingerprint


def test_nonce_articles_follow_the_first_letter() -> None:
    for word in open_words(nonce()):
        if word.category in ("N", "A"):
            assert morphology.indefinite_article(word.text) == ("an" if word.text[0] in "aeiou" else "a")


@given(seed=st.integers(0, 10**6), category=st.sampled_from(NONCE_CATEGORIES))
def test_nonce_grammar_makes_pronounceable_words(seed: int, category: str) -> None:
    word = pseudo_word(random.Random(seed), category)
    assert pronounceable(category, word), word
    assert word[0].lower() != "u", word  # a/an would be unsure (a unicorn, an umbrella)


def test_nonce_pool_words_are_in_no_word_list(corpora: Path) -> None:
    sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "tools" / "lexicon"))
    try:
        from build_nonce_pool import real_words
    finally:
        sys.path.pop(0)
    known = real_words(corpora)
    for category, words in shipped_pool().items():
        clashes = [w for w in words if known.intersection(forms(category, w))]
        assert not clashes, f"real words in the {category} pool: {clashes[:10]}"
