"""The error hierarchy: callers catch what they can act on, and located errors keep their place."""

from __future__ import annotations

import pickle

import pytest

from blimpgen.errors import (
    BlimpgenError,
    DataError,
    GenerationError,
    LexiconError,
    LocatedError,
    MissingDependencyError,
    ModelLoadError,
    OptionError,
    SpecError,
    SpecErrors,
    UnknownNameError,
)


@pytest.mark.parametrize(
    "cls, builtin", [(OptionError, ValueError), (MissingDependencyError, ImportError), (UnknownNameError, KeyError)]
)
def test_errors_subclass_the_builtin_they_resemble(cls: type, builtin: type) -> None:
    assert issubclass(cls, BlimpgenError) and issubclass(cls, builtin)


@pytest.mark.parametrize("cls", [SpecError, LexiconError, DataError, GenerationError])
def test_errors_located_classes_print_file_line_key(cls: type[LocatedError]) -> None:
    error = cls("no such slot", "spec.yaml", 7, "slots.noun")
    assert str(error) == "spec.yaml:7: slots.noun: no such slot"
    assert (error.file, error.line, error.key, str(error.loc)) == ("spec.yaml", 7, "slots.noun", "spec.yaml:7")


def test_errors_unlocated_message_is_the_message() -> None:
    assert str(GenerationError("made 3 of 5 pairs")) == "made 3 of 5 pairs"
    assert str(DataError("bad record", "data.jsonl", 3)) == "data.jsonl:3: bad record"


def test_errors_relocated_keeps_the_location() -> None:
    spec = SpecError("the answer is not a candidate", "suite.yaml", 12, "answer")
    error = GenerationError.relocated(spec)
    assert isinstance(error, GenerationError) and not isinstance(error, SpecError)
    assert (error.file, error.line, error.key, str(error)) == ("suite.yaml", 12, "answer", str(spec))


def test_errors_classes_are_distinct_for_callers() -> None:
    assert not issubclass(ModelLoadError, (OptionError, DataError))
    assert not issubclass(DataError, SpecError)


def test_errors_data_option_dependency_and_model_sites(tmp_path) -> None:
    from blimpgen.evaluate.scoring.registrations import make_scorer
    from blimpgen.export._deps import require
    from blimpgen.records import read_pairs

    with pytest.raises(DataError, match="no_such.jsonl: cannot read"):
        list(read_pairs(tmp_path / "no_such.jsonl"))
    with pytest.raises(ValueError, match="takes no option 'colour'"):
        make_scorer("unigram", counts={"a": 1}, colour="red")
    with pytest.raises(ImportError, match=r"pip install 'blimpgen\[export\]'"):
        require("no_such_module_for_blimpgen")


def test_errors_model_loading_is_its_own_class(tmp_path) -> None:
    pytest.importorskip("torch")
    from blimpgen.evaluate.scoring.scorers.hf_causal import CausalLMScorer

    with pytest.raises(ModelLoadError, match="no such folder"):
        CausalLMScorer(str(tmp_path / "no_model"))


@pytest.mark.parametrize(
    "error",
    [
        GenerationError("made 3 of 5 pairs", "spec.yaml", 7, "slots.noun"),
        LexiconError("bad row", "words.tsv", 2),
        SpecErrors([SpecError("no such slot", "a.yaml", 3), SpecError("bad value", "b.yaml", 9, "field")]),
        UnknownNameError("paradigm", "dna_l", ["dna_1", "dna_2"]),
        OptionError("--jobs must be at least 1"),
    ],
)
def test_errors_pickle_whole(error: BlimpgenError) -> None:
    # A generation worker process sends its error back pickled; it must arrive as it left.
    copy = pickle.loads(pickle.dumps(error))
    assert type(copy) is type(error) and str(copy) == str(error) and repr(vars(copy)) == repr(vars(error))
