"""The benchmark code that produces the headline table: scoring against the manual anonymization, masked
share, the TPI columns, equal target knowledge and TRIR mean ± sd (no model runs; fake LM for tpi_lm)."""

import numpy as np
import pytest
from fake_models import LENGTH_LM

from textanon.io.datasets.wikiactors import read_wikiactors
from textanon_eval.scoring import format_mean_sd, mean_sd, prf, token_flags
from textanon_lab.benchmarks import harness
from textanon_lab.benchmarks.benchmark_settings import ScoreSettings

ORIGINAL = "Mr Igor Munteanu was born in Balti in 1961. Munteanu is a veterinary surgeon."
#            0         1         2         3         4         5         6         7
#            0123456789012345678901234567890123456789012345678901234567890123456789012345678
MANUAL = "Mr *** was born in *** in ***. *** is a veterinary surgeon."
RECORD = {"name": "Igor Munteanu", "original_abstract": ORIGINAL, "manual_abstract": MANUAL}
RECORDS = read_wikiactors([RECORD])


def _span(word, nth=0):
    start = -1
    for _ in range(nth + 1):
        start = ORIGINAL.index(word, start + 1)
    return [start, start + len(word)]


def test_token_flags_and_prf_hand_computed():
    flags = token_flags("ab cd ef", [(1, 2), (6, 8)])  # any character of a token masks it
    assert flags.tolist() == [True, False, True]
    pred = [np.array([1, 1, 0, 0], bool)]
    gold = [np.array([1, 0, 1, 0], bool)]
    assert prf(pred, gold) == {"precision": 0.5, "recall": 0.5, "f1": 0.5, "masked_share": 0.5}


def test_mean_sd_and_format():
    assert mean_sd([10.0, 12.0, 14.0]) == {"mean": 12.0, "sd": 2.0, "n": 3}  # sample sd (ddof 1)
    assert mean_sd([7.0]) == {"mean": 7.0, "sd": None, "n": 1}
    assert mean_sd([]) == {"mean": None, "sd": None, "n": 0}
    assert format_mean_sd(12.0, 2.0) == "12.0 ± 2.0" and format_mean_sd(7.0, None) == "7.0"
    assert format_mean_sd(None, None) == "–"


def test_equal_knowledge_masks_the_target_for_every_system_run_here():
    systems = {
        "presidio (run here)": {"masks": {"Igor Munteanu": [_span("Balti")]}},
        "textanon": {"masks": {"Igor Munteanu": [_span("Igor Munteanu"), _span("Munteanu", 1)]}},
        "llm design": {"texts": {"Igor Munteanu": "Mr Igor Munteanu was born in a city. Munteanu is a vet."}},
        "manual (published)": {
            "texts": {"Igor Munteanu": MANUAL.replace("Mr ***", "Mr Igor Munteanu")},
            "published": True,
        },
    }
    harness.give_target_knowledge(RECORDS, systems)
    presidio = systems["presidio (run here)"]["masks"]["Igor Munteanu"]
    assert _span("Igor Munteanu") in presidio and _span("Munteanu", 1) in presidio and _span("Balti") in presidio
    assert systems["presidio (run here)"]["target_known"] is True
    assert systems["presidio (run here)"]["target_chars_added"] == len("Igor Munteanu") + len("Munteanu")
    assert systems["textanon"]["target_chars_added"] == 0  # it had masked the name itself
    llm = systems["llm design"]["texts"]["Igor Munteanu"]
    assert "Munteanu" not in llm and "Igor" not in llm and "a city" in llm
    published = systems["manual (published)"]
    assert "Igor Munteanu" in published["texts"]["Igor Munteanu"] and published["target_known"] == "as published"


def test_score_rows_precision_recall_masked_share_tpi_columns_and_trir_mean_sd(tmp_path):
    # gold tokens masked by the manual anonymization: Igor Munteanu, Balti, 1961, Munteanu (5 of 14 tokens)
    name_only = [_span("Igor Munteanu"), _span("Munteanu", 1)]
    systems = {
        "name only": {"masks": {"Igor Munteanu": name_only}},
        "everything": {"masks": {"Igor Munteanu": [[0, len(ORIGINAL)]]}},
        "manual (published)": {"texts": {"Igor Munteanu": MANUAL}, "published": True},
    }
    trir = {"name only": [40.0, 50.0, 60.0], "everything": [2.0, 2.0, 2.0], "manual (published)": 20.0}
    rows = {
        r["system"]: r
        for r in harness.score(
            RECORDS, systems, ScoreSettings(tpi_model=LENGTH_LM, cache_dir=tmp_path), trir_values=trir
        )
    }
    name = rows["name only"]
    assert name["precision"] == 1.0 and name["recall"] == pytest.approx(3 / 5, abs=1e-4)
    assert name["masked_share"] == pytest.approx(3 / 14, abs=1e-4)
    everything = rows["everything"]
    assert everything["precision"] == pytest.approx(5 / 14, abs=1e-4) and everything["recall"] == 1.0
    assert everything["masked_share"] == 1.0 and everything["tpi"] == 0.0 and everything["tpi_lm"] == 0.0
    manual = rows["manual (published)"]  # aligned back to the original: agrees with itself
    assert manual["precision"] == manual["recall"] == 1.0
    # headline TPI from word frequencies, tpi_lm from the (fake) LM: two different IC models
    assert 0 < name["tpi"] < 1 and 0 < name["tpi_lm"] < 1 and name["tpi"] != name["tpi_lm"]
    assert (name["trir"], name["trir_sd"], name["trir_seeds"]) == (50.0, 10.0, 3)
    assert (everything["trir"], everything["trir_sd"]) == (2.0, 0.0)
    assert (manual["trir"], manual["trir_sd"], manual["trir_seeds"]) == (20.0, None, 1)


def test_markdown_shows_mean_sd_target_knowledge_and_headline_tpi():
    result = {
        "rows": [
            {
                "system": "textanon",
                "target_known": True,
                "trir": 12.0,
                "trir_sd": 1.5,
                "tpi": 0.7,
                "tpi_lm": 0.8,
                "precision": 0.9,
                "recall": 0.8,
                "masked_share": 0.3,
                "docs_per_s": 1.0,
                "load_s": 2.0,
                "peak_rss_mb": 100.0,
            }
        ],
        "throughput_ratio_vs_presidio": {
            "default_pipeline": None,
            "fastest_variant": None,
            "fastest_variant_name": None,
        },
        "settings": {"trir_seeds": [42, 1, 2]},
    }
    md = harness.markdown(result)
    header, row = md.splitlines()[0], md.splitlines()[2]
    assert header.index("TPI (wordfreq)") < header.index("TPI (SmolLM2)") and "target_known" in header
    assert "12.0 ± 1.5" in row and "| True |" in row
    assert "as published" in md and "3 attack seed(s)" in md


def test_fill_trir_from_a_file_with_per_seed_lists():
    rows = [{"system": "a"}, {"system": "b"}]
    harness.fill_trir(rows, {"a": [1.0, 3.0], "b": 5.0})
    assert (rows[0]["trir"], rows[0]["trir_sd"], rows[0]["trir_seeds"]) == (2.0, 1.41, 2)
    assert (rows[1]["trir"], rows[1]["trir_sd"]) == (5.0, None)


def test_run_attack_trains_once_per_seed(monkeypatch):
    seen = []

    def fake_run_trir(inputs, settings):
        seen.append(settings.seed)
        return {"trir": {m: float(settings.seed) for m in inputs.anonymized}}

    monkeypatch.setattr(harness, "run_trir", fake_run_trir)  # the harness imports it by name
    records = read_wikiactors([dict(RECORD, public_knowledge="Igor Munteanu is a vet from Balti.")])
    systems = {"x": {"texts": {"Igor Munteanu": "*** is a vet."}}}
    out = harness.run_attack(records, systems, seeds=(42, 1, 2))
    assert seen == [42, 1, 2]
    assert out == {"x": [42.0, 1.0, 2.0], "original": [42.0, 1.0, 2.0]}


def test_generalizing_rows_keep_their_replacements_and_name_their_suppressing_twin(tmp_path):
    from textanon_lab.benchmarks.generalization import generalize_bench, row_names

    bench = generalize_bench(["search-risk bk25=training/x@corpus/index"])
    assert bench.configs == {"search-risk bk25": ("training/x", "corpus/index")}
    row, twin = row_names("search-risk bk25")
    assert "generaliz" in row and "generaliz" not in twin
    city = _span("Balti")
    systems = {
        twin: {"masks": {"Igor Munteanu": [city]}},
        row: {
            "masks": {"Igor Munteanu": [city]},
            "replacements": {"Igor Munteanu": [[*city, "a city in Moldova"]]},
            "suppress_twin": twin,
        },
    }
    harness.give_target_knowledge(RECORDS, systems)
    assert [*_span("Igor Munteanu"), "***"] in systems[row]["replacements"]["Igor Munteanu"]
    rows = {
        r["system"]: r
        for r in harness.score(RECORDS, systems, ScoreSettings(tpi_model=LENGTH_LM, cache_dir=tmp_path, skip_trir=True))
    }
    assert "a city in Moldova" in systems[row]["texts"]["Igor Munteanu"]
    assert "Balti" not in systems[row]["texts"]["Igor Munteanu"] and "***" in systems[twin]["texts"]["Igor Munteanu"]
    assert rows[row]["suppress_twin"] == twin and rows[row]["tpi"] > rows[twin]["tpi"]
    assert 0 < rows[row]["generalized_share"] < 1
    with pytest.raises(ValueError):
        generalize_bench(["no-equals-sign"])


def test_a_partial_run_replaces_its_rows_in_the_earlier_result():
    earlier = {"rows": [{"system": "a", "tpi": 1}, {"system": "b", "tpi": 2}], "settings": {"data": "x"}}
    partial = {
        "rows": [{"system": "b", "tpi": 3}, {"system": "c", "tpi": 4}],
        "settings": {"groups": ["generalization"]},
    }
    merged = harness.merge_rows(earlier, partial)
    assert [(r["system"], r["tpi"]) for r in merged["rows"]] == [("a", 1), ("b", 3), ("c", 4)]
    assert merged["settings"]["partial_runs"][0]["rows"] == ["b", "c"] and merged["settings"]["data"] == "x"


def test_a_partial_run_without_the_attack_keeps_only_the_published_rows_trir():
    old = {"trir": 40.0, "trir_sd": 2.0, "trir_seeds": 3}
    earlier = {
        "rows": [
            {"system": "manual (published)", "target_known": "as published", "tpi": 0.3, "docs_per_s": None, **old},
            {"system": "textanon x + generalization", "target_known": True, "tpi": 0.5, "docs_per_s": None, **old},
        ],
        "settings": {},
    }
    no_attack = {"trir": None, "trir_sd": None, "trir_seeds": 0}
    partial = {
        "rows": [
            {
                "system": "manual (published)",
                "target_known": "as published",
                "tpi": 0.31,
                "docs_per_s": None,
                **no_attack,
            },
            {
                "system": "textanon x + generalization",
                "target_known": True,
                "tpi": 0.6,
                "docs_per_s": None,
                **no_attack,
            },
        ],
        "settings": {"groups": ["published", "generalization"]},
    }
    rows = {r["system"]: r for r in harness.merge_rows(earlier, partial)["rows"]}
    assert rows["manual (published)"]["trir"] == 40.0 and rows["manual (published)"]["tpi"] == 0.31
    assert rows["manual (published)"]["kept_from_earlier_run"] == ["trir"]
    assert rows["textanon x + generalization"]["trir"] is None  # its text changed: the old attack says nothing


def test_masked_share_without_a_manual_anonymization():
    from textanon_lab.benchmarks.harness import _masked_share

    originals = {"a": "one two three four", "b": "five six"}
    assert _masked_share(originals, {"a": [[0, 3]], "b": [[0, 8]]}) == round(3 / 6, 4)
    assert _masked_share(originals, {}) is None


def test_every_row_gets_the_readability_columns_and_the_table_shows_them(tmp_path):
    import json

    other = "Ana Popescu is a Moldovan singer. She was born in a small town in 1970. She is a singer and a vet."
    corpus_file = tmp_path / "background.json"
    corpus_file.write_text(
        json.dumps(
            [
                {"name": "Igor Munteanu", "public_knowledge": "SECRET evaluated body"},
                {"name": "Ana Popescu", "public_knowledge": other},
            ]
        )
    )
    texts = harness.fluency_texts(corpus_file, RECORDS)
    assert texts == [other]  # the evaluated person's body never trains the fluency model
    systems = {
        "first name only": {"masks": {"Igor Munteanu": [_span("Igor")]}},
        "whole names": {"masks": {"Igor Munteanu": [_span("Igor Munteanu"), _span("Munteanu", 1)]}},
        "manual (published)": {"texts": {"Igor Munteanu": MANUAL}, "published": True},
    }
    no_lm = ScoreSettings(tpi_lm=False, cache_dir=tmp_path, skip_trir=True)
    rows = {r["system"]: r for r in harness.score(RECORDS, systems, no_lm, fluency_corpus=texts * 3)}
    assert rows["first name only"]["fragment_rate"] == 1.0  # "*** Munteanu"
    assert rows["whole names"]["fragment_rate"] == 0.0
    for row in rows.values():  # published rows included
        assert row["adjacent_placeholders"] == 0.0 and row["fluency_ratio"] > 0
    assert rows["manual (published)"]["fragment_rate"] == 0.0
    result = {
        "rows": list(rows.values()),
        "throughput_ratio_vs_presidio": harness.throughput_ratio(list(rows.values())),
        "settings": {"trir_seeds": None},
    }
    header, first = harness.markdown(result).splitlines()[0:3:2]
    titles = [c.strip() for c in header.strip("|").split("|")]
    cells = [c.strip() for c in first.strip("|").split("|")]
    assert cells[titles.index("fragment rate")] == "1.0" and "fluency (perplexity ×)" in titles
    no_fluency = harness.score(RECORDS, systems, no_lm)
    assert all(r["fluency_ratio"] is None and r["fragment_rate"] is not None for r in no_fluency)


def test_the_whole_units_ablation_is_a_row_beside_the_generalizing_one(monkeypatch):
    from textanon_lab.benchmarks import generalization as module
    from textanon_lab.benchmarks.generalization import ablation_name, generalize_bench, generalize_systems, markdown

    city, name = _span("Balti"), _span("Igor Munteanu")
    runs = [
        {"masks": {"Igor Munteanu": [[*name, "the person"], [*city, "a city in Moldova"]]}, "seconds": 2.0},
        {"masks": {"Igor Munteanu": [[*name, "***"], [*city, "***"]]}, "seconds": 0.1},
        {"masks": {"Igor Munteanu": [[*name, "the person"], [city[0], city[0] + 2, "***"]]}, "seconds": 0.1},
    ]
    monkeypatch.setattr(
        module, "run_isolated", lambda *a, **k: {"masks": {"runs": runs}, "load_s": 1.0, "peak_rss_mb": 9.0}
    )
    out = generalize_systems(RECORDS[:1], generalize_bench(["x=training/x"]))
    ablation = out[ablation_name("x")]
    assert ablation["replacements"] == runs[2]["masks"] and "suppress_twin" not in ablation
    rows = [
        {"system": "textanon x + generalization", "suppress_twin": "textanon x, suppression twin", "tpi": 0.5},
        {"system": "textanon x, suppression twin", "tpi": 0.4},
        {"system": ablation_name("x"), "tpi": 0.52, "fragment_rate": 0.2},
    ]
    table = markdown({"rows": rows})
    assert ablation_name("x") in table and "0.2" in table and "fragment_rate" in table
