"""The review report in a real browser (headless Chromium): the DOM after the page's script ran, a screenshot.

``make test`` installs Chromium (``make debian-deps``); without a browser these tests are skipped, saying so.
"""

import struct
from html.parser import HTMLParser

import pytest
import spacy

import textanon  # noqa: F401  (extensions)
from textanon.io.datasets.records import Record
from textanon.render.output import doc_to_record
from textanon.review import write_report
from textanon.review.browser import dump_dom, find_browser, screenshot

pytestmark = pytest.mark.skipif(
    find_browser() is None,
    reason="no Chromium browser installed: `make debian-deps` (apt-get install chromium) installs it",
)

TEXTS = {
    "case-1": "The applicant, Mr Ion Rusu (no. 12345/06), was born on 3 May 1961. "
    "RUSU paid 5,000 euros on 12 June 2005.",  # upper case: a mention of the name that the recognizer misses
    "case-2": "Ms Ana Popa, a lawyer, wrote to ana.popa@example.com on 4 July 2010.",
}


class Dom(HTMLParser):
    """Elements (tag, attributes) in document order, and the text inside each element with an id."""

    def __init__(self, html: str):
        super().__init__()
        self.elements, self.text_by_id, self._open = [], {}, []
        self.feed(html)

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        self.elements.append((tag, attrs))
        if tag not in ("br", "meta", "input", "img"):
            self._open.append((tag, attrs.get("id")))
            if attrs.get("id"):
                self.text_by_id.setdefault(attrs["id"], "")

    def handle_endtag(self, tag):
        while self._open:
            if self._open.pop()[0] == tag:
                break

    def handle_data(self, data):
        for _, ident in self._open:
            if ident:
                self.text_by_id[ident] += data

    def find(self, tag, **attrs):
        return [a for t, a in self.elements if t == tag and all(a.get(k) == v for k, v in attrs.items())]

    def with_class(self, tag, cls):
        return [a for t, a in self.elements if t == tag and cls in (a.get("class") or "").split()]


@pytest.fixture(scope="module")
def report(tmp_path_factory):
    nlp = spacy.blank("en")
    nlp.add_pipe("textanon_entity_recognizer", config={"use_ner": False})
    nlp.add_pipe("textanon_entity_linker")
    nlp.add_pipe("textanon_optimizer", config={"replacement": "label"})
    records, inputs = [], []
    for doc_id, text in TEXTS.items():
        doc = nlp.make_doc(text)
        doc._.target = "Ion Rusu" if doc_id == "case-1" else None
        records.append(doc_to_record(nlp(doc), doc_id))
        inputs.append(Record(id=doc_id, text=text, target=doc._.target))
    records.append({"id": "bad", "error": "line 3: malformed JSON; not anonymized", "source": "in.jsonl"})
    inputs.append(None)
    out = tmp_path_factory.mktemp("report")
    write_report(records, out, inputs=inputs)
    return out, records


def test_document_page_dom_has_every_span_label_and_decision(report):
    out, records = report
    record = records[0]
    dom = Dom(dump_dom(out / "doc-00001-case-1.html"))
    spans = dom.with_class("a", "span")
    assert [s["data-label"] for s in spans] == [s["label"] for s in record["spans"]]
    assert ["masked" in s["class"].split() for s in spans] == [s["masked"] for s in record["spans"]]
    n_masked = sum(s["masked"] for s in record["spans"])
    assert dom.text_by_id["n-masked"] == str(n_masked) and dom.text_by_id["n-spans"] == str(len(spans))
    assert len(dom.find("tr", **{"class": "masked"})) == n_masked
    assert "protected name" in dom.text_by_id["warnings"]
    assert "[CODE]" in dom.text_by_id["anonymized"] and "12345/06" not in dom.text_by_id["anonymized"]
    assert dom.find("aside", id="panel")[0].get("hidden") is not None  # no details until a click


def test_details_panel_opens_for_the_span_in_the_url(report):
    out, records = report
    code = next(i for i, s in enumerate(records[0]["spans"]) if s["label"] == "CODE") + 1
    dom = Dom(dump_dom(out / "doc-00001-case-1.html", fragment=f"#s{code}"))
    panel = dom.find("aside", id="panel")[0]
    assert panel.get("hidden") is None and panel["data-n"] == str(code)
    assert "12345/06" in dom.text_by_id["panel"] and "direct identifier (CODE)" in dom.text_by_id["panel"]
    assert "active" in dom.find("a", id=f"s{code}")[0]["class"].split()


def test_index_sorts_in_the_browser(report):
    out, _ = report
    plain = Dom(dump_dom(out / "index.html"))
    assert [r["data-id"] for r in plain.find("tr") if "data-id" in r] == ["case-1", "case-2", "bad"]
    by_spans = Dom(dump_dom(out / "index.html", fragment="#sort=-spans"))
    rows = [r["data-id"] for r in by_spans.find("tr") if "data-id" in r]
    counts = {r["id"]: len(r.get("spans", [])) for r in report[1]}
    assert rows == sorted(counts, key=lambda i: -counts[i]) and rows[-1] == "bad"
    assert by_spans.find("table", id="documents")[0]["data-sorted"] == "-spans"
    assert len(plain.find("tr", **{"class": "status-error"})) == 1


def test_screenshot_is_a_png_of_the_window(report, tmp_path):
    out, _ = report
    png = screenshot(out / "doc-00001-case-1.html", tmp_path / "shot.png", size=(1024, 700))
    data = png.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    assert struct.unpack(">II", data[16:24]) == (1024, 700)
