"""The HIT page: placeholders, safe filling, form fields, HTMLQuestion wrapping."""

from __future__ import annotations

import html
import xml.etree.ElementTree as ElementTree
from html.parser import HTMLParser

import pytest
from hypothesis import given
from hypothesis import strategies as st

from blimpgen.errors import BlimpgenError
from blimpgen.validate.page import HONEYPOT_FIELD, element_text, fill, placeholders, question_xml, render_page

HOSTILE = [
    'It\'s "quoted" & <b>bold</b>',
    "</span><script>alert(1)</script>",
    "a ]]> b",
    "${s1_a} ${hit_code}",
    "Don't <!-- stop --> 'now'",
    "emoji \U0001f600 here",
    "x < y && y > z",
]


class _Collector(HTMLParser):
    """Collects the text of every ``bg-sentence`` span and every element's tag and attributes."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.sentences: list[str] = []
        self.tags: list[tuple[str, dict[str, str | None]]] = []
        self._open = False

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.append((tag, dict(attrs)))
        if tag == "span" and ("class", "bg-sentence") in attrs:
            self._open = True
            self.sentences.append("")
        elif self._open:
            raise AssertionError(f"element <{tag}> inside a sentence")

    def handle_endtag(self, tag: str) -> None:
        if tag == "span":
            self._open = False

    def handle_data(self, data: str) -> None:
        if self._open:
            self.sentences[-1] += data


def _filled(sentences: list[str], standalone: bool = True) -> str:
    page = render_page(len(sentences), standalone=standalone)
    values = {"hit_code": "b000000-001-1"}
    for slot, sentence in enumerate(sentences, start=1):
        values |= {
            f"s{slot}_id": f"{slot}|real|u|p{slot}",
            f"s{slot}_a": element_text(sentence),
            f"s{slot}_b": element_text(sentence[::-1]),
        }
    return fill(page, values)


def test_page_placeholders_per_slot() -> None:
    names = placeholders(render_page(2, standalone=False))
    assert names == ["hit_code", "s1_id", "s1_a", "s1_b", "s2_id", "s2_a", "s2_b"]
    assert placeholders(render_page(2, standalone=True)) == names


def test_page_hostile_sentences_stay_text() -> None:
    parser = _Collector()
    parser.feed(_filled(HOSTILE))
    expected = [s for sentence in HOSTILE for s in (sentence, sentence[::-1])]
    practice = 2
    assert parser.sentences[practice:] == expected
    assert sum(tag == "script" for tag, _ in parser.tags) == 1  # only the page's own inline script


@given(st.text())
def test_page_element_text_is_safe_and_lossless(sentence: str) -> None:
    text = element_text(sentence)
    assert "<" not in text
    assert all(ord(c) <= 0xFFFF for c in text)  # MTurk refuses 4-byte UTF-8 in batch files
    assert html.unescape(text) == sentence


def test_page_fill_is_one_pass_and_complains_about_missing_values() -> None:
    assert fill("${a}${b}", {"a": "${b}", "b": "x"}) == "${b}x"
    with pytest.raises(BlimpgenError, match="no value for placeholder"):
        fill("${a}", {})


def test_page_form_fields() -> None:
    parser = _Collector()
    parser.feed(_filled(["One two three four.", "Five six seven eight."]))
    inputs = [attrs for tag, attrs in parser.tags if tag == "input"]
    radios = [a for a in inputs if a.get("type") == "radio"]
    groups = {a["name"] for a in radios if "form" not in a}
    assert groups == {"q1", "q2", "native"}
    assert all("required" in a for a in radios if "form" not in a)
    assert {a["value"] for a in radios if a["name"] in ("q1", "q2")} == {"1", "2"}
    practice = [a for a in radios if a.get("name") == "bg_practice"]
    assert practice and all(a["form"] == "bg-practice-only" for a in practice)  # never submitted
    honeypot = [a for a in inputs if a.get("name") == HONEYPOT_FIELD]
    assert honeypot and honeypot[0]["tabindex"] == "-1"
    assert ("input", {"type": "hidden", "name": "assignmentId", "id": "assignmentId", "value": ""}) in parser.tags
    assert " src=" not in render_page(1, standalone=True)  # no external script, image or style


def test_page_layout_fragment_has_no_form_of_its_own() -> None:
    layout = render_page(3, standalone=False)
    assert "<form" not in layout and 'assignmentId" id' not in layout and "<html" not in layout
    assert "<form" in render_page(3, standalone=True)


def test_page_question_xml_round_trips_hostile_content() -> None:
    page = _filled(HOSTILE)
    document = question_xml(page)
    root = ElementTree.fromstring(document.encode("utf-8"))
    namespace = "{http://mechanicalturk.amazonaws.com/AWSMechanicalTurkDataSchemas/2011-11-11/HTMLQuestion.xsd}"
    assert root.find(f"{namespace}HTMLContent").text == page
    assert root.find(f"{namespace}FrameHeight").text == "0"
    assert page.startswith("<!DOCTYPE html>")


PAGE_TEXT = ("bg-time-pay", "bg-consent", "bg-contact", "bg-instructions")


class _Paragraphs(HTMLParser):
    """The text of each ``<p>`` by its class (``bg-consent`` ...), entities decoded."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.found: dict[str, list[str]] = {}
        self._open: str | None = None

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag == "p":
            self._open = dict(attrs).get("class") or ""
            self.found.setdefault(self._open, []).append("")
        elif self._open in PAGE_TEXT and tag != "strong":
            raise AssertionError(f"element <{tag}> inside a paragraph of page text")

    def handle_endtag(self, tag: str) -> None:
        if tag == "p":
            self._open = None

    def handle_data(self, data: str) -> None:
        if self._open is not None:
            self.found[self._open][-1] += data


def test_page_shows_time_pay_consent_and_contact() -> None:
    from decimal import Decimal

    from blimpgen.validate.page import DEFAULT_CONSENT, PageText

    text = PageText(contact="Jane Doe <jane@uni.example>", seconds=148, reward=Decimal("0.62"))
    parser = _Paragraphs()
    parser.feed(render_page(11, standalone=False, text=text))
    assert parser.found["bg-time-pay"] == [
        "Time and pay: about 3 minutes; $0.62 for this HIT (about $15.08 an hour at the estimated time)."
    ]
    assert parser.found["bg-consent"] == [DEFAULT_CONSENT]
    assert parser.found["bg-contact"] == ["Questions or concerns: Jane Doe <jane@uni.example>"]
    assert "more natural" in parser.found["bg-instructions"][0]  # blimpgen's instructions by default
    parser = _Paragraphs()
    parser.feed(render_page(2, standalone=True))  # no contact: MTurk's own link is named
    assert "Contact this requester" in parser.found["bg-contact"][0] and "bg-time-pay" not in parser.found


@given(st.text(min_size=1).filter(str.strip))
def test_page_text_is_escaped_and_never_a_placeholder(hostile: str) -> None:
    from blimpgen.validate.page import PageText, paragraphs

    text = PageText(instructions=hostile, consent=hostile + "\n\n${s1_a} </p><script>x</script>", contact=hostile)
    page = render_page(1, standalone=True, text=text)
    assert placeholders(page) == ["hit_code", "s1_id", "s1_a", "s1_b"]  # page text adds none
    parser = _Paragraphs()
    parser.feed(page)
    assert parser.found["bg-instructions"] == paragraphs(hostile)
    assert parser.found["bg-consent"] == [*paragraphs(hostile), "${s1_a} </p><script>x</script>"]
    assert parser.found["bg-contact"] == ["Questions or concerns: " + hostile]


def test_page_text_paragraphs_and_empty_text() -> None:
    from blimpgen.validate.page import PageText, paragraphs

    assert paragraphs("One\nline.\n\n  \nTwo.\r\n") == ["One line.", "Two."]
    with pytest.raises(BlimpgenError, match="the HIT page's contact text is empty"):
        PageText(contact="  ")
