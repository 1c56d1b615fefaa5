"""Helpers shared by the Hugging Face scorers."""

from __future__ import annotations

import pytest

torch = pytest.importorskip("torch")

from blimpgen.evaluate.scoring.scorers._torch import linear_logprobs  # noqa: E402


@pytest.mark.parametrize("chunk_vocab", [1, 7, 50, 64, 1000])
@pytest.mark.parametrize("bias", [False, True])
def test_torch_linear_logprobs_vocabulary_slices_equal_log_softmax(chunk_vocab, bias):
    generator = torch.Generator().manual_seed(0)
    states, weight = torch.randn(5, 8, generator=generator), 3 * torch.randn(50, 8, generator=generator)
    offset = torch.randn(50, generator=generator) if bias else None
    rows, targets = torch.tensor([0, 0, 1, 4, 4, 2]), torch.tensor([0, 49, 7, 7, 48, 21])
    expected = torch.log_softmax(torch.nn.functional.linear(states, weight, offset), dim=-1)[rows, targets]
    found = linear_logprobs(states, weight, offset, rows, targets, chunk_vocab=chunk_vocab)
    assert torch.allclose(found, expected, atol=1e-5)


def test_torch_scorers_place_one_gpu_per_process(monkeypatch):
    from blimpgen.evaluate.scoring.scorers._torch import TorchScorer
    from blimpgen.evaluate.scoring.scorers.hf_causal import CausalLMScorer
    from blimpgen.evaluate.scoring.scorers.unigram import UnigramScorer

    monkeypatch.setattr(torch.cuda, "is_available", lambda: True)
    assert CausalLMScorer.place({"model": "m"}, 3) == {"model": "m", "device": "cuda:3"}
    assert TorchScorer.place({"model": "m", "device": "cpu"}, 3) == {"model": "m", "device": "cpu"}
    assert TorchScorer.place({"device_map": "auto"}, 1) == {"device_map": "auto"}
    assert UnigramScorer.place({"counts": {}}, 2) == {"counts": {}}  # not a device scorer
    monkeypatch.setattr(torch.cuda, "is_available", lambda: False)
    assert CausalLMScorer.place({"model": "m"}, 3) == {"model": "m"}
