"""Learning curves (oLMpics protocol): head-only training, WS/MAX and the control's curve.

The models are a tiny random BERT and GPT-2 built in-process and saved to a temporary folder, so
the real ``from_pretrained`` path runs; the items are :mod:`.position_items` (``probe curve``
itself is tested in ``tests/cli/test_probe_curve_cli.py``).
"""

from __future__ import annotations

import pytest

torch = pytest.importorskip("torch")
pytest.importorskip("transformers")

from blimpgen.errors import BlimpgenError, OptionError  # noqa: E402
from blimpgen.evaluate.curves.head import HeadTrainer, TrainOptions, find_head  # noqa: E402
from blimpgen.evaluate.curves.protocol import SIZES, Curve, Run, split_items, summarise, weights_for  # noqa: E402
from blimpgen.evaluate.curves.runner import learning_curve  # noqa: E402
from blimpgen.records.item import ProbeItem  # noqa: E402

from ..tiny import make_bert, make_gpt2, make_tokenizer  # noqa: E402
from .position_items import FAST, HEAD, VOCABULARY, position_items  # noqa: E402


@pytest.fixture(autouse=True, scope="module")
def _one_thread():
    """Tiny tensors: handing work to a second thread costs more than it saves on a busy machine."""
    before = torch.get_num_threads()
    torch.set_num_threads(1)
    yield
    torch.set_num_threads(before)


@pytest.fixture(scope="module")
def tokenizer():
    return make_tokenizer("wordlevel", texts=[VOCABULARY])


@pytest.fixture(scope="module")
def bert_dir(tmp_path_factory, tokenizer) -> str:
    folder = tmp_path_factory.mktemp("tiny-bert")
    make_bert(tokenizer).save_pretrained(folder)
    tokenizer.save_pretrained(folder)
    return str(folder)


@pytest.fixture(scope="module")
def gpt2_dir(tmp_path_factory, tokenizer) -> str:
    folder = tmp_path_factory.mktemp("tiny-gpt2")
    make_gpt2(tokenizer).save_pretrained(folder)
    tokenizer.save_pretrained(folder)
    return str(folder)


# --- WS and MAX --------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "ran,expected",
    [
        (SIZES, 0.23 * 0.5 + 0.20 * 0.6 + 0.17 * 0.7 + 0.14 * 0.8 + 0.11 * 0.9 + 0.08 * 1.0 + 0.07 * 1.0),
        (SIZES[:4], (0.23 * 0.5 + 0.20 * 0.6 + 0.17 * 0.7 + 0.14 * 0.8) / (0.23 + 0.20 + 0.17 + 0.14)),
        ((125, 1000), (0.20 * 0.6 + 0.11 * 0.9) / (0.20 + 0.11)),
    ],
)
def test_curves_ws_and_max_of_a_hand_made_curve(ran, expected):
    accuracy = dict(zip(SIZES, [0.5, 0.6, 0.7, 0.8, 0.9, 1.0, 1.0]))
    ws, top = summarise({n: accuracy[n] for n in ran}, weights_for(SIZES))
    assert ws == pytest.approx(expected)
    assert top == max(accuracy[n] for n in ran)


def test_curves_weights_are_olmpics_and_sum_to_one():
    assert weights_for(SIZES) == dict(zip(SIZES, (0.23, 0.20, 0.17, 0.14, 0.11, 0.08, 0.07)))
    assert sum(weights_for(SIZES).values()) == pytest.approx(1.0)
    assert weights_for((32, 8, 16)) == {8: 0.23, 16: 0.20, 32: 0.17}  # other sizes: by rank
    assert weights_for((125, 4000)) == {125: 0.20, 4000: 0.07}  # grid sizes keep their own
    with pytest.raises(BlimpgenError, match="at most 7 sizes"):
        weights_for(range(1, 9))


def test_curves_summary_is_the_mean_of_seeds_with_the_best_seed_beside_it():
    """oLMpics 3.2: "report average accuracy across seeds" (probes audit P3: the best seed was the headline)."""
    runs = (
        Run(62, 0, 0.5, 0.7, 0.6, 4),
        Run(62, 1, 0.7, 0.7, 0.5, 4),
        Run(125, 0, 0.6, 0.7, 0.4, 8),
        Run(125, 1, 0.9, 0.7, 0.3, 8),
    )
    weights = {62: 0.23 / 0.43, 125: 0.20 / 0.43}
    curve = Curve("language", 200, 50, 0.5, 0.5, runs, weights)
    summary = curve.summary()
    assert summary["ws"] == pytest.approx((0.23 * 0.6 + 0.20 * 0.75) / 0.43)
    assert summary["max"] == pytest.approx(0.75)
    assert summary["ws_best"] == pytest.approx((0.23 * 0.7 + 0.20 * 0.9) / 0.43)
    assert summary["max_best"] == 0.9
    first = curve.points()[0]
    assert first["accuracies"] == [0.5, 0.7] and first["std"] == pytest.approx(0.1414, abs=1e-4)


def test_curves_split_items_is_seeded_disjoint_and_pairs_files():
    items, controls = position_items(40, 1), position_items(40, 1, control=True)
    train, held = split_items(items, 0.25)
    assert len(train) == 30 and len(held) == 10
    assert not {i.item_id for i in train} & {i.item_id for i in held}
    assert split_items(items, 0.25) == (train, held)
    control_train, control_held = split_items(controls, 0.25)
    assert [i.item_id + ".no_language" for i in held] == [i.item_id for i in control_held]
    assert len(control_train) == 30
    with pytest.raises(BlimpgenError, match="cannot hold out"):
        split_items(items[:2], 0.1)


# --- head-only training ------------------------------------------------------------------------


def test_curves_training_changes_only_the_head(tokenizer):
    model = make_bert(tokenizer)
    before = {name: value.clone() for name, value in model.state_dict().items()}
    trainer = HeadTrainer(model, tokenizer)
    decoder = "cls.predictions.decoder.weight"
    assert {name for name, _ in trainer.trainable} == HEAD - {"cls.predictions.decoder.bias"} | {decoder}
    assert model.get_output_embeddings().weight is not model.get_input_embeddings().weight  # untied
    data = trainer.encode(position_items(32, 1))
    losses = trainer.fit(data, range(32), seed=0, options=TrainOptions(**FAST))
    assert losses[-1] < losses[0]
    after = model.state_dict()
    changed = {name for name in before if not torch.equal(before[name], after[name])}
    assert changed == HEAD | {decoder}  # the encoder and the input embeddings are bit-identical
    embeddings = "bert.embeddings.word_embeddings.weight"
    assert torch.equal(before[embeddings], after[embeddings])
    trainer.reset()
    assert all(torch.equal(value, model.state_dict()[name]) for name, value in before.items())


def test_curves_linear_trains_only_the_output_layer(tokenizer):
    """oLMpics 3.3 LINEAR: the head's first layer is fixed, only the final layer trains."""
    model = make_bert(tokenizer)
    trainer = HeadTrainer(model, tokenizer)
    trainer.use("linear")
    assert {name for name, _ in trainer.training} == {"cls.predictions.decoder.weight", "cls.predictions.bias"}
    before = {name: value.clone() for name, value in model.state_dict().items()}
    trainer.fit(trainer.encode(position_items(32, 1)), range(32), seed=0, options=TrainOptions(**FAST))
    after = model.state_dict()
    changed = {name for name in before if not torch.equal(before[name], after[name])}
    assert changed == {"cls.predictions.decoder.weight", "cls.predictions.bias", "cls.predictions.decoder.bias"}
    trainer.use("mlp")
    assert len(trainer.training) == len(trainer.trainable)


@pytest.mark.parametrize("family,head", [("Roberta", "lm_head"), ("Albert", "predictions")])
def test_curves_find_the_head_of_other_families(family, head, tokenizer):
    import transformers

    config = getattr(transformers, f"{family}Config")(
        vocab_size=len(tokenizer), hidden_size=32, num_hidden_layers=1, num_attention_heads=2, intermediate_size=64
    )
    model = getattr(transformers, f"{family}ForMaskedLM")(config).eval()
    trainer = HeadTrainer(model, tokenizer)  # checks head(encoder states) == the model's logits
    assert trainer.head_name == head
    assert all(name.startswith(head + ".") for name, _ in trainer.trainable)
    assert f"{head}.decoder.weight" in {name for name, _ in trainer.trainable}  # untied: the output layer trains
    assert model.get_output_embeddings().weight is not model.get_input_embeddings().weight
    trainer.use("linear")
    assert {name for name, _ in trainer.training} == {f"{head}.decoder.weight", f"{head}.bias"}


def test_curves_scores_are_the_full_models_log_probabilities(tokenizer):
    model = make_bert(tokenizer)
    shared = position_items(3, 2)
    own = ProbeItem(
        item_id="OWN-00000",
        UID="OWN",
        item_type="multiple_choice",
        context="w1 [MASK] w2 .",
        candidates=("yes", "no"),
        answer="yes",
        contexts={"yes": "w1 [MASK] w2 .", "no": "w3 w4 [MASK] ."},
    )
    items = [*shared, own]
    trainer = HeadTrainer(model, tokenizer)
    data = trainer.encode(items)
    with torch.no_grad():
        got = trainer.scores(data, torch.arange(len(items)))
    for row, item in enumerate(items):
        for k, option in enumerate(item.candidates):
            ids = tokenizer(item.context_for(option).replace("[MASK]", tokenizer.mask_token))["input_ids"]
            with torch.no_grad():
                logits = model(torch.tensor([ids])).logits[0, ids.index(tokenizer.mask_token_id)]
            expected = torch.log_softmax(logits, dim=-1)[tokenizer.convert_tokens_to_ids(option)].item()
            assert got[row, k].item() == pytest.approx(expected, abs=1e-5)


def test_curves_learnable_task_beats_chance_and_the_control_does_not(bert_dir):
    result = learning_curve(
        bert_dir,
        position_items(64, 1),
        position_items(100, 2),
        sizes=(8, 16, 32, 100),
        seeds=(0, 1),
        control_train=position_items(64, 3, control=True),
        control_eval=position_items(100, 4, control=True),
        **FAST,
    )
    language, control = result.language, result.control
    assert control is not None and control.label == "no_language"
    assert language.chance == control.chance == 0.5
    assert language.summary()["max"] >= 0.9 and language.summary()["ws"] >= 0.9
    assert control.summary()["max"] <= 0.65
    assert all(run.last_loss < run.first_loss for run in language.runs)
    assert language.skipped == (100,) and "N=100 skipped: only 64 training items" in language.notes
    assert sorted(language.weights) == [8, 16, 32] and sum(language.weights.values()) == pytest.approx(1.0)
    assert any("renormalised" in note for note in language.notes)
    assert result.options["trained"] and result.options["head"] == "cls.predictions"


def test_curves_same_seed_same_numbers(bert_dir):
    def run():
        return learning_curve(
            bert_dir,
            position_items(24, 1),
            position_items(30, 2),
            sizes=(8, 16),
            seeds=(0, 1),
            control_train=position_items(24, 3, True),
            control_eval=position_items(30, 4, True),
            epochs=3,
            lr=1e-3,
            batch_size=4,
        ).to_dict()

    first = run()
    assert first == run()
    accuracies = [r["accuracy"] for r in first["language"]["runs"]]
    assert len(accuracies) == 4


@pytest.mark.parametrize(
    "items,message",
    [
        (
            [
                ProbeItem(
                    item_id="B-00000",
                    UID="B",
                    item_type="multiple_choice",
                    context="w1 [MASK] .",
                    candidates=("yes", "w2 w3"),
                    answer="yes",
                )
            ],
            "candidate 'w2 w3' is 2 tokens",
        ),
        (
            [
                ProbeItem(
                    item_id="B-00001",
                    UID="B",
                    item_type="multiple_choice",
                    context="w1 [MASK] .",
                    candidates=("yes", "zebra"),
                    answer="yes",
                )
            ],
            "candidate 'zebra' is not in",
        ),
    ],
)
def test_curves_bad_candidates_are_errors(bert_dir, items, message):
    with pytest.raises(BlimpgenError, match=message):
        learning_curve(bert_dir, items, items, sizes=(1,), seeds=(0,))


def test_curves_models_without_a_separable_head_are_errors(gpt2_dir, tokenizer):
    from transformers import (
        BertConfig,
        BertModel,
        DistilBertConfig,
        DistilBertForMaskedLM,
    )

    with pytest.raises(BlimpgenError, match="a gpt2 model has no masked-LM head"):
        learning_curve(gpt2_dir, position_items(8, 1), position_items(8, 2), sizes=(4,), seeds=(0,))
    encoder_only = BertModel(
        BertConfig(
            vocab_size=len(tokenizer), hidden_size=32, num_hidden_layers=1, num_attention_heads=2, intermediate_size=64
        )
    )
    with pytest.raises(BlimpgenError, match="has no masked-LM head"):
        find_head(encoder_only)
    flat = DistilBertForMaskedLM(
        DistilBertConfig(vocab_size=len(tokenizer), dim=32, n_layers=1, n_heads=2, hidden_dim=64)
    )
    with pytest.raises(BlimpgenError, match="not inside a separate head module"):
        find_head(flat)


# --- blimpgen probe curve ----------------------------------------------------------------------


@pytest.mark.parametrize(
    "options,message",
    [
        ({"epochs": 0}, "--epochs must be at least 1, got 0"),
        ({"lr": 0}, "--lr must be greater than 0, got 0"),
        ({"warmup_ratio": 1.0}, "--warmup-ratio must be less than 1, got 1.0"),
        ({"epoch": 3}, "unknown option 'epoch'; did you mean 'epochs'?"),
    ],
)
def test_curves_train_options_are_checked_naming_their_flag(options, message):
    with pytest.raises(OptionError) as info:
        TrainOptions(**options)
    assert str(info.value) == message
