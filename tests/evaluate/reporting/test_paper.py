"""Paper-ready output (issue 16, requirement 5): BLiMP's Table 3 in Markdown and LaTeX, figures
with error bars, titles and baselines, rendered to PNG and looked at through matplotlib."""

from __future__ import annotations

import json
import struct
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from blimpgen.errors import BlimpgenError
from blimpgen.evaluate.metrics import chance_baseline, majority_baseline
from blimpgen.evaluate.reporting import paper
from blimpgen.evaluate.reporting.report import load_result, run_report
from blimpgen.evaluate.runner import evaluate, write_results
from blimpgen.evaluate.scoring.scorers.unigram import UnigramScorer

from ..tiny import ITEMS, write_items

pytest.importorskip("matplotlib")

PNG = b"\x89PNG\r\n\x1a\n"


@pytest.fixture
def two_results(blimp_data: Path, tmp_path: Path) -> list[Path]:
    folders = []
    for name, counts in (("freq", {"is": 9, "are": 1, "herself": 3}), ("flat", {})):
        folder = tmp_path / "results" / name
        write_results(evaluate(UnigramScorer(counts=counts), blimp_data), folder)
        folders.append(folder)
    return folders


@pytest.fixture
def human(tmp_path: Path) -> Path:
    path = tmp_path / "per_paradigm.csv"
    path.write_text("UID,accuracy\nsubject_verb_agreement_1,0.9\nanaphor_number_agreement,0.7\nelsewhere,0.1\n")
    return path


def png_size(path: Path) -> tuple[int, int]:
    """Width and height from a PNG's IHDR chunk (the file must be a PNG)."""
    data = path.read_bytes()
    assert data[:8] == PNG and data[12:16] == b"IHDR", f"{path} is not a PNG"
    return struct.unpack(">II", data[16:24])


def test_paper_table_rows_models_then_human(two_results: list[Path], human: Path):
    from blimpgen.evaluate.reporting.report import read_human

    results = [load_result(folder) for folder in two_results]
    table = paper.paper_table(results, read_human(human))
    assert table.header == ["Model", "Overall", "Ana. agr.", "S-V agr."]
    assert [label for label, _ in table.rows] == ["freq", "flat", "Human"]
    freq = results[0]
    assert table.rows[0][1][0] == round(100 * freq.overall["accuracy"], 1)
    # the human row: per phenomenon the mean of its paradigms, overall the mean of all matched
    assert table.rows[2][1] == (80.0, 70.0, 90.0)


def test_paper_markdown_and_latex(two_results: list[Path], human: Path, tmp_path: Path):
    md, tex, csv = tmp_path / "t.md", tmp_path / "t.tex", tmp_path / "t.csv"
    text = run_report(two_results, human=human, out=[md, tex, csv])
    assert f"table: {md}" in text and f"table: {tex}" in text
    lines = md.read_text().splitlines()
    assert lines[0] == "| Model | Overall | Ana. agr. | S-V agr. |"
    assert lines[1] == "|---|---:|---:|---:|"
    assert lines[4].startswith("| Human | 80.0 | 70.0 | 90.0 |")
    assert "**" in lines[2] + lines[3]  # the better model of a column is bold
    latex = tex.read_text()
    assert latex.startswith("\\begin{table*}") and "\\toprule" in latex and "\\bottomrule" in latex
    body = latex.split("\\midrule")
    assert len(body) == 3 and body[2].lstrip().startswith("Human & 80.0 & 70.0 & 90.0")  # a rule before Human
    assert "\\textbf{" in latex and "per\\_paradigm" not in latex
    assert csv.read_text().startswith("phenomenon,freq,flat")  # the printed table, as before


def test_paper_latex_escapes_labels():
    table = paper.PaperTable(("a_b",), (("50% & co_1", (50.0, 25.0)), ("x#2", (40.0, None))), 2, "")
    latex = paper.render_latex(table)
    assert "50\\% \\& co\\_1 & \\textbf{50.0} & 25.0" in latex and "x\\#2 & 40.0 & -" in latex
    assert "a b" in latex  # a phenomenon without a BLiMP abbreviation keeps its name, with spaces


def test_paper_errors(two_results: list[Path], tmp_path: Path):
    stranger = tmp_path / "h.csv"
    stranger.write_text("UID,accuracy\nnot_a_paradigm_here,0.9\n")
    with pytest.raises(BlimpgenError, match="none of the 1 paradigms with a human accuracy"):
        run_report(two_results, human=stranger, out=tmp_path / "t.md")
    assert not (tmp_path / "t.md").exists()
    run_report(two_results, out=tmp_path / "t.txt")  # any other suffix is CSV, as --out always wrote
    assert (tmp_path / "t.txt").read_text().startswith("phenomenon,freq,flat")


def test_figures_have_titles_error_bars_and_render(two_results: list[Path], human: Path, tmp_path: Path):
    import matplotlib.pyplot as plt
    from matplotlib.container import BarContainer

    from blimpgen.evaluate.reporting.figures import bar_figure, bins_figure, correlation_figure, use_agg

    use_agg()
    results = [load_result(folder) for folder in two_results]
    figure = bar_figure(results, "phenomena", "Accuracy by phenomenon")
    axis = figure.axes[0]
    bars = [c for c in axis.containers if isinstance(c, BarContainer)]
    assert len(bars) == 2 and all(b.errorbar is not None for b in bars)  # error bars from the intervals
    assert axis.get_title().startswith("Accuracy by phenomenon")
    assert [t.get_text() for t in axis.get_yticklabels()] == ["anaphor agreement", "subject verb agreement"]
    assert "chance (50%)" in [t.get_text() for t in axis.get_legend().get_texts()]
    plt.close(figure)
    figure = correlation_figure({"a": {"x": 1.0, "y": 1.0}, "b": {"x": 0.2, "y": 0.4}})
    assert any("undefined" in t.get_text() for t in figure.texts)  # a constant series is explained
    plt.close(figure)
    figure = bins_figure(results)
    assert figure.get_suptitle().startswith("Accuracy by sentence length") and figure.legends
    plt.close(figure)

    plots = tmp_path / "plots"
    text = run_report(two_results, plots=plots, human=human)
    written = [Path(line.split(": ", 1)[1]) for line in text.splitlines() if line.startswith("figure: ")]
    assert len(written) == 3
    for path in written:
        width, height = png_size(path)
        assert width >= 400 and height >= 300 and path.stat().st_size > 10_000, path


def test_probe_figures_draw_chance_and_majority_per_bar(tmp_path: Path):
    import matplotlib.pyplot as plt

    from blimpgen.evaluate.reporting.figures import bar_figure, use_agg
    from blimpgen.evaluate.reporting.probe_figures import MAJORITY, probe_baselines

    use_agg()
    data = write_items(tmp_path / "items.jsonl", ITEMS)
    folder = tmp_path / "res" / "freq"
    write_results(evaluate(UnigramScorer(counts={"is": 9, "dog": 3}), data), folder)
    result = load_result(folder).for_metric("mc_accuracy")
    by_suite, by_phenomenon = probe_baselines([result])
    records = [r for r in result.records() if r["correct"] is not None and r["suite"] == "agreement"]
    expected = majority_baseline((r["answer"], r["candidates"]) for r in records)
    assert by_suite[MAJORITY][("freq", "agreement")] == expected
    assert by_phenomenon[MAJORITY][("freq", "agreement")] == expected  # one suite in the phenomenon
    figure = bar_figure([result], "groups", "Multiple-choice accuracy by suite", chance=None, baselines=by_suite)
    legend = [t.get_text() for t in figure.axes[0].get_legend().get_texts()]
    assert "majority answer" in legend and "chance (1/K)" in legend
    plt.close(figure)
    plots = tmp_path / "plots"
    run_report([folder], plots=plots)
    for name in ("accuracy_by_phenomenon.png", "accuracy_by_suite.png"):
        assert png_size(plots / name)[1] >= 200 and (plots / name).stat().st_size > 10_000


def test_metrics_majority_baseline_examples():
    fixed = [("animal", ("animal", "food", "tool"))] * 59 + [("food", ("animal", "food", "tool"))] * 41
    assert majority_baseline(fixed) == pytest.approx(0.59)  # the constant guess
    assert chance_baseline(c for _, c in fixed) == pytest.approx(1 / 3)
    varying = [("a", ("a", "b")), ("c", ("c", "d", "e")), ("a", ("a", "f"))]
    assert majority_baseline(varying) == pytest.approx((1 + 1 / 3 + 1) / 3)  # 'a' where it can, else a guess
    assert majority_baseline([]) is None and chance_baseline([]) is None


@given(st.lists(st.tuples(st.sampled_from("abcd"), st.sets(st.sampled_from("abcd"), min_size=1)), min_size=1))
def test_metrics_majority_baseline_is_a_proportion(rows):
    items = [(answer, tuple(sorted(options | {answer}))) for answer, options in rows]
    value = majority_baseline(items)
    assert value is not None and 0.0 <= value <= 1.0
    if len({c for _, c in items}) == 1:  # one candidate set: the share of the most common answer
        counts = [sum(a == x for a, _ in items) for x in {a for a, _ in items}]
        assert value == pytest.approx(max(counts) / len(items))


def test_report_human_json_row_in_markdown(two_results: list[Path], tmp_path: Path):
    path = tmp_path / "human.json"
    path.write_text(json.dumps({"subject_verb_agreement_1": 1.0}))
    md = tmp_path / "t.md"
    run_report(two_results, human=path, out=md)
    assert "| Human | 100.0 | - | 100.0 |" in md.read_text()
