"""Refresh ``data/morphology.json``, the memo of inflect's answers for the shipped lexicon.

Run after editing the lexicon: ``python -m blimpgen.vocab.refresh``.
"""

from __future__ import annotations

import json
from importlib import resources
from typing import Any

from blimpgen.vocab.morphology import MEMO_FILE


def memo_for(lexicon: Any) -> dict[str, dict[str, str]]:
    """The inflect answers a lexicon needs: plurals of nouns without listed plural, a/an of every
    noun, name and adjective form. Computed with inflect itself (never from the memo)."""
    from blimpgen.vocab.morphology import inflect_engine

    engine = inflect_engine()
    plural: dict[str, str] = {}
    article: dict[str, str] = {}
    for lexeme in lexicon.lexemes:
        text = lexeme.features["_text"]
        if lexeme.category == "N" and not lexeme.features.get("mass") and "plural" not in lexeme.features:
            plural[text] = engine.plural_noun(text)
    for word in lexicon.words:
        if word.category in ("N", "PN", "A"):
            first = word.text.split(" ", 1)[0]
            article[first] = engine.a(first).split(" ", 1)[0]
    return {"plural": dict(sorted(plural.items())), "article": dict(sorted(article.items()))}


def main() -> None:
    """Rewrite ``data/morphology.json`` from the shipped lexicon (run after editing the lexicon)."""
    from pathlib import Path

    from blimpgen.vocab.lexicon import load_lexicon

    memo = memo_for(load_lexicon())
    path = Path(str(resources.files("blimpgen.vocab") / "data" / MEMO_FILE))
    path.write_text(json.dumps(memo, indent=0, sort_keys=True) + "\n", encoding="utf-8")
    print(f"wrote {path}: {len(memo['plural'])} plurals, {len(memo['article'])} articles")


if __name__ == "__main__":
    main()
