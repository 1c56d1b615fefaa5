"""MC-QA (oLMpics section 2.2): a question-answering head on [CLS] q [SEP] a [SEP], the whole network fine-tuned.

A tiny BERT with a sub-word tokenizer (so answers are several word pieces) is built here. The
trainer's logits are checked against a direct computation (encoder, first token, MLP_QA), each
run starts from the pre-trained encoder, and a learnable suite's curve rises above chance while
nothing is dropped for being multi-token.
"""

from __future__ import annotations

import json
import random

import pytest

torch = pytest.importorskip("torch")
pytest.importorskip("transformers")

from blimpgen.errors import DataError, OptionError  # noqa: E402
from blimpgen.evaluate.curves.head import TrainOptions  # noqa: E402
from blimpgen.evaluate.curves.qa import QATrainer  # noqa: E402
from blimpgen.evaluate.curves.runner import learning_curve  # noqa: E402
from blimpgen.records.item import ProbeItem  # noqa: E402
from blimpgen.records.jsonl import dumps_record  # noqa: E402

from ..tiny import make_bert, make_tokenizer, run_cli  # noqa: E402

THINGS = [
    "hammer",
    "spoon",
    "teacup",
    "wheelbarrow",
    "screwdriver",
    "saucepan",
    "toothbrush",
    "lampshade",
    "bookcase",
    "sunflower",
    "raincoat",
    "snowman",
    "doorknob",
    "keyboard",
    "notebook",
    "backpack",
]


def questions(n: int, seed: int = 0) -> list[ProbeItem]:
    """Questions whose right answer is marked in the answer itself (learnable by fine-tuning)."""
    rng = random.Random(seed)
    items = []
    for i in range(n):
        right, *wrong = rng.sample(THINGS, 3)
        candidates = [f"the proper {right}", f"some other {wrong[0]}", f"some other {wrong[1]}"]
        rng.shuffle(candidates)
        items.append(
            ProbeItem(
                f"qa-{i:05d}",
                "qa",
                "question",
                f"Which {rng.choice(['one', 'thing'])} fits?",
                tuple(candidates),
                f"the proper {right}",
                arguments=(right, *wrong),
            )
        )
    return items


@pytest.fixture(scope="module")
def tiny(tmp_path_factory):
    texts = [f"{q.context} {c}" for q in questions(200) for c in q.candidates]
    tokenizer = make_tokenizer("bpe", texts, vocab_size=120)
    model = make_bert(tokenizer, seed=1)
    folder = tmp_path_factory.mktemp("qa_bert")
    model.save_pretrained(folder)
    tokenizer.save_pretrained(folder)
    return folder, model, tokenizer


def test_qa_answers_are_several_word_pieces_and_none_is_dropped(tiny) -> None:
    _, model, tokenizer = tiny
    items = questions(30)
    assert any(len(tokenizer.tokenize(c)) > 2 for item in items for c in item.candidates)
    data = QATrainer(model, tokenizer).encode(items)
    assert len(data) == 30 and data.kept == tuple(i.item_id for i in items)
    assert data.chance == pytest.approx(1 / 3)


def test_qa_logits_are_the_head_on_the_first_token_of_each_pair(tiny) -> None:
    _, model, tokenizer = tiny
    trainer = QATrainer(model, tokenizer)
    items = questions(4, seed=3)
    data = trainer.encode(items)
    got = trainer.logits(data, [0, 1, 2, 3])
    for row, item in enumerate(items):
        for k, option in enumerate(item.candidates):
            pair = tokenizer(item.context, option, return_tensors="pt")
            with torch.no_grad():
                first = model.base_model(**pair)[0][0, 0]
                expected = trainer.head(first).item()
            assert got[row, k].item() == pytest.approx(expected, rel=1e-4, abs=1e-5)
    scores = got.detach()
    correct = sum(
        int(scores[r].argmax()) == item.candidates.index(item.answer) and (scores[r] == scores[r].max()).sum() == 1
        for r, item in enumerate(items)
    )
    assert trainer.accuracy(data) == correct / len(items)


def test_qa_each_run_starts_from_the_pretrained_encoder(tiny) -> None:
    _, model, tokenizer = tiny
    trainer = QATrainer(model, tokenizer)
    before = {n: p.detach().clone() for n, p in trainer.encoder.named_parameters()}
    data = trainer.encode(questions(40))
    trainer.fit(data, range(40), seed=0, options=TrainOptions(steps=3, lr=1e-3, batch_size=8))
    assert any(not torch.equal(before[n], p) for n, p in trainer.encoder.named_parameters())  # it was fine-tuned
    head = [p.detach().clone() for p in trainer.head.parameters()]
    trainer.reset(seed=0)
    assert all(torch.equal(before[n], p) for n, p in trainer.encoder.named_parameters())
    again = [p.detach().clone() for p in trainer.head.parameters()]
    trainer.reset(seed=0)
    assert all(torch.equal(a, b) for a, b in zip(again, trainer.head.parameters()))  # seeded head
    assert any(not torch.equal(a, b) for a, b in zip(head, again))


def test_qa_learning_curve_rises_above_chance_on_a_learnable_suite(tiny) -> None:
    folder, _, _ = tiny
    items = questions(300)
    result = learning_curve(
        str(folder),
        items[:250],
        items[250:],
        sizes=(62, 125),
        seeds=(0, 1),
        epochs=8,
        lr=2e-3,
        batch_size=16,
        device="cpu",
        protocol="mc-qa",
    )
    curve = result.language
    assert result.options["protocol"] == "mc-qa" and curve.chance == pytest.approx(1 / 3)
    assert curve.means()[125] > 0.6, curve.points()  # chance is 1/3
    assert result.to_dict()["protocol"].startswith("oLMpics learning curve, MC-QA")
    assert any("not meaningful" in note for note in result.notes)


def test_qa_refuses_linear_and_items_without_candidates(tiny) -> None:
    folder, model, tokenizer = tiny
    items = questions(80)
    with pytest.raises(OptionError, match="LINEAR"):
        learning_curve(str(folder), items[:70], items[70:], sizes=(62,), seeds=(0,), protocol="mc-qa", linear=True)
    role = ProbeItem(
        "role-00000",
        "role",
        "role_contrast",
        "Which cup the cat had [MASK] .",
        ("broken",),
        "broken",
        good="broken",
        reversed_context="Which cat the cup had [MASK] .",
    )
    with pytest.raises(DataError, match="role_contrast item: MC-QA chooses among candidates"):
        QATrainer(model, tokenizer).encode([role])


def test_cli_probe_curve_with_the_mc_qa_protocol(tiny, tmp_path, capsys) -> None:
    folder, _, _ = tiny
    path, held = tmp_path / "qa.jsonl", tmp_path / "held.jsonl"
    path.write_text("".join(dumps_record(item) + "\n" for item in questions(80)), encoding="utf-8")
    # a second gen run numbers its items alike: the same ids, other items (a split's dev file)
    held.write_text("".join(dumps_record(item) + "\n" for item in questions(20, seed=9)), encoding="utf-8")
    out = tmp_path / "curve"
    code, stdout, err = run_cli(
        [
            "probe",
            "curve",
            "--model",
            str(folder),
            "--train",
            str(path),
            "--eval",
            str(held),
            "--protocol",
            "mc-qa",
            "--sizes",
            "62",
            "--seeds",
            "0",
            "--steps",
            "2",
            "--device",
            "cpu",
            "--out",
            str(out),
            "--quiet",
        ],
        capsys,
    )
    assert code == 0, err
    curve = json.loads((out / "curve.json").read_text())
    assert curve["options"]["protocol"] == "mc-qa" and "MC-QA" in curve["protocol"]
    assert curve["language"]["eval_items"] == 20 and "MLP_QA WS MAX" in stdout and "whole network" in stdout
    assert not [note for note in curve["notes"] if "same context and candidates" in note]
