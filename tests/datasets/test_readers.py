"""The readers of textanon.io.datasets: typed records, errors naming the file and the record, and every former read
site of the WikiActors format going through the one reader."""

import json

import pytest
from core_fixtures import FIXTURES
from input_files import write_json, write_jsonl
from tab_fixture import TAB_SMALL

from textanon.io.datasets import DatasetError
from textanon.io.datasets.docbin import read_docbin, write_docbin
from textanon.io.datasets.records import Record, jsonl_to_docs, read_records
from textanon.io.datasets.tab import GoldDocument, Mention, gold_to_doc, gold_to_ents_doc, load_tab
from textanon.io.datasets.wikiactors import WikiActor, evaluated, method_name, read_wikiactors

TINY = FIXTURES / "wikiactors_tiny.json"  # 1 evaluated actor, 1 with an empty abstract, 2 background-only
TRIR = FIXTURES / "trir_small.json"  # 5 evaluated actors with a suppressed_abstract column and dev_abstract


def test_wikiactors_records_are_typed():
    records = read_wikiactors(TINY)
    assert all(isinstance(r, WikiActor) for r in records)
    assert [r.name for r in records] == ["Edda Varnholt", "Milo Castraven", "Teodor Lisk", "Rosa Quenby"]
    edda, milo, teodor, _ = records
    assert edda.original.startswith("Edda Varnholt") and edda.background.startswith("Edda Varnholt was born")
    assert milo.original == "" and teodor.original is None and teodor.abstracts == {}
    assert [r.name for r in evaluated(records)] == ["Edda Varnholt"]
    assert (teodor.index, teodor.where) == (2, f"record 'Teodor Lisk' (#2) of {TINY}")

    marta = read_wikiactors(TRIR)[0]
    assert list(marta.abstracts) == ["original_abstract", "suppressed_abstract", "dev_abstract"]  # file order
    assert list(marta.anonymizations) == ["suppressed_abstract"] and marta.dev.startswith("PERSON")
    assert method_name("word2vec_t=0.5_abstract") == "word2vec_t=0.5" and method_name("llm") == "llm"


def test_parsed_records_and_other_background_columns():
    records = read_wikiactors([{"name": "A", "original_abstract": "A acts.", "bk_short": "A was born.", "year": 1950}])
    assert records[0].source == "WikiActors records" and records[0].text("bk_short") == "A was born."
    assert records[0].text("year") is None and records[0].fields["year"] == 1950  # non-text fields kept as read


def test_background_only_records(tmp_path):
    from textanon_eval.corpus import load_corpus
    from textanon_lab.benchmarks.harness import load_records
    from textanon_lab.training.silver import read_bodies

    path = write_json(
        tmp_path / "wa.json",
        [
            {"name": "Only Bio", "public_knowledge": "Only Bio was born in Oslo.", "original_abstract": None},
            {"name": "Ann Eval", "public_knowledge": "Ann was born.", "original_abstract": "Ann acts."},
        ],
    )
    assert [r.name for r in load_records(path)] == ["Ann Eval"]  # the benchmark: evaluated abstracts only
    assert list(load_corpus(path).originals) == ["Ann Eval"]  # the utility evaluators skip it
    assert [n for n, _ in read_bodies([path], exclude_evaluated=True)] == ["Only Bio"]  # silver training uses it


def test_bk25_variant_reads_the_same_individuals_with_shorter_background(tmp_path):
    from textanon_eval.trir import load_wikiactors as trir_inputs

    full = json.loads(TRIR.read_text(encoding="utf-8"))
    bk25 = [dict(r, public_knowledge=r["public_knowledge"][: len(r["public_knowledge"]) // 4]) for r in full]
    path = write_json(tmp_path / "trir_small_BK25.json", bk25)
    short, long = read_wikiactors(path), read_wikiactors(TRIR)
    assert [r.name for r in short] == [r.name for r in long]
    assert [r.abstracts for r in short] == [r.abstracts for r in long]
    assert all(long_r.background.startswith(r.background) for r, long_r in zip(short, long))
    assert all(len(r.background) < len(long_r.background) for r, long_r in zip(short, long))
    inputs, reference = trir_inputs(path), trir_inputs(TRIR)
    assert inputs.anonymized == reference.anonymized and inputs.dev == reference.dev
    assert all(len(inputs.background[n]) < len(reference.background[n]) for n in reference.background)


@pytest.mark.parametrize(
    "data, message",
    [
        ({"name": "A"}, "expected a JSON list of records"),
        ([{"name": "A"}, ["not", "an", "object"]], "record #1 is not an object"),
        ([{"name": 7}], r"record #0 of .*wa\.json: field 'name' must be a string"),
        ([{"name": "A"}, {"name": "B", "ner3_abstract": 3}], r"record 'B' \(#1\) of .*: field 'ner3_abstract'"),
        ([{"name": "A", "public_knowledge": ["x"]}], r"record 'A' \(#0\) of .*: field 'public_knowledge'"),
    ],
)
def test_wikiactors_errors_name_the_file_and_the_record(tmp_path, data, message):
    path = write_json(tmp_path / "wa.json", data)
    with pytest.raises(DatasetError, match=message) as err:
        read_wikiactors(path)
    assert str(path) in str(err.value)


def test_wikiactors_unreadable_files(tmp_path):
    broken = tmp_path / "broken.json"
    broken.write_text('[{"name": "A",', encoding="utf-8")
    with pytest.raises(DatasetError, match=r"broken\.json: not valid JSON"):
        read_wikiactors(broken)
    repeated = tmp_path / "repeated.json"
    repeated.write_text('[{"name": "A", "original_abstract": "x", "original_abstract": "y"}]', encoding="utf-8")
    with pytest.raises(DatasetError, match=r"repeated\.json: duplicate key 'original_abstract'"):
        read_wikiactors(repeated)
    with pytest.raises(DatasetError, match="cannot read"):
        read_wikiactors(tmp_path / "missing.json")


def test_errors_never_quote_the_record_text(tmp_path):
    secret = "Edda Varnholt lives at 12 Hidden Lane"
    path = write_json(
        tmp_path / "wa.json", [{"name": "E", "original_abstract": secret, "manual_abstract": {"text": secret}}]
    )
    with pytest.raises(DatasetError) as err:
        read_wikiactors(path)
    assert "Hidden Lane" not in str(err.value) and "'E' (#0)" in str(err.value)


def _consumers(tmp_path):
    """Every former read site of the WikiActors format, called on ``path``."""
    from textanon.io.datasets.wikiactors import wikiactors_to_docs
    from textanon_eval.corpus import load_corpus
    from textanon_eval.trir import load_wikiactors as trir_inputs
    from textanon_lab.benchmarks import harness, llm_designs, speed
    from textanon_lab.training.silver import read_bodies
    from textanon_lab.tuning.threshold import pseudo_abstracts

    good = write_json(tmp_path / "good.json", [{"name": "Z", "public_knowledge": "Z was born."}])
    return {
        "evaluation.corpus": load_corpus,
        "evaluation.trir": trir_inputs,
        "training.silver": lambda p: read_bodies([p]),
        "benchmarks.harness": harness.load_records,
        "benchmarks.speed": speed.load_wikiactors,
        "benchmarks.llm_designs": lambda p: llm_designs.run_bench(p, ["tokens_zero_shot"]),
        "tuning.threshold (background)": lambda p: pseudo_abstracts(p, good),
        "tuning.threshold (exclude)": lambda p: pseudo_abstracts(good, p),
        "convert --format wikiactors": wikiactors_to_docs,
    }


def test_every_consumer_reads_wikiactors_through_the_one_reader(tmp_path):
    bad = write_json(
        tmp_path / "wa.json",
        [
            {"name": "A", "public_knowledge": "A was born.", "original_abstract": "A acts."},
            {"name": "B", "public_knowledge": "B was born.", "original_abstract": "B acts.", "spacy_abstract": 5},
        ],
    )
    for where, read in _consumers(tmp_path).items():
        with pytest.raises(ValueError, match=r"record 'B' \(#1\) of .*field 'spacy_abstract'"):
            read(bad)
            pytest.fail(f"{where} accepted a non-string abstract")


# ---------------------------------------------------------------------------- TAB


def test_tab_documents_are_typed_and_layers_named():
    docs = load_tab(TAB_SMALL)
    assert all(isinstance(d, GoldDocument) for d in docs) and isinstance(docs[0].annotations["a1"][0], Mention)
    name, mentions = docs[0].layer()
    assert name == "a1" and mentions is docs[0].annotations["a1"]
    with pytest.raises(DatasetError, match="document 'd1' has no annotator 'zz'"):
        docs[0].layer("zz")


def test_tab_errors_name_document_annotator_and_mention(tmp_path):
    data = json.loads(TAB_SMALL.read_text(encoding="utf-8"))
    data[1]["annotations"]["a1"]["entity_mentions"][0]["end_offset"] = 10**6
    with pytest.raises(DatasetError, match=r"document 'd2', annotator 'a1', mention #0: invalid offsets"):
        load_tab(data)
    with pytest.raises(DatasetError, match=r"gold corpus .*nope\.json: cannot read"):
        load_tab(tmp_path / "nope.json")


def test_the_two_tab_docs_hold_the_same_mentions():
    import spacy

    gold = load_tab(TAB_SMALL)[0]
    exact = gold_to_doc(gold)  # convert: one SpanGroup per annotator, exact offsets
    ents = gold_to_ents_doc(spacy.blank("en"), gold)  # training: the first annotator's mentions as doc.ents
    spans = {(s.start_char, s.end_char, s.label_) for s in exact.spans["a1"]}
    assert {(e.start_char, e.end_char, e.label_) for e in ents.ents} <= spans


# ---------------------------------------------------------------------------- records and DocBin


def test_records_and_strict_jsonl_converter(tmp_path):
    path = tmp_path / "in.jsonl"
    path.write_bytes(b'\xef\xbb\xbf{"id": 1, "text": "Ann acts."}\n{"id": 2, "text": "Bo\n')
    first, second = read_records(path)
    assert isinstance(first, Record) and (first.id, first.line) == ("1", 1) and "malformed JSON" in second.error
    with pytest.raises(DatasetError, match=r"in\.jsonl: malformed JSON on line 2"):
        jsonl_to_docs(path)
    path.write_text('{"id": 1, "text": "Ann acts."}\n{"id": 1, "text": "Bo acts."}\n', encoding="utf-8")
    with pytest.raises(DatasetError, match=r"in\.jsonl line 2: duplicate id 1"):
        jsonl_to_docs(path)


def test_docbin_round_trip(tmp_path):
    docs = jsonl_to_docs(_jsonl(tmp_path))
    assert write_docbin(docs, tmp_path / "sub" / "with.spacy") == tmp_path / "sub" / "with.spacy"
    assert [d.user_data["id"] for d in read_docbin(tmp_path / "sub" / "with.spacy")] == ["a", "b"]
    write_docbin(docs, tmp_path / "without.spacy", store_user_data=False)
    assert [(d.text, dict(d.user_data)) for d in read_docbin(tmp_path / "without.spacy")] == [
        ("Ann acts.", {}),
        ("Bo acts.", {}),
    ]


def _jsonl(tmp_path):
    return write_jsonl(tmp_path / "two.jsonl", [{"id": "a", "text": "Ann acts."}, {"id": "b", "text": "Bo acts."}])
