"""Propose semantic classes (``class=``) for nouns from WordNet 3.0, for hand review.

The first (most frequent) WordNet sense of a noun gives a lexicographer file (noun.animal,
noun.artifact, ...) and a hypernym chain; both map onto our classes (artifact kinds such as
tool or vehicle come from hypernyms like vehicle.n.01). With lemmas it prints proposals; with
``--compare nouns.tsv`` it lists rows whose first sense suggests a class the row lacks, with
every sense's file as context (WordNet's first sense is often not the one we mean).

    python tools/lexicon/propose_noun_classes.py hammer teacher cactus
    python tools/lexicon/propose_noun_classes.py --compare src/blimpgen/vocab/data/lexicon/nouns.tsv
"""

from __future__ import annotations

import argparse
from pathlib import Path

from corpora import read_tsv, wordnet

LEXNAME_CLASS = {
    "noun.person": "person",
    "noun.animal": "animal",
    "noun.plant": "plant",
    "noun.food": "food",
    "noun.artifact": "artifact",
    "noun.location": "location",
    "noun.body": "body_part",
    "noun.object": "natural_object",
    "noun.substance": "substance",
    "noun.time": "time",
    "noun.event": "event",
    "noun.act": "event",
    "noun.group": "group",
    "noun.communication": "document",
    "noun.cognition": "abstract",
    "noun.attribute": "abstract",
    "noun.feeling": "abstract",
    "noun.state": "abstract",
    "noun.relation": "abstract",
    "noun.motive": "abstract",
    "noun.possession": "abstract",
    "noun.quantity": "abstract",
    "noun.shape": "abstract",
    "noun.phenomenon": "event",
    "noun.process": "abstract",
}
# Hypernyms that refine the class (checked along the first sense's hypernym paths).
HYPERNYM_CLASS = {
    "beverage.n.01": "drink",
    "tool.n.01": "tool",
    "implement.n.01": "tool",
    "cutlery.n.02": "tool",
    "vehicle.n.01": "vehicle",
    "craft.n.02": "vehicle",
    "clothing.n.01": "clothing",
    "garment.n.01": "clothing",
    "footwear.n.02": "clothing",
    "headdress.n.01": "clothing",
    "furniture.n.01": "furniture",
    "container.n.01": "container",
    "device.n.01": "device",
    "building.n.01": "building",
    "institution.n.01": "institution",
    "organization.n.01": "institution",
    "document.n.01": "document",
    "written_communication.n.01": "document",
    "work_of_art.n.01": "art",
    "music.n.01": "art",
    "musical_composition.n.01": "art",
    "movie.n.01": "art",
    "social_event.n.01": "event",
    "geographical_area.n.01": "location",
    "body_of_water.n.01": "natural_object",
}


def propose(wn, lemma: str) -> tuple[set[str], list[str]]:
    """(proposed classes from the first sense, lexicographer files of all senses)."""
    senses = wn.synsets(lemma.replace(" ", "_"), pos="n")
    if not senses:
        return set(), []
    first = senses[0]
    classes = {LEXNAME_CLASS.get(first.lexname(), "?")}
    ancestors = {h.name() for path in first.hypernym_paths() for h in path}
    classes |= {cls for name, cls in HYPERNYM_CLASS.items() if name in ancestors}
    return classes - {"?"}, [s.lexname().removeprefix("noun.") for s in senses]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("lemmas", nargs="*")
    parser.add_argument("--compare", type=Path, help="nouns.tsv to check against WordNet")
    parser.add_argument("--wordnet", type=Path, default=Path("/usr/share/wordnet"))
    args = parser.parse_args()
    wn = wordnet(args.wordnet)
    if not args.compare:
        for lemma in args.lemmas:
            classes, files = propose(wn, lemma)
            print(f"{lemma}\tclass={','.join(sorted(classes)) or '?'}\t# senses: {' '.join(files)}")
        return
    for lemma, category, feats in read_tsv(args.compare):
        if category != "N":
            continue
        ours = set(feats.get("class", "").split(","))
        classes, files = propose(wn, lemma)
        # Refinements we do not use on their own (document for communication, device for tools).
        missing = classes - ours - {"device"} if "tool" in ours else classes - ours
        if missing and not (missing <= {"document"} and ours & {"art", "abstract"}):
            print(f"{lemma}\tours={','.join(sorted(ours))}\twordnet={','.join(sorted(classes))}\t# {' '.join(files)}")


if __name__ == "__main__":
    main()
