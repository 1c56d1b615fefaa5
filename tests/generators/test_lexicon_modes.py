"""Lexicon modes on every shipped paradigm: labels stay right, refusals are clear, default output is untouched.

For each paradigm that supports a mode, generated pairs must still satisfy every constraint the
kinds re-check (agreement, frames, verb classes: ``violations``), differ only where the contrast
allows (``findings``), and record the mode. In nonce mode the contrast must rest on function
words, word order or inflection alone: good and bad use the same pseudo-word lexemes (in
possibly different forms), and no open-class word of the real lexicon is left.
"""

from __future__ import annotations

import re
from collections import Counter
from functools import cache

import pytest

from blimpgen.errors import OptionError
from blimpgen.generators.catalog import Catalog
from blimpgen.generators.generate import generate_with_bindings
from blimpgen.generators.modes import build_in_mode, mode_lexicon, refusal
from blimpgen.grammar import ParadigmSpec
from blimpgen.grammar.modes import mode_table, parse_mode_table
from blimpgen.vocab.nonce import NONCE_CATEGORIES

N = 40
TOKEN = re.compile(r"[A-Za-z']+")


@cache
def catalog() -> Catalog:
    return Catalog.from_environment(environ={})


def shipped() -> list[str]:
    return catalog().names(ParadigmSpec)


def supporting(mode: str) -> list[str]:
    return [uid for uid in shipped() if mode_table().refusal(uid, mode) is None]


def refused(mode: str) -> list[str]:
    return [uid for uid in shipped() if mode_table().refusal(uid, mode) is not None]


def pairs_in_mode(uid: str, mode: str, seed: int = 0, n: int = N) -> tuple[object, list]:
    (source,), _ = build_in_mode(catalog(), [uid], mode, seed)
    return source, list(generate_with_bindings(source, n, seed))


def designs() -> list[str]:
    return catalog().design_names()


def designs_supporting(mode: str) -> list[str]:
    return [uid for uid in designs() if refusal(catalog().get(uid), mode) is None]


def test_modes_table_decides_every_shipped_paradigm() -> None:
    table = mode_table()
    assert table.decided == set(shipped()) | set(designs()), "add the new paradigm to grammar/lexicon_modes.yaml"
    for mode, refusals in table.refusals.items():
        assert set(refusals) <= table.decided, mode
    assert len(supporting("colorless")) == 65 and len(supporting("nonce")) == 16


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("colourless: {a: b}\n", "lexicon_modes.yaml:1: colourless: unknown lexicon mode 'colourless'"),
        ("nonce:\n  a: [x]\n", "lexicon_modes.yaml:2: nonce.a: a reason is one line of text"),
        ("nonce:\n  a: b\n  a: c\n", "lexicon_modes.yaml:3"),
        ("decided: 3\n", "lexicon_modes.yaml:1: decided: decided: a list of paradigm UIDs"),
    ],
)
def test_modes_table_errors_are_located(text: str, message: str) -> None:
    from blimpgen.errors import SpecError

    with pytest.raises(SpecError) as caught:
        parse_mode_table(text, "lexicon_modes.yaml")
    assert str(caught.value).startswith(message)


@pytest.mark.parametrize("uid", ["npi_present_1", "transitive", "wh_island"])
def test_modes_default_is_the_plain_build(uid: str) -> None:
    (source,), skipped = build_in_mode(catalog(), [uid], "default", 0)
    (plain,) = catalog().build([uid])
    got = [pair.to_dict() for pair, _ in generate_with_bindings(source, 20, 0)]
    assert got == [pair.to_dict() for pair, _ in generate_with_bindings(plain, 20, 0)]
    assert skipped == [] and all("lexicon_mode" not in pair for pair in got)


@pytest.mark.parametrize("uid", supporting("colorless") + designs_supporting("colorless"))
def test_modes_colorless_keeps_grammar(uid: str) -> None:
    source, pairs = pairs_in_mode(uid, "colorless")
    for pair, bindings in pairs:
        fields = {"sentence_good": pair.sentence_good, "sentence_bad": pair.sentence_bad}
        assert source.violations(bindings) == [], (pair.sentence_good, source.violations(bindings))
        assert source.findings(bindings, fields) == [], pair
        assert pair.lexicon_mode == "colorless" and pair.sentence_good != pair.sentence_bad


def test_modes_colorless_drops_meaning() -> None:
    """Most paradigms make pairs the default lexicon's restrictions would refuse."""
    relaxed = []
    for uid in supporting("colorless"):
        _, pairs = pairs_in_mode(uid, "colorless", n=30)
        (plain,) = catalog().build([uid])
        if any(plain.violations(bindings) for _, bindings in pairs):
            relaxed.append(uid)
    assert len(relaxed) >= 0.9 * len(supporting("colorless")), sorted(set(supporting("colorless")) - set(relaxed))


@cache
def nonce_forms(seed: int) -> tuple[dict[str, tuple[str, str]], frozenset[str], frozenset[str]]:
    """(pseudo-word form -> its lexeme, real open-class forms, closed-class forms), lower-cased."""
    nonce = mode_lexicon(catalog().lexicon, "nonce", seed)
    pseudo = {w.text.lower(): (w.category, w.lemma) for w in nonce.words if w.category in NONCE_CATEGORIES}
    real = frozenset(w.text.lower() for w in catalog().lexicon.words if w.category in NONCE_CATEGORIES)
    closed = frozenset(w.text.lower() for w in catalog().lexicon.words if w.category not in NONCE_CATEGORIES)
    return pseudo, real, closed


@pytest.mark.parametrize("uid", supporting("nonce") + designs_supporting("nonce"))
def test_modes_nonce_contrast_rests_on_function_words_or_inflection(uid: str) -> None:
    seed = 7
    source, pairs = pairs_in_mode(uid, "nonce", seed)
    pseudo, real, closed = nonce_forms(seed)
    for pair, bindings in pairs:
        fields = {"sentence_good": pair.sentence_good, "sentence_bad": pair.sentence_bad}
        assert source.violations(bindings) == [] and source.findings(bindings, fields) == [], pair
        assert pair.lexicon_mode == "nonce"
        lexemes = []
        for sentence in (pair.sentence_good, pair.sentence_bad):
            tokens = [t.lower() for t in TOKEN.findall(sentence)]
            left = [t for t in tokens if t in real and t not in closed and t not in pseudo]
            assert not left, f"real open-class words {left} in {sentence!r}"
            lexemes.append(Counter(pseudo[t] for t in tokens if t in pseudo))
        assert lexemes[0] == lexemes[1], (
            f"good and bad differ in open-class words: {pair.sentence_good!r} / {pair.sentence_bad!r}"
        )
        assert lexemes[0], pair


@pytest.mark.parametrize(("mode", "uid"), [(m, u) for m in ("colorless", "nonce") for u in refused(m)])
def test_modes_refusal_is_one_clear_line(mode: str, uid: str) -> None:
    with pytest.raises(OptionError) as caught:
        build_in_mode(catalog(), [uid], mode, 0)
    message = str(caught.value)
    assert message == f"{uid} refuses --lexicon-mode {mode}: {mode_table().refusal(uid, mode)}"
    assert "\n" not in message
    sources, skipped = build_in_mode(catalog(), [uid, "npi_present_2"], mode, 0, skip_refused=True)
    assert [s.uid for s in sources] == ["npi_present_2"] and skipped[0][0] == uid


@pytest.mark.parametrize("mode", ["colorless", "nonce"])
def test_modes_design_choosing_its_lexicon_refuses_every_mode(mode: str) -> None:
    uid = "subject_verb_agreement_plausibility"
    with pytest.raises(OptionError) as caught:
        build_in_mode(catalog(), [uid], mode, 0)
    assert str(caught.value) == (
        f"{uid} refuses --lexicon-mode {mode}: its factor 'meaning' chooses each cell's "
        "lexicon (default or colorless), so the whole paradigm takes no other mode"
    )
    assert sorted(set(designs()) - set(designs_supporting("nonce"))) == [
        "filler_gap_depth",
        "npi_licensor_distance",
        uid,
    ]


def test_modes_probe_suites_refuse_modes() -> None:
    from blimpgen.grammar import ProbeSpec

    suite = catalog().names(ProbeSpec)[0]
    assert "no lexicon modes" in refusal(catalog().get(suite), "nonce")
    with pytest.raises(OptionError, match="refuses --lexicon-mode colorless"):
        build_in_mode(catalog(), [suite], "colorless", 0)
    with pytest.raises(OptionError, match="--lexicon-mode must be one of default, colorless, nonce"):
        build_in_mode(catalog(), ["npi_present_1"], "jabberwocky", 0)


def test_modes_nonce_is_stable_per_seed() -> None:
    first = [p.sentence_good for p, _ in pairs_in_mode("npi_present_2", "nonce", 3, 10)[1]]
    again = [p.sentence_good for p, _ in pairs_in_mode("npi_present_2", "nonce", 3, 10)[1]]
    other = [p.sentence_good for p, _ in pairs_in_mode("npi_present_2", "nonce", 4, 10)[1]]
    assert first == again and first != other
    assert mode_lexicon(catalog().lexicon, "nonce", 3) is mode_lexicon(catalog().lexicon, "nonce", 3)
