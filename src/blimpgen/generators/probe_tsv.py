"""Import hand-written probe items (CPRAG-102, ROLE-88, NEG-136 style) from a simple TSV file.

Format (documented in docs/probes.md): UTF-8, TAB-separated, a header row naming the
columns (any order), ``#`` comment lines and blank lines ignored::

    id       context                                                good        bad        expected
    cprag-1  He caught the pass and scored another [MASK].          touchdown   home run   touchdown|goal
    neg-1    A robin is not a(n) [MASK].                            tree        bird

* ``context`` (required): one blank written ``[MASK]``. Write ``a(n) [MASK]`` (or
  ``A(n) [MASK]``) where the article depends on the completion: each option then gets its own
  context with ``a`` or ``an``.
* a **cloze contrast** row fills ``good`` and ``bad`` (and optionally ``expected``: the
  completions top-k accuracy looks for, ``|``-separated);
* a **multiple-choice** row fills ``candidates`` (``|``-separated) and ``answer`` instead.
* optional: ``id`` (default: ``{suite}-{line}``), ``group``, ``arguments`` (``|``-separated:
  what the no-language control keeps).

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
from blimpgen.records.jsonl import dumps_record

COLUMNS = ("id", "context", "good", "bad", "expected", "candidates", "answer", "group", "arguments")
ARTICLE_RE = re.compile(r"\b([Aa])\(n\)(?=\s+\[MASK\])")


def _split(value: str) -> tuple[str, ...]:
    return tuple(part.strip() for part in value.split("|") if part.strip())


def read_probe_tsv(path: Path | str, suite: str | None = None, phenomenon: str | None = None,
                   field: str = "semantics") -> list[ProbeItem]:
    """Every item of a TSV file.

    Raises:
        BlimpgenError: every problem at once, one ``file:line: column: message`` per line.
    """
    path = Path(path)
    suite = suite or path.stem
    lines = read_text(path, error=DataError, encoding="utf-8-sig").split("\n")
    lines = [line.removesuffix("\r") for line in lines]
    rows = [(number, line) for number, line in enumerate(lines, start=1)
            if line.strip() and not line.lstrip().startswith("#")]
    if not rows:
        raise DataError(f"{path}: no header row and no items")
    header_line, header = rows[0]
    names = [name.strip().lower() for name in header.split("\t")]
    problems = [f"{path}:{header_line}: {name}: unknown column (expected: {', '.join(COLUMNS)})"
                for name in names if name not in COLUMNS]
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
    context = row.get("context", "")
    if context.count(BLANK) != 1:
        raise DataError(f"context: must contain {BLANK} exactly once")
    good, bad = row.get("good", ""), row.get("bad", "")
    candidates, answer = _split(row.get("candidates", "")), row.get("answer", "")
    if (good or bad) and (candidates or answer):
        raise DataError("row: fill either good/bad (cloze contrast) or candidates/answer (multiple choice)")
    if good or bad:
        if not (good and bad):
            raise DataError(f"{'bad' if good else 'good'}: a cloze contrast row needs both good and bad")
        if good == bad:
            raise DataError("bad: equal to good")
        item_type, candidates, answer = "cloze_contrast", (good, bad), good
    elif candidates or answer:
        if len(candidates) < 2:
            raise DataError("candidates: give at least two, separated by |")
        if answer not in candidates:
            raise DataError(f"answer: {answer!r} is not one of the candidates {list(candidates)}")
        item_type = "multiple_choice"
    else:
        raise DataError("row: fill good and bad, or candidates and answer")
    contexts = None
    if ARTICLE_RE.search(context):
        contexts = {option: _with_article(context, option) for option in candidates}
        if len(set(contexts.values())) == 1:
            context, contexts = contexts[answer], None
        else:
            context = contexts[answer]
    try:
        return ProbeItem(item_id=row.get("id") or f"{suite}-{number:05d}", UID=suite, item_type=item_type,
                         field=field, linguistics_term=phenomenon, group=row.get("group", ""), context=context,
                         contexts=contexts, candidates=tuple(candidates), answer=answer,
                         expected=_split(row.get("expected", "")) if item_type == "cloze_contrast" else (),
                         good=good or None, bad=bad or None, arguments=_split(row.get("arguments", "")),
                         blimpgen_version=__version__)
    except DataError as exc:
        raise DataError(f"row: {str(exc).split(': ', 1)[-1]}") from None


def _cased(word: str, like: str) -> str:
    return word.capitalize() if like.isupper() else word


def _with_article(context: str, option: str) -> str:
    """``context`` with its ``a(n)`` before the blank made the article ``option`` takes."""
    return ARTICLE_RE.sub(lambda match: _cased(article(option), match.group(1)), context)


def import_probe_tsv(path: Path | str, out: Path | str, suite: str | None = None, phenomenon: str | None = None,
                     field: str = "semantics") -> int:
    """Convert a TSV file to probe-item JSONL atomically; return the number of items.

    Raises:
        OptionError: when ``out`` is the TSV file itself (it would be destroyed).
    """
    refuse_inputs(out, {"SOURCE": [path]})
    items = read_probe_tsv(path, suite, phenomenon, field)
    with atomic_writer(out) as handle:
        for item in items:
            handle.write(dumps_record(item) + "\n")
    return len(items)
