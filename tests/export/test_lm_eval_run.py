"""Requirement 3: lm-eval runs the exported tasks and agrees with a direct scoring of the same model.

The model is a randomly initialised two-layer GPT-2 with a WordLevel vocabulary trained
in-process on the fixture sentences and saved to a temporary folder; nothing is downloaded.

The reference scorer is written out here (summed natural-log probabilities of the sentence
after the BOS token, as lm-eval scores a choice with an empty context). ``blimpgen eval``'s
scorer is being written in parallel under ``blimpgen.evaluate``; once it lands,
``_reference_logprobs`` should call it on the same model and data instead, keeping the
assertions: the same accuracy per paradigm and for the group, and per-sentence
log-probabilities equal to 1e-4. One convention to keep in mind then: lm-eval's ``acc`` takes
``argmax`` over ``[good, bad]``, so a tie counts as correct; the reference does the same.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from blimpgen.export.lm_eval import write_task_files
from tests.export.conftest import UIDS

torch = pytest.importorskip("torch")
transformers = pytest.importorskip("transformers")
tokenizers = pytest.importorskip("tokenizers")
lm_eval = pytest.importorskip("lm_eval")
pytest.importorskip("accelerate")  # lm-eval's hf model imports it
lm_eval_tasks = pytest.importorskip("lm_eval.tasks")


@pytest.fixture(scope="module")
def tiny_model(fixture_pairs, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A random 2-layer GPT-2 and its in-process WordLevel tokenizer, saved with save_pretrained."""
    sentences = [s for pairs in fixture_pairs.values() for p in pairs for s in (p.sentence_good, p.sentence_bad)]
    word_level = tokenizers.Tokenizer(tokenizers.models.WordLevel(unk_token="[UNK]"))
    word_level.pre_tokenizer = tokenizers.pre_tokenizers.Whitespace()
    word_level.train_from_iterator(
        sentences, tokenizers.trainers.WordLevelTrainer(special_tokens=["[UNK]", "<|endoftext|>"]))
    tokenizer = transformers.PreTrainedTokenizerFast(
        tokenizer_object=word_level, unk_token="[UNK]", bos_token="<|endoftext|>",
        eos_token="<|endoftext|>", pad_token="<|endoftext|>")
    torch.manual_seed(0)
    config = transformers.GPT2Config(vocab_size=len(tokenizer), n_positions=32, n_embd=32, n_layer=2, n_head=2,
                                     bos_token_id=tokenizer.bos_token_id, eos_token_id=tokenizer.eos_token_id)
    path = tmp_path_factory.mktemp("tiny-gpt2")
    transformers.GPT2LMHeadModel(config).eval().save_pretrained(path)
    tokenizer.save_pretrained(path)
    return path


def _reference_logprobs(model_path: Path, sentences: list[str]) -> list[float]:
    """Summed log p(sentence | BOS) per sentence, computed directly with transformers."""
    tokenizer = transformers.AutoTokenizer.from_pretrained(model_path)
    model = transformers.AutoModelForCausalLM.from_pretrained(model_path).eval()
    totals = []
    with torch.no_grad():
        for sentence in sentences:
            # lm-eval scores the choice " " + sentence (its target_delimiter) after the BOS token.
            ids = [tokenizer.bos_token_id, *tokenizer.encode(" " + sentence, add_special_tokens=False)]
            logits = model(torch.tensor([ids])).logits[0, :-1].float()
            logprobs = torch.log_softmax(logits, dim=-1)
            totals.append(float(logprobs[torch.arange(len(ids) - 1), torch.tensor(ids[1:])].sum()))
    return totals


def test_lm_eval_run_matches_direct_scoring(exported: Path, fixture_pairs, tiny_model: Path, tmp_path: Path) -> None:
    task_dir = write_task_files(exported, tmp_path / "tasks").path
    manager = lm_eval_tasks.TaskManager(include_path=str(task_dir), include_defaults=False)
    results = lm_eval.simple_evaluate(
        model="hf", model_args=f"pretrained={tiny_model},tokenizer={tiny_model},dtype=float32",
        tasks=["blimpgen"], task_manager=manager, device="cpu", batch_size=8, bootstrap_iters=0,
        log_samples=True)

    accuracies = []
    for uid in UIDS:
        pairs = fixture_pairs[uid]
        scores = _reference_logprobs(tiny_model, [s for p in pairs for s in (p.sentence_good, p.sentence_bad)])
        good, bad = scores[0::2], scores[1::2]
        reference_acc = sum(g >= b for g, b in zip(good, bad)) / len(pairs)
        accuracies.append(reference_acc)

        name = f"blimpgen_{uid}"
        assert results["results"][name]["acc,none"] == pytest.approx(reference_acc, abs=1e-12)
        samples = sorted(results["samples"][name], key=lambda sample: sample["doc_id"])
        harness = [ll for sample in samples for ll, _greedy in sample["filtered_resps"]]
        assert harness == pytest.approx(scores, abs=1e-4)

    # the group averages over paradigms, unweighted, as BLiMP reports it
    assert results["results"]["blimpgen"]["acc,none"] == pytest.approx(sum(accuracies) / len(accuracies))
    assert 0 < sum(accuracies) / len(accuracies) < 1  # the check is not vacuous for this seed
