"""HTML input: the pipeline reads the text a browser shows (textanon.io.markup.html_view), the output keeps every tag
(render_in_markup), through the runner, the readers and the command line."""

import pytest
from core_fixtures import SMALL_GAZETTEER, decision_pipeline

from textanon.io.datasets.records import Record, read_records
from textanon.io.markup import SOFT_HYPHEN, html_view, render_in_markup
from textanon.run.runner import anonymize_records

PAGE = (
    '<!DOCTYPE html><html><head><title>Note</title></head><body><p>Contact <b>Jane Doe</b> at <a href="mailto:'
    'jdoe@acme.io" title="Jane Doe">jdoe@acme.io</a>.</p><!-- by Tom Hale --><p>Jos&eacute; &amp; Ann</p></body></html>'
)


def test_the_view_has_the_documents_length_and_shows_what_a_browser_shows():
    view = html_view(PAGE)
    assert len(view.text) == len(PAGE)
    assert "<" not in view.text and ">" not in view.text and "href" not in view.text and "title=" not in view.text
    # what the markup holds for a reader stays to be read: attribute values and a comment's words
    for kept in ("mailto:jdoe@acme.io", '"Jane Doe"'.strip('"'), "by Tom Hale", "Note"):
        assert kept in view.text
    # a block element starts a line: two paragraphs are never one sentence
    assert view.text[PAGE.index("<p>Jos")] == "\n"
    # a character reference is the character it names, padded inside the word with soft hyphens
    at = PAGE.index("Jos&eacute;")
    assert view.text[at : at + len("Jos&eacute;")] == "José" + SOFT_HYPHEN * 7
    assert view.text[PAGE.index("&amp;")] == "&"


def test_rendering_keeps_every_tag_and_masks_a_reference_whole():
    view = html_view("<p>Jos&eacute; Garc&iacute;a met <b>Jane</b> Doe</p>")
    doc = "<p>Jos&eacute; Garc&iacute;a met <b>Jane</b> Doe</p>"
    start = doc.index("Jos")
    cut = doc.index("Garc") + 5  # inside "&iacute;": the reference goes whole
    jane, doe = doc.index("Jane"), doc.index("Doe") + 3
    text, applied = render_in_markup(doc, view, [(start, cut, "***"), (jane, doe, "the <person>")])
    assert text == "<p>***a met <b>the &lt;person&gt;</b></p>"
    assert applied == [
        [start, doc.index("&iacute;") + len("&iacute;"), "***"],
        [jane, jane + 4, "the &lt;person&gt;"],
        [doc.index("</b>") + 4, doe, ""],
    ]
    # the masks as applied describe the written text: replaying them on the document gives it back
    replayed, position = [], 0
    for s, e, written in applied:
        replayed += [doc[position:s], written]
        position = e
    assert "".join(replayed + [doc[position:]]) == text


def test_a_mask_reaching_an_attribute_value_writes_it_there_and_in_the_text():
    doc = '<a title="Jane Doe">Jane Doe</a>'
    view = html_view(doc)
    text, _ = render_in_markup(doc, view, [(doc.index("Jane"), doc.rindex("Doe") + 3, "***")])
    assert text == '<a title="***">***</a>'


def test_an_html_record_through_the_runner_keeps_its_tags_and_masks_the_text_and_the_attribute():
    nlp = decision_pipeline(gazetteer=SMALL_GAZETTEER)
    (out,) = anonymize_records(nlp, [Record(id="p", text=PAGE, markup="html")])
    text = out["anonymized_text"]
    assert "jdoe@acme.io" not in text and 'href="mailto:' not in text  # the e-mail address, in the link and its text
    for tag in ("<!DOCTYPE html>", "<title>", "<b>", "</b>", "<!--", "-->", '<a href="', "</a>", "</body></html>"):
        assert tag in text
    assert [PAGE[s:e] for s, e, _ in out["masks"]].count("jdoe@acme.io") == 1  # masks in the document's offsets
    # the same text read as plain text: the tags are text, the warning says how to read it
    (plain,) = anonymize_records(nlp, [Record(id="p", text=PAGE)])
    assert any("--markup html" in w for w in plain["warnings"])
    assert not any("markup" in w for w in out["warnings"])


def test_html_files_are_read_as_html_and_markup_applies_to_every_record(tmp_path):
    (tmp_path / "a.html").write_text("<p>Ann</p>", encoding="utf-8")
    (tmp_path / "b.txt").write_text("<p>Bob</p>", encoding="utf-8")
    (tmp_path / "c.md").write_text("not read", encoding="utf-8")
    assert [(r.id, r.markup) for r in read_records(tmp_path)] == [("a", "html"), ("b", None)]
    assert [r.markup for r in read_records(tmp_path, markup="html")] == ["html", "html"]
    assert [r.markup for r in read_records(tmp_path / "a.html", markup="text")] == ["text"]
    with pytest.raises(ValueError, match="markup"):
        list(read_records(tmp_path, markup="xml"))
