"""Propose the finer noun features (taxon, event_type, concept, occupation) from WordNet 3.0,
for hand review; ``--compare nouns.tsv`` lists rows whose written value WordNet disagrees with.

Animals get a taxon from the hypernym paths of their first noun.animal sense (bird.n.01,
fish.n.01, ...). Events get an event_type from hypernyms of their first sense (party.n.02 social,
contest.n.01 contest, catastrophe.n.01 disaster, ...). Abstract nouns get a concept from the
lexicographer files of their senses (noun.cognition idea, noun.communication message,
noun.feeling feeling, ...). People get an occupation field from hypernyms (health_professional.n.01
medicine, lawman.n.01 police, ...). WordNet's first sense is often not ours: every value was
decided by hand, and ``stimulus``, ``domestic``, ``age``, ``content`` and ``force`` were written by
hand from the start.

    python tools/lexicon/propose_semantic_features.py robin quarrel hypothesis surgeon
    python tools/lexicon/propose_semantic_features.py --compare src/blimpgen/vocab/data/lexicon/nouns.tsv
"""

from __future__ import annotations

import argparse
from pathlib import Path

from corpora import read_tsv, wordnet

TAXA = [
    ("bird.n.01", "bird"),
    ("fish.n.01", "fish"),
    ("aquatic_vertebrate.n.01", "fish"),
    ("reptile.n.01", "reptile"),
    ("amphibian.n.03", "amphibian"),
    ("insect.n.01", "insect"),
    ("mammal.n.01", "mammal"),
    ("invertebrate.n.01", "invertebrate"),
]
EVENT_TYPES = [
    ("party.n.02", "social"),
    ("celebration.n.01", "social"),
    ("ceremony.n.01", "public"),
    ("show.n.01", "performance"),
    ("performance.n.02", "performance"),
    ("contest.n.01", "contest"),
    ("game.n.01", "contest"),
    ("meeting.n.01", "meeting"),
    ("lecture.n.01", "meeting"),
    ("journey.n.01", "trip"),
    ("travel.n.01", "trip"),
    ("catastrophe.n.01", "disaster"),
    ("natural_phenomenon.n.01", "disaster"),
    ("accident.n.01", "disaster"),
    ("military_action.n.01", "conflict"),
    ("fight.n.02", "conflict"),
    ("conflict.n.01", "conflict"),
    ("crime.n.01", "crime"),
    ("election.n.01", "public"),
    ("protest.n.01", "public"),
]
CONCEPTS = {
    "noun.cognition": "idea",
    "noun.communication": "message",
    "noun.feeling": "feeling",
    "noun.attribute": "quality",
    "noun.state": "state",
    "noun.quantity": "quantity",
    "noun.possession": "money",
    "noun.act": "activity",
    "noun.relation": "relation",
    "noun.event": "outcome",
    "noun.phenomenon": "outcome",
    "noun.motive": "idea",
}
OCCUPATIONS = [
    ("health_professional.n.01", "medicine"),
    ("medical_practitioner.n.01", "medicine"),
    ("lawyer.n.01", "law"),
    ("judge.n.01", "law"),
    ("lawman.n.01", "police"),
    ("serviceman.n.01", "military"),
    ("military_officer.n.01", "military"),
    ("politician.n.01", "government"),
    ("official.n.01", "government"),
    ("aristocrat.n.01", "nobility"),
    ("sovereign.n.01", "nobility"),
    ("cleric.n.01", "religion"),
    ("educator.n.01", "education"),
    ("scientist.n.01", "science"),
    ("artist.n.01", "arts"),
    ("musician.n.01", "music"),
    ("journalist.n.01", "media"),
    ("entertainer.n.01", "entertainment"),
    ("athlete.n.01", "sport"),
    ("businessman.n.01", "business"),
    ("merchant.n.01", "trade"),
    ("craftsman.n.03", "craft"),
    ("skilled_worker.n.01", "craft"),
    ("farmer.n.01", "farming"),
    ("servant.n.01", "service"),
    ("operator.n.02", "transport"),
    ("criminal.n.01", "crime"),
]


def _ancestors(synset) -> set[str]:
    return {h.name() for path in synset.hypernym_paths() for h in path}


def propose(wn, lemma: str, classes: set[str]) -> dict[str, str]:
    """Feature -> proposed value for one noun (only the features its classes use)."""
    senses = wn.synsets(lemma.replace(" ", "_"), pos="n")
    out: dict[str, str] = {}
    if "animal" in classes:
        animal = [s for s in senses if s.lexname() == "noun.animal"]
        if animal:
            found = _ancestors(animal[0])
            out["taxon"] = next((t for name, t in TAXA if name in found), "?")
    if "event" in classes and senses:
        found = _ancestors(senses[0])
        out["event_type"] = next((t for name, t in EVENT_TYPES if name in found), "?")
    if "abstract" in classes and senses:
        out["concept"] = next((CONCEPTS[s.lexname()] for s in senses if s.lexname() in CONCEPTS), "?")
    if "person" in classes:
        people = [s for s in senses if s.lexname() == "noun.person"]
        if people:
            found = _ancestors(people[0])
            field = next((f for name, f in OCCUPATIONS if name in found), None)
            if field:
                out["occupation"] = field
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("lemmas", nargs="*")
    parser.add_argument("--compare", type=Path, help="nouns.tsv to check against WordNet")
    parser.add_argument("--wordnet", type=Path, default=Path("/usr/share/wordnet"))
    args = parser.parse_args()
    wn = wordnet(args.wordnet)
    if not args.compare:
        for lemma in args.lemmas:
            everything = {"animal", "event", "abstract", "person"}
            print(lemma, propose(wn, lemma, everything))
        return
    for lemma, category, feats in read_tsv(args.compare):
        if category != "N":
            continue
        classes = set(feats.get("class", "").split(","))
        for feature, value in propose(wn, lemma, classes).items():
            ours = set(feats.get(feature, "").split(",")) - {""}
            if value != "?" and value not in ours:
                print(f"{lemma}\t{feature}: ours={','.join(sorted(ours)) or '-'} wordnet={value}")


if __name__ == "__main__":
    main()
