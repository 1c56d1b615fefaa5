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
import math
import re
from collections.abc import Mapping
from dataclasses import dataclass
from decimal import Decimal
from importlib import resources

import jinja2
from markupsafe import Markup, escape

from blimpgen._io import FORMULA_PREFIXES
from blimpgen.errors import DataError, OptionError
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

# The consent paragraph a page shows unless the batch gives its own (`validate batch --consent FILE`):
# what taking part means and what the page records, nothing an ethics board would have to approve.
# Replace it with the text your IRB or ethics committee approved.
DEFAULT_CONSENT = (
    "This task is part of a study of how people judge English sentences. Taking part is voluntary: "
    "you may stop at any time by returning the HIT. We record your answers, the time you take, "
    "whether English is your native language, and your MTurk worker ID. "
    "By submitting your answers you agree to take part."
)
NO_CONTACT = "use MTurk's \u201cContact this requester\u201d link."


@dataclass(frozen=True)
class PageText:
    """What the page tells a worker besides the questions (issue 16, requirement 7).

    Args:
        instructions: replaces the instruction paragraph (plain text; a blank line starts a new
            paragraph); None keeps blimpgen's.
        consent: the consent or IRB text (plain text, paragraphs as above); default
            :data:`DEFAULT_CONSENT`.
        contact: who to contact with questions (a name and an e-mail address); posting a batch
            without one is refused (:func:`blimpgen.validate.mturk.post_batch`).
        seconds: the estimated time of one assignment, shown on the page in whole minutes
            (``validate batch`` fills it in from :meth:`HitProperties.seconds
            <blimpgen.validate.properties.HitProperties.seconds>`).
        reward: the pay per assignment in dollars, shown on the page with the hourly rate it
            makes at the estimated time.

    Raises:
        OptionError: for an empty instructions, consent or contact text.
    """

    instructions: str | None = None
    consent: str = DEFAULT_CONSENT
    contact: str | None = None
    seconds: float | None = None
    reward: Decimal | None = None

    def __post_init__(self) -> None:
        for name in ("instructions", "consent", "contact"):
            value = getattr(self, name)
            if value is not None and not value.strip():
                raise OptionError(f"the HIT page's {name} text is empty; give some text or leave it out")

    @property
    def minutes(self) -> int | None:
        """The estimated time in whole minutes, rounded up (at least 1)."""
        return None if self.seconds is None else max(1, math.ceil(self.seconds / 60))

    def pay(self) -> str | None:
        """``$0.62 for this HIT (about $15.08 an hour at the estimated time)``, when the reward is known."""
        if self.reward is None:
            return None
        text = f"${self.reward} for this HIT"
        if self.seconds:
            hourly = (self.reward * 3600 / Decimal(str(self.seconds))).quantize(Decimal("0.01"))
            text += f" (about ${hourly} an hour at the estimated time)"
        return text

    def to_json(self) -> dict[str, object]:
        """What ``hit_properties.json`` records of the page (``blimpgen.page``)."""
        return {
            "contact": self.contact,
            "minutes": self.minutes,
            "seconds": self.seconds,
            "reward": None if self.reward is None else str(self.reward),
            "consent": self.consent,
            "instructions": self.instructions,
        }


def paragraphs(text: str | None) -> list[str]:
    """The paragraphs of a plain text (split at blank lines, lines joined with a space)."""
    if text is None:
        return []
    blocks = re.split(r"\n\s*\n", text.strip().replace("\r\n", "\n"))
    return [" ".join(line.strip() for line in block.splitlines() if line.strip()) for block in blocks if block.strip()]


def _page_text(value: object) -> Markup:
    """Text for the page: HTML-escaped, and ``$`` as an entity, so that it can never form an MTurk
    ``${placeholder}`` (MTurk and :func:`fill` would substitute it)."""
    return Markup(escape(str(value))).replace("$", Markup("&#36;"))


@functools.cache
def _template() -> jinja2.Template:
    source = (resources.files("blimpgen.validate") / "templates" / "hit.html").read_text(encoding="utf-8")
    environment = jinja2.Environment(autoescape=True, undefined=jinja2.StrictUndefined, keep_trailing_newline=True)
    environment.filters["text"] = _page_text
    return environment.from_string(source)


def render_page(
    n_items: int,
    *,
    standalone: bool,
    title: str = DEFAULT_TITLE,
    submit_url: str = SUBMIT_URL,
    text: PageText | None = None,
) -> str:
    """Render the HIT page with ``${…}`` placeholders left in.

    Args:
        n_items: questions per HIT (attention check included).
        standalone: a full HTML document with its own form (preview pages, HTMLQuestion); else
            the fragment MTurk's requester site wraps in its form.
        title: heading and document title.
        submit_url: form action used when the page is opened without ``turkSubmitTo``.
        text: instructions, consent, contact, time and pay (default: :class:`PageText` ()).

    Returns:
        The page's HTML.
    """
    text = text or PageText()
    return _template().render(
        n_items=n_items,
        standalone=standalone,
        title=title,
        submit_url=submit_url,
        question_prefix=QUESTION_PREFIX,
        native=NATIVE_FIELD,
        honeypot=HONEYPOT_FIELD,
        elapsed=ELAPSED_FIELD,
        instructions=paragraphs(text.instructions),
        consent=paragraphs(text.consent),
        contact=text.contact,
        no_contact=NO_CONTACT,
        minutes=text.minutes,
        pay=text.pay(),
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
