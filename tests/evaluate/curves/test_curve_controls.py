"""The no-language control means what it says, and held-out items never share arguments with training items.

oLMpics reads the no-language control's learning curve as "can the task be learned from the
arguments alone?". That reading holds only if the control is learnable exactly when the arguments
carry the answer. A tiny BERT (random, built here, saved and loaded through ``from_pretrained``)
is trained head-only on generated suites and their controls, made by the real pipeline:

* the shipped age suite: its no-language items (``33 [MASK] 56``) carry the answer, and the
  control's curve rises above chance; the same items with labels drawn per item (the bug the
  probes audit found, P8) stay at chance;
* a suite whose answer turns on a word that is not among its arguments: its control stays at
  chance, while the same suite with the answer decided by its arguments alone is learnable.
"""

from __future__ import annotations

import random
from dataclasses import replace

import pytest

torch = pytest.importorskip("torch")
pytest.importorskip("transformers")

from blimpgen.evaluate.curves.protocol import argument_key, shared_arguments, split_items  # noqa: E402
from blimpgen.evaluate.curves.runner import _by_control, learning_curve  # noqa: E402
from blimpgen.generators.generate import generate_items, load_probe_suites  # noqa: E402
from blimpgen.generators.probe import build_probe  # noqa: E402
from blimpgen.grammar import parse_spec  # noqa: E402
from blimpgen.vocab import load_lexicon  # noqa: E402

from ..tiny import make_tokenizer  # noqa: E402

TRAIN = {"sizes": (62, 125, 250), "seeds": (0, 1), "epochs": 20, "lr": 1e-2, "batch_size": 16}
SUMS = """\
uid: sums
item: multiple_choice
field: semantics
linguistics_term: sums
description: Is the sum of two numbers high or low; a word may turn the answer round.
slots:
  x: {kind: number, min: 1, max: 20}
  y: {kind: number, min: 1, max: 20, distinct: [x]}
  word: {kind: choice, values: [{text: plus, flip: ""}, {text: minus, flip: "yes"}]}
context: "{{ x }} {{ word.text }} {{ y }} is [MASK] now"
candidates: [high, low]
answer: ANSWER
arguments: ["{{ x }}", "{{ y }}"]
"""
BY_ARGUMENTS = "\"{{ 'high' if x + y > 21 else 'low' }}\""
BY_A_HIDDEN_WORD = "\"{{ ('high' if x + y > 21 else 'low') if not word.flip else ('low' if x + y > 21 else 'high') }}\""


@pytest.fixture(autouse=True, scope="module")
def _one_thread():
    before = torch.get_num_threads()
    torch.set_num_threads(1)
    yield
    torch.set_num_threads(before)


def tiny_bert(tmp_path, items, seed: int = 0) -> str:
    """A random 2-layer BERT whose WordLevel vocabulary covers the items (initialised with a wider
    range than BERT's 0.02, so the state at the blank carries the other words of the context)."""
    from transformers import BertConfig, BertForMaskedLM

    tokenizer = make_tokenizer("wordlevel", texts=[i.context.replace("[MASK]", c) for i in items for c in i.candidates])
    torch.manual_seed(seed)
    config = BertConfig(
        vocab_size=len(tokenizer),
        hidden_size=64,
        num_hidden_layers=2,
        num_attention_heads=2,
        intermediate_size=128,
        max_position_embeddings=64,
        pad_token_id=tokenizer.pad_token_id,
        initializer_range=0.2,
    )
    folder = tmp_path / f"bert-{seed}"
    BertForMaskedLM(config).eval().save_pretrained(folder)
    tokenizer.save_pretrained(folder)
    return str(folder)


def curves(tmp_path, items, controls_of=None, **options):
    """The language and no-language curves on a split without shared argument tuples."""
    train, held = split_items(items, 0.25)
    assert not shared_arguments(train, held)
    language_train, control_train = _by_control(train)
    language_held, control_held = _by_control(held)
    nolang = (control_train["no_language"], control_held["no_language"])
    if controls_of is not None:
        nolang = tuple(controls_of(part) for part in nolang)
    result = learning_curve(
        tiny_bert(tmp_path, items),
        language_train,
        language_held,
        controls={"no_language": nolang},
        **{**TRAIN, **options},
    )
    return result.language, result.controls["no_language"]


def test_split_holds_out_whole_argument_tuples_and_controls_follow_their_item() -> None:
    """Probes audit P11: the old split held out 72% of age pairs (either order) that training also had."""
    age = load_probe_suites(["olmpics_age_comparison"])[0]
    items = list(generate_items(age, 800, 1, ("none", "no_language", "perturbed_language")))
    train, held = split_items(items, 0.2)
    assert not shared_arguments(train, held)
    assert {argument_key(i) for i in train} & {argument_key(i) for i in held} == set()
    originals = [i for i in held if i.control == "none"]
    assert 0.15 < len(originals) / 800 < 0.25
    for part in (train, held):  # each control item is on its item's side
        ids = {i.item_id for i in part if i.control == "none"}
        assert all(i.item_id.rsplit(".", 1)[0] in ids for i in part if i.control != "none")
    # a control's file on its own splits the same way
    alone = [i for i in items if i.control == "no_language"]
    assert split_items(alone, 0.2)[1] == [i for i in held if i.control == "no_language"]
    # the paper's disjoint age ranges are a suite split
    from blimpgen.generators.catalog import Catalog

    catalog = Catalog.from_environment()
    dev = catalog.build(["olmpics_age_comparison"], options={"split": "dev"})[0]
    fit = catalog.build(["olmpics_age_comparison"], options={"split": "train"})[0]
    assert all(15 <= int(a) <= 38 for i in generate_items(dev, 200, 0) for a in i.arguments)
    assert all(43 <= int(a) <= 120 for i in generate_items(fit, 200, 0) for a in i.arguments)
    assert age.options["split"] == "all" and fit.options["min_age"] == 43 and dev.options["max_age"] == 38


def test_no_language_control_of_the_age_suite_is_learnable_and_random_labels_are_not(tmp_path) -> None:
    age = load_probe_suites(["olmpics_age_comparison"])[0]
    items = list(generate_items(age, 1600, 0, ("none", "no_language")))
    _, control = curves(tmp_path, items, sizes=(62, 125, 250, 500, 1000))
    assert control.chance == 0.5 and 380 < control.eval_items < 420

    def redraw(part):  # the bug of probes audit P8: which nonsense word is the answer, drawn per item
        return [replace(i, answer=random.Random(i.item_id).choice(i.candidates)) for i in part]

    _, broken = curves(tmp_path, items, controls_of=redraw, sizes=(62, 125, 250, 500, 1000))
    # 400 held-out items: the standard error of a chance accuracy is 0.025 (measured: 0.50 -> 0.71 vs 0.49-0.51)
    assert control.summary()["ws"] > 0.58 and broken.summary()["max"] < 0.56, (control.points(), broken.points())


@pytest.mark.parametrize("answer,learnable", [(BY_ARGUMENTS, True), (BY_A_HIDDEN_WORD, False)])
def test_no_language_curve_is_learnable_exactly_when_the_arguments_decide(answer, learnable, tmp_path) -> None:
    probe = build_probe(parse_spec(SUMS.replace("ANSWER", answer), "sums.yaml"), load_lexicon())
    items = list(generate_items(probe, 380, 0, ("none", "no_language")))
    controls = [i for i in items if i.control == "no_language"]
    assert {i.context.split()[-1] for i in controls} == {"[MASK]"}
    assert all(len(i.context.split()) == 3 for i in controls)
    _, control = curves(tmp_path, items)
    ws = control.summary()["ws"]
    if learnable:
        assert ws > 0.65, control.points()
    else:
        assert ws < 0.57 and control.summary()["max"] < 0.6, control.points()
