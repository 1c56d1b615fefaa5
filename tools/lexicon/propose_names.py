"""Propose first-name rows (category PN) from the names corpus.

Keeps names that are unambiguously one gender (listed in only one of male.txt/female.txt),
spelled with plain letters, and not also an everyday common word (rose, will, mark) that
would make sentences ambiguous. Without ``--candidates`` it ranks the whole corpus by how often
Brown uses each name as a proper noun (Brown is from 1961, so the ranking favours old names);
with ``--candidates FILE`` (whitespace-separated names) it filters that list instead and says
on stderr why each rejected name was dropped. A person picks and checks the rows.

    python tools/lexicon/propose_names.py ../shared/corpora --candidates my-names.txt
"""

from __future__ import annotations

import argparse
import re
import sys
from pathlib import Path

from corpora import brown_tagged, names

# A name used this often in Brown as a lower-case common word is too ambiguous as a name.
COMMON_WORD_LIMIT = 15


def lowercase_uses(word: str, tagged) -> int:
    """How often Brown uses ``word`` other than as a proper noun."""
    return sum(n for (w, tag), n in tagged.items() if w == word and not tag.startswith("np"))


def propose(corpora: Path, candidates: list[str] | None, limit: int) -> list[str]:
    """Return candidate rows ``Name<TAB>PN<TAB>features<TAB># note``."""
    male, female = names(corpora)
    gender_of = {n: "m" for n in male} | {n: "f" for n in female}
    both = set(male) & set(female)
    tagged = brown_tagged(corpora)
    pool = candidates if candidates is not None else list(gender_of)
    scored = []
    for name in dict.fromkeys(pool):
        why = None
        if name not in gender_of:
            why = "not in the names corpus"
        elif name in both:
            why = "listed as both male and female"
        elif not re.fullmatch(r"[A-Z][a-z]{2,10}", name):
            why = "not a plain capitalised word"
        elif lowercase_uses(name.lower(), tagged) > COMMON_WORD_LIMIT:
            why = "also an everyday common word"
        if why:
            if candidates is not None:
                print(f"dropped {name}: {why}", file=sys.stderr)
            continue
        scored.append((tagged[(name.lower(), "np")], name, gender_of[name]))
    if candidates is None:
        scored.sort(key=lambda t: (-t[0], t[1]))
        scored = scored[:limit]
    return [f"{name}\tPN\tgender={gender}; animate; human\t# brown-np={n}" for n, name, gender in scored]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("corpora", type=Path, help="the shared corpora folder")
    parser.add_argument("--candidates", type=Path, help="file of hand-picked names to filter")
    parser.add_argument("--limit", type=int, default=400, help="rows to print without --candidates")
    args = parser.parse_args()
    candidates = args.candidates.read_text(encoding="utf-8").split() if args.candidates else None
    print("\n".join(propose(args.corpora, candidates, args.limit)))


if __name__ == "__main__":
    main()
