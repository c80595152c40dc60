"""CLI of the utility evaluators on a tiny WikiActors-like fixture with a fake LM and a fake encoder (fast)."""

import json

import pytest
from cli_runner import invoke, one_line
from fake_models import LENGTH_LM, LengthLM, WordOverlapEncoder
from input_files import write_json

from textanon_eval import embeddings

MODEL = ["--model", LENGTH_LM, "--no-cache"]
RECORDS = [
    {
        "name": "Tom Hanks",
        "original_abstract": "Tom Hanks (born July 9, 1956) is an American actor from Concord, California.",
        "ner_abstract": "PERSON (born DATE) is an NORP actor from LOCATION, LOCATION.",
        "manual_abstract": "SENSITIVE (born SENSITIVE) is an American actor from SENSITIVE.",
        "dev_abstract": "Someone else entirely.",
    },
    {
        "name": "Meryl Streep",
        "original_abstract": "Meryl Streep is an actress. She won three Academy Awards.",
        "ner_abstract": "PERSON is an actress. She won three ORG.",
        "manual_abstract": "SENSITIVE is an actress. She won SENSITIVE.",
    },
    {
        "name": "Jackie Chan",
        "original_abstract": "Jackie Chan is a Hong Kong actor and martial artist. He was born in 1954.",
        "ner_abstract": "PERSON is a LOCATION actor and martial artist. He was born in DATE.",
        "manual_abstract": "SENSITIVE is a SENSITIVE actor and martial artist. He was born in SENSITIVE.",
    },
]


@pytest.fixture(autouse=True)
def fake_encoder(monkeypatch):
    monkeypatch.setattr(embeddings, "_DEFAULT", WordOverlapEncoder())


def _corpus(tmp_path, records=RECORDS, name="actors.json"):
    return write_json(tmp_path / name, records)


def test_evaluate_tpi_writes_one_value_per_column(tmp_path):
    out = tmp_path / "tpi.json"
    res = invoke("evaluate-tpi", _corpus(tmp_path), "--output", out, *MODEL)
    assert res.exit_code == 0, res.output
    data = json.loads(out.read_text())
    assert set(data["tpi"]) == {"ner", "manual"}  # dev_abstract is another person's text
    assert all(0.0 < v < 1.0 for v in data["tpi"].values())
    assert data["settings"]["model"] == "test:length" and data["settings"]["documents"] == 3
    assert set(data["per_document"]["ner"]) == {r["name"] for r in RECORDS}


def test_evaluate_tpi_identity_column_is_one_and_columns_option(tmp_path):
    recs = [dict(r, copy_abstract=r["original_abstract"].lower()) for r in RECORDS]
    out = tmp_path / "tpi.json"
    res = invoke("evaluate-tpi", _corpus(tmp_path, recs), "--output", out, "--columns", "copy_abstract,ner", *MODEL)
    assert res.exit_code == 0, res.output
    data = json.loads(out.read_text())
    assert set(data["tpi"]) == {"copy", "ner"}
    assert data["tpi"]["copy"] == pytest.approx(1.0)


def test_alternation_options_recorded(tmp_path):
    out = tmp_path / "tpi.json"
    assert invoke("evaluate-tpi", _corpus(tmp_path), "--output", out, "--alternation", "s", *MODEL).exit_code == 0
    assert "S-TA" in json.loads(out.read_text())["settings"]["alternation"]
    res = invoke("evaluate-tpi", _corpus(tmp_path), "--output", out, "--alternation", "x", *MODEL)
    assert res.exit_code == 1 and "alternation" in one_line(res.output)


def test_evaluate_tps_and_nmi(tmp_path):
    path = _corpus(tmp_path)
    tpi, tps, nmi = tmp_path / "tpi.json", tmp_path / "tps.json", tmp_path / "nmi.json"
    assert invoke("evaluate-tpi", path, "--output", tpi, *MODEL).exit_code == 0
    res = invoke("evaluate-tps", path, "--output", tps, *MODEL)
    assert res.exit_code == 0, res.output
    for method, value in json.loads(tps.read_text())["tps"].items():
        assert json.loads(tpi.read_text())["tpi"][method] - 1e-6 <= value <= 1.0
    recs = RECORDS + [dict(r, name=r["name"] + " II") for r in RECORDS]  # NMI needs more documents than clusters
    res = invoke("evaluate-nmi", _corpus(tmp_path, recs, "six.json"), "--output", nmi, "--seeds", "2", "--k-max", "4")
    assert res.exit_code == 0, res.output
    assert set(json.loads(nmi.read_text())["nmi"]) == {"ner", "manual"}


def test_evaluate_report(tmp_path):
    recs = RECORDS + [dict(r, name=r["name"] + " II") for r in RECORDS]
    out_dir = tmp_path / "metrics"
    out_dir.mkdir()
    write_json(out_dir / "trir_toy_50_eval.json", {"trir": {"NER": 70.0, "Manual": 10.0, "Original": 100.0}})
    res = invoke("evaluate", _corpus(tmp_path, recs), "--out-dir", out_dir, "--name", "toy", "--seeds", "2", *MODEL)
    assert res.exit_code == 0, res.output
    for f in ("tpi_toy.json", "tps_toy.json", "nmi_toy.json", "evaluate_toy.md", "evaluate_toy.png"):
        assert (out_dir / f).stat().st_size > 0, f
    md = (out_dir / "evaluate_toy.md").read_text()
    assert "| ner |" in md and "| manual |" in md and "1 - TRIR" in md
    # headline TPI: word-frequency IC (independent of the anonymizer); the LM's TPI beside it
    headline, lm = (
        json.loads((out_dir / "tpi_toy.json").read_text()),
        json.loads((out_dir / "tpi_lm_toy.json").read_text()),
    )
    assert headline["settings"]["model"] == "wordfreq:en" and lm["settings"]["model"] == "test:length"
    assert headline["tpi"] != lm["tpi"]
    header = md.splitlines()[2]
    assert header.index("TPI (wordfreq:en)") < header.index("TPI (LM: test:length)")
    assert headline["provenance"]["command"].startswith("python -m textanon") or headline["provenance"]["command"]
    assert {"cpu", "cores", "gpu", "torch", "platform"} <= set(headline["provenance"]["machine"])
    # without a TRIR file the plot falls back to recall of the manual masks, and says so
    (out_dir / "trir_toy_50_eval.json").unlink()
    res = invoke("evaluate", _corpus(tmp_path, recs), "--out-dir", out_dir, "--name", "toy", "--metrics", "tpi", *MODEL)
    assert res.exit_code == 0, res.output
    assert "recall of manual masks" in (out_dir / "evaluate_toy.md").read_text()
    res = invoke("evaluate", _corpus(tmp_path, recs), "--out-dir", out_dir, "--metrics", "tpi,bleu", *MODEL)
    assert res.exit_code == 1 and "'bleu'" in one_line(res.output)


# ---------------------------------------------------------------- bad input: errors name the record and field


@pytest.mark.parametrize(
    "records, expected",
    [
        ([dict(RECORDS[0]), {"name": "Ghost", "ner_abstract": "PERSON x."}], ["Ghost", "original_abstract"]),
        ([dict(RECORDS[0]), dict(RECORDS[1], original_abstract="  ")], ["Meryl Streep", "original_abstract"]),
        ([dict(RECORDS[0]), dict(RECORDS[0])], ["Tom Hanks", "duplicate"]),
        ([RECORDS[0], "not a record"], ["#1", "not an object"]),
        ({"name": "x"}, ["JSON list"]),
    ],
)
def test_bad_records_fail_with_a_named_error(tmp_path, records, expected):
    res = invoke("evaluate-tpi", _corpus(tmp_path, records), "--output", tmp_path / "o.json", *MODEL)
    assert res.exit_code == 1
    for word in expected:
        assert word in one_line(res.output)
    assert not (tmp_path / "o.json").exists()


def test_missing_column_and_unknown_ids(tmp_path):
    path = _corpus(tmp_path)
    res = invoke("evaluate-tpi", path, "--output", tmp_path / "o.json", "--columns", "ner3_abstract", *MODEL)
    assert res.exit_code == 1 and "'ner3_abstract'" in one_line(res.output) and "not found" in one_line(res.output)
    extra = write_json(tmp_path / "extra.json", {"llm_abstract": {"Tom Hanks": "PERSON is an actor.", "Nobody": "x"}})
    res = invoke("evaluate-tpi", path, "--output", tmp_path / "o.json", "--extra", extra, *MODEL)
    assert res.exit_code == 1 and "'Nobody'" in one_line(res.output) and "llm_abstract" in one_line(res.output)
    bad = tmp_path / "bad.json"
    bad.write_text("{not json")
    res = invoke("evaluate-tpi", bad, "--output", tmp_path / "o.json", *MODEL)
    assert res.exit_code == 1 and "not valid JSON" in one_line(res.output)


def test_empty_anonymization_is_left_out_with_a_warning(tmp_path):
    recs = [
        dict(RECORDS[0]),
        dict(RECORDS[1], ner_abstract=""),
        {k: v for k, v in RECORDS[2].items() if k != "ner_abstract"},
    ]
    out = tmp_path / "tpi.json"
    res = invoke("evaluate-tpi", _corpus(tmp_path, recs), "--output", out, *MODEL)
    assert res.exit_code == 0, res.output
    assert "Meryl Streep" in one_line(res.output) and "Jackie Chan" in one_line(res.output)
    data = json.loads(out.read_text())
    assert set(data["per_document"]["ner"]) == {"Tom Hanks"}
    assert data["settings"]["missing"] == {"ner": ["Meryl Streep", "Jackie Chan"]}


def test_lm_failure_names_the_record(tmp_path):
    from spacy.util import registry

    class Exploding(LengthLM):
        name = "test:exploding"

        def span_token_logprobs(self, text, spans, passes=None):
            if "Meryl" in text:
                raise RuntimeError("boom")
            return super().span_token_logprobs(text, spans, passes)

    registry.misc.register("test.Exploding.v1", func=lambda: Exploding())
    res = invoke(
        "evaluate-tpi", _corpus(tmp_path), "--output", tmp_path / "o.json", "--model", "test.Exploding.v1", "--no-cache"
    )
    assert res.exit_code == 1 and "'Meryl Streep'" in one_line(res.output) and "boom" in one_line(res.output)


def test_unknown_model_is_a_clean_error(tmp_path):
    res = invoke(
        "evaluate-tpi", _corpus(tmp_path), "--output", tmp_path / "o.json", "--model", "no.such.model.v1", "--no-cache"
    )
    assert res.exit_code == 1 and "unknown language model" in one_line(res.output)


def test_glued_placeholder_tags_are_split_before_alignment(tmp_path):
    from textanon.io.datasets.alignment import masked_spans
    from textanon_eval.corpus import load_corpus, placeholder_tags, split_glued_tags

    original = "He played Sam Winchester in the series. He grew up in Texas and rose to fame."
    glued = "He played SSENSITIVEin the series. He grew up in TSENSITIVEand rose to fame."
    tags = placeholder_tags([glued, "SENSITIVE was here.", "So was SENSITIVE."], [original])
    assert tags == ["SENSITIVE"]
    fixed, n = split_glued_tags(glued, tags)
    assert n == 2 and "S SENSITIVE in" in fixed and "T SENSITIVE and" in fixed
    words = lambda a: [original[s:e] for s, e in masked_spans(original, a)]  # noqa: E731
    assert words(glued) == ["Sam Winchester in", "Texas and"]
    assert words(fixed) == ["Sam Winchester", "Texas"]
    recs = [
        dict(RECORDS[0], manual_abstract=RECORDS[0]["manual_abstract"].replace("SENSITIVE.", "SENSITIVEx."))
    ] + RECORDS[1:]
    path = _corpus(tmp_path, recs)
    assert load_corpus(path).repaired == {"manual": 1}
    assert load_corpus(path, split_tags=False).repaired is None
    out = tmp_path / "tpi.json"
    assert invoke("evaluate-tpi", path, "--output", out, "--no-split-tags", *MODEL).exit_code == 0
    assert json.loads(out.read_text())["settings"]["glued_tags_split"] == "off"
