"""Corpus -> DocBin converters: exact offsets, per-annotator attributes, round trips."""

import json

import pytest
from input_files import write_json
from tab_fixture import TAB_SMALL

from textanon.io.datasets.docbin import convert, read_docbin
from textanon.io.datasets.tab import doc_to_gold, gold_to_json
from textanon.io.datasets.tokenize import make_doc
from textanon_eval.tab_corpus import EvaluationError

GOLD = json.loads(TAB_SMALL.read_text(encoding="utf-8"))


def test_tab_roundtrip(tmp_path):
    out = tmp_path / "tab.spacy"
    assert convert(TAB_SMALL, out, "tab") == 3
    docs = read_docbin(out)
    assert [gold_to_json(doc_to_gold(d)) for d in docs] == GOLD
    d1 = docs[0]
    assert set(d1.spans) == {"a1", "a2"} and d1.user_data["doc_id"] == "d1"
    # both annotators marked "Oslo" (26, 30): attributes must not collide
    oslo = {k: [s for s in d1.spans[k] if (s.start_char, s.end_char) == (26, 30)][0] for k in ("a1", "a2")}
    assert oslo["a1"]._.gold_entity_id == oslo["a1"].kb_id_ == "d1_a1_e2"
    assert oslo["a2"]._.gold_entity_id == "d1_a2_e2"
    second = d1.spans["a2"][1]
    assert (second.start_char, second.end_char, second.label_) == (93, 103, "PERSON")
    assert second._.identifier_type == "NO_MASK" and second._.mention_id == "d1_a2_e1_m1"
    assert docs[1].spans["a1"][1]._.confidential_status == "BELIEF"


def test_echr_entity_layer(tmp_path):
    layer = [
        {
            "doc_id": d["doc_id"],
            "text": d["text"],
            "annotations": {
                "annotator1": {
                    "entity_mentions": [
                        {k: m[k] for k in ("start_offset", "end_offset", "span_text", "entity_type")}
                        for m in d["annotations"]["a1"]["entity_mentions"]
                    ]
                }
            },
        }
        for d in GOLD
    ]
    src = write_json(tmp_path / "layer.json", layer)
    docs = read_docbin(tmp_path / "x.spacy") if convert(src, tmp_path / "x.spacy", "echr") else []
    assert [len(d.spans["gold"]) for d in docs] == [7, 4, 2]
    assert [(s.start_char, s.end_char, s.label_) for s in docs[0].spans["gold"]][:2] == [
        (0, 13, "PERSON"),
        (93, 103, "PERSON"),
    ]
    assert docs[0].spans["gold"][0]._.identifier_type is None


def test_wikiactors(tmp_path):
    records = [
        {
            "name": "Edda Varnholt",
            "public_knowledge": "bio",
            "original_abstract": "Edda Varnholt is a Norwegian actress.",
            "ner3_abstract": "PERSON is a Norwegian actress.",
            "manual_abstract": "SENSITIVE is a SENSITIVE actress.",
            "presidio_abstract": None,
            "dev_abstract": "Someone else.",
        },
        {"name": "Background only", "public_knowledge": "bio"},
    ]
    src = write_json(tmp_path / "wa.json", records)
    convert(src, tmp_path / "wa.spacy", "wikiactors")
    docs = read_docbin(tmp_path / "wa.spacy")
    assert [d.user_data["column"] for d in docs] == ["original_abstract", "ner3_abstract", "manual_abstract"]
    assert all(d.text == records[0]["original_abstract"] and d.user_data["name"] == "Edda Varnholt" for d in docs)
    assert [s.text for s in docs[1].spans["masked"]] == ["Edda Varnholt"]
    assert [s.text for s in docs[2].spans["masked"]] == ["Edda Varnholt", "Norwegian"]
    assert len(docs[0].spans["masked"]) == 0 and docs[2].user_data["method"] == "manual"


def test_jsonl(tmp_path):
    src = tmp_path / "in.jsonl"
    src.write_text('{"id": "a", "text": "Hello  there."}\n\n{"id": 2, "text": "Bye."}\n', encoding="utf-8")
    convert(src, tmp_path / "j.spacy", "jsonl")
    docs = read_docbin(tmp_path / "j.spacy")
    assert [(d.user_data["id"], d.text) for d in docs] == [("a", "Hello  there."), (2, "Bye.")]
    src.write_text('{"id": "a", "text": ""}\n', encoding="utf-8")
    with pytest.raises(EvaluationError, match="line 1 .*'text' is empty"):
        convert(src, tmp_path / "j.spacy", "jsonl")


def test_make_doc_splits_tokens_and_whitespace_at_boundaries():
    text = "Mr. John-Smith (b. 1970) lives  in\n\nOslo."
    spans = [(4, 8), (3, 15), (9, 14), (34, 36), (35, 36)]
    doc = make_doc(text, spans)
    assert doc.text == text
    assert [doc.char_span(s, e).text for s, e in spans] == ["John", " John-Smith ", "Smith", "\n\n", "\n"]


def test_unknown_format(tmp_path):
    with pytest.raises(ValueError, match="unknown format"):
        convert(TAB_SMALL, tmp_path / "x.spacy", "conll")
