"""Propose the `rare` register mark from word frequencies, and apply the hand decisions.

Every open-class lexeme (N, V, A) gets its frequency summed over all its forms (lemma plus listed
or derived inflections) from two sources: the Brown corpus plus WikiText-2 (small: 3 M tokens,
1960s prose and Wikipedia, so they miss many everyday words such as toaster or babysitter) and,
when the ``wordfreq`` package is installed (``pip install wordfreq``; its data ships inside the
package), its Zipf frequency (log10 of occurrences per billion words, over subtitles, web text,
books and news: 3 is about once per million words). A word is only ever marked by a person: the
decisions, one row per reviewed lemma with a reason, are `tools/lexicon/register_review.tsv`.

    PYTHONPATH=src python tools/lexicon/propose_register.py ../shared/corpora --candidates [--zipf 3.0]
    PYTHONPATH=src python tools/lexicon/propose_register.py ../shared/corpora --compare
    PYTHONPATH=src python tools/lexicon/propose_register.py ../shared/corpora --write

``--candidates`` lists the lemmas not yet reviewed whose Zipf frequency is below ``--zipf`` (or,
without wordfreq, whose corpus count is below ``--count``), lowest first, as review rows to fill
in. ``--compare`` lists lexicon rows whose `rare` mark disagrees with the review file;
``--write`` makes the lexicon files agree with it (decision ``rare``: marked; any other: not).
"""

from __future__ import annotations

import argparse
import math
from collections import defaultdict
from pathlib import Path

from corpora import brown_counts, wikitext_counts

LEXICON = Path("src/blimpgen/vocab/data/lexicon")
REVIEW = Path("tools/lexicon/register_review.tsv")
FILES = {"N": "nouns.tsv", "V": "verbs.tsv", "A": "adjectives.tsv"}
MARKED = "rare"


def zipf_of(forms: set[str]) -> float | None:
    """wordfreq's Zipf frequency of the forms together; None without wordfreq."""
    try:
        from wordfreq import word_frequency
    except ImportError:
        return None
    total = sum(word_frequency(form, "en") for form in forms)
    return round(math.log10(total * 1e9), 2) if total > 0 else 0.0


def frequencies(corpora: Path) -> dict[tuple[str, str], tuple[int, float | None]]:
    """(category, lemma) -> (Brown + WikiText-2 count, Zipf frequency) over all forms."""
    from blimpgen.vocab import load_lexicon

    lexicon = load_lexicon()
    counts = brown_counts(corpora).copy()
    counts.update(wikitext_counts(corpora))
    forms: dict[tuple[str, str], set[str]] = defaultdict(set)
    for word in lexicon.words:
        if word.category in FILES:
            forms[(word.category, word.lemma)].add(word.text.lower())
    return {key: (sum(counts[f] for f in fs), zipf_of(fs)) for key, fs in forms.items()}


def read_review(path: Path = REVIEW) -> dict[tuple[str, str], str]:
    """(category, lemma) -> decision, from the review file."""
    decisions = {}
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        if not line.strip() or line.startswith("#") or line.startswith("lemma\t"):
            continue
        cols = line.split("\t")
        if len(cols) < 5:
            raise SystemExit(f"{path}:{number}: expected lemma, category, count, zipf, decision, reason")
        decisions[(cols[1], cols[0])] = cols[4]
    return decisions


def rewrite(path: Path, category: str, decisions: dict[tuple[str, str], str], write: bool) -> None:
    """Print (and with ``write`` apply) the `rare` changes the review asks of one lexicon file."""
    lines = path.read_text(encoding="utf-8").split("\n")
    for number, line in enumerate(lines):
        cols = line.split("\t")
        if line.startswith("#") or len(cols) < 3 or cols[1] != category:
            continue
        feats = [f.strip() for f in cols[2].split(";") if f.strip()]
        has, want = MARKED in feats, decisions.get((category, cols[0])) == MARKED
        if has != want:
            print(f"{path.name}:{number + 1}\t{'+' if want else '-'}{MARKED}\t{cols[0]}")
            feats = [f for f in feats if f != MARKED] + ([MARKED] if want else [])
            lines[number] = "\t".join(cols[:2] + ["; ".join(feats)] + cols[3:])
    if write:
        path.write_text("\n".join(lines), encoding="utf-8")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("corpora", type=Path)
    what = parser.add_mutually_exclusive_group(required=True)
    what.add_argument("--candidates", action="store_true", help="unreviewed low-frequency lemmas")
    what.add_argument("--compare", action="store_true", help="lexicon rows that disagree with the review")
    what.add_argument("--write", action="store_true", help="make the lexicon agree with the review")
    parser.add_argument("--zipf", type=float, default=3.0, help="Zipf frequency below which to propose")
    parser.add_argument("--count", type=int, default=5, help="corpus count below which to propose (no wordfreq)")
    args = parser.parse_args()
    decisions = read_review()
    if args.candidates:
        rows = []
        for (category, lemma), (count, zipf) in frequencies(args.corpora).items():
            low = zipf < args.zipf if zipf is not None else count < args.count
            if low and (category, lemma) not in decisions:
                rows.append((zipf if zipf is not None else count, lemma, category, count))
        for value, lemma, category, count in sorted(rows):
            zipf_text = f"{value:.2f}" if isinstance(value, float) else "-"
            print(f"{lemma}\t{category}\t{count}\t{zipf_text}\t?\t")
        return
    for category, name in FILES.items():
        rewrite(LEXICON / name, category, decisions, args.write)


if __name__ == "__main__":
    main()
