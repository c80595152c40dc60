"""textanon_allow_deny: allow lists never un-mask direct identifiers or the protected name; deny lists always mask."""

import json

import pytest
import spacy
from cli_runner import one_line, run_textanon
from core_fixtures import SMALL_GAZETTEER, decision_pipeline
from input_files import write_jsonl

import textanon  # noqa: F401  (extensions)
import textanon.pipes.factories  # noqa: F401  (the factories, also registered by the package entry points)
from textanon.pipes.allow_deny import ALLOWED_KEY, compile_entries, read_list_file

TEXT = (
    "The applicant, Mr Ion Rusu (no. 12345/06), a lawyer, was born in 1961 and was diagnosed with tuberculosis "
    "in 2004. Rusu joined Project Nightingale (ref PN-2231) on 12 June 2005."
)


def _nlp(**lists):
    return decision_pipeline(("textanon_allow_deny", lists), gazetteer=SMALL_GAZETTEER)


def _run(nlp, text=TEXT, target="Ion Rusu"):
    doc = nlp.make_doc(text)
    doc._.target = target
    return nlp(doc)


def test_without_lists_everything_detected_is_masked():
    out = _run(_nlp())._.anonymized_text
    assert "lawyer" not in out and "tuberculosis" not in out and "2004" not in out
    assert "Project Nightingale" in out  # not detected by the rules


def test_allow_list_keeps_terms_exact_and_regex_with_case_rules():
    doc = _run(_nlp(allow=["LAWYER", {"regex": "tuber.*", "case_sensitive": True}, "re:\\d{4}"]))
    out = doc._.anonymized_text
    assert "a lawyer" in out and "tuberculosis" in out and "in 2004" in out
    assert sorted(s.text for s in doc.spans[ALLOWED_KEY]) == ["2004", "lawyer", "tuberculosis"]
    assert all(s.text not in ("lawyer", "tuberculosis", "2004") for s in doc.spans["pii"])
    case = _run(_nlp(allow=["LAWYER"], case_sensitive=True))
    assert "lawyer" not in case._.anonymized_text  # case-sensitive: "LAWYER" does not allow "lawyer"
    regex = _run(_nlp(allow=[{"regex": "TUBER.*", "case_sensitive": True}]))
    assert "tuberculosis" not in regex._.anonymized_text


def test_allow_list_never_unmasks_codes_birth_dates_or_the_target():
    doc = _run(_nlp(allow=["12345/06", "re:\\d{4}", "Rusu", "Mr Ion Rusu"]))
    out = doc._.anonymized_text
    assert "12345/06" not in out and "1961" not in out and "Rusu" not in out
    assert "in 2004" in out  # the same regex still allows a year that is no date of birth
    # the detected 4: the code, the birth year, "Mr Ion Rusu" and, since issue 18 (names of the title rule are found
    # again in the document), the second "Rusu"
    warnings = [w for w in doc._.anonymization_warnings if w.startswith("textanon_allow_deny")]
    assert warnings == [
        "textanon_allow_deny: the allow list matched 4 direct identifiers or protected names; they stay detected"
    ]
    assert "Rusu" not in warnings[0] and "12345" not in warnings[0]  # counts only, no text


def test_target_is_masked_even_when_the_recognizer_span_is_allowed_without_a_target_known():
    doc = _run(_nlp(allow=["Mr Ion Rusu", "Rusu"]), target=None)
    assert "Ion Rusu" in doc._.anonymized_text  # no protected person given: the allow list applies
    nlp = _nlp(allow=["Mr Ion Rusu", "Rusu"])
    nlp.get_pipe("textanon_optimizer").target = "Ion Rusu"  # target known to the optimizer only
    assert "Rusu" not in _run(nlp, target=None)._.anonymized_text


def test_allow_list_acts_on_entities_not_surface_forms():
    text = "Mr Ion Rusu met Mr John Kowalczyk in Leeds. Kowalczyk works at the bakery."
    doc = _run(_nlp(allow=["lawyer", "Kowalczyk"]), text=text)
    out = doc._.anonymized_text
    assert "Kowalczyk" not in out  # "Kowalczyk" alone is a mention of the masked "Mr John Kowalczyk": masked with it
    warnings = [w for w in doc._.anonymization_warnings if "mention(s) of an entity" in w]
    assert len(warnings) == 1 and "allow entry 2" in warnings[0] and "Kowalczyk" not in warnings[0]
    assert "matched 1 mention(s)" in warnings[0]
    alone = _run(_nlp(allow=["Kowalczyk", "Mr John Kowalczyk"]), text=text)
    assert "Kowalczyk works" in alone._.anonymized_text  # every mention allowed: the entity is allowed


def test_a_catch_all_allow_pattern_warns_with_the_number_of_spans_it_kept():
    doc = _run(_nlp(allow=["re:.*"]), target="Ion Rusu")
    warnings = [w for w in doc._.anonymization_warnings if "catch-all" in w]
    kept = len(doc.spans[ALLOWED_KEY])
    assert kept >= 2 and warnings == [
        f"textanon_allow_deny: allow entry 1 is a catch-all pattern; it kept {kept} span(s) unmasked"
    ]
    assert "Rusu" not in doc._.anonymized_text  # the protected name is never allowed
    narrow = _run(_nlp(allow=["re:\\d{4}"]))
    assert not [w for w in narrow._.anonymization_warnings if "catch-all" in w]
    assert [e.catch_all for e in compile_entries(["re:.*", "re:[A-Z].*", "re:\\d+", "lawyer"], False)] == [
        True,
        True,
        False,
        False,
    ]


def test_deny_list_always_masks_exact_and_regex_with_labels():
    doc = _run(
        _nlp(deny=["project nightingale", {"regex": "PN-\\d{4}", "label": "CODE", "case_sensitive": True}]),
        target=None,
    )
    by_text = {s.text: s for s in doc.spans["pii"]}
    assert by_text["Project Nightingale"]._.source == "deny" and by_text["Project Nightingale"].label_ == "MISC"
    assert by_text["PN-2231"].label_ == "CODE"
    nlp = _nlp(deny=["project nightingale", {"regex": "PN-\\d{4}", "label": "CODE"}])
    nlp.remove_pipe("test_every_entity_risky")  # nothing risky: only always-masked entities are masked
    out = _run(nlp)._.anonymized_text
    assert "Nightingale" not in out and "PN-2231" not in out
    assert "tuberculosis" in out  # detected but not risky, not denied: kept


def test_deny_match_inside_a_detected_span_covers_the_whole_span():
    nlp = _nlp(deny=["June"])
    nlp.remove_pipe("test_every_entity_risky")
    doc = _run(nlp)
    deny = [s for s in doc.spans["pii"] if s._.source == "deny"]
    assert [s.text for s in deny] == ["12 June 2005"]
    assert "12 June 2005" not in doc._.anonymized_text and "June" not in doc._.anonymized_text
    whole_word = _run(_nlp(deny=["Jun"]))  # exact entries match whole words only
    assert not [s for s in whole_word.spans["pii"] if s._.source == "deny"]


def test_list_files_initialize_and_round_trip_with_load_time_overrides(tmp_path):
    allow, deny = tmp_path / "allow.txt", tmp_path / "deny.jsonl"
    allow.write_text("# terms never masked\nlawyer\n\nre:tuber\\w+\n", encoding="utf-8")
    deny.write_text(json.dumps({"text": "Project Nightingale", "label": "ORG"}) + "\n", encoding="utf-8")
    assert read_list_file(allow) == ["lawyer", "re:tuber\\w+"]
    nlp = _nlp()
    nlp.get_pipe("textanon_allow_deny").initialize(allow_path=str(allow), deny_path=str(deny))
    out = _run(nlp)._.anonymized_text
    assert "lawyer" in out and "tuberculosis" in out and "Nightingale" not in out
    nlp.remove_pipe("test_every_entity_risky")
    nlp.to_disk(tmp_path / "pipe")
    loaded = spacy.load(tmp_path / "pipe")
    assert loaded.get_pipe("textanon_allow_deny").file_allow == ["lawyer", "re:tuber\\w+"]
    assert "Nightingale" not in _run(loaded)._.anonymized_text
    override = spacy.load(tmp_path / "pipe", config={"components": {"textanon_allow_deny": {"deny": ["2004"]}}})
    doc = _run(override)
    assert "2004" not in doc._.anonymized_text and "Nightingale" not in doc._.anonymized_text
    again = (
        spacy.blank("en").add_pipe("textanon_allow_deny").from_bytes(loaded.get_pipe("textanon_allow_deny").to_bytes())
    )
    assert again.file_deny == [{"text": "Project Nightingale", "label": "ORG"}]


def test_bad_entries_are_named():
    with pytest.raises(ValueError, match="deny entry 2: invalid regular expression"):
        compile_entries(["ok", "re:(unclosed"], case_sensitive=False, label="MISC", where="deny")
    with pytest.raises(ValueError, match="Unknown TAB label"):
        compile_entries([{"text": "x", "label": "NAME"}], case_sensitive=False, label="MISC")
    with pytest.raises(ValueError, match="allow entry 1: unknown keys"):
        compile_entries([{"text": "x", "lable": "ORG"}], case_sensitive=False, where="allow")
    with pytest.raises(ValueError, match="does not exist"):
        read_list_file("/nonexistent/allow.txt")


@pytest.mark.parametrize("config", ["textanon.cfg", "textanon_rules.cfg", "textanon_search.cfg"])
def test_configs_run_the_lists_between_recognizer_and_linker(config):
    from core_fixtures import ROOT
    from spacy.util import load_config

    cfg = load_config(ROOT / "configs" / config, interpolate=False)
    names = cfg["nlp"]["pipeline"]
    assert names.index("textanon_allow_deny") == names.index("textanon_entity_recognizer") + 1
    assert names.index("textanon_allow_deny") < names.index("textanon_entity_linker")
    assert cfg["components"]["textanon_allow_deny"]["allow"] == [] == cfg["components"]["textanon_allow_deny"]["deny"]


def test_assembled_pipeline_reads_the_list_files(tmp_path):
    from core_fixtures import CONFIG

    from textanon.pipeline import assemble

    allow = tmp_path / "allow.txt"
    allow.write_text("European Court of Human Rights\n", encoding="utf-8")
    nlp = assemble(CONFIG, overrides={"paths.allow_list": str(allow)}, last_component="textanon_allow_deny")
    assert nlp.get_pipe("textanon_allow_deny").file_allow == ["European Court of Human Rights"]
    doc = nlp("The European Court of Human Rights heard Mr Ion Rusu.")
    assert "European Court of Human Rights" in [s.text for s in doc.spans[ALLOWED_KEY]]
    assert "European Court of Human Rights" not in [s.text for s in doc.spans["pii"]]


@pytest.mark.slow
def test_anonymize_command_lists_and_report(tmp_path):
    model = tmp_path / "model"
    nlp = _nlp()
    nlp.remove_pipe("textanon_allow_deny")  # a pipeline built without the component: the command adds it
    nlp.remove_pipe("test_every_entity_risky")
    nlp.to_disk(model)
    src = write_jsonl(tmp_path / "in.jsonl", [{"id": "a", "text": TEXT, "target": "Ion Rusu"}])
    (tmp_path / "allow.txt").write_text("lawyer\n12345/06\n", encoding="utf-8")
    (tmp_path / "deny.txt").write_text("Project Nightingale\n", encoding="utf-8")
    out = tmp_path / "out.jsonl"
    args = ["anonymize", src, "--output", out, "--model", model, "--html", tmp_path / "report"]
    args += ["--allow-list", tmp_path / "allow.txt", "--deny-list", tmp_path / "deny.txt"]
    result = run_textanon(*args, offline=False)
    assert result.returncode == 0, result.stderr
    record = json.loads(out.read_text(encoding="utf-8"))
    assert "Nightingale" not in record["anonymized_text"] and "12345/06" not in record["anonymized_text"]
    assert [TEXT[a["start"] : a["end"]] for a in record["allowed"]] == ["lawyer"]
    assert any("allow list matched 1 direct identifiers" in w for w in record["warnings"])
    page = (tmp_path / "report" / "doc-00001-a.html").read_text(encoding="utf-8")
    assert 'id="allowed"' in page and "on the deny list: always masked" in page
    (tmp_path / "bad.txt").write_text("re:(\n", encoding="utf-8")
    args[-1] = tmp_path / "bad.txt"
    result = run_textanon(*args, offline=False)
    said = one_line(result.stdout + result.stderr)
    assert result.returncode == 1 and f"{tmp_path / 'bad.txt'} entry 1: invalid regular expression" in said
