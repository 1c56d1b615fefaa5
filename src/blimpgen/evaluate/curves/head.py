"""Head-only training of a masked LM on cloze probe items (the mechanics of the learning curve).

Every parameter of the model is frozen except the masked-LM head's, oLMpics' MLP_MLM: for BERT,
the prediction-head transform (the hidden layer), the decoder (the output layer) and its bias.
The head is found generically as the module that holds ``model.get_output_embeddings()``, and
checked: applied to the encoder's states it must give the model's own logits. In BERT-like
models the decoder weight is tied to the input embeddings; the trainer unties it (the decoder
gets its own copy of the weight), so training the output layer, as oLMpics does, never moves
the input embeddings: the encoder stays the pre-trained one. BERT, RoBERTa, XLM-R, ALBERT and
DeBERTa-v2 have such a head; DistilBERT, ELECTRA and ModernBERT keep their head's layers on the
model itself and are refused with a one-line error.

Two setups (oLMpics section 3.3, "Does a linear transformation suffice?"): ``mlp`` trains the
whole head; ``linear`` fixes the head's first layer (the transform) and trains only the output
layer (decoder weight and bias).

Because the encoder is frozen and runs without dropout, its state at the blank is computed
once per context and cached; training then runs the head alone on those states. The loss is
cross-entropy over the item's K candidates at the blank (a softmax restricted to them, oLMpics'
MC-MLM); items with per-option ``contexts`` score each option in its own context, by its
log-probability there. Accuracy counts an item correct when the answer scores strictly highest
(a tie is wrong). Items with a candidate that is not one token of the model's vocabulary are
dropped and counted (:class:`PreparedItems`), never an abort.
"""

from __future__ import annotations

import statistics
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Literal

from blimpgen.errors import DataError, ModelLoadError
from blimpgen.evaluate.curves.training import TrainOptions, seeded, train
from blimpgen.records.item import ProbeItem

Setup = Literal["mlp", "linear"]


def find_head(model: Any, name: str = "") -> tuple[str, Any, list[tuple[str, Any]]]:
    """(module name, module, trainable parameters) of a masked LM's prediction head.

    The head is the parent of ``get_output_embeddings()``; its parameters shared with the
    input embeddings (a tied decoder weight) are left out.

    Raises:
        ModelLoadError: when the model has no output layer or its head is not a separate module.
    """
    name = name or type(model).__name__
    output = model.get_output_embeddings() if hasattr(model, "get_output_embeddings") else None
    if output is None:
        raise ModelLoadError(
            f"{name} has no masked-LM head (get_output_embeddings() is None); "
            f"learning curves need a masked LM such as BERT or RoBERTa"
        )
    module_names = {id(module): module_name for module_name, module in model.named_modules()}
    output_name = module_names[id(output)]
    head_name = output_name.rpartition(".")[0]
    base = getattr(model, "base_model", model)
    if not head_name or base is model:
        raise ModelLoadError(
            f"{name}: its output layer {output_name!r} is not inside a separate head module; "
            "head-only training supports models whose head is one module (BERT, RoBERTa, ALBERT, ...)"
        )
    head = model.get_submodule(head_name)
    tied = {id(p) for p in model.get_input_embeddings().parameters()}
    trainable = [(f"{head_name}.{n}", p) for n, p in head.named_parameters() if id(p) not in tied]
    if not trainable:
        raise ModelLoadError(f"{name}: the head {head_name!r} has no parameters of its own to train")
    return head_name, head, trainable


@dataclass(frozen=True)
class PreparedItems:
    """Items tokenized and checked: each distinct masked context (token ids, blank position)
    and, per kept item and option, its context's index and the candidate's token id; and the
    items dropped, with why."""

    contexts: list[list[int]]
    positions: list[int]
    rows: list[list[int]]
    tokens: list[list[int]]
    answers: list[int]
    dropped: tuple[tuple[str, str], ...] = ()  # (item id, reason)
    kept: tuple[str, ...] = ()  # the ids of the items kept, in order

    def __len__(self) -> int:
        return len(self.answers)

    def coverage_note(self, where: str) -> str | None:
        """A line saying how many items were dropped and why (None when none was)."""
        if not self.dropped:
            return None
        total = len(self.dropped) + len(self.rows)
        return (
            f"{where}: {len(self.dropped)} of {total} items dropped (coverage {len(self.rows) / total:.1%}); "
            f"e.g. {self.dropped[0][0]}: {self.dropped[0][1]}"
        )


def prepare_items(
    tokenizer: Any, items: Sequence[ProbeItem], where: str = "items", name: str = "the model", max_length: int = 10**6
) -> PreparedItems:
    """Tokenize probe items for a masked LM and check them, with the tokenizer alone.

    Items with a candidate that is not one token (or is unknown), or two candidates with one
    token, are dropped and listed in ``dropped``.

    Raises:
        DataError: for no items, an item that is not a blank item (a question, a role reversal),
            a context that is not one blank within ``max_length``, or when every item is dropped.
    """
    if not items:
        raise DataError(f"{where}: no items")
    index: dict[str, int] = {}
    contexts: list[list[int]] = []
    positions: list[int] = []
    rows, tokens, answers, dropped, kept = [], [], [], [], []
    for item in items:
        if not (item.has_blank and item.is_multiple_choice):
            raise DataError(
                f"{where}: item {item.item_id} is a {item.item_type} item; MC-MLM learning curves take "
                "items with a blank and candidates (questions: probe curve --protocol qa)"
            )
        try:
            item_tokens = [
                _candidate_token(tokenizer, item, option, *item.split(option), where, name)
                for option in item.candidates
            ]
        except DataError as exc:
            dropped.append((item.item_id, exc.message.split(": ", 2)[-1]))
            continue
        if len(set(item_tokens)) != len(item_tokens):
            dropped.append((item.item_id, f"candidates {list(item.candidates)} share a token in {name}'s vocabulary"))
            continue
        item_rows = []
        for option in item.candidates:
            left, right = item.split(option)
            text = left + tokenizer.mask_token + right
            if text not in index:
                ids = tokenizer(text)["input_ids"]
                found = [i for i, t in enumerate(ids) if t == tokenizer.mask_token_id]
                if len(found) != 1:
                    raise DataError(
                        f"{where}: item {item.item_id}: its context has {len(found)} mask tokens "
                        f"after tokenization, not one"
                    )
                if len(ids) > max_length:
                    raise DataError(
                        f"{where}: item {item.item_id}: {len(ids)} tokens, more than {name} takes ({max_length})"
                    )
                index[text] = len(contexts)
                contexts.append(ids)
                positions.append(found[0])
            item_rows.append(index[text])
        rows.append(item_rows)
        tokens.append(item_tokens)
        answers.append(item.candidates.index(item.answer))
        kept.append(item.item_id)
    if not rows:
        raise DataError(
            f"{where}: every one of the {len(items)} items was dropped (e.g. {dropped[0][0]}: {dropped[0][1]})"
        )
    return PreparedItems(contexts, positions, rows, tokens, answers, tuple(dropped), tuple(kept))


def _candidate_token(tokenizer: Any, item: ProbeItem, option: str, left: str, right: str, where: str, name: str) -> int:
    """The one token ``option`` is in its context (its word-initial form included)."""
    from blimpgen.evaluate.scoring.scorers._torch import option_token_ids

    inside, _ = option_token_ids(tokenizer, left, option, right)
    pieces = tokenizer.convert_ids_to_tokens(inside)
    if len(inside) != 1:
        raise DataError(
            f"{where}: item {item.item_id}: candidate {option!r} is {len(inside)} tokens in {name} "
            f"({' '.join(pieces)}); learning curves need single-token candidates"
        )
    token = inside[0]
    if token == tokenizer.unk_token_id:
        raise DataError(
            f"{where}: item {item.item_id}: candidate {option!r} is not in {name}'s vocabulary (it becomes {pieces[0]})"
        )
    return token


@dataclass
class EncodedItems:
    """Items ready for the head: cached encoder states at the blank and, per item and option,
    the state's row, the candidate's token id, and whether the slot is used (K varies)."""

    states: Any
    rows: Any
    tokens: Any
    valid: Any
    answers: Any
    chance: float

    def __len__(self) -> int:
        return int(self.answers.shape[0])


class HeadTrainer:
    """Trains a masked LM's head in place, everything else frozen.

    Args:
        model: a loaded ``AutoModelForMaskedLM``.
        tokenizer: its fast tokenizer (with a mask token).
        name: the model's name, for messages.

    Raises:
        ModelLoadError: for a tokenizer that does not fit the model or has no mask token, or
            when the head cannot be separated from the encoder.
    """

    def __init__(self, model: Any, tokenizer: Any, name: str = "") -> None:
        import torch

        from blimpgen.evaluate.scoring.scorers._torch import check_tokenizer, embedding_rows

        self.name = name or type(model).__name__
        check_tokenizer(tokenizer, embedding_rows(model), self.name)
        if tokenizer.mask_token_id is None:
            raise ModelLoadError(f"tokenizer of {self.name} has no mask token; learning curves need a masked LM")
        self.model, self.tokenizer, self._torch = model.eval(), tokenizer, torch
        self.head_name, self.head, _ = find_head(model, self.name)
        for parameter in model.parameters():
            parameter.requires_grad_(False)
        self._check_head()
        self._untie_decoder()
        _, _, self.trainable = find_head(model, self.name)
        self.output_names = {
            f"{self.head_name}.{n}"
            for n, _ in self.head.named_parameters()
            if self.head.get_submodule(n.rpartition(".")[0]) is model.get_output_embeddings()
            or n.rpartition(".")[2] == "bias"
            and "." not in n
        }
        self._initial = [parameter.detach().clone() for _, parameter in self.trainable]
        self.setup: Setup = "mlp"
        self.use("mlp")

    def _untie_decoder(self) -> None:
        """Give the decoder its own copy of a weight tied to the input embeddings (oLMpics trains the
        output layer; the input embeddings, and so the encoder, must stay the pre-trained ones)."""
        torch = self._torch
        output = self.model.get_output_embeddings()
        if output.weight is self.model.get_input_embeddings().weight:
            output.weight = torch.nn.Parameter(output.weight.detach().clone(), requires_grad=False)
            if hasattr(self.model.config, "tie_word_embeddings"):
                self.model.config.tie_word_embeddings = False  # so a later tie_weights() keeps them apart

    def use(self, setup: Setup) -> None:
        """Train the whole head (``mlp``, oLMpics' MLP_MLM) or only its output layer (``linear``)."""
        if setup not in ("mlp", "linear"):
            raise ModelLoadError(f"unknown head setup {setup!r}; expected mlp or linear")
        self.setup = setup
        for name, parameter in self.trainable:
            parameter.requires_grad_(setup == "mlp" or name in self.output_names)

    @property
    def training(self) -> list[tuple[str, Any]]:
        """The parameters the current setup trains."""
        return [(n, p) for n, p in self.trainable if p.requires_grad]

    @property
    def device(self) -> Any:
        return self.model.get_input_embeddings().weight.device

    def _encoder_states(self, ids: Any, mask: Any) -> Any:
        return self.model.base_model(input_ids=ids, attention_mask=mask)[0]

    def _check_head(self) -> None:
        """The head applied to the encoder's states must give the model's own logits."""
        torch = self._torch
        ids = torch.tensor([self.tokenizer(self.tokenizer.mask_token)["input_ids"]], device=self.device)
        mask = torch.ones_like(ids)
        try:
            with torch.no_grad():
                expected = self.model(input_ids=ids, attention_mask=mask).logits.float()
                got = self.head(self._encoder_states(ids, mask)).float()
            same = got.shape == expected.shape and torch.allclose(got, expected, rtol=1e-3, atol=1e-3)
        except (RuntimeError, TypeError, AttributeError, IndexError):
            same = False
        if not same:
            raise ModelLoadError(
                f"{self.name}: {self.head_name}(encoder states) does not reproduce the model's "
                f"logits, so its head cannot be trained on its own"
            )

    def reset(self) -> None:
        """Put the pre-trained head back."""
        with self._torch.no_grad():
            for (_, parameter), initial in zip(self.trainable, self._initial):
                parameter.copy_(initial)

    def encode(
        self, items: Sequence[ProbeItem] | PreparedItems, where: str = "items", batch_rows: int = 64
    ) -> EncodedItems:
        """Cache the encoder's states at the blank of each context (items are prepared first).

        Raises:
            DataError: from :func:`prepare_items`.
        """
        torch = self._torch
        prepared = items if isinstance(items, PreparedItems) else prepare_items(self.tokenizer, items, where, self.name)
        self.prepared = prepared
        contexts, positions = prepared.contexts, prepared.positions
        pad = self.tokenizer.pad_token_id if self.tokenizer.pad_token_id is not None else 0
        states = torch.empty((len(contexts), self.model.config.hidden_size), dtype=torch.float32, device=self.device)
        order = sorted(range(len(contexts)), key=lambda i: len(contexts[i]))
        with torch.no_grad():
            for begin in range(0, len(order), batch_rows):
                batch = order[begin : begin + batch_rows]
                width = max(len(contexts[i]) for i in batch)
                ids = torch.full((len(batch), width), pad, dtype=torch.long)
                mask = torch.zeros((len(batch), width), dtype=torch.long)
                for r, i in enumerate(batch):
                    ids[r, : len(contexts[i])] = torch.tensor(contexts[i])
                    mask[r, : len(contexts[i])] = 1
                out = self._encoder_states(ids.to(self.device), mask.to(self.device))
                rows = torch.arange(len(batch), device=out.device)
                picked = out[rows, torch.tensor([positions[i] for i in batch], device=out.device)]
                states[torch.tensor(batch, device=self.device)] = picked.float().to(self.device)
        width = max(len(r) for r in prepared.rows)
        pads = [[0] * (width - len(r)) for r in prepared.rows]
        return EncodedItems(
            states=states,
            rows=torch.tensor([r + p for r, p in zip(prepared.rows, pads)], device=self.device),
            tokens=torch.tensor([t + p for t, p in zip(prepared.tokens, pads)], device=self.device),
            valid=torch.tensor(
                [[True] * len(r) + [False] * len(p) for r, p in zip(prepared.rows, pads)], device=self.device
            ),
            answers=torch.tensor(prepared.answers, device=self.device),
            chance=statistics.fmean(1 / len(r) for r in prepared.rows),
        )

    def scores(self, data: EncodedItems, batch: Any) -> Any:
        """``[b, K]``: log-probability of each candidate of ``data[batch]`` at its blank (-inf in unused slots)."""
        rows = data.rows[batch]
        unique, inverse = self._torch.unique(rows, return_inverse=True)
        states = data.states[unique].to(self.trainable[0][1].dtype)  # fp32 once training has begun
        logprobs = self.head(states).float().log_softmax(dim=-1)
        return logprobs[inverse, data.tokens[batch]].masked_fill(~data.valid[batch], float("-inf"))

    def fit(self, data: EncodedItems, indices: Sequence[int], seed: int, options: TrainOptions) -> list[float]:
        """Train the head on ``data[indices]``; return the mean training loss of each epoch."""
        torch = self._torch
        if any(p.dtype != torch.float32 for p in self.head.parameters()):
            self.model.float()  # train in fp32; the states are cached already
        with seeded(self.device, seed):  # a head with dropout is seeded; the caller's RNG is untouched
            return train(
                [p for _, p in self.training],
                [self.head],
                indices,
                seed,
                options,
                lambda batch: self._loss(data, batch.to(self.device)),
            )

    def _loss(self, data: EncodedItems, batch: Any) -> Any:
        return self._torch.nn.functional.cross_entropy(self.scores(data, batch), data.answers[batch])

    def accuracy(self, data: EncodedItems, batch_items: int = 256) -> float:
        """Share of items whose answer scores strictly highest among their candidates."""
        torch = self._torch
        correct = 0
        with torch.no_grad():
            for begin in range(0, len(data), batch_items):
                batch = torch.arange(begin, min(begin + batch_items, len(data)), device=self.device)
                scores = self.scores(data, batch)
                answer = scores.gather(1, data.answers[batch].unsqueeze(1))
                others = scores.scatter(1, data.answers[batch].unsqueeze(1), float("-inf"))
                correct += int((answer.squeeze(1) > others.max(dim=1).values).sum())
        return correct / len(data)
