"""The HTML review report (textanon.review): pages, reasons, self-containment, the CLI, displaCy colours."""

import re

import pytest
from cli_runner import run_textanon
from core_fixtures import decision_pipeline
from input_files import write_jsonl

import textanon  # noqa: F401  (extensions)
from textanon.io.datasets.records import Record
from textanon.labels import TAB_LABELS
from textanon.render.output import doc_to_record
from textanon.review import LABEL_COLORS, displacy_options, render_spans, write_report
from textanon.review.reasons import explain
from textanon.review.report import HIDDEN, document_view, rebuild_original

TEXT = (
    "The applicant, Mr Ion Rusu (no. 12345/06), was born on 3 May 1961 and lives in Balti. "
    "RUSU paid 5,000 euros on 12 June 2005."  # upper case: a mention of the name that the recognizer misses
)
TARGET = "Ion Rusu"


def _nlp():
    return decision_pipeline(risk=None, replacement="label")


def _doc(text=TEXT, target=TARGET):
    nlp = _nlp()
    doc = nlp.make_doc(text)
    doc._.target = target
    return nlp(doc)


def _record(combos=None):
    record = doc_to_record(_doc(), "case-1")
    if combos is not None:
        record["risky_combinations"] = combos
    return record


def _by_text(record, text=TEXT):
    return {text[s["start"] : s["end"]]: i for i, s in enumerate(record["spans"])}


def test_reasons_name_each_rule():
    record = _record(combos=[["QUANTITY_1", "DATETIME_2"]])
    record["spans"][_by_text(record)["12 June 2005"]]["masked"] = True  # as if the solver masked the date
    reasons = explain(record, TEXT, TARGET)
    at = _by_text(record)
    assert any("CODE" in r and "always" in r for r in reasons[at["12345/06"]].reasons)
    assert any("date of birth" in r for r in reasons[at["3 May 1961"]].reasons)
    assert any("protected person's name" in r for r in reasons[at["Mr Ion Rusu"]].reasons)
    assert any("missed by the recognizer" in r for r in reasons[at["RUSU"]].reasons)
    assert reasons[at["12 June 2005"]].combinations == [0]
    assert "masked to break risky combination #1 (with QUANTITY_1)" in reasons[at["12 June 2005"]].reasons[0]
    assert reasons[at["5,000 euros"]].reasons == ["kept: risky combination #1 is broken by masking DATETIME_2"]
    record["risky_combinations"] = [["DATETIME_2"]]
    assert "risky on its own" in explain(record, TEXT, TARGET)[at["12 June 2005"]].reasons[0]


def test_reasons_flag_an_unbroken_combination_and_kept_spans():
    record = _record(combos=[["QUANTITY_1", "DATETIME_2"]])
    reasons = explain(record, TEXT, TARGET)
    at = _by_text(record)
    assert any(r.startswith("KEPT although risky combination #1") for r in reasons[at["5,000 euros"]].reasons)
    record["risky_combinations"] = []
    assert explain(record, TEXT, TARGET)[at["5,000 euros"]].reasons == ["kept: in no risky combination"]


def test_document_page_shows_every_span_label_decision_and_warning(tmp_path):
    record = _record()
    index = write_report([record], tmp_path, inputs=[Record(id="case-1", text=TEXT, target=TARGET)])
    page = (tmp_path / "doc-00001-case-1.html").read_text(encoding="utf-8")
    spans = re.findall(r'<a class="span (masked|kept)" id="s(\d+)" href="#d\2" data-n="\d+" data-label="(\w+)"', page)
    assert len(spans) == len(record["spans"]) == 7  # "Balti": LOC after "lives in" (issue 18)
    assert [lab for _, _, lab in spans] == [s["label"] for s in record["spans"]]
    assert [state == "masked" for state, _, _ in spans] == [s["masked"] for s in record["spans"]]
    assert f'<span id="n-masked">{sum(s["masked"] for s in record["spans"])}</span>' in page
    assert 'id="warnings"' in page and "protected name were not detected" in page
    assert page.index('id="warnings"') < page.index('id="original"')  # warnings on top
    assert "[CODE]" in page and "lives in Balti" in page  # the anonymized text beside the original
    for n in range(1, 7):
        assert f'<tr id="d{n}"' in page  # every span has its row of decisions
    assert "index.html" in page and index.name == "index.html"


def test_pages_are_self_contained(tmp_path):
    write_report([_record(), {"id": "bad", "error": "boom"}], tmp_path)
    for page in tmp_path.glob("*.html"):
        html = page.read_text(encoding="utf-8")
        assert not re.search(r"""(src|href)\s*=\s*["']?(https?:)?//""", html), page.name
        assert "<link" not in html and "@import" not in html and "url(" not in html
        assert "<script src" not in html


def test_without_the_input_masked_text_is_hidden(tmp_path):
    record = _record()
    rebuilt = rebuild_original(record)
    assert len(rebuilt) == len(TEXT)
    for start, end, _ in record["masks"]:
        assert rebuilt[start:end] == HIDDEN * (end - start)
    assert rebuilt.replace(HIDDEN, "") == "".join(
        TEXT[a:b] for a, b in zip([0] + [m[1] for m in record["masks"]], [m[0] for m in record["masks"]] + [len(TEXT)])
    )
    write_report([record], tmp_path)
    page = (tmp_path / "doc-00001-case-1.html").read_text(encoding="utf-8")
    for masked in ("Ion Rusu", "12345/06", "3 May 1961"):
        assert masked not in page
    assert "5,000 euros" in page and "masked characters are drawn as" in page


def test_input_that_does_not_match_the_output_is_flagged():
    view = document_view(_record(), TEXT.replace("Balti", "Paris"), TARGET)
    assert any("do not give this anonymized text" in note for note in view["notes"])
    assert document_view(_record(), TEXT, TARGET)["notes"] == []


def test_index_lists_documents_errors_and_masked_share_per_label(tmp_path):
    records = [_record(), {"id": "bad", "error": "line 2: malformed JSON; not anonymized", "source": "in.jsonl"}]
    index = write_report(records, tmp_path, inputs=[Record(id="case-1", text=TEXT, target=TARGET), None])
    html = index.read_text(encoding="utf-8")
    assert re.search(r'<tr class="status-warnings" data-id="case-1">', html)
    assert re.search(r'<tr class="status-error" data-id="bad">', html)
    assert '<b id="n-errors">1</b>' in html and '<b id="n-with-warnings">1</b>' in html
    person = sum(1 for s in records[0]["spans"] if s["label"] == "PERSON")
    assert f'data-label="PERSON">{person} / {person} (100 %)' in html
    error_page = (tmp_path / "doc-00002-bad.html").read_text(encoding="utf-8")
    assert 'id="error"' in error_page and "not released" in error_page


def test_displacy_span_renderer_with_label_colours():
    doc = _doc()
    options = displacy_options()
    assert options["spans_key"] == "pii" and set(options["colors"]) == set(TAB_LABELS)
    assert len(set(LABEL_COLORS.values())) == len(TAB_LABELS)  # one colour per label
    html = render_spans(doc)
    for span in doc.spans["pii"]:
        assert span.label_ in html
        assert LABEL_COLORS[span.label_] in html
    assert render_spans(doc, colors={"PERSON": "#123456"}).count("#123456") >= 1


def _run_cli(*args):
    return run_textanon(*args, offline=False)


@pytest.mark.slow
def test_report_command_and_anonymize_html(tmp_path):
    model = tmp_path / "model"
    _nlp().to_disk(model)
    src = write_jsonl(
        tmp_path / "in.jsonl", [{"id": "case-1", "text": TEXT, "target": TARGET}, '{"id": "broken", "text": ']
    )
    out = tmp_path / "out.jsonl"
    result = _run_cli("anonymize", src, "--output", out, "--model", model, "--html", tmp_path / "live")
    assert result.returncode == 0, result.stderr
    result = _run_cli("report", out, "--output", tmp_path / "later", "--input", src)
    assert result.returncode == 0, result.stderr
    for folder in ("live", "later"):
        pages = sorted(p.name for p in (tmp_path / folder).glob("*.html"))
        assert pages == ["doc-00001-case-1.html", "doc-00002-line2.html", "index.html"]
        assert "Mr Ion Rusu" in (tmp_path / folder / pages[0]).read_text(encoding="utf-8")
    assert (tmp_path / "live" / "doc-00001-case-1.html").read_text() == (
        tmp_path / "later" / "doc-00001-case-1.html"
    ).read_text()
    (tmp_path / "file").write_text("x")
    result = _run_cli("report", out, "--output", tmp_path / "file")
    assert result.returncode == 1 and "Cannot create the report folder" in result.stdout + result.stderr


def test_text_labels_and_ids_are_escaped(tmp_path):
    text = 'Mr <b>Ion</b> Rusu "x" & <script>alert(1)</script>'
    record = {
        "id": "<img src=x>",
        "anonymized_text": text.replace("Rusu", "***"),
        "spans": [
            {"start": 14, "end": 18, "label": '"><script>bad()</script>', "entity_id": "E<1>", "ic": None,
             "masked": True, "source": "<i>"},
        ],
        "risky_combinations": [["E<1>"]],
        "masks": [[14, 18, "***"]],
        "warnings": ["<b>warning</b>"],
    }  # fmt: skip
    write_report([record], tmp_path, inputs=[Record(id="<img src=x>", text=text)])
    for page in tmp_path.glob("*.html"):
        html = page.read_text(encoding="utf-8")
        assert "<script>alert" not in html and "<script>bad" not in html and "<b>" not in html
        assert "<img" not in html and "<i>" not in html


AWARDS = "She won four Drama Desk Awards in 2010 for her work."


def _masked_record(words):
    """An output record of AWARDS with ``words`` masked (spans and masks as ``anonymize`` writes them)."""
    from textanon.render.masking import apply

    offsets = [(AWARDS.index(w), AWARDS.index(w) + len(w)) for w in words]
    spans = [
        {"start": s, "end": e, "label": "MISC", "entity_id": f"MISC_{k}", "source": "ner", "ic": 5.0, "masked": True}
        for k, (s, e) in enumerate(offsets)
    ]
    masks = [[s, e, "***"] for s, e in offsets]
    return {"id": "awards", "anonymized_text": apply(AWARDS, masks), "masks": masks, "spans": spans}


def test_a_fragmenting_masking_is_marked_and_a_whole_unit_masking_is_not(tmp_path):
    cut = document_view(_masked_record(["Desk"]), AWARDS)
    assert [f["text"] for f in cut["fragments"]] == ["Drama Desk Awards"]
    marked = re.findall(r'<span class="fragment" title="fragmented unit[^"]*">([^<]*)</span>', cut["original_html"])
    assert "".join(marked) == "Drama Desk Awards"  # marked around (and inside) the masked span's link
    whole = document_view(_masked_record(["Drama Desk Awards"]), AWARDS)
    assert whole["fragments"] == [] and 'class="fragment"' not in whole["original_html"]
    write_report([_masked_record(["Desk"])], tmp_path, inputs=[Record(id="awards", text=AWARDS)])
    page = (tmp_path / "doc-00001-awards.html").read_text(encoding="utf-8")
    assert 'id="fragment-legend">fragmented unit: part of a name/title left visible<' in page
    assert '<p class="fragments" id="fragments"><b>1 fragmented unit</b>' in page
    write_report([_masked_record(["Drama Desk Awards"])], tmp_path / "whole", inputs=[Record(id="awards", text=AWARDS)])
    assert 'id="fragments"' not in (tmp_path / "whole" / "doc-00001-awards.html").read_text(encoding="utf-8")
