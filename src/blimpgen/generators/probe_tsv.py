"""Import hand-written probe items (CPRAG-102, ROLE-88, NEG-136 style) from a simple TSV file.

Format (documented in docs/probes.md): UTF-8, TAB-separated, a header row naming the
columns (any order), ``#`` comment lines and blank lines ignored::

    id       context                                                good        bad        expected
    cprag-1  He caught the pass and scored another [MASK].          touchdown   home run   touchdown|goal
    neg-1    A robin is not a(n) [MASK].                            tree        bird

* ``context`` (required): one blank written ``[MASK]``. Write ``a(n) [MASK]`` (or
  ``A(n) [MASK]``) where the article depends on the completion: each option then gets its own
  context with ``a`` or ``an``.
* a **cloze contrast** row (NEG-136) fills ``good`` and ``bad`` (and optionally ``expected``:
  the completions top-k accuracy looks for, ``|``-separated);
* a **foils** row (CPRAG-102) fills ``good`` and several ``|``-separated ``bad`` words, the
  foils (within and between category): sensitivity means ``good`` beats every one;
* a **role** row (ROLE-88) fills ``good`` (the target) and ``reversed_context`` (the same
  sentence with the roles reversed), and no ``bad``;
* a **multiple-choice** row fills ``candidates`` (``|``-separated) and ``answer`` instead; a
  **question** row does the same with a ``context`` that has no blank (oLMpics MC-QA).
* optional: ``id`` (default: ``{suite}-{line}``), ``group``, ``arguments`` (``|``-separated:
  what the no-language control keeps; for a role row, the object and the subject of
  ``context``, which the generic_* controls replace).

Every problem is reported as ``file:line: column: message``; nothing is written unless the
whole file is valid.
"""

from __future__ import annotations

import re
from pathlib import Path

from blimpgen import __version__
from blimpgen._io import atomic_writer, read_text, refuse_inputs
from blimpgen.errors import DataError
from blimpgen.grammar.templates import article
from blimpgen.records.item import BLANK, ProbeItem
from blimpgen.records.item_types import ClozeContrast, ClozeFoils, ItemShape, MultipleChoice, Question, RoleContrast
from blimpgen.records.jsonl import dumps_record

COLUMNS = ("id", "context", "good", "bad", "expected", "candidates", "answer", "group", "arguments", "reversed_context")
ARTICLE_RE = re.compile(r"\b([Aa])\(n\)(?=\s+\[MASK\])")


def _split(value: str) -> tuple[str, ...]:
    return tuple(part.strip() for part in value.split("|") if part.strip())


def read_probe_tsv(
    path: Path | str, suite: str | None = None, phenomenon: str | None = None, field: str = "semantics"
) -> list[ProbeItem]:
    """Every item of a TSV file.

    Raises:
        BlimpgenError: every problem at once, one ``file:line: column: message`` per line.
    """
    path = Path(path)
    suite = suite or path.stem
    lines = read_text(path, error=DataError, encoding="utf-8-sig").split("\n")
    lines = [line.removesuffix("\r") for line in lines]
    rows = [
        (number, line)
        for number, line in enumerate(lines, start=1)
        if line.strip() and not line.lstrip().startswith("#")
    ]
    if not rows:
        raise DataError(f"{path}: no header row and no items")
    header_line, header = rows[0]
    names = [name.strip().lower() for name in header.split("\t")]
    problems = [
        f"{path}:{header_line}: {name}: unknown column (expected: {', '.join(COLUMNS)})"
        for name in names
        if name not in COLUMNS
    ]
    if "context" not in names:
        problems.append(f"{path}:{header_line}: header: missing required column 'context'")
    if len(set(names)) != len(names):
        problems.append(f"{path}:{header_line}: header: a column is named twice")
    if problems:
        raise DataError("\n".join(problems))
    items: list[ProbeItem] = []
    seen: dict[str, int] = {}  # item id -> line
    for number, line in rows[1:]:
        cells = line.split("\t")
        where = f"{path}:{number}"
        if len(cells) > len(names):
            problems.append(f"{where}: row: {len(cells)} cells but {len(names)} columns")
            continue
        row = dict(zip(names, (c.strip() for c in cells)))
        try:
            item = _item(row, suite, phenomenon or suite, field, number)
        except DataError as exc:
            problems.append(f"{where}: {exc}")
            continue
        if item.item_id in seen:
            problems.append(f"{where}: id: {item.item_id!r} repeats line {seen[item.item_id]}")
            continue
        seen[item.item_id] = number
        items.append(item)
    if problems:
        raise DataError("\n".join(problems))
    if not items:
        raise DataError(f"{path}: a header but no items")
    return items


def _item(row: dict[str, str], suite: str, phenomenon: str, field: str, number: int) -> ProbeItem:
    context, reversed_context = row.get("context", ""), row.get("reversed_context", "") or None
    good, bads = row.get("good", ""), _split(row.get("bad", ""))
    candidates, answer = _split(row.get("candidates", "")), row.get("answer", "")
    expected = _split(row.get("expected", ""))
    question = BLANK not in context and bool(candidates or answer)
    if context.count(BLANK) != (0 if question else 1):
        raise DataError(f"context: must contain {BLANK} exactly once")
    if (good or bads or reversed_context) and (candidates or answer):
        raise DataError(
            "row: fill either good/bad/reversed_context (cloze contrast, foils, role) or "
            "candidates/answer (multiple choice, question)"
        )
    # the answer fields of the item's type (the others stay empty)
    item_good: str | None = None
    item_bad: str | None = None
    foils: tuple[str, ...] = ()
    item_expected: tuple[str, ...] = ()
    shape: type[ItemShape]
    if reversed_context is not None:
        if not good or bads:
            raise DataError(f"{'bad' if bads else 'good'}: a role row has a good (the target) and no bad")
        if reversed_context.count(BLANK) != 1:
            raise DataError(f"reversed_context: must contain {BLANK} exactly once")
        shape, candidates, answer = RoleContrast, (good,), good
        item_good, item_expected = good, expected
    elif good or bads:
        if not (good and bads):
            raise DataError(f"{'bad' if good else 'good'}: a cloze contrast row needs both good and bad")
        if good in bads:
            raise DataError("bad: equal to good")
        if len(bads) == 1:
            shape, item_bad = ClozeContrast, bads[0]
        else:
            shape, foils = ClozeFoils, bads
        candidates, answer, item_good, item_expected = (good, *bads), good, good, expected
    elif candidates or answer:
        if len(candidates) < 2:
            raise DataError("candidates: give at least two, separated by |")
        if answer not in candidates:
            raise DataError(f"answer: {answer!r} is not one of the candidates {list(candidates)}")
        if expected:
            raise DataError(
                "expected: top-k accuracy is for cloze contrast, foils and role rows "
                "(fill good and bad instead of candidates and answer)"
            )
        shape = Question if question else MultipleChoice
    else:
        raise DataError("row: fill good and bad, good and reversed_context, or candidates and answer")
    contexts = None
    if ARTICLE_RE.search(context) and shape.option_contexts:
        contexts = {option: _with_article(context, option) for option in candidates}
        if len(set(contexts.values())) == 1:
            context, contexts = contexts[answer], None
        else:
            context = contexts[answer]
    try:
        return ProbeItem(
            item_id=row.get("id") or f"{suite}-{number:05d}",
            UID=suite,
            item_type=shape.name,
            field=field,
            linguistics_term=phenomenon,
            group=row.get("group", ""),
            context=context,
            contexts=contexts,
            candidates=tuple(candidates),
            answer=answer,
            arguments=_split(row.get("arguments", "")),
            blimpgen_version=__version__,
            good=item_good,
            bad=item_bad,
            foils=foils,
            reversed_context=reversed_context,
            expected=item_expected,
        )
    except DataError as exc:
        raise DataError(f"row: {str(exc).split(': ', 1)[-1]}") from None


def _cased(word: str, like: str) -> str:
    return word.capitalize() if like.isupper() else word


def _with_article(context: str, option: str) -> str:
    """``context`` with its ``a(n)`` before the blank made the article ``option`` takes."""
    return ARTICLE_RE.sub(lambda match: _cased(article(option), match.group(1)), context)


def import_probe_tsv(
    path: Path | str,
    out: Path | str,
    suite: str | None = None,
    phenomenon: str | None = None,
    field: str = "semantics",
    controls: tuple[str, ...] = (),
    keywords: tuple[str, ...] = (),
    shuffles: int = 1,
    seed: int = 0,
) -> int:
    """Convert a TSV file to probe-item JSONL atomically, each item followed by its ``controls``
    (:mod:`blimpgen.generators.controls`; ``all``: every control the item's type takes);
    return the number of items written (controls included).

    Raises:
        DataError: every problem of the file at once (``file:line: column: message``).
        GenerationError: for a control an item cannot take (naming the item).
        OptionError: for fewer than one shuffle, or when ``out`` is the TSV file itself (it would
            be destroyed).
    """
    from blimpgen.errors import OptionError
    from blimpgen.generators.controls import derive_controls

    if shuffles < 1:
        raise OptionError(f"--shuffles must be at least 1, got {shuffles}")
    refuse_inputs(out, {"SOURCE": [path]})
    items = read_probe_tsv(path, suite, phenomenon, field)
    out_items: list[ProbeItem] = []
    for item in items:
        if "all" in controls:  # every control the item's type takes and the file can feed
            wanted = [
                c
                for c in item.shape.controls
                if c != "none" and (c != "no_language" or item.arguments) and (c != "perturbed_language" or keywords)
            ]
        else:
            wanted = [c for c in controls if c != "none"]
        out_items += derive_controls(item, ["none", *wanted], keywords, seed, (), shuffles)
    with atomic_writer(out) as handle:
        for item in out_items:
            handle.write(dumps_record(item) + "\n")
    return len(out_items)
