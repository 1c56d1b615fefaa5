"""The HIT page: one Jinja2 template, MTurk ``${placeholders}``, and filling them safely.

The template is rendered once per batch with placeholders left in. ``layout.html`` is that
page as an MTurk layout fragment (MTurk wraps it in its own form and Submit button); the
preview pages and HTMLQuestion documents are the standalone version with the placeholders
filled from the very ``batch.csv`` row MTurk will use, so a preview shows what a worker sees.

Sentences go into ``batch.csv`` as *context-safe element text*: ``&`` and ``<`` become
entities and characters outside the Basic Multilingual Plane become numeric references
(MTurk refuses 4-byte UTF-8 in batch files). Apostrophes and quotes stay as they are: they
can break attributes, and a sentence never goes into one. So the page is safe whether or not
MTurk escapes substituted values; at worst a literal ``&amp;`` shows if it does. A first
character that a spreadsheet would read as the start of a formula (``= + - @``, a tab, a
carriage return, a quote) becomes a numeric reference too: the page shows the same text, and
``batch.csv`` opened in Excel shows text, never runs a formula.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Mapping
from importlib import resources

import jinja2

from blimpgen._io import FORMULA_PREFIXES
from blimpgen.errors import DataError
from blimpgen.validate.design import Hit

QUESTION_PREFIX = "q"
NATIVE_FIELD = "native"
HONEYPOT_FIELD = "homepage"
ELAPSED_FIELD = "elapsed_s"
HIT_FIELD = "hit_code"
SUBMIT_URL = "https://www.mturk.com/mturk/externalSubmit"
HTML_QUESTION_XMLNS = "http://mechanicalturk.amazonaws.com/AWSMechanicalTurkDataSchemas/2011-11-11/HTMLQuestion.xsd"
DEFAULT_TITLE = "Which sentence sounds more natural?"

_PLACEHOLDER = re.compile(r"\$\{([A-Za-z_][A-Za-z0-9_]*)\}")


@functools.cache
def _template() -> jinja2.Template:
    source = (resources.files("blimpgen.validate") / "templates" / "hit.html").read_text(encoding="utf-8")
    environment = jinja2.Environment(autoescape=True, undefined=jinja2.StrictUndefined, keep_trailing_newline=True)
    return environment.from_string(source)


def render_page(n_items: int, *, standalone: bool, title: str = DEFAULT_TITLE, submit_url: str = SUBMIT_URL) -> str:
    """Render the HIT page with ``${…}`` placeholders left in.

    Args:
        n_items: questions per HIT (attention check included).
        standalone: a full HTML document with its own form (preview pages, HTMLQuestion); else
            the fragment MTurk's requester site wraps in its form.
        title: heading and document title.
        submit_url: form action used when the page is opened without ``turkSubmitTo``.

    Returns:
        The page's HTML.
    """
    return _template().render(
        n_items=n_items,
        standalone=standalone,
        title=title,
        submit_url=submit_url,
        question_prefix=QUESTION_PREFIX,
        native=NATIVE_FIELD,
        honeypot=HONEYPOT_FIELD,
        elapsed=ELAPSED_FIELD,
    )


def placeholders(html: str) -> list[str]:
    """The ``${name}`` placeholders of a page, each once, in order of first appearance."""
    return list(dict.fromkeys(_PLACEHOLDER.findall(html)))


def fill(html: str, values: Mapping[str, str]) -> str:
    """Substitute ``${name}`` placeholders in one pass, as MTurk does.

    Raises:
        DataError: when a placeholder has no value.
    """
    missing = [name for name in placeholders(html) if name not in values]
    if missing:
        raise DataError(f"no value for placeholder(s) {', '.join(missing)} in the HIT page")
    return _PLACEHOLDER.sub(lambda match: values[match.group(1)], html)


def element_text(sentence: str) -> str:
    """A sentence as safe HTML element text (see the module docstring)."""
    text = sentence.replace("&", "&amp;").replace("<", "&lt;")
    text = "".join(c if ord(c) <= 0xFFFF else f"&#x{ord(c):X};" for c in text)
    if text.startswith(FORMULA_PREFIXES):
        text = f"&#{ord(text[0])};" + text[1:]
    return text


def hit_values(hit: Hit) -> dict[str, str]:
    """The ``batch.csv`` row of a HIT: placeholder name -> value."""
    values = {HIT_FIELD: hit.code}
    for item in hit.items:
        first, second = item.options
        values[f"s{item.slot}_id"] = item.item_id or item.code
        values[f"s{item.slot}_a"] = element_text(first)
        values[f"s{item.slot}_b"] = element_text(second)
    return values


def question_xml(html: str, frame_height: int = 0) -> str:
    """Wrap a standalone page in an MTurk ``HTMLQuestion`` document.

    Args:
        html: a complete, filled-in standalone page.
        frame_height: frame height in pixels; 0 lets MTurk size the frame.

    Returns:
        The XML text, with the page in a CDATA section (a ``]]>`` inside is split safely).
    """
    cdata = html.replace("]]>", "]]]]><![CDATA[>")
    return (
        f'<?xml version="1.0" encoding="UTF-8"?>\n<HTMLQuestion xmlns="{HTML_QUESTION_XMLNS}">\n'
        f"<HTMLContent><![CDATA[{cdata}]]></HTMLContent>\n"
        f"<FrameHeight>{frame_height}</FrameHeight>\n</HTMLQuestion>\n"
    )
