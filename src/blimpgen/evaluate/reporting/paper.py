"""BLiMP's Table 3 for any set of results: models as rows, overall then one column per phenomenon.

Warstadt et al. (2020) report every model as a row of percent accuracies, *Overall* first and then
the twelve phenomena, with a *Human* row last. :func:`paper_table` builds that table from result
folders (``blimpgen report``), and :func:`render_markdown` / :func:`render_latex` write it:

* a model's cells are its ``overall`` and ``phenomena`` accuracies (means over paradigms, as BLiMP
  computes them; probe results: of one metric, means over suites, controls left out);
* the human row comes from per-paradigm human accuracies (``--human``, e.g. ``validate ingest``'s
  ``per_paradigm.csv``): a phenomenon's cell is the mean over its paradigms that have a human
  accuracy, and *Overall* the mean over all of them, the way a model's cells are made. BLiMP's
  Human row is the *individual* agreement; ``per_paradigm.csv``'s ``human_accuracy`` is the
  majority (aggregate) one, so give a file with an ``accuracy`` column of individual agreement
  (``individual_accuracy``) for the paper's measure;
* the best model in each column is bold (ties: each; the human row is not ranked); a missing cell is a dash.

The LaTeX uses ``booktabs`` (``\\toprule``, ``\\midrule``, ``\\bottomrule``).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from blimpgen.errors import DataError

# The short column heads of BLiMP's Table 3, for its twelve phenomena; others keep their name.
PHENOMENON_HEADS = {
    "anaphor_agreement": "Ana. agr.",
    "argument_structure": "Arg. str.",
    "binding": "Binding",
    "control_raising": "Ctrl. rais.",
    "determiner_noun_agreement": "D-N agr.",
    "ellipsis": "Ellipsis",
    "filler_gap_dependency": "Filler gap",
    "irregular_forms": "Irregular",
    "island_effects": "Island",
    "npi_licensing": "NPI",
    "quantifiers": "Quantifiers",
    "subject_verb_agreement": "S-V agr.",
}


@dataclass(frozen=True)
class PaperTable:
    """Rows of percent accuracies (None: no such cell), models first and the human row last.

    Attributes:
        phenomena: the phenomenon of each column after *Overall*, sorted.
        rows: (label, [overall, *phenomena]) per model, then ``Human`` when given.
        ranked: how many of the rows (the models) take part in bolding the best.
        note: what the table shows (metric, what the human row is).
    """

    phenomena: tuple[str, ...]
    rows: tuple[tuple[str, tuple[float | None, ...]], ...]
    ranked: int
    note: str

    @property
    def header(self) -> list[str]:
        """``Model``, ``Overall`` and the short head of each phenomenon."""
        return ["Model", "Overall", *(head(name) for name in self.phenomena)]

    def best(self) -> list[float | None]:
        """Per column, the highest model value (None when the models do not differ there)."""
        out: list[float | None] = []
        for column in range(len(self.phenomena) + 1):
            values = [value for _, cells in self.rows[: self.ranked] if (value := cells[column]) is not None]
            out.append(max(values) if len(set(values)) > 1 else None)  # nothing to single out
        return out


def head(phenomenon: str) -> str:
    """The column head of a phenomenon: BLiMP's abbreviation, else the name with spaces."""
    return PHENOMENON_HEADS.get(phenomenon, phenomenon.replace("_", " "))


def paper_table(results: Sequence[Any], human: Mapping[str, float] | None = None, note: str = "") -> PaperTable:
    """Table 3 of ``results`` (:class:`~blimpgen.evaluate.tasks.base.ModelResult`, already seen through
    one metric for probes), with a human row from per-paradigm (per-suite) ``human`` accuracies.

    Raises:
        DataError: when none of the ``human`` paradigms is among the results' paradigms.
    """
    phenomena = tuple(sorted({name for result in results for name in result.phenomena}))
    rows = [
        (str(result.label), (_percent(result.overall), *(_percent(result.phenomena.get(p)) for p in phenomena)))
        for result in results
    ]
    notes = [note] if note else []
    if human:
        rows.append(("Human", human_cells(results, human, phenomena)))
        notes.append("Human: mean of the per-paradigm human accuracies given (--human)")
    return PaperTable(phenomena, tuple(rows), len(results), "; ".join(notes))


def human_cells(
    results: Sequence[Any], human: Mapping[str, float], phenomena: Sequence[str]
) -> tuple[float | None, ...]:
    """Overall and per-phenomenon human accuracy (percent): means over the paradigms that have one.

    A paradigm's phenomenon is what the results say (their per-paradigm rows); controls of
    probe suites (``suite[control]``) are not paradigms of a phenomenon and are left out.
    """
    phenomenon_of: dict[str, str] = {}
    for result in results:
        for uid, row in result.groups.items():
            if row.get("control", "none") == "none" and "[" not in uid and row.get("phenomenon"):
                phenomenon_of.setdefault(uid, str(row["phenomenon"]))
    matched = {uid: value for uid, value in human.items() if uid in phenomenon_of}
    if not matched:
        raise DataError(
            f"none of the {len(human)} paradigms with a human accuracy (--human) is in these results "
            f"(e.g. {next(iter(human))!r}); pass the per-paradigm file of the same paradigms"
        )
    by_phenomenon: dict[str, list[float]] = defaultdict(list)
    for uid, value in matched.items():
        by_phenomenon[phenomenon_of[uid]].append(value)
    overall = 100 * sum(matched.values()) / len(matched)
    cells = [round(100 * sum(v) / len(v), 1) if (v := by_phenomenon.get(p)) else None for p in phenomena]
    return (round(overall, 1), *cells)


def _percent(row: Mapping[str, Any] | None) -> float | None:
    return None if row is None or row.get("accuracy") is None else round(100 * row["accuracy"], 1)


def _cell(value: float | None, best: float | None, bold: tuple[str, str]) -> str:
    if value is None:
        return "-"
    text = f"{value:.1f}"
    return f"{bold[0]}{text}{bold[1]}" if best is not None and value == best else text


def render_markdown(table: PaperTable) -> str:
    """The table as GitHub Markdown, numbers right-aligned, the best model per column in bold."""
    best = table.best()
    lines = [
        "| " + " | ".join(_markdown_text(h) for h in table.header) + " |",
        "|---|" + "---:|" * (len(table.header) - 1),
    ]
    for index, (label, cells) in enumerate(table.rows):
        ranked = index < table.ranked
        values = [_cell(v, b if ranked else None, ("**", "**")) for v, b in zip(cells, best)]
        lines.append("| " + " | ".join([_markdown_text(label), *values]) + " |")
    if table.note:
        lines += ["", f"Percent accuracy; {table.note}."]
    return "\n".join(lines) + "\n"


def render_latex(table: PaperTable, caption: str = "Percent accuracy by phenomenon.") -> str:
    """The table as a LaTeX ``table*`` with ``booktabs`` rules; the human row after a rule."""
    best = table.best()
    columns = "l" + "r" * (len(table.header) - 1)
    lines = [
        "\\begin{table*}",
        "\\centering",
        "\\small",
        f"\\begin{{tabular}}{{{columns}}}",
        "\\toprule",
        " & ".join(_latex_text(h) for h in table.header) + " \\\\",
        "\\midrule",
    ]
    for index, (label, cells) in enumerate(table.rows):
        ranked = index < table.ranked
        if index == table.ranked:
            lines.append("\\midrule")
        values = [_cell(v, b if ranked else None, ("\\textbf{", "}")) for v, b in zip(cells, best)]
        lines.append(" & ".join([_latex_text(label), *values]) + " \\\\")
    text = caption + (f" {_latex_text(table.note)}." if table.note else "")
    lines += ["\\bottomrule", "\\end{tabular}", f"\\caption{{{text}}}", "\\end{table*}"]
    return "\n".join(lines) + "\n"


def _markdown_text(text: str) -> str:
    return text.replace("\\", "\\\\").replace("|", "\\|").replace("*", "\\*").replace("_", "\\_")


_LATEX_SPECIALS = {
    "\\": "\\textbackslash{}",
    "&": "\\&",
    "%": "\\%",
    "$": "\\$",
    "#": "\\#",
    "_": "\\_",
    "{": "\\{",
    "}": "\\}",
    "~": "\\textasciitilde{}",
    "^": "\\textasciicircum{}",
}


def _latex_text(text: str) -> str:
    return "".join(_LATEX_SPECIALS.get(c, c) for c in text)
