"""Scorer options: the constructor's signature is the schema; values coerced from its annotations."""

from __future__ import annotations

import pytest

from blimpgen.errors import OptionError
from blimpgen.evaluate.scoring.options import scorer_options
from blimpgen.evaluate.scoring.registrations import command_line_options, list_options, make_scorer, scorer_id, scorers

# A plugin scorer written without ``from __future__ import annotations``: real annotation objects.
PLUGIN = '''
from typing import Literal, Optional
from blimpgen.evaluate.scoring.scorers.unigram import UnigramScorer

class PluginScorer(UnigramScorer):
    """A test plugin.

    Args:
        alpha: a weight.
        mode: how to count; spread over
            two lines.
        steps, rounds: how often.
    """

    name = "test-plugin"

    def __init__(self, alpha: float = 1.0, mode: Literal["fast", "slow"] = "fast", steps: Optional[int] = None,
                 rounds: int | None = None, flag: bool = False, table: dict = None) -> None:
        super().__init__(counts={"a": 1})
        self.alpha, self.mode, self.steps, self.rounds, self.flag = alpha, mode, steps, rounds, flag
'''


@pytest.fixture
def plugin():
    namespace: dict = {}
    exec(compile(PLUGIN, "plugin.py", "exec"), namespace)
    cls = namespace["PluginScorer"]
    cls.__module__ = "tests.plugin"
    scorers.register("test-plugin.v1", cls)
    yield cls
    scorers._items.pop("test-plugin.v1")


def test_options_are_the_constructor_parameters():
    options = {option.name: option for option in scorer_options(scorers.get("hf-causal"))}
    assert list(options) == [
        "model",
        "tokenizer",
        "dtype",
        "device",
        "device_map",
        "batch_tokens",
        "first_token",
        "share_prefix",
        "model_args",
        "adapter",
    ]
    assert options["adapter"].types == (str,) and options["adapter"].default is None
    assert options["model"].required and options["model"].types == (str,)
    assert options["tokenizer"].types == (str,)  # a hub id or folder (--tokenizer); a loaded one from Python
    assert options["model_args"].types == ()  # a mapping: --model-arg KEY=VALUE gathers it
    assert options["first_token"].choices == ("bos", "none") and options["batch_tokens"].types == (int,)
    assert options["share_prefix"].types == (bool,) and options["share_prefix"].default is True
    assert options["first_token"].doc.startswith("``bos`` scores the first word after a prepended BOS/EOS token")


@pytest.mark.parametrize(
    "scorer,text,key,value",
    [
        ("hf-causal", "batch_tokens=1024", "batch_tokens", 1024),
        ("hf-causal", "share_prefix=false", "share_prefix", False),
        ("hf-causal", "first_token=none", "first_token", "none"),
        ("hf-masked.v1", "pll=original", "pll", "original"),
        ("ngram", "lowercase=no", "lowercase", False),
        ("unigram", "corpus=a=b.txt", "corpus", "a=b.txt"),  # the value may contain "="
    ],
)
def test_options_values_are_coerced_from_annotations(scorer, text, key, value):
    flags = {"model": "m"} if scorer.startswith("hf-") else {}
    flags |= {"ngram_model": "m.arpa"} if scorer == "ngram" else {}
    options = command_line_options(scorer, [text], flags)
    assert options[key] == value and type(options[key]) is type(value)


@pytest.mark.parametrize(
    "texts,flags,message",
    [
        (
            ["frist_token=none"],
            {"model": "m"},
            "scorer 'hf-causal' takes no option 'frist_token'; did you mean 'first_token' or 'batch_tokens'?",
        ),
        (
            ["batch_tokens=lots"],
            {"model": "m"},
            "--scorer-option batch_tokens=lots: expected an integer (batch_tokens: int | None)",
        ),
        (
            ["share_prefix=maybe"],
            {"model": "m"},
            "--scorer-option share_prefix=maybe: expected true or false (share_prefix: bool)",
        ),
        (["first_token=eos"], {"model": "m"}, "--scorer-option first_token=eos: expected one of: bos, none"),
        (
            ["model_args=x"],
            {"model": "m"},
            "--scorer-option model_args=x: model_args takes Mapping[str, Any] "
            "| None, which only a library caller can pass",
        ),
        (
            ["batch_tokens"],
            {"model": "m"},
            "--scorer-option 'batch_tokens': expected KEY=VALUE, e.g. batch_tokens=1024",
        ),
        (
            ["batch_tokens=1", "batch_tokens=2"],
            {"model": "m"},
            "--scorer-option batch_tokens is given twice (batch_tokens=1, batch_tokens=2)",
        ),
        (["model=gpt2"], {"model": "m"}, "--model and --scorer-option model=... both set 'model'; give one"),
        ([], {}, "scorer 'hf-causal' needs option 'model' (--model)"),
    ],
)
def test_options_errors_are_one_line(texts, flags, message):
    with pytest.raises(OptionError) as info:
        command_line_options("hf-causal", texts, flags)
    assert str(info.value) == message


def test_options_list_options_prints_every_parameter():
    text = list_options("unigram")
    assert text.splitlines()[0] == "unigram.v1 (blimpgen.evaluate.scoring.scorers.unigram:UnigramScorer)"
    assert "  counts (library only; default: None)\n      token -> count (give this or ``corpus``)." in text
    assert "  corpus (str; default: None)\n      a plain-text file to count" in text
    assert "  lowercase (bool; default: True)" in text
    shared = "--model, --device, --dtype, --device-map, --tokenizer, --adapter, --model-arg also set theirs"
    assert shared in list_options("hf-masked")


def test_options_a_plugin_scorer_takes_options_from_the_command_line(plugin):
    options = command_line_options("test-plugin", ["alpha=0.5", "mode=slow", "steps=3", "rounds=2", "flag=yes"], {})
    assert options == {"alpha": 0.5, "mode": "slow", "steps": 3, "rounds": 2, "flag": True}
    scorer = make_scorer("test-plugin", **options)
    assert (scorer.alpha, scorer.mode, scorer.steps, scorer.flag) == (0.5, "slow", 3, True)
    assert scorer_id(scorer) == "test-plugin.v1"
    text = list_options("test-plugin")
    assert "  mode (one of: fast, slow; default: fast)\n      how to count; spread over two lines." in text
    assert "  steps (int; default: None)\n      how often." in text and "  rounds (int; default: None)" in text
    assert "  table (library only; default: None)" in text
    with pytest.raises(OptionError, match=r"^--scorer-option mode=medium: expected one of: fast, slow$"):
        command_line_options("test-plugin", ["mode=medium"], {})


def test_options_scorer_id_is_the_resolved_registry_id():
    from blimpgen.evaluate.scoring.scorers.unigram import UnigramScorer

    assert scorer_id(UnigramScorer(counts={"a": 1})) == "unigram.v1"
    assert scorers.resolve("hf-causal") == "hf-causal.v1" and scorers.resolve("hf-causal.v1") == "hf-causal.v1"
