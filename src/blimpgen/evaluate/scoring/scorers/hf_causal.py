"""Causal language models from Hugging Face ``transformers`` (``hf-causal``).

Every token of a sentence is scored, the first one too: a BOS token (EOS for tokenizers
without one, as lm-evaluation-harness does) is prepended. The work is cut three ways without
changing any number beyond float rounding:

* Sentences that start alike share their prefix: the good and bad sentence of a pair, and
  different pairs (``<|endoftext|> The dog ...``). Sorted sentences are packed into rows as
  prefix trees and run with a tree attention mask, so each distinct prefix is fed once
  (``_engine.run_items``).
* The last token is never fed: nothing is predicted from it.
* Log-probabilities are ``logit[target] - logsumexp(logits)`` in fp32, computed only at the
  positions whose next token is scored, each once, so no full-vocabulary log-softmax is kept.

Batches are length-sorted under a token budget and results restored to input order;
identical queries are scored once.

A text longer than the model's context (``n_positions`` / ``max_position_embeddings``) is
refused with :class:`~blimpgen.evaluate.scoring.base.QueryError` rather than truncated or scored in
windows: a BLiMP sentence that long is a data problem, and a truncated score would not be the
sentence's. With BOS, a text of ``n_positions`` tokens still fits (its last token is never fed).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any, Literal

from blimpgen.errors import ModelLoadError, OptionError
from blimpgen.evaluate.scoring.base import BlankQuery, BlankScores, Query, QueryError, TokenScores
from blimpgen.evaluate.scoring.scorers._torch import (
    TorchScorer,
    encode_query,
    load_network,
    loading_options,
    max_positions,
)

if TYPE_CHECKING:  # the annotations say what only a library caller can pass (scoring.options)
    from transformers import PreTrainedModel, PreTrainedTokenizerBase

# Model types whose logits are exactly ``lm_head(base_model(...).last_hidden_state)``; others
# go through the full forward (same numbers, logits for every fed position).
_PLAIN_HEAD_TYPES = frozenset(
    {
        "gpt2",
        "gpt_neo",
        "gpt_neox",
        "gptj",
        "llama",
        "mistral",
        "mixtral",
        "qwen2",
        "qwen3",
        "opt",
        "bloom",
        "falcon",
        "phi",
        "phi3",
        "olmo",
        "olmo2",
        "stablelm",
        "starcoder2",
        "codegen",
    }
)
# Model types that take a custom 4D attention mask as given and place tokens by ``position_ids``
# (no ALiBi), so prefix trees can be packed into one row; with attention implementations that
# accept such a mask (flash-attention kernels do not).
_TREE_MASK_TYPES = _PLAIN_HEAD_TYPES - {"bloom", "falcon"}
_TREE_MASK_ATTENTION = frozenset({"sdpa", "eager"})


CPU_BATCH_TOKENS = 512
ACCELERATOR_BATCH_TOKENS = 8192


class CausalLMScorer(TorchScorer):
    """Score text with any ``AutoModelForCausalLM``.

    Args:
        model: a model id, a local path, or a loaded ``PreTrainedModel`` (then pass ``tokenizer``).
        tokenizer: a loaded tokenizer, or the hub id or folder to load it from (``--tokenizer``);
            default: loaded from ``model`` when it is a name or path.
        dtype: ``float32`` (default), ``bfloat16``, ``float16`` or ``auto`` (bf16 on a GPU).
        device: ``cpu``, ``cuda``, ``cuda:1``...; default: CUDA when available.
        device_map: passed to ``from_pretrained`` (``"auto"`` spreads a large model over devices).
        model_args: more ``from_pretrained`` arguments (``--model-arg KEY=VALUE``): ``revision``,
            ``trust_remote_code``, ``attn_implementation``...; revision and trust_remote_code
            reach the tokenizer too.
        adapter: a PEFT adapter folder (LoRA, IA3 ...) merged into the model's weights after it
            loads (needs peft: ``pip install 'blimpgen[peft]'``); results record its weights' SHA-256.
        batch_tokens: token budget of one forward pass, padding included (default 512 on CPU,
            8192 on an accelerator).
        first_token: ``bos`` scores the first word after a prepended BOS/EOS token; ``none``
            prepends nothing, so a sentence's first token is not scored.
        share_prefix: feed a prefix shared by several sentences once (turn off only to compare);
            used for the model types in ``_TREE_MASK_TYPES`` under sdpa or eager attention.

    Raises:
        ModelLoadError: for a model or tokenizer that cannot be loaded or do not fit, or a
            tokenizer with neither BOS nor EOS under ``first_token="bos"``.
        OptionError: for a bad ``first_token`` or ``dtype``, or a loaded model without a tokenizer.
    """

    name = "hf-causal"

    def __init__(
        self,
        model: str | PreTrainedModel,
        tokenizer: str | PreTrainedTokenizerBase | None = None,
        dtype: str = "float32",
        device: str | None = None,
        device_map: str | None = None,
        batch_tokens: int | None = None,
        first_token: Literal["bos", "none"] = "bos",
        share_prefix: bool = True,
        model_args: Mapping[str, Any] | None = None,
        adapter: str | None = None,
    ) -> None:
        import torch
        from transformers import AutoModelForCausalLM

        if first_token not in ("bos", "none"):
            raise OptionError(f"first_token must be 'bos' or 'none', got {first_token!r}")
        self.model_name = model if isinstance(model, str) else type(model).__name__
        self.loading = loading_options(tokenizer, model_args)
        if adapter is not None:
            self.loading["adapter"] = adapter
        self.adapter = adapter
        network, loaded, torch_dtype = load_network(
            AutoModelForCausalLM, "hf-causal", model, tokenizer, dtype, device, device_map, model_args, adapter
        )
        self.tokenizer = loaded
        self.max_positions = max_positions(network)
        self.model = network
        if batch_tokens is None:
            # Measured with bench/eval_speed.py on a 2-core CPU (6x512 GPT-2, all 67 paradigms,
            # prefix trees): 512 tokens per pass ran 11.8-12.1 s, 256 ran 13-14 s, 1024 12.5 s and
            # 4096 14.2 s, since larger batches spill the caches. Accelerators want large batches.
            on_cpu = next(network.parameters()).device.type == "cpu"
            batch_tokens = CPU_BATCH_TOKENS if on_cpu else ACCELERATOR_BATCH_TOKENS
        self.dtype = str(torch_dtype).replace("torch.", "")
        self.device_map, self.batch_tokens = device_map, batch_tokens
        self.first_token, self.share_prefix = first_token, share_prefix
        self.prefix_id: int | None = None
        if first_token == "bos":
            self.prefix_id = loaded.bos_token_id if loaded.bos_token_id is not None else loaded.eos_token_id
            if self.prefix_id is None:
                raise ModelLoadError(
                    f"tokenizer of {self.model_name} has neither a BOS nor an EOS token, so the "
                    "first word cannot be scored; use --first-token none"
                )
        model_type = getattr(network.config, "model_type", "")
        self.split_head = model_type in _PLAIN_HEAD_TYPES and network.get_output_embeddings() is not None
        attention = getattr(network.config, "_attn_implementation", None) or "eager"
        self.tree_mask = model_type in _TREE_MASK_TYPES and attention in _TREE_MASK_ATTENTION
        self._torch = torch

    def tokenize(self, text: str) -> list[str]:
        tokens = self.tokenizer.convert_ids_to_tokens(self.tokenizer.encode(text, add_special_tokens=False))
        return [tokens] if isinstance(tokens, str) else tokens  # a list of ids gives a list

    def options(self) -> dict[str, Any]:
        return {
            "scorer": self.name,
            "model": self.model_name,
            "dtype": self.dtype,
            "device_map": self.device_map,
            "first_token": self.first_token,
            "first_token_id": self.prefix_id,
            "share_prefix": self.share_prefix,
            **self.loading,
        }

    def _encode(self, query: Query) -> tuple[tuple[int, ...], int]:
        context, text = encode_query(self.tokenizer, query)
        if self.prefix_id is not None:
            return (self.prefix_id, *context, *text), 1 + len(context)
        ids = (*context, *text)
        return ids, max(1, len(context))

    def score(self, queries: Sequence[Query]) -> list[TokenScores]:
        from blimpgen.evaluate.scoring.scorers._engine import run_items

        encoded = [self._encode(q) for q in queries]
        self._check_lengths(encoded)
        item_index: dict[tuple[tuple[int, ...], int], int] = {}
        for item in encoded:
            item_index.setdefault(item, len(item_index))
        logprobs = run_items(self, list(item_index), share=self.share_prefix and self.tree_mask)
        out = []
        for ids, start in encoded:
            tokens = tuple(self.tokenizer.convert_ids_to_tokens(list(ids[start:])))
            out.append(TokenScores(tokens, tuple(logprobs[item_index[(ids, start)]])))
        return out

    def _check_lengths(self, encoded: Sequence[tuple[tuple[int, ...], int]]) -> None:
        """Raise :class:`QueryError` for the first text that needs more positions than the model has."""
        if self.max_positions is None:
            return
        limit, attribute = self.max_positions
        for index, (ids, _) in enumerate(encoded):
            if len(ids) - 1 > limit:  # the last token is never fed
                bos = self.prefix_id is not None
                tokens, most = len(ids) - bos, limit + (not bos)
                raise QueryError(
                    index,
                    f"is {tokens} tokens, more than the {most} that model {self.model_name} can "
                    f"score ({attribute}={limit}{', after the BOS token' if bos else ''}); "
                    "shorten it or use a model with a longer context",
                )

    # -- model calls used by the engine -------------------------------------------------------
    def forward_hidden(self, input_ids: Any, attention_mask: Any, position_ids: Any) -> Any:
        """Run the model without a cache; return its last hidden states (or logits)."""
        module = self.model.base_model if self.split_head else self.model
        output = module(input_ids=input_ids, attention_mask=attention_mask, position_ids=position_ids, use_cache=False)
        return output.last_hidden_state if self.split_head else output.logits

    def head_logprobs(self, states: Any, rows: Any, targets: Any) -> Any:
        """fp32 ``log_softmax(logits)[rows, targets]`` for selected positions' states (or logits)."""
        from blimpgen.evaluate.scoring.scorers._torch import gather_logprobs, linear_logprobs

        if not self.split_head:
            return gather_logprobs(lambda logits: logits.float(), states, rows, targets, self.vocab_size)
        head = self.model.get_output_embeddings()
        return linear_logprobs(states, head.weight, head.bias, rows, targets)

    @property
    def vocab_size(self) -> int:
        """Size of the output layer."""
        head = self.model.get_output_embeddings()
        return head.weight.shape[0] if head is not None else len(self.tokenizer)

    @property
    def input_device(self) -> Any:
        return self.model.get_input_embeddings().weight.device

    # -- cloze probes (see _cloze.py) ---------------------------------------------------------
    def blank(self, queries: Sequence[BlankQuery], top_k: int = 0) -> list[BlankScores]:
        """Options scored after the left context (a left-to-right model cannot use the right
        one); with ``top_k``, the top tokens and ranks of the next-token distribution there."""
        from blimpgen.evaluate.scoring.scorers._cloze import causal_blank

        return causal_blank(self, queries, top_k)

    def blank_tokens(self, query: BlankQuery) -> list[tuple[str, ...]]:
        from blimpgen.evaluate.scoring.scorers._cloze import causal_blank_tokens

        return causal_blank_tokens(self, query)
