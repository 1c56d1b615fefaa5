"""Propose the `frequent` flag from corpus counts, as a diff for hand review.

Counts every form of each open-class entry (lemma plus listed or derived inflections) in the
Brown corpus and WikiText-2 and proposes ``frequent`` for entries at or above the thresholds.
Brown (1961) undercounts modern everyday words (computer, pizza), so the output is a list of
disagreements with the file as it stands, not a rewrite: a person decides each one.

    PYTHONPATH=src python tools/lexicon/propose_frequent.py ../shared/corpora \
        src/blimpgen/vocab/data/lexicon/nouns.tsv [--brown 25] [--write]

``--write`` rewrites the file with the proposal applied (keep the diff under review).
"""

from __future__ import annotations

import argparse
from pathlib import Path

from corpora import brown_counts, wikitext_counts


def form_counts(path: Path, corpora: Path) -> dict[int, tuple[str, int, int]]:
    """line number -> (lemma, Brown count, WikiText count) over all forms of the entry."""
    from blimpgen.vocab import build_lexicon, load_inventory

    text = path.read_text(encoding="utf-8")
    lexicon = build_lexicon([(str(path), text)], load_inventory())
    brown, wiki = brown_counts(corpora), wikitext_counts(corpora)
    out = {}
    for lexeme in lexicon.lexemes:
        first = next(w for w in lexicon.words if w.lexeme is lexeme)
        forms = {w.text.lower() for w in lexicon.forms(first)}
        out[lexeme.source.line] = (lexeme.lemma, sum(brown[f] for f in forms), sum(wiki[f] for f in forms))
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("corpora", type=Path)
    parser.add_argument("tsv", type=Path)
    parser.add_argument("--brown", type=int, default=25, help="Brown count at which to propose frequent")
    parser.add_argument("--wiki", type=int, default=60, help="WikiText count at which to propose frequent")
    parser.add_argument("--write", action="store_true", help="apply the proposal to the file")
    args = parser.parse_args()
    counts = form_counts(args.tsv, args.corpora)
    lines = args.tsv.read_text(encoding="utf-8").split("\n")
    for number, (lemma, b, w) in sorted(counts.items()):
        line = lines[number - 1]
        cols = line.split("\t")
        feats = [f.strip() for f in cols[2].split(";") if f.strip()] if len(cols) > 2 else []
        has = "frequent" in feats
        want = b >= args.brown or w >= args.wiki
        if has != want:
            print(f"{'+' if want else '-'}frequent\t{lemma}\tbrown={b}\twiki={w}")
            if args.write:
                feats = [f for f in feats if f != "frequent"] + (["frequent"] if want else [])
                lines[number - 1] = "\t".join(cols[:2] + ["; ".join(feats)])
    if args.write:
        args.tsv.write_text("\n".join(lines), encoding="utf-8")


if __name__ == "__main__":
    main()
