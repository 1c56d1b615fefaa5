"""Print rough sentences built from lexicon rows, to review selectional restrictions by eye.

For each sampled verb it fills arg1/arg2/arg3 with random nouns or names that satisfy the
row's formulas and prints one clause per frame ("the teacher devoured the cake"); for each
sampled adjective "the ADJ N"; for relational nouns "the N of the M". Nonsense such as
"the rock admired Mary" points at a formula to tighten. Not a generator: no agreement
beyond what the lexicon gives, fixed determiner "the".

    PYTHONPATH=src python tools/lexicon/sample_sentences.py --verbs 40 --seed 1
    PYTHONPATH=src python tools/lexicon/sample_sentences.py --lemma break --lemma admire
"""

from __future__ import annotations

import argparse
import random

from blimpgen.vocab import load_lexicon


def noun_phrase(word) -> str:
    return word.text if word.category == "PN" else f"the {word.text}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--verbs", type=int, default=30)
    parser.add_argument("--adjectives", type=int, default=15)
    parser.add_argument("--relational", type=int, default=10)
    parser.add_argument("--lemma", action="append", default=[], help="only these lemmas (any category)")
    parser.add_argument("--per-row", type=int, default=2, help="sentences per sampled row")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    lexicon = load_lexicon()
    singular = [w for w in lexicon.category("N") + lexicon.category("PN") if w.get("number") == "sg"]
    cache: dict[str, list] = {}

    def pick(formula: str | None):
        if formula is None:
            return None
        if formula not in cache:
            allowed = set(lexicon.filter(formula))
            cache[formula] = [w for w in singular if w in allowed]
        return rng.choice(cache[formula]) if cache[formula] else None

    def rows(category: str, count: int):
        lexemes = [x for x in lexicon.lexemes if x.category == category]
        if args.lemma:
            return [x for x in lexemes if x.lemma in args.lemma]
        return rng.sample(lexemes, min(count, len(lexemes)))

    for lexeme in rows("V", args.verbs):
        forms = {w.get("vform"): w.text for w in lexicon.forms(lexicon.by_id[f"V:{lexeme.lemma}:bare"])}
        feats = lexeme.features
        for _ in range(args.per_row):
            a1, a2, a3 = (pick(feats.get(k)) for k in ("arg1", "arg2", "arg3"))
            out = []
            for frame in sorted(feats.get("frames", ())):
                subj = noun_phrase(a1) if a1 else "it"
                if frame == "intransitive":
                    theme = a2 if feats.get("inchoative") and a2 else a1
                    out.append(f"{noun_phrase(theme) if theme else 'it'} {forms['past']}")
                elif frame == "transitive" and a2:
                    out.append(f"{subj} {forms['past']} {noun_phrase(a2)}")
                elif frame == "ditransitive" and a2 and a3:
                    out.append(f"{subj} {forms['past']} {noun_phrase(a3)} {noun_phrase(a2)}")
                elif frame == "dative" and a2 and a3:
                    out.append(f"{subj} {forms['past']} {noun_phrase(a2)} to {noun_phrase(a3)}")
                elif frame == "passive" and a2:
                    out.append(f"{noun_phrase(a2)} was {forms['en']} by {subj}")
            if feats.get("passive") and a1 and a2:
                out.append(f"{noun_phrase(a2)} was {forms['en']} by {noun_phrase(a1)}")
            print(f"V {lexeme.lemma:12} | " + " | ".join(out))
    for lexeme in rows("A", args.adjectives):
        picks = [pick(lexeme.features.get("arg1")) for _ in range(args.per_row + 1)]
        print(f"A {lexeme.lemma:12} | " + " | ".join(f"the {lexeme.lemma} {w.text}" for w in picks if w))
    relational = [x for x in lexicon.lexemes if x.category == "N" and x.features.get("relational")]
    chosen = relational if not args.lemma else [x for x in relational if x.lemma in args.lemma]
    for lexeme in chosen[: args.relational]:
        picks = [pick(lexeme.features.get("arg1")) for _ in range(args.per_row + 1)]
        print(f"N {lexeme.lemma:12} | " + " | ".join(f"the {lexeme.lemma} of {noun_phrase(w)}" for w in picks if w))


if __name__ == "__main__":
    main()
