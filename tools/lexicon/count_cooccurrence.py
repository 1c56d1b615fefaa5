"""Count verb-argument and adjective-noun co-occurrences in Brown and WikiText-2, for the
plausibility audit and for proposing restrictions by hand.

Brown is tagged; WikiText-2 is tagged here with a bigram tagger (unigram backoff) trained on
Brown, so its counts are rougher. A shallow pattern reads three relations off the tag
sequence, keeping only words the lexicon knows (every form maps back to its lemma):

* ``adjective noun`` (JJ then NN/NNS): the adjective's arg1;
* ``noun [aux] [adverb] verb`` (NN/NNS, optional MD/BE/HV/DO and RB forms, then a VB form): the
  verb's arg1 (the last noun before the verb group, so "the boy in the car ate" reads car);
* ``verb [determiner/possessive/numeral] [adjective] noun``: the verb's arg2.

Two outputs:

* ``--evidence FILE``: ``predicate<TAB>role<TAB>label<TAB>count`` for ``blimpgen audit
  --plausibility --evidence FILE``, with labels from :func:`blimpgen.authoring.plausibility.label`
  (``person``, ``food``, ``event:disaster``...) plus each class on its own and ``*`` totals;
* ``--pairs FILE``: ``predicate<TAB>role<TAB>noun lemma<TAB>count``, the lemma-level counts to
  propose nouns for an adjective's or a verb's lemma lists (``--propose A:dusty`` prints the
  attested nouns a restriction leaves out).

    PYTHONPATH=src python tools/lexicon/count_cooccurrence.py ../shared/corpora \\
        --evidence tools/lexicon/data/cooccurrence.tsv --pairs /tmp/pairs.tsv
    PYTHONPATH=src python tools/lexicon/count_cooccurrence.py ../shared/corpora --propose A:dusty V:repair
"""

from __future__ import annotations

import argparse
import re
import zipfile
from collections import Counter
from pathlib import Path

AUX_TAGS = re.compile(r"^(md|be[a-z]*|hv[a-z]*|do[a-z]*)$")
ADV_TAGS = re.compile(r"^(rb|rbr|rbs|\*)$")
DET_TAGS = re.compile(r"^(at|ap|dt[a-z]*|abn|pp\$|cd|od|np\$|nn\$)$")


def brown_sentences(corpora: Path) -> list[list[tuple[str, str]]]:
    """Brown's tagged sentences as (lower-cased word, simplified tag) lists."""
    out = []
    with zipfile.ZipFile(corpora / "brown.zip") as zf:
        for name in zf.namelist():
            if not re.fullmatch(r"c[a-r]\d\d", name.rsplit("/", 1)[-1]):
                continue
            for line in zf.read(name).decode("utf-8").splitlines():
                tokens = [t.rpartition("/") for t in line.split()]
                sentence = [(w.lower(), tag.split("-")[0]) for w, _, tag in tokens if w]
                if sentence:
                    out.append(sentence)
    return out


def wikitext_sentences(corpora: Path, brown: list[list[tuple[str, str]]]) -> list[list[tuple[str, str]]]:
    """WikiText-2 (valid and test) sentences tagged by a bigram tagger trained on Brown."""
    from nltk.tag import BigramTagger, DefaultTagger, UnigramTagger

    tagger = BigramTagger(brown, backoff=UnigramTagger(brown, backoff=DefaultTagger("nn")))
    out = []
    for split in ("valid.txt", "test.txt"):
        path = corpora / "wikitext-2" / split
        if not path.exists():
            continue
        for line in path.read_text(encoding="utf-8").splitlines():
            for sentence in re.split(r" [.!?] ", line):
                words = [w.lower() for w in sentence.split() if w != "<unk>"]
                if 3 <= len(words) <= 60:
                    out.append(tagger.tag(words))
    return out


def form_table(lexicon) -> tuple[dict[str, str], dict[str, str], dict[str, str]]:
    """Written form -> lemma for nouns, verbs and adjectives of the lexicon."""
    tables: dict[str, dict[str, str]] = {"N": {}, "V": {}, "A": {}}
    for word in lexicon.words:
        if word.category in tables:
            tables[word.category].setdefault(word.text.lower(), word.lemma)
    return tables["N"], tables["V"], tables["A"]


def relations(sentences, nouns: dict, verbs: dict, adjectives: dict) -> Counter:
    """(predicate category:lemma, role, noun lemma) -> count."""
    counts: Counter = Counter()
    for sentence in sentences:
        n = len(sentence)
        for i, (word, tag) in enumerate(sentence):
            if tag.startswith("jj") and i + 1 < n and sentence[i + 1][1].startswith("nn"):
                noun = nouns.get(sentence[i + 1][0])
                if word in adjectives and noun:
                    counts[(f"A:{adjectives[word]}", "arg1", noun)] += 1
            if not tag.startswith("vb") or word not in verbs:
                continue
            verb = verbs[word]
            j = i - 1
            while j >= 0 and (AUX_TAGS.match(sentence[j][1]) or ADV_TAGS.match(sentence[j][1])):
                j -= 1
            if j >= 0 and sentence[j][1] in ("nn", "nns") and sentence[j][0] in nouns:
                counts[(f"V:{verb}", "arg1", nouns[sentence[j][0]])] += 1
            k = i + 1
            while k < n and DET_TAGS.match(sentence[k][1]):
                k += 1
            while k < n and sentence[k][1].startswith("jj"):
                k += 1
            if k < n and sentence[k][1] in ("nn", "nns") and sentence[k][0] in nouns:
                counts[(f"V:{verb}", "arg2", nouns[sentence[k][0]])] += 1
    return counts


def evidence_rows(counts: Counter, lexicon) -> Counter:
    """Aggregate lemma counts to class labels (and each class alone) per predicate and role."""
    from blimpgen.authoring.plausibility import label

    by_lemma = {}
    for word in lexicon.category("N"):
        by_lemma.setdefault(word.lemma, word)
    rows: Counter = Counter()
    for (predicate, role, noun), count in counts.items():
        word = by_lemma[noun]
        lemma = predicate.split(":", 1)[1]
        text = label(word)
        keys = {text, text.split(":")[0], "*"} | set(word.get("class") or ())
        for key in keys:
            rows[(lemma, role, key)] += count
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("corpora", type=Path)
    parser.add_argument("--evidence", type=Path, help="class-level TSV for blimpgen audit --plausibility")
    parser.add_argument("--pairs", type=Path, help="lemma-level TSV")
    parser.add_argument(
        "--propose",
        nargs="*",
        default=[],
        help="A:lemma or V:lemma[:arg1|arg2]: attested nouns its restriction leaves out",
    )
    parser.add_argument("--no-wikitext", action="store_true", help="Brown only (faster)")
    args = parser.parse_args()

    from blimpgen.vocab import load_lexicon, query

    lexicon = load_lexicon()
    nouns, verbs, adjectives = form_table(lexicon)
    brown = brown_sentences(args.corpora)
    sentences = brown if args.no_wikitext else brown + wikitext_sentences(args.corpora, brown)
    counts = relations(sentences, nouns, verbs, adjectives)
    if args.pairs:
        args.pairs.write_text(
            "".join(f"{p.split(':', 1)[1]}\t{r}\t{n}\t{c}\n" for (p, r, n), c in sorted(counts.items())),
            encoding="utf-8",
        )
    if args.evidence:
        rows = evidence_rows(counts, lexicon)
        header = (
            "# Co-occurrence counts from Brown and WikiText-2 (tools/lexicon/count_cooccurrence.py):\n"
            "# predicate, role (arg1 subject / described noun, arg2 object), class label, count.\n"
        )
        args.evidence.parent.mkdir(parents=True, exist_ok=True)
        args.evidence.write_text(
            header + "".join(f"{p}\t{r}\t{k}\t{c}\n" for (p, r, k), c in sorted(rows.items())), encoding="utf-8"
        )
    by_lemma = {}
    for word in lexicon.category("N"):
        if word.get("number") in ("sg", None):
            by_lemma.setdefault(word.lemma, word)
    for item in args.propose:
        category, lemma, *role = item.split(":")
        role = role[0] if role else "arg1"
        entry = next(x for x in lexicon.lexemes if x.category == category and x.lemma == lemma)
        formula = entry.features.get(role, "N")
        attested = Counter({n: c for (p, r, n), c in counts.items() if p == f"{category}:{lemma}" and r == role})
        missing = [
            (n, c) for n, c in attested.most_common() if not query.evaluate(formula, by_lemma[n], lexicon.categories)
        ]
        print(f"{item}: {' '.join(f'{n}({c})' for n, c in missing) or '-'}")


if __name__ == "__main__":
    main()
