"""Helpers shared by the Hugging Face scorers: loading, dtypes, devices, query encoding."""

from __future__ import annotations

import functools
import os
import warnings
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from blimpgen.errors import MissingDependencyError, ModelLoadError, OptionError
from blimpgen.evaluate.scoring.base import Query, Scorer
from blimpgen.evaluate.scoring.options import DTYPES


class TorchScorer(Scorer):
    """A scorer whose model runs on a torch device, chosen by its ``device`` or ``device_map`` option."""

    @classmethod
    def place(cls, options: dict[str, Any], local_rank: int) -> dict[str, Any]:
        """One GPU per process: ``device=cuda:LOCAL_RANK`` unless a device or device map is given
        (or no GPU is visible)."""
        if {"device", "device_map"} & set(options):
            return options
        import torch

        return {**options, "device": f"cuda:{local_rank}"} if torch.cuda.is_available() else options

    def provenance(self) -> dict[str, Any]:
        """The model's id, its revision (a model from the Hugging Face cache: the commit its
        config was read from) or, from a local folder, the SHA-256 of its weight files
        (:func:`~blimpgen.evaluate.provenance.weights_digest`); its device(s) and dtype; and the
        PEFT adapter merged into it, when there is one (its folder and weight files' SHA-256)."""
        record = model_provenance(
            getattr(self, "model", None), getattr(self, "model_name", None), getattr(self, "dtype", None)
        )
        adapter = getattr(self, "adapter", None)
        if adapter is not None:
            from blimpgen.evaluate.provenance import weights_digest

            folder = Path(adapter).expanduser().resolve()
            record["model"]["adapter"] = {"folder": str(folder), **(weights_digest(folder) or {})}
        return record


def model_provenance(model: Any, name: str | None, dtype: str | None) -> dict[str, Any]:
    """``results.json``'s record of a loaded ``transformers`` model (see :meth:`TorchScorer.provenance`)."""
    from pathlib import Path

    from blimpgen.evaluate.provenance import weights_digest

    config = getattr(model, "config", None)
    source = name if name is not None else getattr(config, "name_or_path", None)
    record: dict[str, Any] = {
        "id": source,
        "class": type(model).__name__,
        "model_type": getattr(config, "model_type", None),
        "revision": getattr(config, "_commit_hash", None),
        "weights_sha256": None,
    }
    if source and Path(source).expanduser().is_dir():
        record["local_folder"] = str(Path(source).expanduser().resolve())
        record.update(weights_digest(source) or {})
    device_map = getattr(model, "hf_device_map", None)
    if device_map:
        device: Any = {str(key): str(value) for key, value in device_map.items()}
    else:
        try:
            device = str(next(model.parameters()).device)
        except (AttributeError, StopIteration, TypeError):
            device = None
    return {"model": record, "device": device, "dtype": dtype}


def resolve_device(device: str | None) -> Any:
    """The torch device to use: ``device``, or CUDA when available, else CPU.

    Called before the model loads, so a device this machine lacks costs no loading time.

    Raises:
        OptionError: for a name torch does not know (``banana``), or a device this machine or
            this torch build does not have (``cuda`` on a CPU-only torch, ``cuda:7`` on one GPU).
    """
    import torch

    if not device:
        return torch.device("cuda" if torch.cuda.is_available() else "cpu")
    try:
        target = torch.device(device)
    except (RuntimeError, ValueError, TypeError):
        raise OptionError(
            f"device {device!r}: not a torch device; use cpu, cuda, cuda:N (the N-th GPU) or mps"
        ) from None
    if target.type == "cuda":
        if not torch.cuda.is_available():
            why = "this torch is built without CUDA" if torch.version.cuda is None else "no CUDA GPU is visible"
            raise OptionError(f"device {device!r}: CUDA is not available ({why}); use --device cpu")
        count = torch.cuda.device_count()
        if target.index is not None and target.index >= count:
            raise OptionError(
                f"device {device!r}: this machine has {count} CUDA device{'s' if count != 1 else ''} "
                f"(cuda:0{f' to cuda:{count - 1}' if count > 1 else ''})"
            )
    elif target.type == "mps":
        if not torch.backends.mps.is_available():
            raise OptionError(f"device {device!r}: Apple's MPS is not available here; use --device cpu")
    elif target.type != "cpu":
        try:
            torch.empty(0, device=target)
        except (RuntimeError, AssertionError) as exc:  # torch reports a missing backend either way
            first = (str(exc).strip().splitlines() or [type(exc).__name__])[0]
            raise OptionError(f"device {device!r}: not usable here ({first[:160]})") from None
    return target


def resolve_dtype(dtype: str, device: str | None) -> Any:
    """A torch dtype from its name; ``auto`` is bf16 on a GPU that supports it, else fp32.

    Raises:
        OptionError: for an unknown name.
    """
    import torch

    if dtype not in DTYPES:
        raise OptionError(f"unknown dtype {dtype!r}; expected one of: {', '.join(DTYPES)}")
    if dtype == "auto":
        on_gpu = resolve_device(device).type == "cuda"
        return torch.bfloat16 if on_gpu and torch.cuda.is_bf16_supported() else torch.float32
    return getattr(torch, dtype)


# from_pretrained arguments that have an option of their own (``--model-arg`` may not set them)
OWN_OPTIONS = {
    "dtype": "--dtype",
    "torch_dtype": "--dtype",
    "device_map": "--device-map",
    "pretrained_model_name_or_path": "--model",
}
# from_pretrained arguments the tokenizer takes too (lm-evaluation-harness passes them both)
TOKENIZER_ARGS = ("revision", "trust_remote_code", "cache_dir", "token", "local_files_only", "subfolder")
# What each scorer loads, the scorer for the other kind, and how architectures name each kind
_KINDS = {
    "AutoModelForCausalLM": ("causal", "hf-masked", ("MaskedLM",)),
    "AutoModelForMaskedLM": ("masked", "hf-causal", ("CausalLM", "LMHeadModel")),
}
HUB_TIMEOUT = 3.0  # seconds to wait for the hub before calling it unreachable


def loading_options(tokenizer: Any, model_args: Mapping[str, Any] | None) -> dict[str, Any]:
    """What results record of a tokenizer override and ``--model-arg`` (nothing when neither is given)."""
    out: dict[str, Any] = {}
    if isinstance(tokenizer, str):
        out["tokenizer"] = tokenizer
    if model_args:
        out["model_args"] = {
            key: value if isinstance(value, (str, int, float, bool)) or value is None else str(value)
            for key, value in model_args.items()
        }
    return out


def check_model_args(model_args: Mapping[str, Any] | None) -> dict[str, Any]:
    """``--model-arg`` keys and values, refusing those with an option of their own.

    Raises:
        OptionError: naming the key and the option to use instead.
    """
    out = dict(model_args or {})
    for key in out:
        if key in OWN_OPTIONS:
            raise OptionError(f"--model-arg {key}=...: use {OWN_OPTIONS[key]} instead")
    return out


def load_network(
    auto_class: Any,
    scorer: str,
    model: Any,
    tokenizer: Any,
    dtype: str,
    device: str | None,
    device_map: str | None,
    model_args: Mapping[str, Any] | None,
    adapter: str | None = None,
) -> tuple[Any, Any, Any]:
    """The model and tokenizer a transformers scorer runs, on its device, in eval mode, and the torch dtype.

    ``model`` is a hub id or folder (loaded with ``auto_class`` through :func:`load_pretrained`)
    or a loaded model, which then needs a loaded ``tokenizer``. The device is checked before the
    weights load; the tokenizer is checked against the model's vocabulary. An ``adapter`` (a
    PEFT adapter folder) is merged into the weights (:func:`merge_adapter`).

    Raises:
        OptionError: a loaded model without a loaded tokenizer, or a bad device or dtype.
        ModelLoadError: as :func:`load_pretrained`, :func:`check_tokenizer` and :func:`merge_adapter`.
        MissingDependencyError: an adapter without peft installed.
    """
    torch_dtype = resolve_dtype(dtype, device)
    target: Any = resolve_device(device) if device_map is None else None  # before the weights load
    name = model if isinstance(model, str) else type(model).__name__
    if isinstance(model, str):
        network, tokenizer = load_pretrained(auto_class, model, torch_dtype, device_map, tokenizer, model_args)
    else:
        network = model
    if tokenizer is None or isinstance(tokenizer, str):
        raise OptionError(f"{scorer} needs a loaded tokenizer when given a loaded model")
    check_tokenizer(tokenizer, embedding_rows(network), name)
    if adapter is not None:
        network = merge_adapter(network, adapter, name)
    if device_map is None:
        network = network.to(target, dtype=torch_dtype)
    return network.eval(), tokenizer, torch_dtype


ADAPTER_CONFIG = "adapter_config.json"


def merge_adapter(network: Any, adapter: str, name: str) -> Any:
    """``network`` with the PEFT adapter in folder ``adapter`` merged into its weights.

    Merged, the model is again a plain ``transformers`` model, so every scoring path (the
    split head of hf-causal, the prediction head of hf-masked, prefix sharing) runs unchanged
    and at the base model's speed; the scores equal the adapter model's up to float rounding.
    Adapters that cannot be merged (prompt tuning, prefix tuning) are refused.

    Raises:
        ModelLoadError: a folder that is not a PEFT adapter, an adapter that does not fit the
            model (another architecture or size), or one that cannot be merged.
        MissingDependencyError: peft is not installed.
    """
    folder = Path(adapter).expanduser()
    if not (folder / ADAPTER_CONFIG).is_file():
        raise ModelLoadError(
            f"adapter {adapter!r}: not a PEFT adapter folder (no {ADAPTER_CONFIG}; save one with "
            "model.save_pretrained(folder) on a PeftModel)"
        )
    try:
        from peft import PeftModel
    except ImportError:
        raise MissingDependencyError(f"adapter {adapter!r} needs peft: pip install 'blimpgen[peft]'") from None
    try:
        with warnings.catch_warnings():  # peft calling a transformers API that is deprecated: not the user's concern
            warnings.filterwarnings("ignore", category=FutureWarning, module="peft")
            warnings.filterwarnings("ignore", message=".*is_gradient_checkpointing.*", category=FutureWarning)
            wrapped = PeftModel.from_pretrained(network, str(folder))
    except (OSError, ValueError, KeyError, RuntimeError, TypeError, AttributeError) as exc:
        first = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
        raise ModelLoadError(f"adapter {adapter!r} does not fit model {name!r}: {first[:200]}") from None
    if not hasattr(wrapped, "merge_and_unload"):
        raise ModelLoadError(f"adapter {adapter!r}: a {type(wrapped).__name__} cannot be merged into the weights")
    try:
        return wrapped.merge_and_unload()
    except (AttributeError, ValueError, NotImplementedError, RuntimeError) as exc:
        kind = getattr(getattr(wrapped, "peft_config", {}).get("default"), "peft_type", "this adapter")
        raise ModelLoadError(
            f"adapter {adapter!r}: {kind} cannot be merged into the weights ({str(exc).strip()[:120]}); "
            "blimpgen scores merged adapters (LoRA, IA3 ...)"
        ) from None


def load_pretrained(
    auto_class: Any,
    name: str,
    dtype: Any,
    device_map: str | None,
    tokenizer: Any = None,
    model_args: Mapping[str, Any] | None = None,
) -> tuple[Any, Any]:
    """Load a model and its tokenizer by hub id or local path.

    Args:
        auto_class: ``AutoModelForCausalLM`` or ``AutoModelForMaskedLM``.
        name: the model's hub id or folder.
        dtype: the torch dtype.
        device_map: passed to ``from_pretrained``.
        tokenizer: a loaded tokenizer, or the hub id or folder to load it from (default: ``name``).
        model_args: more ``from_pretrained`` arguments (``revision``, ``trust_remote_code``,
            ``attn_implementation``...); revision and trust_remote_code reach the tokenizer too.

    Raises:
        ModelLoadError: one line naming the model when it cannot be found or loaded (offline or
            with the hub unreachable: at once, naming the cause), when it is another kind of
            model than the scorer's (naming the scorer to use), or its tokenizer is empty.
    """
    from transformers import AutoConfig, AutoTokenizer

    arguments = check_model_args(model_args)
    for target in (name, tokenizer):
        if isinstance(target, str):
            _check_reachable(target, arguments.get("revision"))
            if not Path(target).expanduser().is_dir() and not hub_reachable():
                arguments["local_files_only"] = True  # in the cache: no retries against an unreachable hub
    shared = {key: arguments[key] for key in TOKENIZER_ARGS if key in arguments}
    try:
        config = AutoConfig.from_pretrained(name, **shared)
        check_model_kind(auto_class, config, name)
        if tokenizer is None or isinstance(tokenizer, str):
            source = name if tokenizer is None else tokenizer
            loaded = AutoTokenizer.from_pretrained(source, **shared)
            check_tokenizer(loaded, None, source)  # before the (possibly large) weights load
            tokenizer = loaded
        model = auto_class.from_pretrained(name, dtype=dtype, device_map=device_map, **arguments)
    except (OSError, ValueError, KeyError) as exc:
        raise unknown_model(name, exc) from None
    except TypeError as exc:  # a --model-arg the model class does not take
        raise ModelLoadError(f"model {name!r}: {str(exc).strip().splitlines()[0][:200]} (check --model-arg)") from None
    return model, tokenizer


def unknown_model(name: str, exc: Exception) -> ModelLoadError:
    """The one-line error for a model that ``from_pretrained`` could not find or read (``exc``)."""
    first = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
    return ModelLoadError(
        f"unknown model {name!r}: not a local model folder and not loadable from the Hugging Face hub ({first[:160]})"
    )


def check_model_kind(auto_class: Any, config: Any, name: str) -> None:
    """Refuse a causal LM under ``hf-masked`` and a masked LM under ``hf-causal``, naming the scorer to use.

    Raises:
        ModelLoadError: naming the model's architecture and the right scorer.
    """
    from transformers.models.auto import modeling_auto

    wanted, other_scorer, other_names = _KINDS.get(getattr(auto_class, "__name__", ""), ("", "", ()))
    if not wanted:
        return
    mapping = {
        "causal": modeling_auto.MODEL_FOR_CAUSAL_LM_MAPPING_NAMES,
        "masked": modeling_auto.MODEL_FOR_MASKED_LM_MAPPING_NAMES,
    }
    model_type = getattr(config, "model_type", "")
    architectures = list(getattr(config, "architectures", None) or [])
    other = "masked" if wanted == "causal" else "causal"
    named_other = bool(architectures) and all(any(n in a for n in other_names) for a in architectures)
    if named_other or (model_type not in mapping[wanted] and model_type in mapping[other]):
        what = ", ".join(architectures) or model_type
        raise ModelLoadError(
            f"model {name!r} is a {other} language model ({what}), not a {wanted} one; use --scorer {other_scorer}"
        )


def offline() -> str | None:
    """The variable that puts the Hugging Face libraries offline (``HF_HUB_OFFLINE=1``...), if set."""
    for variable in ("HF_HUB_OFFLINE", "TRANSFORMERS_OFFLINE"):
        if os.environ.get(variable, "").strip().lower() in ("1", "true", "yes", "on"):
            return variable
    return None


@functools.cache
def hub_reachable() -> bool:
    """Whether the Hugging Face hub (``HF_ENDPOINT``) accepts a connection within :data:`HUB_TIMEOUT`
    seconds; False when offline is asked for (:func:`offline`)."""
    import socket
    from urllib.parse import urlparse

    if offline():
        return False
    endpoint = urlparse(os.environ.get("HF_ENDPOINT", "https://huggingface.co"))
    try:
        with socket.create_connection(
            (endpoint.hostname or "huggingface.co", endpoint.port or (80 if endpoint.scheme == "http" else 443)),
            HUB_TIMEOUT,
        ):
            return True
    except OSError:
        return False


def _check_reachable(name: str, revision: Any) -> None:
    """Fail at once for a model (tokenizer) that is neither a folder nor in the cache when the hub
    cannot be used, instead of retrying for a minute and a half.

    Raises:
        ModelLoadError: naming the model and the cause (the variable set, or the hub unreachable).
    """
    if name.startswith(("/", "./", "../", "~")) or Path(name).expanduser().exists():
        if not Path(name).expanduser().is_dir():
            raise ModelLoadError(f"unknown model {name!r}: no such folder")
        return
    if hub_reachable():
        return
    from huggingface_hub import constants, try_to_load_from_cache

    try:
        cached = try_to_load_from_cache(name, "config.json", revision=revision if isinstance(revision, str) else None)
    except ValueError:  # not a valid repo id
        cached = None
    if isinstance(cached, str):
        return
    variable = offline()
    cause = (
        f"{variable} is set"
        if variable
        else f"the Hugging Face hub ({os.environ.get('HF_ENDPOINT', 'https://huggingface.co')}) cannot be reached"
    )
    raise ModelLoadError(
        f"model {name!r} is not a local folder and not in the Hugging Face cache "
        f"({constants.HF_HUB_CACHE}), and {cause}; download it where the hub can be reached, "
        "or pass a local model folder"
    )


# Files a saved tokenizer consists of (one of them suffices); a model folder without any of
# them still loads in transformers 5, as an empty tokenizer that turns every text into 0 tokens.
TOKENIZER_FILES = (
    "tokenizer.json",
    "tokenizer_config.json",
    "vocab.json",
    "vocab.txt",
    "tokenizer.model",
    "spiece.model",
    "sentencepiece.bpe.model",
)


def check_tokenizer(tokenizer: Any, embedding_rows: int | None, name: str) -> None:
    """Refuse a tokenizer that cannot belong to the model: it would score texts silently wrong.

    A tokenizer with no tokens but its special ones (transformers builds one when a model
    folder has no tokenizer files: GPT-2's has 1 token, BERT's 5) turns every sentence into
    0 tokens or into unknown tokens, and one larger than the model's embedding produces ids
    the model has no row for.

    Args:
        tokenizer: the tokenizer to check.
        embedding_rows: rows of the model's input embedding (its vocabulary size); None
            before the model is loaded.
        name: the model's id or folder, for the message.

    Raises:
        ModelLoadError: one line naming the model (folder) and what is missing or mismatched.
    """
    from pathlib import Path

    size = len(tokenizer)
    special = set(getattr(tokenizer, "all_special_ids", ()))
    if size <= 1 or size <= len(special):
        folder = Path(name).expanduser()
        if folder.is_dir() and not any((folder / file).is_file() for file in TOKENIZER_FILES):
            raise ModelLoadError(
                f"model folder {name} has no tokenizer files (none of {', '.join(TOKENIZER_FILES)}); "
                "save the model's tokenizer into it with tokenizer.save_pretrained()"
            )
        raise ModelLoadError(
            f"tokenizer of {name} has {size} token{'s' if size != 1 else ''}, none but special "
            "tokens; it is empty or not the model's tokenizer"
        )
    if embedding_rows is not None and size > embedding_rows:
        raise ModelLoadError(
            f"tokenizer of {name} has {size} tokens but the model's embedding has only "
            f"{embedding_rows} rows; the tokenizer does not belong to this model"
        )


def embedding_rows(model: Any) -> int:
    """Rows of a model's input embedding: the token ids it can read."""
    return int(model.get_input_embeddings().weight.shape[0])


# Model types whose position ids start after the padding index (fairseq's convention), so
# ``max_position_embeddings - pad_token_id - 1`` positions are usable.
_PADDING_OFFSET_TYPES = frozenset({"roberta", "xlm-roberta", "camembert", "longformer", "xlm-roberta-xl"})


def max_positions(model: Any) -> tuple[int, str] | None:
    """The most positions a model reads, and the config attribute that says so (None: no limit known)."""
    config = model.config
    for attribute in ("n_positions", "max_position_embeddings", "n_ctx", "seq_length"):
        value = getattr(config, attribute, None)
        if isinstance(value, int) and not isinstance(value, bool) and value > 0:
            if getattr(config, "model_type", "") in _PADDING_OFFSET_TYPES and attribute == "max_position_embeddings":
                value -= (getattr(config, "pad_token_id", None) or 0) + 1
            return value, attribute
    return None


def encode_query(tokenizer: Any, query: Query) -> tuple[list[int], list[int]]:
    """Token ids of a query's context and text, without special tokens.

    The text is encoded together with its context, so word-initial pieces get the form they
    have inside the sentence; when the context's ids are not a prefix of the joint encoding,
    the two parts are encoded separately (lm-evaluation-harness does the same).
    """
    if not query.context:
        return [], tokenizer.encode(query.text, add_special_tokens=False)
    context = tokenizer.encode(query.context, add_special_tokens=False)
    whole = tokenizer.encode(query.context + query.text, add_special_tokens=False)
    if whole[: len(context)] == context:
        return context, whole[len(context) :]
    return context, tokenizer.encode(query.text, add_special_tokens=False)


def gather_logprobs(
    head: Any, states: Any, rows: Any, targets: Any, vocab_size: int, chunk_tokens: int = 1 << 26
) -> Any:
    """``log_softmax(head(states))[rows, targets]`` without keeping a full log-softmax.

    Args:
        head: maps ``[n, d]`` states to fp32 ``[n, V]`` logits.
        states: ``[U, d]`` states of the unique positions to predict from.
        rows: for each wanted value, its row in ``states``.
        targets: for each wanted value, the token id.
        vocab_size: ``V``, to size chunks.
        chunk_tokens: bound on ``rows x V`` logits held at once.
    """
    import torch

    out = torch.empty(rows.shape[0], dtype=torch.float32, device=rows.device)
    step = max(1, chunk_tokens // max(1, vocab_size))
    for begin in range(0, states.shape[0], step):
        end = min(begin + step, states.shape[0])
        logits = head(states[begin:end])
        normaliser = torch.logsumexp(logits, dim=-1)
        wanted = (rows >= begin) & (rows < end)
        local = (rows[wanted] - begin).to(logits.device)
        values = logits[local, targets[wanted].to(logits.device)] - normaliser[local]
        out[wanted] = values.to(out.device)
    return out


def linear_logprobs(states: Any, weight: Any, bias: Any, rows: Any, targets: Any, chunk_vocab: int = 2048) -> Any:
    """``log_softmax(states @ weight.T + bias)[rows, targets]`` in fp32, one vocabulary slice at a time.

    Each slice's logits are reduced to their logsumexp while still in cache, and the slices'
    logsumexps are combined at the end. The full ``[n, V]`` logit matrix is never written to
    memory and read back, which made the output layer with its normaliser 1.4-1.6x slower on
    a 2-core CPU (50,257 x 512 layer, 512 states). Equal to the unsliced value up to float rounding.

    Args:
        states: ``[U, d]`` states of the unique positions to predict from.
        weight: ``[V, d]`` output layer weight; bias: ``[V]`` or None.
        rows: for each wanted value, its row in ``states``.
        targets: for each wanted value, the token id.
        chunk_vocab: vocabulary entries per slice.
    """
    import torch

    states = states.to(weight.device)
    rows, targets = rows.to(weight.device), targets.to(weight.device)
    picked = torch.empty(rows.shape[0], dtype=torch.float32, device=weight.device)
    normalisers = []
    for begin in range(0, weight.shape[0], chunk_vocab):
        end = min(begin + chunk_vocab, weight.shape[0])
        logits = torch.nn.functional.linear(
            states, weight[begin:end], None if bias is None else bias[begin:end]
        ).float()
        normalisers.append(torch.logsumexp(logits, dim=-1))
        inside = (targets >= begin) & (targets < end)
        picked[inside] = logits[rows[inside], targets[inside] - begin]
    return picked - torch.logsumexp(torch.stack(normalisers, dim=-1), dim=-1)[rows]


def option_token_ids(tokenizer: Any, left: str, option: str, right: str) -> tuple[list[int], bool]:
    """The ids of the tokens covering ``option`` in ``left + option + right`` (found by character
    offsets, so a tokenizer's word-initial forms count), and whether they are the option's own
    (no token reaches into the context beyond the blank's spaces)."""
    encoding = tokenizer(left + option + right, add_special_tokens=False, return_offsets_mapping=True)
    begin, end, floor = len(left), len(left) + len(option), len(left.rstrip())
    ids, own = [], True
    for token, (start, stop) in zip(encoding["input_ids"], encoding["offset_mapping"]):
        if start < end and stop > begin:
            ids.append(token)
            own = own and start >= floor and stop <= end
    return ids, own
