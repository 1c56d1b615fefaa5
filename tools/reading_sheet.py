"""Write a blind reading sheet: N pairs per paradigm in a lexicon mode, shuffled, each as A/B unlabelled.

A reader marks, for each item, which sentence is acceptable; the key (a separate JSON file the
reader never sees) says which one the generator labelled good, so agreement can be counted.

    PYTHONPATH=src python tools/reading_sheet.py --mode nonce -n 5 --seed 17 \
        --sheet ../sheets/nonce1/sheet.md --key ../keys/nonce1.json

Every paradigm that supports the mode is used (the shipped ones, or those named with -p).
"""

from __future__ import annotations

import argparse
import json
import random
from pathlib import Path

from blimpgen.generators.catalog import Catalog
from blimpgen.generators.generate import generate_records
from blimpgen.generators.modes import build_in_mode
from blimpgen.grammar import ParadigmSpec

INSTRUCTIONS = """\
Each item is two sentences, A and B. In mode `{mode}` {explanation}
For each item, write which sentence is the acceptable English one: **A**, **B**, or **?** when you
cannot tell (say why in a word if you can). Judge grammar only, not meaning.
"""
EXPLANATIONS = {
    "nonce": "nouns, verbs, adjectives and names are made-up words (*blick*, *dorvel*, *plimish*, *Tavra*); "
    "read each as some real word of its kind, inflected regularly.",
    "colorless": "the words are real but combined without regard to meaning (*The cup admired the idea*).",
    "default": "the sentences are ordinary.",
}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--mode", default="nonce", choices=["default", "colorless", "nonce"])
    parser.add_argument("-n", type=int, default=5, help="pairs per paradigm")
    parser.add_argument("--seed", type=int, default=17)
    parser.add_argument("-p", "--paradigm", dest="uids", action="append", help="only these paradigms")
    parser.add_argument("--sheet", type=Path, required=True)
    parser.add_argument("--key", type=Path, required=True)
    args = parser.parse_args()
    catalog = Catalog.from_environment()
    uids = args.uids or catalog.names(ParadigmSpec)
    sources, skipped = build_in_mode(catalog, uids, args.mode, args.seed, skip_refused=not args.uids)
    rng = random.Random(f"reading-sheet:{args.mode}:{args.seed}")
    items = [record for source in sources for record, _ in generate_records(source, args.n, args.seed)]
    rng.shuffle(items)
    lines = [
        f"# Blind reading sheet ({args.mode}, {len(items)} items)",
        "",
        INSTRUCTIONS.format(mode=args.mode, explanation=EXPLANATIONS[args.mode]),
        "",
    ]
    key = {
        "mode": args.mode,
        "seed": args.seed,
        "pairs_per_paradigm": args.n,
        "paradigms": [s.uid for s in sources],
        "skipped": [uid for uid, _ in skipped],
        "items": [],
    }
    for number, pair in enumerate(items, start=1):
        good_first = rng.random() < 0.5
        good, bad = pair.sentence_good, pair.sentence_bad
        first, second = (good, bad) if good_first else (bad, good)
        lines += [f"{number}. A: {first}", f"   B: {second}", "   Acceptable: ___", ""]
        key["items"].append(
            {
                "item": number,
                "good": "A" if good_first else "B",
                "uid": pair.UID,
                "pair_id": pair.pair_id,
                "sentence_good": pair.sentence_good,
                "sentence_bad": pair.sentence_bad,
            }
        )
    for path in (args.sheet, args.key):
        path.parent.mkdir(parents=True, exist_ok=True)
    args.sheet.write_text("\n".join(lines), encoding="utf-8")
    args.key.write_text(json.dumps(key, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    print(f"{len(items)} items from {len(sources)} paradigms -> {args.sheet} (key: {args.key})")


if __name__ == "__main__":
    main()
