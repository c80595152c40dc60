"""The truth audit (issue 31): the benchmark's generalizations saved with their context, a seeded reproducible draw
that never overwrites verdicts, and a summary whose counts and errors are checked (invented texts only)."""

import json

import pytest
import spacy
from cli_runner import invoke

from textanon.extensions import register_extensions
from textanon_lab.benchmarks.truth_audit import (
    AuditError,
    bounded,
    draw,
    generalization_records,
    generalized_spans,
    read_audit,
    summarize,
    write_generalizations,
    write_sample,
)

TEXT = "Mara Velt sang in over 70 operas in Graz and moved to Lyon in 1999."


def decided_doc():
    """A Doc as the optimizer leaves it: one generalized number, one generalized place, one suppressed date."""
    register_extensions()
    doc = spacy.blank("en")(TEXT)
    spans = []
    for sub, label, treatment, options in [
        ("70 operas", "QUANTITY", "generalize:1", [{"text": "10 operas", "level": 1, "kind": "numbers", "ic": 1.0}]),
        (
            "Graz",
            "LOC",
            "generalize:2",
            [
                {"text": "a city in Austria", "level": 1, "kind": "places", "ic": 2.0},
                {"text": "a city", "level": 2, "kind": "places", "ic": 1.0},
            ],
        ),
        ("1999", "DATETIME", "suppress", [{"text": "the 1990s", "level": 1, "kind": "dates", "ic": 1.0}]),
    ]:
        start = TEXT.index(sub)
        span = doc.char_span(start, start + len(sub), label=label)
        span._.treatment, span._.generalizations, span._.source = treatment, options, "ner"
        spans.append(span)
    doc.spans["pii"] = spans
    return doc


def test_generalized_spans_keep_the_chosen_level_and_kind_of_generalized_mentions_only():
    got = generalized_spans(decided_doc())
    assert [(TEXT[g["start"] : g["end"]], g["replacement"], g["kind"], g["level"]) for g in got] == [
        ("70 operas", "10 operas", "numbers", 1),
        ("Graz", "a city", "places", 2),
    ]


def test_records_mark_the_span_in_its_context_and_skip_what_the_output_suppressed(tmp_path):
    spans = {"mara": generalized_spans(decided_doc())}
    g, o = TEXT.index("Graz"), TEXT.index("70 operas")
    masks = {"mara": [[o, o + 9, "10 operas"], [g, g + 4, "***"]]}  # Graz suppressed in the output (e.g. a unit)
    records = generalization_records({"mara": TEXT}, spans, masks, context=12)
    assert len(records) == 1
    r = records[0]
    assert r["original"] == "70 operas" and r["applied"] == "10 operas" and r["kind"] == "numbers"
    assert r["context"] == "ang in over [[70 operas]] in Graz and"  # 12 characters each side
    assert "[[70 operas]]" in r["context"] and "[[10 operas]]" in r["rendered"]
    path = write_generalizations(
        tmp_path / "g.json",
        {"row G": {"generalizations": spans, "replacements": masks}, "row S": {"masks": {}}},
        {"mara": TEXT},
    )
    saved = json.loads(path.read_text())
    assert list(saved["rows"]) == ["row G"] and saved["rows"]["row G"][0]["id"] == r["id"]


def records(n):
    kinds = ["numbers", "places", "wordnet"]
    return [
        {
            "id": f"d{i}:0-4",
            "doc": f"d{i}",
            "original": f"{i} x",
            "replacement": "y",
            "applied": "y",
            "kind": kinds[i % 3],
            "level": 1,
            "label": "MISC",
            "context": f"a [[{i} x]] b",
            "rendered": "a [[y]] b",
        }
        for i in range(n)
    ]


def test_the_draw_is_seeded_reproducible_and_without_repeats():
    first = draw(records(50), 10, seed=0, row="r")
    assert [x["id"] for x in first] == [x["id"] for x in draw(records(50), 10, seed=0, row="r")]
    assert [x["id"] for x in first] != [x["id"] for x in draw(records(50), 10, seed=1, row="r")]
    assert len({x["id"] for x in first}) == 10
    assert all(x["verdict"] == "" and x["note"] == "" and x["row"] == "r" for x in first)
    assert len(draw(records(3), 10, seed=0)) == 3  # fewer than asked: all of them


def test_a_sample_holding_verdicts_is_never_overwritten(tmp_path):
    path = tmp_path / "audit.jsonl"
    write_sample(path, draw(records(20), 5, seed=0))
    write_sample(path, draw(records(20), 5, seed=1))  # no verdict yet: a new draw may replace it
    lines = [json.loads(x) for x in path.read_text().splitlines()]
    lines[2]["verdict"] = "true"
    path.write_text("".join(json.dumps(x) + "\n" for x in lines))
    with pytest.raises(AuditError, match="already holds verdicts"):
        write_sample(path, draw(records(20), 5, seed=2))
    assert json.loads(path.read_text().splitlines()[2])["verdict"] == "true"


def write_verdicts(path, verdicts):
    lines = draw(records(len(verdicts)), len(verdicts), seed=0, row="r")
    for line, verdict in zip(lines, verdicts):
        line["verdict"] = verdict
    path.write_text("".join(json.dumps(x) + "\n" for x in lines))
    return lines


@pytest.mark.parametrize("bad, message", [("maybe", "is not one of"), ("", "empty verdict")])
def test_an_invalid_or_missing_verdict_is_an_error_naming_its_line(tmp_path, bad, message):
    path = tmp_path / "audit.jsonl"
    write_verdicts(path, ["true", "false", bad, "unsure"])
    with pytest.raises(AuditError, match=f"audit.jsonl:3: .*{message}"):
        read_audit(path)


def test_the_summary_counts_verdicts_overall_per_kind_and_flags_a_false_bounded_number(tmp_path):
    path = tmp_path / "audit.jsonl"
    lines = write_verdicts(path, ["true"] * 7 + ["false", "unsure", "true"])
    summary = summarize(read_audit(path), path)
    o = summary["overall"]
    assert (o["n"], o["true"], o["false"], o["unsure"], o["true_share"]) == (10, 8, 1, 1, 0.8)
    assert sum(c["n"] for c in summary["by_kind"].values()) == 10
    kind_of_false = lines[7]["kind"]
    assert summary["by_kind"][kind_of_false]["false"] == 1
    assert [f["line"] for f in summary["false"]] == [8]
    false_is_number = kind_of_false == "numbers"
    assert summary["bounded_numbers"]["any_false"] is false_is_number
    assert summary["bounded_numbers"]["n"] == sum(x["kind"] == "numbers" for x in lines)
    assert summary["target"]["met"] is False  # 80 % true


def test_bounded_numbers_are_numbers_or_a_digit_with_a_bound_word_around_it():
    assert bounded({"kind": "numbers", "original": "70", "context": "[[70]]"})
    assert bounded({"kind": "dates", "original": "1999", "context": "She lived there since [[1999]] and"})
    assert bounded({"kind": "wordnet", "original": "40 roles", "context": "took [[40 roles]] or more"})
    assert not bounded({"kind": "dates", "original": "1999", "context": "She moved there in [[1999]] and"})
    assert not bounded({"kind": "places", "original": "Lyon", "context": "moved to over [[Lyon]]"})


def test_the_commands_sample_then_summarize_with_provenance(tmp_path):
    spans = {"mara": generalized_spans(decided_doc())}
    o, g = TEXT.index("70 operas"), TEXT.index("Graz")
    masks = {"mara": [[o, o + 9, "10 operas"], [g, g + 4, "a city"]]}
    source = write_generalizations(
        tmp_path / "g.json", {"row G": {"generalizations": spans, "replacements": masks}}, {"mara": TEXT}
    )
    audit, out = tmp_path / "audit.jsonl", tmp_path / "m" / "truth_audit.json"
    result = invoke("lab", "truth-audit", "sample", "--generalizations", source, "--row", "row G", "--output", audit)
    assert result.exit_code == 0, result.output
    assert invoke("lab", "truth-audit", "summarize", audit, "--output", out).exit_code == 1  # verdicts empty
    lines = [json.loads(x) for x in audit.read_text().splitlines()]
    assert len(lines) == 2
    for line in lines:
        line["verdict"] = "true"
    audit.write_text("".join(json.dumps(x) + "\n" for x in lines))
    result = invoke("lab", "truth-audit", "summarize", audit, "--output", out)
    assert result.exit_code == 0, result.output
    saved = json.loads(out.read_text())
    assert saved["overall"]["true"] == 2 and saved["target"]["met"] is True and "provenance" in saved
    assert out.with_suffix(".md").exists()
    again = invoke("lab", "truth-audit", "sample", "--generalizations", source, "--row", "row G", "--output", audit)
    assert again.exit_code == 1 and "already holds verdicts" in again.output
    missing = invoke("lab", "truth-audit", "sample", "--generalizations", source, "--row", "nope", "--output", out)
    assert missing.exit_code == 1 and "row G" in missing.output


def test_the_generalizing_row_carries_its_generalizations_to_the_writer(monkeypatch, tmp_path):
    from textanon_lab.benchmarks import generalization as module
    from textanon_lab.benchmarks.generalization import generalize_bench, generalize_systems, row_names

    o = TEXT.index("70 operas")
    spans = generalized_spans(decided_doc())
    runs = [
        {"masks": {"mara": [[o, o + 9, "10 operas"]]}, "seconds": 1.0, "generalizations": {"mara": spans}},
        {"masks": {"mara": [[o, o + 9, "***"]]}, "seconds": 0.1},
    ]
    monkeypatch.setattr(
        module, "run_isolated", lambda *a, **k: {"masks": {"runs": runs}, "load_s": 1.0, "peak_rss_mb": 9.0}
    )
    out = generalize_systems([], generalize_bench(["x=training/x"]))
    row, twin = row_names("x")
    assert out[row]["generalizations"] == {"mara": spans} and "generalizations" not in out[twin]
    saved = json.loads(write_generalizations(tmp_path / "g.json", out, {"mara": TEXT}).read_text())
    assert list(saved["rows"]) == [row]
    assert [r["original"] for r in saved["rows"][row]] == ["70 operas"]  # Graz: not in the output's masks


def test_the_truth_audit_group_is_a_lab_group_with_the_lab_settings():
    from textanon_lab.cli.apps import lab
    from textanon_lab.cli.truth_audit import truth_audit_app

    assert [g.name for g in lab.registered_groups if g.typer_instance is truth_audit_app] == ["truth-audit"]
    assert truth_audit_app.rich_markup_mode is None and truth_audit_app.pretty_exceptions_enable is False
    assert truth_audit_app.info.no_args_is_help is True and truth_audit_app._add_completion is False
    result = invoke("lab", "truth-audit")
    assert "sample" in result.output and "summarize" in result.output
