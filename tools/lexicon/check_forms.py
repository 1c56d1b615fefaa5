"""Report lexicon word forms that no word list or corpus vouches for, for hand review.

For every open-class entry (N, PN, V, A) of the shipped lexicon (plus any extra TSV files
given) it prints one line per suspicious form:

* ``lemma-unknown``   the citation form is in neither the Unix word lists (words.zip) nor,
  for common words, Brown or WikiText-2 (names: word list only; names.zip vouches for them);
* ``form-unattested`` a *listed* form (plural=, past=, en=, ...) is in neither the word list
  nor Brown nor WikiText-2 (the word list holds citation forms only, so inflections are
  checked against real text); derived regular forms are only reported with ``--all``;
* ``plural-irregular`` inflect derives a non-suffix plural for a noun without ``plural=``;
* ``doubling``        a derived verb form is unattested but the doubled/undoubled spelling is.

    PYTHONPATH=src python tools/lexicon/check_forms.py ../shared/corpora [extra.tsv ...]
"""

from __future__ import annotations

import argparse
import re
import sys
from pathlib import Path

from corpora import brown_counts, names, wikitext_counts, word_list


def regular_plurals(lemma: str) -> set[str]:
    """The plurals plain suffixation allows (cats, boxes, potatoes, cities)."""
    forms = {lemma + "s"}
    if re.search(r"(s|x|z|ch|sh|o)$", lemma):
        forms.add(lemma + "es")
    if re.search(r"[^aeiou]y$", lemma):
        forms.add(lemma[:-1] + "ies")
    return forms


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("corpora", type=Path)
    parser.add_argument("extra", nargs="*", type=Path, help="extra TSV files (overlays) to load")
    parser.add_argument("--all", action="store_true", help="also report unattested derived forms")
    args = parser.parse_args()
    from blimpgen.vocab import load_lexicon_files

    words = word_list(args.corpora)
    lower = {w.lower() for w in words}
    brown, wiki = brown_counts(args.corpora), wikitext_counts(args.corpora)
    male, female = names(args.corpora)
    known_names = set(male) | set(female)
    lexicon = load_lexicon_files(args.extra)
    problems = 0
    for lexeme in lexicon.lexemes:
        if lexeme.category not in ("N", "PN", "V", "A"):
            continue
        where = f"{lexeme.source.file}:{lexeme.source.line}"
        if lexeme.category == "PN" and lexeme.lemma in known_names:
            pass
        elif (
            lexeme.lemma not in words
            and lexeme.lemma.lower() not in lower
            and not (lexeme.category != "PN" and (brown[lexeme.lemma] or wiki[lexeme.lemma]))
        ):
            print(f"{where}\tlemma-unknown\t{lexeme.lemma}")
            problems += 1
        forms = {w.text for w in lexicon.forms(next(w for w in lexicon.words if w.lexeme is lexeme))}
        listed = {v for k, v in lexeme.features.items() if k in ("plural", "past", "en", "ing", "pres3sg")}
        for form in sorted(forms - {lexeme.lemma}):
            if form in words or brown[form] or wiki[form]:
                continue
            note = ""
            if lexeme.category == "V":
                alt = re.sub(r"(.)\1(ed|ing)$", r"\1\2", form)
                alt = alt if alt != form else re.sub(r"([bdgklmnprtv])(ed|ing)$", r"\1\1\2", form)
                if alt != form and (brown[alt] or wiki[alt]):
                    note = f"\tdoubling? {alt} is attested"
            if not (note or args.all or form in listed):
                continue
            print(f"{where}\tform-unattested\t{lexeme.lemma} -> {form}{note}")
            problems += 1
        if lexeme.category == "N" and "plural" not in lexeme.features and not lexeme.features.get("mass"):
            plural = next(
                w.text
                for w in lexicon.forms(next(w for w in lexicon.words if w.lexeme is lexeme))
                if w.get("number") == "pl"
            )
            if plural not in regular_plurals(lexeme.lemma):
                print(f"{where}\tplural-irregular\t{lexeme.lemma} -> {plural} (add plural=)")
                problems += 1
    print(f"{problems} forms to review", file=sys.stderr)


if __name__ == "__main__":
    main()
