"""PEFT adapters (issue 16): ``--adapter FOLDER`` merges a LoRA adapter into the model's weights.

The adapters here are initialised at random (``init_lora_weights=False``), so they change every
score: a test that only checked that loading works would pass with the adapter ignored.
"""

from __future__ import annotations

import json
import math
from pathlib import Path

import pytest

from blimpgen.errors import ModelLoadError
from blimpgen.evaluate.scoring.base import Query
from blimpgen.evaluate.scoring.scorers.hf_causal import CausalLMScorer
from blimpgen.evaluate.scoring.scorers.hf_masked import MaskedLMScorer

from ..tiny import SENTENCES, make_bert, make_bytelevel_gpt2, make_tokenizer, run_cli

peft = pytest.importorskip("peft")
# peft's own use of a deprecated transformers API, in the tests' direct PeftModel computations
pytestmark = pytest.mark.filterwarnings("ignore:.*is_gradient_checkpointing.*:FutureWarning")


def _save_adapter(model, folder: Path, modules: list[str], fan_in_fan_out: bool = False) -> Path:
    torch = pytest.importorskip("torch")
    torch.manual_seed(1)
    config = peft.LoraConfig(
        r=4, lora_alpha=8, target_modules=modules, init_lora_weights=False, fan_in_fan_out=fan_in_fan_out
    )
    peft.get_peft_model(model, config).save_pretrained(folder)
    return folder


@pytest.fixture(scope="module")
def gpt2(tmp_path_factory) -> tuple[Path, Path]:
    from transformers import AutoModelForCausalLM

    root = tmp_path_factory.mktemp("peft")
    folder = make_bytelevel_gpt2(SENTENCES, root / "gpt2")
    adapter = _save_adapter(AutoModelForCausalLM.from_pretrained(folder), root / "gpt2-lora", ["c_attn", "c_fc"], True)
    return folder, adapter


@pytest.fixture(scope="module")
def bert(tmp_path_factory) -> tuple[Path, Path]:
    from transformers import AutoModelForMaskedLM

    root = tmp_path_factory.mktemp("peft")
    folder = root / "bert"
    tokenizer = make_tokenizer("wordlevel")
    make_bert(tokenizer).save_pretrained(folder)
    tokenizer.save_pretrained(folder)
    adapter = _save_adapter(AutoModelForMaskedLM.from_pretrained(folder), root / "bert-lora", ["query", "value"])
    return folder, adapter


def _direct_causal(folder: Path, adapter: Path, text: str) -> float:
    """Sum of log P(token | BOS + earlier tokens) under the unmerged PeftModel."""
    import torch
    from transformers import AutoModelForCausalLM, AutoTokenizer

    tokenizer = AutoTokenizer.from_pretrained(folder)
    model = peft.PeftModel.from_pretrained(AutoModelForCausalLM.from_pretrained(folder), str(adapter)).eval()
    ids = [tokenizer.bos_token_id, *tokenizer.encode(text)]
    with torch.no_grad():
        logprobs = torch.log_softmax(model(input_ids=torch.tensor([ids])).logits[0].double(), -1)
    return sum(logprobs[i - 1, ids[i]].item() for i in range(1, len(ids)))


def test_adapter_causal_scores_equal_the_peft_model_and_differ_from_the_base(gpt2) -> None:
    folder, adapter = gpt2
    texts = SENTENCES[:4]
    base = CausalLMScorer(str(folder), device="cpu")
    tuned = CausalLMScorer(str(folder), device="cpu", adapter=str(adapter))
    queries = [Query("", text) for text in texts]
    plain = [sum(s.logprobs) for s in base.score(queries)]
    merged = [sum(s.logprobs) for s in tuned.score(queries)]
    direct = [_direct_causal(folder, adapter, text) for text in texts]
    assert all(math.isclose(m, d, abs_tol=1e-4) for m, d in zip(merged, direct)), (merged, direct)
    assert all(abs(m - p) > 1e-3 for m, p in zip(merged, plain)), (merged, plain)  # the adapter is not ignored
    assert tuned.options()["adapter"] == str(adapter)


def test_adapter_masked_pll_differs_from_the_base_and_equals_a_direct_pll(bert) -> None:
    import torch
    from transformers import AutoModelForMaskedLM, AutoTokenizer

    folder, adapter = bert
    text = SENTENCES[0]
    tuned = MaskedLMScorer(str(folder), device="cpu", adapter=str(adapter), pll="original")
    base = MaskedLMScorer(str(folder), device="cpu", pll="original")
    merged = sum(tuned.score([Query("", text)])[0].logprobs)
    plain = sum(base.score([Query("", text)])[0].logprobs)
    tokenizer = AutoTokenizer.from_pretrained(folder)
    model = peft.PeftModel.from_pretrained(AutoModelForMaskedLM.from_pretrained(folder), str(adapter)).eval()
    ids = tokenizer(text)["input_ids"]
    direct = 0.0
    with torch.no_grad():
        for i in range(1, len(ids) - 1):  # every token but [CLS] and [SEP]
            masked = list(ids)
            masked[i] = tokenizer.mask_token_id
            logits = model(input_ids=torch.tensor([masked])).logits[0, i].double()
            direct += torch.log_softmax(logits, -1)[ids[i]].item()
    assert math.isclose(merged, direct, abs_tol=1e-4), (merged, direct)
    assert abs(merged - plain) > 1e-3


def test_cli_eval_adapter_is_used_and_recorded_in_results(gpt2, blimp_data: Path, tmp_path: Path, capsys) -> None:
    folder, adapter = gpt2
    runs = {}
    for name, extra in (("base", []), ("tuned", ["--adapter", str(adapter)])):
        code, _, err = run_cli(
            ["eval", "--model", str(folder), "--device", "cpu", "--data", str(blimp_data)]
            + ["--out", str(tmp_path / name)]
            + extra
            + ["-q"],
            capsys,
        )
        assert code == 0, err
        runs[name] = json.loads((tmp_path / name / "results.json").read_text())
    record = runs["tuned"]["provenance"]["model"]
    assert record["adapter"]["folder"] == str(adapter.resolve())
    assert len(record["adapter"]["weights_sha256"]) == 64
    assert "adapter" not in runs["base"]["provenance"]["model"]
    assert runs["tuned"]["options"]["adapter"] == str(adapter)


@pytest.mark.parametrize(
    "make,message",
    [
        (lambda root: root / "missing", "not a PEFT adapter folder"),
        (lambda root: root, "not a PEFT adapter folder"),  # the model's own folder: no adapter_config.json
    ],
)
def test_adapter_errors_are_one_line(gpt2, blimp_data: Path, tmp_path: Path, capsys, make, message) -> None:
    folder, _ = gpt2
    code, _, err = run_cli(
        ["eval", "--model", str(folder), "--device", "cpu", "--data", str(blimp_data)]
        + ["--adapter", str(make(folder)), "--out", str(tmp_path / "out"), "-q"],
        capsys,
    )
    lines = [line for line in err.strip().splitlines() if line.startswith("error:")]
    assert code != 0 and len(lines) == 1 and message in lines[0] and "Traceback" not in err, err
    assert not (tmp_path / "out").exists()


def test_adapter_for_another_model_is_a_model_load_error(gpt2, bert) -> None:
    folder, _ = gpt2
    _, bert_adapter = bert  # targets BERT's query/value modules, which GPT-2 has not
    with pytest.raises(ModelLoadError, match="does not fit model"):
        CausalLMScorer(str(folder), device="cpu", adapter=str(bert_adapter))
