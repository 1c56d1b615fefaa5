"""The register mark ``rare`` (issue 12): documented, loaded, and agreeing with its hand review."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from blimpgen.generators.kinds.base import Selector
from blimpgen.vocab import load_inventory, load_lexicon

REVIEW = Path(__file__).resolve().parents[2] / "tools" / "lexicon" / "register_review.tsv"
DECISIONS = ("rare", "keep", "added", "remove")


def review_rows() -> list[tuple[int, list[str]]]:
    rows = []
    for number, line in enumerate(REVIEW.read_text(encoding="utf-8").splitlines(), 1):
        if line.startswith("#") or line.startswith("lemma\t") or not line.strip():
            continue
        rows.append((number, line.split("\t")))
    return rows


def test_register_mark_is_documented() -> None:
    feature = load_inventory().features["rare"]
    assert feature.type == "bool"
    assert set(feature.categories) == {"N", "V", "A"}
    # the documented share is the sampler's
    assert f"weighs {Selector.RARE_WEIGHT} against" in feature.doc
    assert "register_review.tsv" in feature.doc


def test_register_review_is_well_formed() -> None:
    bad = []
    for number, cols in review_rows():
        if len(cols) != 6:
            bad.append(f"{REVIEW.name}:{number}: {len(cols)} columns, not 6")
            continue
        lemma, category, count, zipf, decision, reason = cols
        if category not in ("N", "V", "A") or decision not in DECISIONS or not reason.strip():
            bad.append(f"{REVIEW.name}:{number}: {cols}")
        if not re.fullmatch(r"\d+(\.\d+)?|-", count) or not re.fullmatch(r"\d+\.\d\d", zipf):
            bad.append(f"{REVIEW.name}:{number}: count {count!r} or zipf {zipf!r}")
    assert not bad, "\n".join(bad)


def test_register_mark_agrees_with_the_review() -> None:
    """Every lexeme marked rare has a review row deciding `rare` (with its reason), and every such
    row's lexeme is in the lexicon and marked: the review file is the record of the mark."""
    lexicon = load_lexicon()
    marked = {(x.category, x.lemma) for x in lexicon.lexemes if x.features.get("rare")}
    decided = {(cols[1], cols[0]) for _, cols in review_rows() if cols[4] == "rare"}
    assert marked == decided, (
        f"marked without a review row: {sorted(marked - decided)}; "
        f"decided but not marked: {sorted(decided - marked)} "
        "(tools/lexicon/propose_register.py --write applies the review)"
    )
    assert len(marked) > 400


@pytest.mark.parametrize(
    ("category", "lemma"),
    [("N", "abbess"), ("N", "schoolmistress"), ("N", "canoeist"), ("N", "mommy"), ("V", "jilt"), ("V", "gild")],
)
def test_register_mark_is_loaded_on_exotic_words(category: str, lemma: str) -> None:
    words = load_lexicon().filter(f"{category} and lemma={lemma}")
    assert words and all(w.get("rare") for w in words)


@pytest.mark.parametrize(("category", "lemma"), [("N", "teacher"), ("N", "babysitter"), ("V", "eat"), ("A", "big")])
def test_register_mark_leaves_everyday_words(category: str, lemma: str) -> None:
    words = load_lexicon().filter(f"{category} and lemma={lemma}")
    assert words and not any(w.get("rare") for w in words)


def test_register_mark_is_kept_in_every_mode() -> None:
    """The mark is a property of the lexeme: colorless and nonce lexicons carry it unchanged."""
    from blimpgen.vocab.modes import colorless_lexicon
    from blimpgen.vocab.nonce import nonce_lexicon

    lexicon = load_lexicon()
    marked = sum(1 for x in lexicon.lexemes if x.features.get("rare"))
    for other in (colorless_lexicon(lexicon), nonce_lexicon(lexicon, 0)):
        assert sum(1 for x in other.lexemes if x.features.get("rare")) == marked
