"""The Python API: the same numbers as the CLI's parts, in memory, with pandas tables."""

from __future__ import annotations

import math
from pathlib import Path

import pytest

from blimpgen import api
from blimpgen.errors import OptionError
from blimpgen.records import MinimalPair, write_records_file
from tests.evaluate.tiny import make_bytelevel_gpt2, naive_causal_logprobs

UID = "regular_plural_subject_verb_agreement_1"


@pytest.fixture(scope="module")
def pairs() -> list[MinimalPair]:
    return api.generate(UID, n=12, seed=3)


@pytest.fixture(scope="module")
def model_dir(pairs, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A random 2-layer GPT-2 with a byte-level BPE tokenizer trained on the pairs, saved to disk."""
    for module in ("tokenizers", "transformers", "torch"):
        pytest.importorskip(module)
    sentences = [s for p in pairs for s in (p.sentence_good, p.sentence_bad)]
    return make_bytelevel_gpt2(sentences, tmp_path_factory.mktemp("tiny"), vocab_size=300)


def test_api_generate_is_gen_in_memory(pairs) -> None:
    assert len(pairs) == 12 and all(isinstance(p, MinimalPair) and p.UID == UID for p in pairs)
    assert [p.to_dict() for p in api.generate(UID, n=12, seed=3)] == [p.to_dict() for p in pairs]
    table = api.paradigms([UID, "anaphor_gender_agreement"])
    assert list(table) == [UID, "anaphor_gender_agreement"] and table[UID].uid == UID


def test_api_score_sentences_matches_a_direct_computation(model_dir: Path, pairs) -> None:
    transformers = pytest.importorskip("transformers")
    model = transformers.GPT2LMHeadModel.from_pretrained(model_dir).eval()
    tokenizer = transformers.AutoTokenizer.from_pretrained(model_dir)
    texts = [pairs[0].sentence_good, pairs[0].sentence_bad]
    by_name = api.score_sentences(texts, str(model_dir))
    loaded = api.score_sentences(texts, model, tokenizer)
    direct = [sum(naive_causal_logprobs(model, tokenizer, "", text)) for text in texts]
    for a, b, c in zip(by_name, loaded, direct):
        assert math.isclose(a, c, abs_tol=1e-4) and math.isclose(b, c, abs_tol=1e-4)


def test_api_evaluate_pairs_in_memory_equals_from_a_file(model_dir: Path, pairs, tmp_path: Path) -> None:
    memory = api.evaluate_pairs(pairs, str(model_dir))
    write_records_file(pairs, tmp_path / f"{UID}.jsonl")
    on_disk = api.evaluate_pairs(tmp_path, str(model_dir))
    assert [r.correct for r in memory.result.rows] == [r.correct for r in on_disk.result.rows]
    frame = memory.pairs()
    assert list(frame["pair_id"]) == [p.pair_id for p in pairs]
    assert ((frame["score_good"] > frame["score_bad"]) == (frame["correct"] == 1.0)).all()
    table = memory.paradigms()
    assert table.loc[UID, "n_pairs"] == 12
    assert math.isclose(table.loc[UID, "accuracy"], memory.accuracy)
    assert memory.options["scorer"].startswith("hf-causal")
    written = memory.write(tmp_path / "out")
    assert any(path.name == "results.json" for path in written)


def test_api_refuses_what_it_cannot_score() -> None:
    with pytest.raises(OptionError, match="non-empty list of MinimalPair"):
        api.evaluate_pairs([], "unused")
    with pytest.raises(OptionError, match="takes strings"):
        api.score_sentences([1], "unused")
