"""Error analysis of a recognizer: causes of missed tokens, detectors of wrong ones, shapes instead of text."""

import json

import spacy

from textanon.extensions import register_extensions
from textanon.io.datasets.tab import GoldDocument, Mention
from textanon_eval.ner_errors import analyse_errors, markdown, shape

TEXT = "Mr Q. Ornby met Hal\nVexley about file AB123456 and paid EUR 5 in Tromsby."


def _gold():
    def m(sub, label):
        start = TEXT.index(sub)
        return Mention(start=start, end=start + len(sub), entity_type=label)

    mentions = [
        m("Mr Q. Ornby", "PERSON"),
        m("Hal\nVexley", "PERSON"),
        m("AB123456", "CODE"),
        m("EUR 5", "QUANTITY"),
        m("Tromsby", "LOC"),
    ]
    return GoldDocument(doc_id="d1", text=TEXT, annotations={"a1": mentions})


def _predicted():
    register_extensions()
    doc = spacy.blank("en")(TEXT)
    spans = []
    for sub, label, source in [
        ("Ornby", "PERSON", "ner"),
        ("AB123456", "CODE", "rule:id_number"),
        ("Tromsby", "ORG", "ner"),
        ("met", "DEM", "gazetteer"),
    ]:
        start = TEXT.index(sub)
        span = doc.char_span(start, start + len(sub), label=label)
        span._.source = source
        spans.append(span)
    doc.spans["pii"] = spans
    return doc


def test_shape_hides_the_text():
    assert shape("Mr E. Kanar") == "Xx X. Xxxxx"
    assert shape("12345/06") == "dddd/dd"
    assert shape("Hal\n  Vexley") == "Xxx Xxxxx"


def test_missed_tokens_by_cause_and_wrong_tokens_by_detector():
    result = analyse_errors([_gold()], [_predicted()], "pii")
    person = result["PERSON"]
    assert person["gold_tokens"] == 5 and person["missed_tokens"] == 4
    causes = person["missed_by_cause"]
    assert causes["title"] == 1 and causes["initial"] == 1 and causes["line_break"] == 2
    assert causes["undetected"] == 4
    assert result["CODE"]["missed_tokens"] == 0
    assert result["LOC"]["missed_tokens"] == 0  # ORG/LOC interchangeable by default
    assert analyse_errors([_gold()], [_predicted()], "pii", org_loc_interchangeable=False)["LOC"][
        "missed_by_cause"
    ] == {"as:ORG": 1}
    assert result["DEM"]["wrong_by_source"] == {"gazetteer -> gold none": 1}
    assert result["QUANTITY"]["missed_by_cause"]["undetected"] == 2


def test_report_has_shapes_never_text():
    result = {
        "model": "m",
        "documents": 1,
        "org_loc_interchangeable": True,
        "by_type": analyse_errors([_gold()], [_predicted()], "pii"),
    }
    rendered = markdown(result) + json.dumps(result)
    for secret in ("Ornby", "Vexley", "AB123456", "Tromsby", "Hal"):
        assert secret not in rendered
    assert "`Xx X. Xxxxx`" in rendered
