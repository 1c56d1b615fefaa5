"""``blimpgen probe curve``: the learning curve from the command line, its files and its one-line errors."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

torch = pytest.importorskip("torch")
pytest.importorskip("transformers")

from blimpgen.cli.probe import _int_list  # noqa: E402
from blimpgen.records.item import ProbeItem  # noqa: E402

from ..evaluate.curves.position_items import VOCABULARY, position_items, write_items  # noqa: E402
from ..evaluate.tiny import make_bert, make_gpt2, make_tokenizer, run_cli  # noqa: E402


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


def test_cli_probe_curve_writes_json_csv_and_plot(bert_dir, tmp_path, capsys):
    files = {
        name: write_items(tmp_path / f"{name}.jsonl", items)
        for name, items in [
            ("train", position_items(40, 1)),
            ("held", position_items(40, 2)),
            ("control", position_items(40, 3, True)),
            ("control_held", position_items(40, 4, True)),
        ]
    }
    out, plot = tmp_path / "out", tmp_path / "curve.png"
    code, stdout, err = run_cli(
        [
            "probe",
            "curve",
            "--model",
            bert_dir,
            "--train",
            files["train"],
            "--eval",
            files["held"],
            "--control-train",
            files["control"],
            "--control-eval",
            files["control_held"],
            "--sizes",
            "8,16",
            "--seeds",
            "0,1",
            "--epochs",
            "10",
            "--lr",
            "1e-2",
            "--batch-size",
            "8",
            "--out",
            str(out),
            "--plot",
            str(plot),
        ],
        capsys,
    )
    assert code == 0, err
    assert "language N=8 seed=0: accuracy" in err
    assert "WS" in stdout and "MAX" in stdout and "no_language" in stdout
    saved = json.loads((out / "curve.json").read_text())
    assert saved["language"]["ws"] >= 0.9 and saved["control"]["label"] == "no_language"
    assert [p["size"] for p in saved["control"]["points"]] == [8, 16]
    rows = (out / "curve.csv").read_text().splitlines()
    assert rows[0] == "curve,size,weight,mean,std,max,accuracies" and len(rows) == 5
    assert plot.read_bytes()[:4] == b"\x89PNG" and plot.stat().st_size > 10_000
    assert sorted(p.name for p in out.iterdir()) == ["curve.csv", "curve.json"]
    from blimpgen.evaluate.metrics import majority_baseline
    from blimpgen.records.jsonl import read_items

    held = list(read_items(files["held"]))
    assert saved["language"]["majority"] == majority_baseline((i.answer, i.candidates) for i in held)


def test_cli_probe_curve_holds_out_a_fraction_without_eval(bert_dir, tmp_path, capsys):
    train = write_items(tmp_path / "train.jsonl", position_items(40, 1))
    out = tmp_path / "out"
    code, _, err = run_cli(
        [
            "probe",
            "curve",
            "--model",
            bert_dir,
            "--train",
            train,
            "--eval-fraction",
            "0.25",
            "--sizes",
            "8",
            "--seeds",
            "0",
            "--epochs",
            "1",
            "--out",
            str(out),
            "--quiet",
        ],
        capsys,
    )
    assert code == 0 and "seed=" not in err
    language = json.loads((out / "curve.json").read_text())["language"]
    assert (language["train_items"], language["eval_items"]) == (30, 10)


def test_cli_probe_curve_drops_an_item_whose_candidate_is_not_one_token(bert_dir, tmp_path, capsys):
    """Probes audit M9 / issue 13.5: dropped and counted (coverage), never an abort."""
    items = position_items(40, 1)
    items[5] = ProbeItem(
        item_id="BAD-00005",
        UID="BAD",
        item_type="multiple_choice",
        context="w1 [MASK] .",
        candidates=("yes", "w2 w3"),
        answer="yes",
    )
    train, held = write_items(tmp_path / "train.jsonl", items), write_items(tmp_path / "held.jsonl", items[20:])
    code, stdout, err = run_cli(
        [
            "probe",
            "curve",
            "--model",
            bert_dir,
            "--train",
            train,
            "--eval",
            held,
            "--sizes",
            "8",
            "--seeds",
            "0",
            "--epochs",
            "1",
            "--quiet",
        ],
        capsys,
    )
    assert code == 0, err
    assert "1 of 40 items dropped (coverage 97.5%); e.g. BAD-00005: candidate 'w2 w3' is 2 tokens" in stdout


@pytest.mark.parametrize(
    "case,message",
    [
        ("multi-token", "items was dropped (e.g. BAD-00000: candidate 'w2 w3' is 2 tokens"),
        ("gpt2", "a gpt2 model has no masked-LM head"),
        ("too-few", "fewer than the smallest size 500"),
        ("no-model", "unknown model"),
        ("no-tokenizer", "has no tokenizer files (none of tokenizer.json"),  # F2: the empty tokenizer went unnoticed
    ],
)
def test_cli_probe_curve_errors_are_one_line_and_write_nothing(case, message, bert_dir, gpt2_dir, tmp_path, capsys):
    import shutil

    if case == "no-tokenizer":
        bert_dir = str(shutil.copytree(bert_dir, tmp_path / "no-tokenizer"))
        for file in Path(bert_dir).glob("tokenizer*"):
            file.unlink()
    items = position_items(20, 1)
    if case == "multi-token":  # every item: one such item is dropped and counted, not an error (test above)
        items = [
            ProbeItem(
                item_id=f"BAD-{i:05d}",
                UID="BAD",
                item_type="multiple_choice",
                context="w1 [MASK] .",
                candidates=("yes", "w2 w3"),
                answer="yes",
            )
            for i in range(20)
        ]
    train = write_items(tmp_path / "train.jsonl", items)
    model = {"gpt2": gpt2_dir, "no-model": str(tmp_path / "no-such-model")}.get(case, bert_dir)
    out, plot = tmp_path / "out", tmp_path / "curve.png"
    code, _, err = run_cli(
        [
            "probe",
            "curve",
            "--model",
            model,
            "--train",
            train,
            "--sizes",
            "500" if case == "too-few" else "8",
            "--out",
            str(out),
            "--plot",
            str(plot),
        ],
        capsys,
    )
    assert code == 1
    assert message in err and len(err.strip().splitlines()) == 1 and err.startswith("error: ")
    assert not out.exists() and not plot.exists()


@pytest.mark.parametrize("args", [["--eval", "{train}", "--eval-fraction", "0.2"], ["--sizes", "8,abc"]])
def test_cli_probe_curve_usage_errors(args, bert_dir, tmp_path, capsys):
    train = write_items(tmp_path / "train.jsonl", position_items(8, 1))
    args = [a.replace("{train}", train) for a in args]
    code, _, _ = run_cli(["probe", "curve", "--model", bert_dir, "--train", train, *args], capsys)
    assert code == 2


def test_cli_probe_sizes_accept_thousands():
    assert _int_list(None, None, "62,125, 1K,2k") == (62, 125, 1000, 2000)


def test_cli_probe_help_does_not_import_torch():
    code = (
        "import sys; from blimpgen.cli import main\n"
        "try:\n    main(['probe', 'curve', '--help'])\nexcept SystemExit:\n    pass\n"
        "assert 'torch' not in sys.modules, 'torch imported'"
    )
    subprocess.run([sys.executable, "-c", code], check=True, capture_output=True)


def test_cli_probe_curve_prints_mean_of_seeds_linear_and_langsense(bert_dir, tmp_path, capsys):
    """Issue 13: WS/MAX of the mean-over-seeds curve, LINEAR, LANGSENSE against both controls, from one file
    holding the items and their controls (as gen --control writes them)."""
    from dataclasses import replace

    items = position_items(60, 1)
    controls = position_items(60, 1, control=True)  # the same items, labels unlearnable
    perturbed = [replace(i, item_id=i.item_id + ".perturbed_language", control="perturbed_language") for i in items]
    mixed = [x for trio in zip(items, controls, perturbed) for x in trio]
    train = write_items(tmp_path / "train.jsonl", mixed)
    out = tmp_path / "out"
    code, stdout, err = run_cli(
        [
            "probe",
            "curve",
            "--model",
            bert_dir,
            "--train",
            train,
            "--sizes",
            "8,16",
            "--seeds",
            "0,1",
            "--epochs",
            "10",
            "--lr",
            "1e-2",
            "--batch-size",
            "8",
            "--linear",
            "--out",
            str(out),
            "--quiet",
        ],
        capsys,
    )
    assert code == 0, err
    saved = json.loads((out / "curve.json").read_text())
    assert set(saved["controls"]) == {"no_language", "perturbed_language"}
    assert saved["linear"]["label"].startswith("language")
    language = saved["language"]
    means = [p["mean"] for p in language["points"]]
    assert language["max"] == pytest.approx(max(means)) and language["max_best"] >= language["max"]
    assert language["ws"] == pytest.approx(sum(p["weight"] * p["mean"] for p in language["points"]))
    nolang = saved["controls"]["no_language"]
    expected = sum(p["weight"] * max(0.0, p["mean"] - q["mean"]) for p, q in zip(language["points"], nolang["points"]))
    assert saved["langsense"]["no_language"] == pytest.approx(expected) and expected > 0.2
    assert saved["langsense"]["perturbed_language"] == pytest.approx(0.0, abs=0.1)  # the same items: no sensitivity
    assert "oLMpics row (%): zero-shot | MLP_MLM WS MAX | LINEAR WS MAX | LANGSENSE pert nolang" in stdout
    row = stdout.split("LANGSENSE pert nolang\n", 1)[1].splitlines()[0].split("|")
    assert row[3].split() == [
        f"{100 * saved['langsense']['perturbed_language']:.0f}",
        f"{100 * saved['langsense']['no_language']:.0f}",
    ]
    assert row[1].split() == [f"{100 * language['ws']:.0f}", f"{100 * language['max']:.0f}"]
    # the held-out items share no argument tuple and no id with the training items
    assert not [n for n in saved["notes"] if "in both the training and the held-out" in n]
