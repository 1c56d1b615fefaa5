"""The scorer registry: pinned built-in names, lazy targets, did-you-mean, option checks."""

from __future__ import annotations

import subprocess
import sys

import pytest

from blimpgen.errors import BlimpgenError, UnknownNameError
from blimpgen.evaluate.scoring.registrations import make_scorer, scorers


def test_registrations_snapshot_of_builtin_names():
    assert {n for n in scorers.names() if n.endswith(".v1")} >= {
        "hf-causal.v1",
        "hf-masked.v1",
        "ngram.v1",
        "unigram.v1",
    }
    assert [n for n in ("hf-causal.v1", "hf-masked.v1", "ngram.v1", "unigram.v1") if n in scorers] == [
        "hf-causal.v1",
        "hf-masked.v1",
        "ngram.v1",
        "unigram.v1",
    ]


def test_registrations_listing_and_unigram_import_no_torch():
    code = (
        "import sys; from blimpgen.evaluate.scoring.registrations import scorers, make_scorer; scorers.names(); "
        "make_scorer('unigram', counts={'a': 1}).score_texts(['a']); "
        "import blimpgen.evaluate.runner, blimpgen.evaluate.reporting.report, blimpgen.cli.evaluate; "
        "assert 'torch' not in sys.modules and 'transformers' not in sys.modules"
    )
    subprocess.run([sys.executable, "-c", code], check=True)


def test_registrations_unknown_scorer_suggests_close_name():
    with pytest.raises(UnknownNameError, match="did you mean 'hf-causal.v1'"):
        make_scorer("hf-causl")


@pytest.mark.parametrize("options,message", [({"counts": {"a": 1}, "dtype": "float32"}, "takes no option 'dtype'")])
def test_registrations_rejects_options_the_scorer_does_not_take(options, message):
    with pytest.raises(BlimpgenError, match=message):
        make_scorer("unigram", **options)


def test_registrations_missing_required_option_names_the_flag():
    with pytest.raises(BlimpgenError, match=r"needs option 'ngram_model' \(--scorer-option ngram_model=VALUE\)"):
        make_scorer("ngram")


def test_registrations_bare_name_resolves_to_newest_version():
    assert scorers.get("unigram") is scorers.get("unigram.v1")
