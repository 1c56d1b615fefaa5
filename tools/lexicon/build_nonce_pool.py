"""Write ``src/blimpgen/vocab/data/nonce_words.txt``: pseudo-words no English word list knows.

Draws words from the phonotactic grammar of :mod:`blimpgen.vocab.nonce` (a fixed seed, so the
pool is reproducible) and keeps a word only when it does not end like an inflection (-ed, -en)
and none of its forms (plural; -s, -ed, -ing) is a
real word: not in the Unix word lists, not a token of Brown or WikiText-2, not a first name of the
names corpus, not a form of the shipped lexicon, and not a form of a word already kept.

    PYTHONPATH=src python tools/lexicon/build_nonce_pool.py ../shared/corpora
"""

from __future__ import annotations

import argparse
import random
import sys
from pathlib import Path

from corpora import brown_counts, names, wikitext_counts, word_list

from blimpgen.vocab import load_lexicon
from blimpgen.vocab.nonce import NONCE_CATEGORIES, POOL_FILE, forms, pseudo_word, usable

SIZES = {"N": 4500, "V": 2200, "A": 900, "PN": 900}
OUT = Path(__file__).resolve().parents[2] / "src" / "blimpgen" / "vocab" / "data" / POOL_FILE
HEADER = """# Pseudo-words for --lexicon-mode nonce: CATEGORY<TAB>word. Written by
# tools/lexicon/build_nonce_pool.py; no form of a word here is in the Unix word lists, Brown,
# WikiText-2, the names corpus or the shipped lexicon. Do not edit by hand.
"""


def real_words(corpora: Path) -> set[str]:
    """Every word the corpora and the lexicon know, lower-cased."""
    known = {w.lower() for w in word_list(corpora)}
    known |= set(brown_counts(corpora)) | set(wikitext_counts(corpora))
    known |= {name.lower() for group in names(corpora) for name in group}
    known |= {w.text.lower() for w in load_lexicon().words}
    return known


def build(corpora: Path) -> list[tuple[str, str]]:
    known = real_words(corpora)
    rng = random.Random("blimpgen-nonce-pool")
    rows: list[tuple[str, str]] = []
    for category in NONCE_CATEGORIES:
        kept = 0
        tries = 0
        while kept < SIZES[category]:
            tries += 1
            if tries > 200 * SIZES[category]:
                sys.exit(f"{category}: only {kept} pseudo-words after {tries} tries")
            word = pseudo_word(rng, category)
            word_forms = forms(category, word)
            if not usable(category, word) or known.intersection(word_forms):
                continue
            known.update(word_forms)
            rows.append((category, word))
            kept += 1
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("corpora", type=Path, help="the shared corpora folder")
    args = parser.parse_args()
    rows = build(args.corpora)
    OUT.write_text(HEADER + "".join(f"{c}\t{w}\n" for c, w in rows), encoding="utf-8")
    print(f"wrote {len(rows)} pseudo-words to {OUT}")


if __name__ == "__main__":
    main()
