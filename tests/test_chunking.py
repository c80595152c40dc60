"""Long documents go through spaCy's own components in pieces, joined back into the same Doc."""

import spacy
from spacy.language import Language
from spacy.tokens import Span

import textanon  # noqa: F401
from textanon.run.chunking import pieces, pipe_in_pieces, stages, text_length

SEEN = []


@Language.component("test_capitalized_ents")
def capitalized_ents(doc):
    """A stand-in NER: every capitalized word is an entity; records the length of each doc it sees."""
    SEEN.append(len(doc.text))
    doc.ents = [Span(doc, t.i, t.i + 1, label="ORG") for t in doc if t.text[:1].isupper()]
    return doc


PARAGRAPH = "The Court met Ion Rusu in Balti on Monday.\nHe spoke with Vlad Ursu about the case.\n\n"


def test_a_long_doc_goes_in_pieces_cut_at_paragraphs_and_comes_back_whole():
    nlp = spacy.blank("en")
    nlp.add_pipe("test_capitalized_ents")
    nlp.add_pipe("textanon_entity_linker")
    text = PARAGRAPH * 30
    doc = nlp.make_doc(text)
    doc._.target = "Ion Rusu"
    whole = capitalized_ents(nlp.make_doc(text))
    SEEN.clear()
    [(mine, spacy_components), (mine_after, _)] = stages(nlp)
    assert not mine and mine_after
    [out] = pipe_in_pieces(spacy_components, [doc], max_chars=500)
    assert len(SEEN) > 1 and max(SEEN) <= 500  # in pieces of bounded size
    assert all(size % len(PARAGRAPH) == 0 for size in SEEN)  # cut after paragraph breaks
    assert out.text == text and [t.text for t in out] == [t.text for t in doc]
    assert [(e.start_char, e.end_char, e.label_) for e in out.ents] == [
        (e.start_char, e.end_char, e.label_) for e in whole.ents
    ]
    assert out._.target == "Ion Rusu"
    SEEN.clear()
    [short] = pipe_in_pieces(spacy_components, [nlp.make_doc(PARAGRAPH)], max_chars=500)
    assert SEEN == [len(PARAGRAPH)] and short.text == PARAGRAPH


def test_pieces_cover_the_doc_without_a_break_too():
    doc = spacy.blank("en").make_doc("word " * 400)
    bounds = pieces(doc, 100)
    assert bounds[0][0] == 0 and bounds[-1][1] == len(doc)
    assert all(a == b for (_, a), (b, _) in zip(bounds, bounds[1:]))
    assert all(len(doc[a:b].text_with_ws) <= 100 for a, b in bounds)


def test_a_long_doc_with_span_groups_goes_in_pieces_and_keeps_its_groups():
    from textanon.extensions import register_extensions

    register_extensions()
    nlp = spacy.blank("en")
    nlp.add_pipe("test_capitalized_ents")
    text = PARAGRAPH * 30
    doc = nlp.make_doc(text)
    end = len(nlp.make_doc(PARAGRAPH * 6))  # a span across a piece's edge (pieces of 500 characters: 5 paragraphs)
    crossing = Span(doc, 5, end, label="PERSON")
    first = Span(doc, 3, 5, label="PERSON", kb_id="Q1")
    doc.spans["model"] = [first, crossing]
    doc.spans["model"].attrs["origin"] = "test"
    first._.source = "model"
    SEEN.clear()
    [out] = pipe_in_pieces(stages(nlp)[0][1], [doc], max_chars=500)
    assert len(SEEN) > 1 and max(SEEN) <= 500  # in pieces, although the doc has span groups
    group = out.spans["model"]
    assert [(s.start, s.end, s.label_, s.kb_id_) for s in group] == [(3, 5, "PERSON", "Q1"), (5, end, "PERSON", "")]
    assert group.attrs["origin"] == "test" and group[0]._.source == "model"
    assert len(out.ents) == len(capitalized_ents(nlp.make_doc(text)).ents)


def test_a_docs_length_is_read_without_building_its_text():
    nlp = spacy.blank("en")
    for text in ["", " ", "Ion Rusu", "Ion Rusu.  \n\n", "  Balti\tcase ", PARAGRAPH * 3]:
        doc = nlp.make_doc(text)
        assert text_length(doc) == len(doc.text) == len(text)
