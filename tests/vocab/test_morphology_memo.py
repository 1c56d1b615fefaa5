"""The shipped memo of inflect's answers is current, correct, and keeps inflect out of start-up."""

from __future__ import annotations

import json
import subprocess
import sys
from importlib import resources

from blimpgen.vocab import load_lexicon
from blimpgen.vocab.refresh import memo_for


def test_morphology_memo_is_current() -> None:
    shipped = json.loads((resources.files("blimpgen.vocab") / "data" / "morphology.json").read_text())
    fresh = memo_for(load_lexicon())
    assert shipped == fresh, "lexicon changed: run `python -m blimpgen.vocab.refresh`"


def test_loading_the_shipped_lexicon_does_not_import_inflect() -> None:
    code = "import sys; from blimpgen.vocab import load_lexicon; load_lexicon(); print('inflect' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"


def test_words_outside_the_memo_are_derived_with_inflect() -> None:
    from blimpgen.vocab import morphology

    assert morphology.plural_noun("zorblax") == "zorblaxes"
    assert morphology.indefinite_article("umbrella") == "an"
    assert morphology.indefinite_article("unicorn") == "a"
