"""MC-QA training for learning curves (oLMpics section 2.2): a question-answering head, whole network fine-tuned.

oLMpics uses MC-QA where "the answer set substantially varies between questions, and many of
the answers have more than one word piece" (Property Conjunction, Encyclopedic Composition).
For a question ``q`` and its candidates ``a_1 .. a_K`` each pair is encoded as ``[CLS] q [SEP]
a_k [SEP]`` (the tokenizer's pair encoding); the first token's representation goes through
MLP_QA, a one-hidden-layer MLP with one output, and a softmax over the K logits gives the
answer's probability. Training minimises cross-entropy over the K candidates.

Unlike MC-MLM, the head has no pre-trained weights, and the *whole network* is fine-tuned
(encoder and head, AdamW as in :class:`~blimpgen.evaluate.curves.training.TrainOptions`, dropout
on while training). So the zero-shot accuracy is that of an untrained head and is "not
meaningful", as the paper says; the curve is what counts. Each (N, seed) run starts from the
pre-trained encoder (restored in place) and a head initialised from the run's seed.

Answers may be of any length: nothing is dropped for being several word pieces. An item with
a blank (an MC-MLM item asked as a question, oLMpics' Figure 2D) is asked with the blank
written as the tokenizer's mask token. Items without candidates to choose among (a role
reversal has one target) are refused.
"""

from __future__ import annotations

import statistics
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from blimpgen.errors import DataError
from blimpgen.evaluate.curves.training import TrainOptions, seeded, train
from blimpgen.records.item import BLANK, ProbeItem


@dataclass
class QAItems:
    """Items as (question, answer) pair encodings: per item, one token-id list (and segment ids)
    per candidate, and the index of the answer."""

    inputs: list[list[dict[str, list[int]]]]
    answers: list[int]
    chance: float
    kept: tuple[str, ...] = ()

    def __len__(self) -> int:
        return len(self.answers)


class QATrainer:
    """Fine-tunes a masked LM's encoder with a new MC-QA head, restoring the encoder before each run.

    Args:
        model: a loaded ``AutoModelForMaskedLM`` (its encoder, ``model.base_model``, is used; its
            masked-LM head is not).
        tokenizer: its tokenizer (pair encodings).
        name: the model's name, for messages.
        max_length: the longest input the model takes.
    """

    head_name = "MLP_QA"

    def __init__(self, model: Any, tokenizer: Any, name: str = "the model", max_length: int = 512) -> None:
        import torch

        self._torch = torch
        self.name, self.tokenizer, self.max_length = name, tokenizer, max_length
        self.encoder = model.base_model.float()
        self.device = next(self.encoder.parameters()).device
        hidden = model.config.hidden_size
        self.head = torch.nn.Sequential(
            torch.nn.Linear(hidden, hidden), torch.nn.Tanh(), torch.nn.Linear(hidden, 1)
        ).to(self.device)
        self._initial = {key: value.detach().clone() for key, value in self.encoder.state_dict().items()}
        self.trainable = [(f"encoder.{n}", p) for n, p in self.encoder.named_parameters()] + [
            (f"head.{n}", p) for n, p in self.head.named_parameters()
        ]
        self.reset()

    def reset(self, seed: int = 0) -> None:
        """The pre-trained encoder back, and a new head initialised from ``seed``."""
        self.encoder.load_state_dict(self._initial)
        with seeded(self.device, seed):
            for layer in self.head:
                if hasattr(layer, "reset_parameters"):
                    layer.reset_parameters()  # type: ignore[operator]
        self.encoder.eval()
        self.head.eval()

    def encode(self, items: Sequence[ProbeItem], where: str = "items") -> QAItems:
        """Pair-encode every item's question with each of its candidates.

        Raises:
            DataError: for an item whose type has no candidates to choose among (naming it).
        """
        inputs, answers = [], []
        for item in items:
            if not item.is_multiple_choice:
                raise DataError(
                    f"{where}: item {item.item_id!r} is a {item.item_type} item: MC-QA chooses among "
                    "candidates, and it has one target"
                )
            question = (
                item.context.replace(BLANK, self.tokenizer.mask_token or BLANK) if item.has_blank else item.context
            )
            encoded = []
            for option in item.candidates:
                pair = self.tokenizer(question, option, truncation="only_first", max_length=self.max_length)
                encoded.append({key: list(pair[key]) for key in ("input_ids", "token_type_ids") if key in pair})
            inputs.append(encoded)
            answers.append(item.candidates.index(item.answer))
        if not inputs:
            raise DataError(f"{where}: no items")
        return QAItems(
            inputs, answers, statistics.fmean(1 / len(i) for i in inputs), tuple(item.item_id for item in items)
        )

    def logits(self, data: QAItems, batch: Sequence[int]) -> Any:
        """``[b, K]``: MLP_QA's logit of each candidate of ``data[batch]`` (-inf in unused slots)."""
        torch = self._torch
        pairs = [(row, k, enc) for row, i in enumerate(batch) for k, enc in enumerate(data.inputs[i])]
        width = max(len(enc["input_ids"]) for _, _, enc in pairs)
        pad = self.tokenizer.pad_token_id if self.tokenizer.pad_token_id is not None else 0
        ids = torch.full((len(pairs), width), pad, dtype=torch.long)
        types = torch.zeros((len(pairs), width), dtype=torch.long)
        mask = torch.zeros((len(pairs), width), dtype=torch.long)
        for r, (_, _, enc) in enumerate(pairs):
            n = len(enc["input_ids"])
            ids[r, :n] = torch.tensor(enc["input_ids"])
            mask[r, :n] = 1
            if "token_type_ids" in enc:
                types[r, :n] = torch.tensor(enc["token_type_ids"])
        extra = {"token_type_ids": types.to(self.device)} if "token_type_ids" in pairs[0][2] else {}
        states = self.encoder(input_ids=ids.to(self.device), attention_mask=mask.to(self.device), **extra)[0]
        scores = self.head(states[:, 0]).squeeze(-1)
        out = torch.full((len(batch), max(len(data.inputs[i]) for i in batch)), float("-inf"), device=self.device)
        rows = torch.tensor([row for row, _, _ in pairs], device=self.device)
        columns = torch.tensor([k for _, k, _ in pairs], device=self.device)
        return out.index_put((rows, columns), scores.float())

    def fit(self, data: QAItems, indices: Sequence[int], seed: int, options: TrainOptions) -> list[float]:
        """Fine-tune encoder and a head initialised from ``seed`` on ``data[indices]``; return the
        mean training loss of each epoch."""
        self.reset(seed)
        answers = self._torch.tensor(data.answers, device=self.device)

        def batch_loss(batch: Any) -> Any:
            rows = batch.tolist()
            return self._torch.nn.functional.cross_entropy(self.logits(data, rows), answers[rows])

        with seeded(self.device, seed):  # dropout
            return train([p for _, p in self.trainable], [self.encoder, self.head], indices, seed, options, batch_loss)

    def accuracy(self, data: QAItems, batch_items: int = 32) -> float:
        """Share of items whose answer gets strictly the highest logit (a tie is wrong)."""
        torch = self._torch
        correct = 0
        with torch.no_grad():
            for begin in range(0, len(data), batch_items):
                batch = list(range(begin, min(begin + batch_items, len(data))))
                scores = self.logits(data, batch)
                answer = torch.tensor([data.answers[i] for i in batch], device=self.device).unsqueeze(1)
                best_other = scores.scatter(1, answer, float("-inf")).max(dim=1).values
                correct += int((scores.gather(1, answer).squeeze(1) > best_other).sum())
        return correct / len(data)
