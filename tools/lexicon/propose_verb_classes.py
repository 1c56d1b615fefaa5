"""Propose the hand-decided verb classes (obligatory_object, never_transitive) from corpus evidence.

For every verb of ``verbs.tsv`` it counts, in the POS-tagged Brown corpus, uses of the verb's
forms directly followed by an object-like word (article, determiner, possessive, object pronoun,
noun, number) and uses followed by no object (end of clause: punctuation, conjunction,
preposition), leaving out passive participles (after a form of *be*); and it lists the VerbNet
frames of the verb's classes that have no object (``NP V``, middles ``NP V ADV-Middle``) or an
object (``NP V NP``). The output is a table of questions for a person, never an answer: Brown
tags ("she ran the race" vs "she ran") are noisy, and an absolute or middle use may simply not
occur in a million words.

    python tools/lexicon/propose_verb_classes.py ../shared/corpora src/blimpgen/vocab/data/lexicon/verbs.tsv \
        --examples 3 > /tmp/verb-classes.tsv

Columns: lemma, listed frames, bare uses, uses with an object, bare share, VerbNet frames without
an object, VerbNet frames with one, and up to ``--examples`` bare / object contexts of each.
"""

from __future__ import annotations

import argparse
import re
import zipfile
from collections import defaultdict
from pathlib import Path

from corpora import read_tsv, verbnet

OBJECT_TAGS = re.compile(
    r"^(at|dt|dti|dts|dtx|ap|abn|abx|pp\$|pp\$\$|ppo|ppl|ppls|nn|nns|np|nps|nr|cd|od"
    r"|jj|jjs|jjt|jjr)$"
)
BARE_TAGS = re.compile(r"^(\.|,|:|cc|cs|in|to|wdt|wps|wrb|--|'')$")
BE = re.compile(r"^(be|bed|bedz|bem|ber|bez|beg|ben)$")


def forms_of(lemma: str, feats: dict[str, str]) -> set[str]:
    """The lemma's written forms (listed irregular ones plus the usual suffixes)."""
    from blimpgen.vocab import morphology

    past = feats.get("past") or morphology.regular_past(lemma)
    return {
        lemma,
        feats.get("pres3sg") or morphology.third_singular(lemma),
        past,
        feats.get("en") or past,
        feats.get("ing") or morphology.present_participle(lemma),
    }


def brown_sentences(corpora: Path):
    """Each Brown sentence as a list of (word, tag) with tags lower-cased and suffixes dropped."""
    with zipfile.ZipFile(Path(corpora) / "brown.zip") as zf:
        for name in zf.namelist():
            if not re.fullmatch(r"c[a-r]\d\d", name.rsplit("/", 1)[-1]):
                continue
            for line in zf.read(name).decode("utf-8").splitlines():
                tokens = [t.rpartition("/") for t in line.split()]
                if tokens:
                    yield [(w.lower(), tag.lower().split("-")[0].split("+")[0]) for w, _, tag in tokens]


def corpus_uses(corpora: Path, verbs: dict[str, set[str]], examples: int):
    """lemma -> [bare count, object count, bare contexts, object contexts]."""
    by_form = defaultdict(set)
    for lemma, forms in verbs.items():
        for form in forms:
            by_form[form].add(lemma)
    uses = {lemma: [0, 0, [], []] for lemma in verbs}
    for sentence in brown_sentences(corpora):
        for i, (word, tag) in enumerate(sentence):
            if not tag.startswith("v") or word not in by_form:
                continue
            if tag == "vbn" and any(BE.match(t) for _, t in sentence[max(0, i - 3) : i]):
                continue  # a passive participle has no object of its own
            following = sentence[i + 1][1] if i + 1 < len(sentence) else "."
            slot = 0 if BARE_TAGS.match(following) else 1 if OBJECT_TAGS.match(following) else None
            if slot is None:
                continue
            context = " ".join(w for w, _ in sentence[max(0, i - 4) : i + 4])
            for lemma in by_form[word]:
                entry = uses[lemma]
                entry[slot] += 1
                if len(entry[2 + slot]) < examples:
                    entry[2 + slot].append(context)
    return uses


def verbnet_frames(vn, lemma: str) -> tuple[set[str], set[str]]:
    """(frames without an object, frames with one) of the lemma's VerbNet classes."""
    bare, with_object = set(), set()
    for cid in vn.classids(lemma):
        parts = cid.split("-")
        for i in range(len(parts), 1, -1):
            try:
                element = vn.vnclass("-".join(parts[:i]))
            except ValueError:
                continue
            for desc in element.findall("FRAMES/FRAME/DESCRIPTION"):
                primary = desc.get("primary", "")
                if re.fullmatch(r"NP V( ADV(-Middle)?| PP\.\w+)*", primary):
                    bare.add(primary)
                elif re.match(r"NP V NP", primary):
                    with_object.add(primary)
    return bare, with_object


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("corpora", type=Path)
    parser.add_argument("verbs_tsv", type=Path)
    parser.add_argument("--examples", type=int, default=2)
    args = parser.parse_args()
    rows = [(text, feats) for text, cat, feats in read_tsv(args.verbs_tsv) if cat == "V"]
    verbs = {text: forms_of(text, feats) for text, feats in rows}
    uses = corpus_uses(args.corpora, verbs, args.examples)
    vn = verbnet(args.corpora)
    print("lemma\tframes\tbare\tobject\tbare_share\tvn_bare\tvn_object\tbare_examples\tobject_examples")
    for text, feats in rows:
        bare, obj, bare_ex, obj_ex = uses[text]
        vn_bare, vn_obj = verbnet_frames(vn, text)
        share = f"{bare / (bare + obj):.2f}" if bare + obj else "-"
        print(
            "\t".join(
                [
                    text,
                    feats.get("frames", ""),
                    str(bare),
                    str(obj),
                    share,
                    "; ".join(sorted(vn_bare)),
                    "; ".join(sorted(vn_obj)[:3]),
                    " | ".join(bare_ex),
                    " | ".join(obj_ex),
                ]
            )
        )


if __name__ == "__main__":
    main()
