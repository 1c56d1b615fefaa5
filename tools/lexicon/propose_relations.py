"""Propose relation features (``isa``, ``antonym``, ``synonym``) from WordNet 3.0, for hand review.

``isa``: for each noun, walk the hypernym paths of its first (most frequent) sense and propose
the nearest ancestor that is itself a count noun of our lexicon, printing the whole chain so a
reviewer can see what was skipped (WordNet's chains run through technical categories such as
``oscine`` or ``placental``; the nearest everyday noun is usually the one we want, but not
always: robin -> thrush is exact and useless, so ``--prefer`` lists categories to stop at).

``antonym`` / ``synonym``: for each adjective, WordNet's direct antonyms and the lemmas of its
synset and ``similar_to`` synsets that are adjectives of our lexicon. Direct antonyms are
reliable; "similar" sets are broad (good ~ estimable), so every proposal needs a reader.

    python tools/lexicon/propose_relations.py isa robin ferry oak
    python tools/lexicon/propose_relations.py isa --lexicon src/blimpgen/vocab/data/lexicon/nouns.tsv \\
        --prefer bird,fish,insect,mammal,reptile,tree,flower,boat,car,aircraft
    python tools/lexicon/propose_relations.py adjectives --lexicon src/blimpgen/vocab/data/lexicon/adjectives.tsv
    python tools/lexicon/propose_relations.py isa --compare src/blimpgen/vocab/data/lexicon/nouns.tsv

``--compare`` prints rows whose written ``isa`` is not on any WordNet hypernym path of any
sense, for a second look (everyday categories such as ``dessert`` are often not).
"""

from __future__ import annotations

import argparse
from pathlib import Path

from corpora import read_tsv, wordnet


def count_nouns(path: Path) -> set[str]:
    """Lemmas of the count nouns (no ``mass`` flag) of a nouns TSV."""
    return {lemma for lemma, category, feats in read_tsv(path) if category == "N" and "mass" not in feats}


def ancestors(wn, lemma: str, first_only: bool = True) -> list[list[str]]:
    """Hypernym paths (nearest first) of the noun's first sense, or of every sense, as lemma lists."""
    senses = wn.synsets(lemma.replace(" ", "_"), pos="n")
    senses = senses[:1] if first_only else senses
    paths = []
    for sense in senses:
        for path in sense.hypernym_paths():
            # path runs from entity.n.01 down to the sense itself; drop the sense, nearest first
            paths.append([name for synset in reversed(path[:-1]) for name in synset.lemma_names()])
    return paths


def propose_isa(wn, lemma: str, nouns: set[str], prefer: set[str]) -> tuple[str | None, list[str]]:
    """(proposed parent, the first path's synset heads for context)."""
    paths = ancestors(wn, lemma)
    if not paths:
        return None, []
    best = None
    for path in paths:
        for name in path:
            if name in prefer:
                return name, path[:12]
            if best is None and name in nouns and name != lemma:
                best = name
    return best, paths[0][:12]


def propose_adjective_relations(wn, lemma: str, adjectives: set[str]) -> tuple[set[str], set[str]]:
    """(antonyms, similar words) among ``adjectives`` over all adjective senses."""
    antonyms, similar = set(), set()
    for sense in wn.synsets(lemma, pos="a") + wn.synsets(lemma, pos="s"):
        for lem in sense.lemmas():
            antonyms |= {a.name() for a in lem.antonyms()}
        similar |= set(sense.lemma_names())
        for other in sense.similar_tos():
            similar |= set(other.lemma_names())
            for lem in other.lemmas():
                antonyms |= {a.name() for a in lem.antonyms()}
    return (antonyms & adjectives) - {lemma}, (similar & adjectives) - {lemma}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("mode", choices=["isa", "adjectives"])
    parser.add_argument("lemmas", nargs="*")
    parser.add_argument("--lexicon", type=Path, help="TSV whose rows to propose for (all N or A rows)")
    parser.add_argument(
        "--nouns",
        type=Path,
        default=Path("src/blimpgen/vocab/data/lexicon/nouns.tsv"),
        help="nouns TSV: parents must be count nouns of it",
    )
    parser.add_argument("--prefer", default="", help="comma-separated categories to stop at when on the path")
    parser.add_argument("--compare", type=Path, help="nouns TSV whose written isa to check against WordNet")
    parser.add_argument("--wordnet", type=Path, default=Path("/usr/share/wordnet"))
    args = parser.parse_args()
    wn = wordnet(args.wordnet)
    if args.mode == "isa":
        nouns = count_nouns(args.nouns)
        if args.compare:
            for lemma, category, feats in read_tsv(args.compare):
                if category != "N" or "isa" not in feats:
                    continue
                on_path = {name for path in ancestors(wn, lemma, first_only=False) for name in path}
                odd = [p for p in feats["isa"].split(",") if p not in on_path]
                if odd:
                    print(f"{lemma}\tisa={feats['isa']}\t# not a WordNet hypernym: {','.join(odd)}")
            return
        lemmas = args.lemmas or [x for x, cat, feats in read_tsv(args.lexicon) if cat == "N" and "isa" not in feats]
        prefer = set(filter(None, args.prefer.split(",")))
        for lemma in lemmas:
            parent, path = propose_isa(wn, lemma, nouns, prefer)
            print(f"{lemma}\tisa={parent or '?'}\t# {' < '.join(path)}")
        return
    rows = read_tsv(args.lexicon) if args.lexicon else []
    adjectives = {x for x, cat, _ in rows if cat == "A"} or set(args.lemmas)
    for lemma in args.lemmas or sorted(adjectives):
        antonyms, similar = propose_adjective_relations(wn, lemma, adjectives)
        if antonyms or similar:
            print(f"{lemma}\tantonym={','.join(sorted(antonyms)) or '-'}\tsimilar={','.join(sorted(similar)) or '-'}")


if __name__ == "__main__":
    main()
