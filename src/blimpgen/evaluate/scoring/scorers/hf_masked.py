"""Masked language models scored by pseudo-log-likelihood (``hf-masked``).

PLL (Salazar et al. 2020) scores each token with that one token masked. ``within-word-l2r``
(Kauf & Ivanova 2023) also masks the tokens to its right *within the same word*, so a
multi-piece word cannot be predicted from its own later pieces, which inflates PLL for
out-of-vocabulary words. With one token per word both metrics are the same.

Every masked copy of every sentence is one row; rows are grouped by length into batches under a
token budget (one length per batch: no padding, no attention mask), the copies are made on the
device from one tokenization of each sentence, and the output layer runs only at the masked
position of each row.

Cloze probes (:meth:`MaskedLMScorer.blank`) put the mask token in the blank and read the
full-vocabulary distribution there, one forward pass per distinct context; an option must be
exactly one token of the model's vocabulary.

The learning curves (:mod:`blimpgen.evaluate.curves`) load their masked LM here too
(:func:`load_masked_lm_tokenizer`, then :func:`load_masked_lm`): the tokenizer is checked
before the weights load, so bad items fail fast.

A text longer than the model's context, special tokens included, is refused with
:class:`~blimpgen.evaluate.scoring.base.QueryError` (never truncated).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any, Literal

from blimpgen.errors import DataError, ModelLoadError, OptionError
from blimpgen.evaluate.scoring.base import (
    BlankQuery,
    BlankScores,
    Query,
    QueryError,
    TokenScores,
)
from blimpgen.evaluate.scoring.scorers._torch import (
    TorchScorer,
    check_tokenizer,
    gather_logprobs,
    load_network,
    load_pretrained,
    loading_options,
    max_positions,
    option_token_ids,
    resolve_device,
    resolve_dtype,
    unknown_model,
)

if TYPE_CHECKING:  # the annotations say what only a library caller can pass (scoring.options)
    from transformers import PreTrainedModel, PreTrainedTokenizerBase

PLL_METRICS = ("original", "within-word-l2r")
# model type -> attribute of the prediction head that maps final states to logits
_HEADS = {"bert": "cls", "roberta": "lm_head", "xlm-roberta": "lm_head", "camembert": "lm_head"}


class MaskedLMScorer(TorchScorer):
    """Score text with any ``AutoModelForMaskedLM`` by pseudo-log-likelihood.

    Args:
        model: a model id, a local path, or a loaded ``PreTrainedModel`` (then pass ``tokenizer``).
        tokenizer: a loaded fast tokenizer, or the hub id or folder to load it from (``--tokenizer``);
            default: loaded from ``model`` when it is a name or path.
        pll: ``original`` or ``within-word-l2r``.
        dtype: ``float32`` (default), ``bfloat16``, ``float16`` or ``auto``.
        device: ``cpu``, ``cuda``...; default: CUDA when available.
        device_map: passed to ``from_pretrained``.
        batch_tokens: token budget of one forward pass, padding included.
        model_args: more ``from_pretrained`` arguments (``--model-arg KEY=VALUE``): ``revision``,
            ``trust_remote_code``, ``attn_implementation``...; revision and trust_remote_code
            reach the tokenizer too.
        adapter: a PEFT adapter folder (LoRA, IA3 ...) merged into the model's weights after it
            loads (needs peft: ``pip install 'blimpgen[peft]'``); results record its weights' SHA-256.

    Raises:
        ModelLoadError: for a model or tokenizer that cannot be loaded or do not fit, or a
            tokenizer without a mask token or word ids (not a fast tokenizer).
        OptionError: for a bad ``pll`` or ``dtype``, or a loaded model without a tokenizer.
    """

    name = "hf-masked"
    default_probe_method = "blank"

    def __init__(
        self,
        model: str | PreTrainedModel,
        tokenizer: str | PreTrainedTokenizerBase | None = None,
        pll: Literal["original", "within-word-l2r"] = "within-word-l2r",
        dtype: str = "float32",
        device: str | None = None,
        device_map: str | None = None,
        batch_tokens: int = 4096,
        model_args: Mapping[str, Any] | None = None,
        adapter: str | None = None,
    ) -> None:
        import torch
        from transformers import AutoModelForMaskedLM

        if pll not in PLL_METRICS:
            raise OptionError(f"unknown PLL metric {pll!r}; expected one of: {', '.join(PLL_METRICS)}")
        self.model_name = model if isinstance(model, str) else type(model).__name__
        self.loading = loading_options(tokenizer, model_args)
        if adapter is not None:
            self.loading["adapter"] = adapter
        self.adapter = adapter
        network, loaded, torch_dtype = load_network(
            AutoModelForMaskedLM, "hf-masked", model, tokenizer, dtype, device, device_map, model_args, adapter
        )
        if loaded.mask_token_id is None:
            raise ModelLoadError(f"tokenizer of {self.model_name} has no mask token; hf-masked needs one")
        if not getattr(loaded, "is_fast", False):
            raise ModelLoadError(f"tokenizer of {self.model_name} is not a fast tokenizer; hf-masked needs word ids")
        self.model, self.tokenizer = network, loaded
        self.pll, self.batch_tokens, self.device_map = pll, batch_tokens, device_map
        self.dtype = str(torch_dtype).replace("torch.", "")
        self._head = _HEADS.get(getattr(network.config, "model_type", ""))
        self.max_positions = max_positions(network)
        self._torch = torch

    def tokenize(self, text: str) -> list[str]:
        tokens = self.tokenizer.convert_ids_to_tokens(self.tokenizer.encode(text, add_special_tokens=False))
        return [tokens] if isinstance(tokens, str) else tokens  # a list of ids gives a list

    def _token_text(self, token_id: int) -> str:
        """One token as text, without the space a tokenizer may mark word starts with."""
        text = self.tokenizer.decode([token_id])
        if not isinstance(text, str):  # decode gives one string for one sequence of ids
            raise ModelLoadError(f"tokenizer of {self.model_name} decodes a token to {text!r}, not to a string")
        return text.strip()

    def options(self) -> dict[str, Any]:
        return {
            "scorer": self.name,
            "model": self.model_name,
            "pll": self.pll,
            "dtype": self.dtype,
            "device_map": self.device_map,
            **self.loading,
        }

    def _plans(self, queries: Sequence[Query]) -> list[tuple[list[int], list[int], list[int]]]:
        """Each query's token ids, word ids (-1 for special tokens) and scored positions, from
        one tokenizer call for all of them."""
        if not queries:
            return []
        encodings = self.tokenizer(
            [query.context + query.text for query in queries],
            return_offsets_mapping=True,
            return_special_tokens_mask=True,
        )
        plans = []
        for n, query in enumerate(queries):
            begin = len(query.context)
            scored = [
                i
                for i, (special, (start, end)) in enumerate(
                    zip(encodings["special_tokens_mask"][n], encodings["offset_mapping"][n])
                )
                if not special and end > begin
            ]
            words = [-1 if word is None else word for word in encodings.word_ids(n)]
            plans.append((encodings["input_ids"][n], words, scored))
        return plans

    def _batches(self, lengths: list[int]) -> list[list[int]]:
        """Row indices, sorted by length, cut into batches of one length each under the token
        budget (a row longer than the budget alone): no padding, so no attention mask."""
        order = sorted(range(len(lengths)), key=lengths.__getitem__)
        batches: list[list[int]] = []
        for row in order:
            batch = batches[-1] if batches else None
            if (
                batch is None
                or lengths[batch[0]] != lengths[row]
                or (len(batch) + 1) * lengths[row] > max(self.batch_tokens, lengths[row])
            ):
                batches.append([row])
            else:
                batch.append(row)
        return batches

    def score(self, queries: Sequence[Query]) -> list[TokenScores]:
        """PLL of each query's text: one masked copy per scored token, batched across queries.

        Every copy of a sentence has the sentence's length, so batches of one length need no
        padding and no attention mask; the masked copies are made on the device from each
        sentence's ids (within-word-l2r also masks the later pieces of the word).
        """
        torch = self._torch
        first: dict[Query, int] = {}
        for index, query in enumerate(queries):
            first.setdefault(query, index)
        unique = list(first)
        plans = self._plans(unique)
        for query, (ids, _, _) in zip(unique, plans):
            self._check_length(len(ids), first[query])
        # one row per scored token: (query, position)
        row_query = [q for q, (_, _, scored) in enumerate(plans) for _ in scored]
        row_position = [i for _, _, scored in plans for i in scored]
        values = [0.0] * len(row_query)
        device = self.model.get_input_embeddings().weight.device
        l2r = self.pll == "within-word-l2r"
        with torch.inference_mode():
            batches = self._batches([len(plans[q][0]) for q in row_query])
            for done, batch in enumerate(batches, 1):
                width = len(plans[row_query[batch[0]]][0])
                members = sorted({row_query[r] for r in batch})
                local = {q: m for m, q in enumerate(members)}
                sentences = torch.tensor([plans[q][0] for q in members], device=device)
                which = torch.tensor([local[row_query[r]] for r in batch], device=device)
                positions = torch.tensor([row_position[r] for r in batch], device=device)
                ids = sentences[which]
                targets = ids[torch.arange(len(batch), device=device), positions]
                columns = torch.arange(width, device=device)
                masked = columns == positions[:, None]
                if l2r:  # the token and the later pieces of its word
                    words = torch.tensor([plans[q][1] for q in members], device=device)[which]
                    own = words.gather(1, positions[:, None])
                    masked |= (words == own) & (columns > positions[:, None]) & (words >= 0)
                ids = ids.masked_fill(masked, self.tokenizer.mask_token_id)
                states = self._states(ids, None)
                rows = torch.arange(len(batch), device=states.device)
                picked = states[rows, positions.to(states.device)]
                logprobs = gather_logprobs(
                    self._logits, picked, rows, targets.to(states.device), self.model.config.vocab_size
                )
                for r, value in zip(batch, logprobs.tolist()):
                    values[r] = value
                self.report_batch(done, len(batches))
        by_query = {}
        start = 0
        for q, query in enumerate(unique):
            ids, _, scored = plans[q]
            tokens = tuple(self.tokenizer.convert_ids_to_tokens([ids[i] for i in scored]))
            by_query[query] = TokenScores(tokens, tuple(values[start : start + len(scored)]))
            start += len(scored)
        return [by_query[q] for q in queries]

    def _check_length(self, length: int, index: int) -> None:
        """Raise :class:`QueryError` for query ``index`` when its ``length`` tokens do not fit the model."""
        if self.max_positions is not None and length > self.max_positions[0]:
            limit, attribute = self.max_positions
            raise QueryError(
                index,
                f"is {length} tokens with the special tokens, more than the {limit} that model "
                f"{self.model_name} reads ({attribute}); shorten it or use a model with a "
                "longer context",
            )

    def _states(self, ids: Any, mask: Any) -> Any:
        if self._head is None:
            return self.model(input_ids=ids, attention_mask=mask).logits
        return self.model.base_model(input_ids=ids, attention_mask=mask).last_hidden_state

    def _logits(self, states: Any) -> Any:
        if self._head is None:
            return states.float()
        return getattr(self.model, self._head)(states).float()

    # -- cloze probes -------------------------------------------------------------------------
    def blank_tokens(self, query: BlankQuery) -> list[tuple[str, ...]]:
        """The tokens covering each option in its filled sentence; empty for an option that
        merges with the text around the blank (no tokens of its own) or becomes the unknown token."""
        out = []
        for option in query.options:
            ids, own = option_token_ids(self.tokenizer, query.left, option, query.right)
            unknown = self.tokenizer.unk_token_id is not None and self.tokenizer.unk_token_id in ids
            out.append(tuple(self.tokenizer.convert_ids_to_tokens(ids)) if own and not unknown else ())
        return out

    def check_blank(self, query: BlankQuery) -> None:
        """Raise the one-line error for an option that is not exactly one token of its own."""
        self._target_ids(query)

    def _target_ids(self, query: BlankQuery) -> list[int]:
        targets = []
        for option in query.options:
            ids, own = option_token_ids(self.tokenizer, query.left, option, query.right)
            unknown = ids == [self.tokenizer.unk_token_id]
            if own and len(ids) == 1 and not unknown:
                targets.append(ids[0])
                continue
            tokens = ", ".join(repr(t) for t in self.tokenizer.convert_ids_to_tokens(ids))
            problem = (
                "is not in the vocabulary"
                if unknown
                else f"is {len(ids)} tokens"
                if own
                else "merges with the text around the blank"
            )
            raise DataError(
                f"candidate {option!r} {problem} for model {self.model_name} ({tokens}); masked "
                "multiple-choice and sensitivity need single-token candidates (for multiple "
                "choice, --probe-method sentence takes any)"
            )
        return targets

    def blank(self, queries: Sequence[BlankQuery], top_k: int = 0) -> list[BlankScores]:
        """Log-probabilities of single-token options at the mask, over the full vocabulary.

        Raises:
            DataError: one line naming an option that is not exactly one token.
            QueryError: for a context longer than the model reads.
        """
        torch = self._torch
        targets = [self._target_ids(query) for query in queries]
        asking: dict[tuple[str, str], list[int]] = {}
        for index, query in enumerate(queries):
            asking.setdefault((query.left, query.right), []).append(index)
        contexts = list(asking)
        rows = self._blank_rows(contexts)
        for c, (ids, _) in enumerate(rows):
            self._check_length(len(ids), asking[contexts[c]][0])
        order = sorted(range(len(contexts)), key=lambda c: len(rows[c][0]))
        device = self.model.get_input_embeddings().weight.device
        pad = self.tokenizer.pad_token_id if self.tokenizer.pad_token_id is not None else 0
        step = max(1, (1 << 26) // max(1, self.model.config.vocab_size))  # bounds rows x V logits held at once
        out: dict[int, BlankScores] = {}  # query index -> its scores
        spans, start = [], 0
        while start < len(order):
            # length-sorted, so the last context of a batch is its longest
            end = start + 1
            while (
                end < len(order)
                and end - start < step
                and (end - start + 1) * len(rows[order[end]][0]) <= self.batch_tokens
            ):
                end += 1
            spans.append((start, end))
            start = end
        with torch.inference_mode():
            for done, (start, end) in enumerate(spans, 1):
                batch = order[start:end]
                width = len(rows[batch[-1]][0])
                ids = torch.full((len(batch), width), pad, dtype=torch.long)
                mask = torch.zeros((len(batch), width), dtype=torch.long)
                for r, c in enumerate(batch):
                    ids[r, : len(rows[c][0])] = torch.tensor(rows[c][0])
                    mask[r, : len(rows[c][0])] = 1
                states = self._states(ids.to(device), mask.to(device))
                positions = torch.tensor([rows[c][1] for c in batch], device=states.device)
                picked = states[torch.arange(len(batch), device=states.device), positions]
                logprobs = torch.log_softmax(self._logits(picked), dim=-1)
                top_ids = torch.topk(logprobs, min(top_k, logprobs.shape[-1])).indices.tolist() if top_k else None
                for r, c in enumerate(batch):
                    row = logprobs[r]
                    top = tuple(self._token_text(i) for i in top_ids[r]) if top_ids else ()
                    for index in asking[contexts[c]]:
                        wanted = torch.tensor(targets[index], device=row.device)
                        values = row[wanted]
                        ranks = 1 + (row.unsqueeze(0) > values.unsqueeze(1)).sum(dim=1)
                        out[index] = BlankScores(tuple(values.tolist()), top, tuple(ranks.tolist()))
                self.report_batch(done, len(spans))
        return [out[index] for index in range(len(queries))]  # every query asks in one context

    def _blank_rows(self, contexts: Sequence[tuple[str, str]]) -> list[tuple[list[int], int]]:
        """Token ids of each context with the mask token in the blank, and the mask's position."""
        out = []
        for left, right in contexts:
            ids = self.tokenizer(left + self.tokenizer.mask_token + right)["input_ids"]
            positions = [i for i, token in enumerate(ids) if token == self.tokenizer.mask_token_id]
            if len(positions) != 1:
                raise DataError(
                    f"context {left + '[MASK]' + right!r} has {len(positions)} mask tokens for "
                    f"model {self.model_name}; expected exactly one"
                )
            out.append((ids, positions[0]))
        return out


# -- loading for head-only training (learning curves) -------------------------------------------
def load_masked_lm_tokenizer(name: str) -> tuple[Any, int]:
    """The tokenizer of a masked LM and the longest input it takes, without loading the weights.

    Raises:
        ModelLoadError: one line, when the model cannot be found, is not a masked LM, or its
            tokenizer is missing, does not fit the model, has no mask token or is not a fast tokenizer.
    """
    from pathlib import Path

    from transformers import AutoConfig, AutoTokenizer
    from transformers.models.auto.modeling_auto import MODEL_FOR_MASKED_LM_MAPPING_NAMES

    if name.startswith(("/", "./", "../", "~")) and not Path(name).expanduser().is_dir():
        raise ModelLoadError(f"unknown model {name!r}: no such folder")
    try:
        config = AutoConfig.from_pretrained(name)
        tokenizer = AutoTokenizer.from_pretrained(name)
    except (OSError, ValueError, KeyError) as exc:
        raise unknown_model(name, exc) from None
    if config.model_type not in MODEL_FOR_MASKED_LM_MAPPING_NAMES:
        raise ModelLoadError(
            f"{name}: a {config.model_type} model has no masked-LM head; learning curves train "
            f"the head of a masked LM (BERT, RoBERTa, ALBERT, ...)"
        )
    check_tokenizer(tokenizer, config.vocab_size, name)
    if tokenizer.mask_token_id is None:
        raise ModelLoadError(f"tokenizer of {name} has no mask token; learning curves need a masked LM")
    if not getattr(tokenizer, "is_fast", False):
        raise ModelLoadError(f"tokenizer of {name} is not a fast tokenizer; candidates are found by offsets")
    return tokenizer, min(tokenizer.model_max_length, getattr(config, "max_position_embeddings", 10**6))


def load_masked_lm(name: str, tokenizer: Any, dtype: str = "float32", device: str | None = None) -> Any:
    """Load the weights of a masked LM (whose tokenizer :func:`load_masked_lm_tokenizer` gave).

    Raises:
        ModelLoadError: one line, when the model cannot be loaded.
    """
    from transformers import AutoModelForMaskedLM

    target = resolve_device(device)  # before the weights load
    model, _ = load_pretrained(AutoModelForMaskedLM, name, resolve_dtype(dtype, device), None, tokenizer)
    return model.to(target)
