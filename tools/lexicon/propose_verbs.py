"""Propose verb rows (category V) from VerbNet 3.3, WordNet and Brown, for hand review.

For each lemma it prints the VerbNet classes, the frames VerbNet lists (mapped onto our
``frames=`` values where a mapping exists), the thematic roles with their selectional
restrictions (to guide ``arg1=``/``arg2=``/``arg3=``), whether the causative/inchoative
alternation is listed, and irregular or spelling-irregular forms: WordNet's verb exception list
(``verb.exc``) split into past and participle by Brown's tags, plus derived -ed/-ing forms that
Brown or WikiText never uses while the doubled spelling is used (admit -> admitted).

    python tools/lexicon/propose_verbs.py ../shared/corpora devour admit give
    python tools/lexicon/propose_verbs.py ../shared/corpora --compare src/blimpgen/vocab/data/lexicon/verbs.tsv

With ``--compare`` it reads a verbs.tsv and prints, per row, the VerbNet frames our row lacks
and the forms it may be missing (a list of questions, not answers: VerbNet lists rare frames).
"""

from __future__ import annotations

import argparse
import re
import sys
from collections import Counter
from pathlib import Path

from corpora import brown_counts, brown_tagged, read_tsv, verbnet, wikitext_counts

# VerbNet primary frame descriptions -> our frame names (first matching pattern wins).
FRAME_MAP = [
    (r"^NP V$", "intransitive"),
    (r"^NP V NP(-Dative)? NP$|^NP V NP\.recipient NP$|^NP V NP\.beneficiary NP$", "ditransitive"),
    (r"^NP V NP PP\.(recipient|destination)$", "dative"),
    (r"^NP V NP( PP\.\w+)*$|^NP V NP\.\w+$", "transitive"),
    (r"^NP V (PP\.\w+ )?that S", "that_clause"),
    (r"^NP V (PP\.\w+ )?(what|how|whether/if|whether) S", "wh_clause"),
    (r"^NP V NP to be", "raising_object"),
    (r"^NP V NP S_INF$", "control_object"),
    (r"^NP V S_INF$", "to_infinitive"),
    (r"^NP V NP S_ING$", "ing_complement"),
]
SUFFIXES = ("ed", "ing")


def class_chain(vn, classid: str) -> list:
    """The class element and its ancestors (subclasses inherit roles and frames)."""
    parts = classid.split("-")
    chain = []
    for i in range(len(parts), 1, -1):
        cid = "-".join(parts[:i])
        try:
            chain.append(vn.vnclass(cid))
        except ValueError:
            continue
    return chain


def restrictions(node) -> str:
    """A SELRESTRS element as a compact string: (+animate | +organization)."""
    if node is None:
        return ""
    items = []
    for child in node:
        if child.tag == "SELRESTR":
            items.append(f"{child.get('Value')}{child.get('type')}")
        elif child.tag == "SELRESTRS":
            inner = restrictions(child)
            if inner:
                items.append(f"({inner})")
    joiner = " | " if node.get("logic") == "or" else " & "
    return joiner.join(items)


def verbnet_summary(vn, lemma: str) -> dict:
    """Classes, mapped frames, unmapped frames, roles and alternation flags for one lemma."""
    frames, unmapped, roles, classes = set(), Counter(), {}, vn.classids(lemma)
    inchoative = False
    for cid in classes:
        for element in class_chain(vn, cid):
            for role in element.findall("THEMROLES/THEMROLE"):
                restr = restrictions(role.find("SELRESTRS"))
                roles.setdefault(role.get("type"), set()).add(restr or "-")
            for desc in element.findall("FRAMES/FRAME/DESCRIPTION"):
                primary, secondary = desc.get("primary", ""), desc.get("secondary", "")
                if re.search(r"inchoative|causative", secondary, re.I):
                    inchoative = True
                for pattern, name in FRAME_MAP:
                    if re.search(pattern, primary):
                        frames.add(name)
                        break
                else:
                    unmapped[primary] += 1
    return {"classes": classes, "frames": frames, "unmapped": unmapped, "roles": roles, "inchoative": inchoative}


def exception_forms(wordnet_dir: Path) -> dict[str, set[str]]:
    """lemma -> irregular inflected forms from WordNet's verb.exc."""
    forms: dict[str, set[str]] = {}
    for line in (wordnet_dir / "verb.exc").read_text().splitlines():
        inflected, *lemmas = line.split()
        for lemma in lemmas:
            forms.setdefault(lemma, set()).add(inflected)
    return forms


def irregular_proposal(lemma: str, exc: dict[str, set[str]], tagged: Counter, seen) -> list[str]:
    """past=/en= proposals from verb.exc split by Brown's vbd/vbn tags, and doubling hints."""
    out = []
    for form in sorted(exc.get(lemma, ())):
        vbd, vbn = tagged[(form, "vbd")], tagged[(form, "vbn")]
        if form.endswith("ing"):
            out.append(f"ing={form}")
        elif vbd or vbn:
            out.append(f"{'past' if vbd >= vbn else 'en'}={form}?(vbd={vbd},vbn={vbn})")
        else:
            out.append(f"{form}?(untagged)")
    from blimpgen.vocab import morphology

    for suffix, derived in (("ed", morphology.regular_past(lemma)), ("ing", morphology.present_participle(lemma))):
        stem = derived[: -len(suffix)]
        doubled = stem + stem[-1] + suffix if stem and stem[-1] not in "aeiouwxy" else None
        single = re.sub(r"(.)\1$", r"\1", stem) + suffix
        for alt in (doubled, single):
            if alt and alt != derived and not seen(derived) and seen(alt):
                out.append(f"{'past' if suffix == 'ed' else 'ing'}={alt}? (derived {derived} unattested)")
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("corpora", type=Path)
    parser.add_argument("lemmas", nargs="*")
    parser.add_argument("--compare", type=Path, help="a verbs.tsv to check against VerbNet")
    parser.add_argument("--wordnet", type=Path, default=Path("/usr/share/wordnet"))
    args = parser.parse_args()
    vn = verbnet(args.corpora)
    exc = exception_forms(args.wordnet)
    tagged = brown_tagged(args.corpora)
    brown, wiki = brown_counts(args.corpora), wikitext_counts(args.corpora)

    def seen(form: str) -> bool:
        return bool(brown[form] or wiki[form])

    rows = read_tsv(args.compare) if args.compare else [(lemma, "V", {}) for lemma in args.lemmas]
    for lemma, category, feats in rows:
        if category != "V":
            continue
        summary = verbnet_summary(vn, lemma)
        forms = irregular_proposal(lemma, exc, tagged, seen)
        if args.compare:
            ours = set(feats.get("frames", "").split(","))
            missing = sorted(summary["frames"] - ours)
            listed = {f"{k}={v}" for k, v in feats.items()}
            todo = [f for f in forms if f.split("?")[0] not in listed]
            if summary["inchoative"] and "inchoative" not in feats:
                missing.append("inchoative?")
            if missing or todo:
                print(
                    f"{lemma}\tverbnet frames not in row: {', '.join(missing) or '-'}\tforms: {'; '.join(todo) or '-'}"
                )
            continue
        print(f"== {lemma}  brown={brown[lemma]}  classes={', '.join(summary['classes']) or 'none'}")
        print(
            f"   frames: {', '.join(sorted(summary['frames'])) or '-'}"
            f"{'  +inchoative' if summary['inchoative'] else ''}"
        )
        if summary["unmapped"]:
            print(f"   other VerbNet frames: {'; '.join(sorted(summary['unmapped']))}")
        for role, restr in sorted(summary["roles"].items()):
            print(f"   {role}: {' / '.join(sorted(restr))}")
        if forms:
            print(f"   forms: {'; '.join(forms)}")
    sys.stdout.flush()


if __name__ == "__main__":
    main()
