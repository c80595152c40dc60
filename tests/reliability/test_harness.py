"""The reliability suite's harness (textanon_lab.reliability, textanon_lab.testing.faults): counting, order, leak
checks, fault plugins and pipeline assembly, on tiny cases without a language model."""

import random
from pathlib import Path

import pytest
import spacy
from cli_runner import run_textanon

from textanon_lab.reliability import checks
from textanon_lab.reliability.inputs import INPUT_CASES, TRIGGER, Expected, fault_records, write_records
from textanon_lab.reliability.pii import (
    IDENTIFIER_KINDS,
    Person,
    iban_gb,
    identifier,
    identifier_records,
    luhn_complete,
)
from textanon_lab.reliability.pipelines import derived_pipeline, llm_alone_pipeline
from textanon_lab.reliability.suite import Case, passed, run_case, summarize
from textanon_lab.testing import faults

EMAIL = {"kind": "email", "text": "a.quint42@example.org"}
CARD = {"kind": "card", "text": "4111 1111 1111 1111"}
NAME = {"kind": "name", "text": "Ada Quint"}


def _rows(*ids, errors=()):
    return [{"id": i, "error": "bad"} if i in errors else {"id": i, "anonymized_text": "***"} for i in ids]


# -- string checks ------------------------------------------------------------------------------------------
def test_contains_is_case_and_whitespace_insensitive_at_word_boundaries():
    assert checks.contains("Mail A.QUINT42@example.org now", EMAIL["text"])
    assert checks.contains("card 4111  1111\n1111 1111.", CARD["text"])
    assert not checks.contains("card 41111 1111 1111 1111", CARD["text"])  # another number
    assert not checks.contains("Adam Quinton", "Ada Quint")


def test_pii_in_a_log_is_counted_by_kind():
    log = "INFO loaded\nDEBUG doc text: The applicant Ada Quint wrote from a.quint42@example.org\n"
    assert checks.pii_found(log, [EMAIL, CARD, NAME]) == {"email": 1, "name": 1}
    assert checks.pii_found("INFO 3 documents, 2 masks", [EMAIL, CARD, NAME]) == {}


def test_a_leak_in_the_output_is_counted_whole_or_in_part():
    source = "Ada Quint paid with 4111 1111 1111 1111 and wrote to a.quint42@example.org."
    expected = [Expected("d1", False, [NAME, CARD, EMAIL])]
    rows = [{"id": "d1", "anonymized_text": "*** paid with 4111 **** **** 1111 and wrote to a.quint42@example.org."}]
    left = checks.surviving(expected, rows, {"d1": source})
    assert left["full"] == {"email": 1}
    assert left["partial"] == {"card": 1}
    clean = [{"id": "d1", "anonymized_text": "*** paid with *** and wrote to ***."}]
    assert checks.surviving(expected, clean, {"d1": source}) == {"full": {}, "partial": {}}


def test_identifier_pieces_ignore_words_of_the_surrounding_text():
    source = "In 2006 the claim 2006/SHF/1123 was registered."
    assert checks.informative_pieces("2006/SHF/1123", "case_reference", source) == ["SHF", "1123"]
    assert checks.informative_pieces("Ada Quint", "name", source) == []


def test_warnings_and_error_messages_are_checked_for_pii():
    rows = [{"id": "x", "error": "line 2: bad JSON near 'Ada Quint'"}, {"id": "y", "warnings": ["3 spans masked"]}]
    assert checks.pii_found(checks.messages(rows), [NAME]) == {"name": 1}
    assert checks.warning_kinds(rows + rows[1:]) == {"# spans masked": 2}


# -- record counting and order -------------------------------------------------------------------------------
def test_order_requires_error_records_in_their_input_position():
    expected = [Expected("a"), Expected(None, True), Expected("c")]
    assert checks.in_order(expected, _rows("a", "line2", "c", errors=("line2",)))
    assert not checks.in_order(expected, _rows("a", "c", "line2", errors=("line2",)))
    assert not checks.in_order(expected, _rows("a", "b", "c"))  # position 2 must be an error record


def test_lost_and_extra_records_are_counted(tmp_path):
    expected = [Expected("a"), Expected("b"), Expected("c")]
    counted = checks.count(expected, _rows("a", "c"), unreadable=0)
    assert (counted["records_lost"], counted["extra_records"], counted["in_order"]) == (1, 0, True)
    assert not checks.count(expected, _rows("c", "a"), 0)["in_order"]
    out = tmp_path / "out.jsonl"
    out.write_text('{"id": "a"}\n{"id": "b", "error": "x"}\n{"id": "c"\n', encoding="utf8")
    rows, bad = checks.read_output(out)
    counted = checks.count(expected, rows, bad)
    assert (counted["records_out"], counted["error_records"], counted["unreadable_output_lines"]) == (3, 1, 1)
    assert checks.read_output(tmp_path / "missing.jsonl") == ([], 0)


def test_wrong_kind_counts_error_records_where_a_result_was_due():
    expected = [Expected("a", False), Expected("b", True), Expected("c", None)]
    assert checks.wrong_kind(expected, _rows("a", "b", "c", errors=("a", "c"))) == 2


def test_pass_criteria():
    ok = {
        "exit_code": 0,
        "expected_exit": "zero",
        "timed_out": False,
        "records_out": 2,
        "records_lost": 0,
        "extra_records": 0,
        "wrong_kind_records": 0,
        "in_order": True,
        "pii_in_logs": {},
        "pii_in_warnings_or_errors": {},
        "surviving_direct_identifiers": {},
        "surviving_protected_names": {},
    }
    assert passed(ok)
    for change in [
        {"exit_code": 1},
        {"records_lost": 1},
        {"in_order": False},
        {"pii_in_logs": {"email": 1}},
        {"surviving_direct_identifiers": {"iban": 1}},
        {"surviving_protected_names": {"surname": 1}},
        {"timed_out": True},
    ]:
        assert not passed({**ok, **change}), change
    assert passed({**ok, "expected_exit": "non-zero", "exit_code": 1, "records_out": None})
    assert not passed({**ok, "expected_exit": "non-zero"})


# -- synthetic data -----------------------------------------------------------------------------------------
def test_generated_identifiers_are_valid_and_in_their_sentences():
    rng = random.Random(3)
    card = luhn_complete("411111111111111")
    assert card == "4111111111111111"
    iban = iban_gb(rng).replace(" ", "")
    assert int("".join(str(int(c, 36)) for c in iban[4:] + iban[:4])) % 97 == 1
    for kind in IDENTIFIER_KINDS:
        value, sentence = identifier(kind, rng, Person("Ada", "Quint"))
        assert value in sentence, kind


def test_records_are_deterministic_and_hold_their_pii():
    first, again = identifier_records(7), identifier_records(7)
    assert [r.to_json() for r in first] == [r.to_json() for r in again]
    assert {p["kind"] for r in first for p in r.pii} >= set(IDENTIFIER_KINDS)
    for rec in first:
        for p in rec.pii:
            assert checks.contains(rec.text, p["text"]), (rec.id, p)


@pytest.mark.parametrize("name", sorted(INPUT_CASES))
def test_every_input_case_expects_one_output_per_non_blank_line(tmp_path, name):
    data = INPUT_CASES[name](tmp_path, 0)
    raw = data.path.read_bytes()
    n_lines = 1 if data.path.suffix == ".txt" else sum(1 for line in raw.splitlines() if line.strip())
    assert len(data.expected) == n_lines


# -- fault plugins and pipelines -------------------------------------------------------------------------------
def test_derived_pipeline_inserts_a_fault_and_keeps_the_rest(tmp_path):
    base = tmp_path / "base"
    nlp = spacy.blank("en")
    nlp.add_pipe("sentencizer")
    nlp.to_disk(base)
    boom = ("boom", {"factory": "textanon_fault_raise"}, "sentencizer")
    dest = derived_pipeline(base, tmp_path / "faulty", insert=boom)
    loaded = spacy.load(dest)
    assert loaded.pipe_names == ["boom", "sentencizer"]
    with pytest.raises(faults.InjectedFault):
        loaded(TRIGGER)
    assert spacy.load(base).pipe_names == ["sentencizer"]


def test_llm_alone_pipeline_uses_the_scripted_model(tmp_path):
    pytest.importorskip("spacy_llm")
    nlp = spacy.load(llm_alone_pipeline(tmp_path / "llm", "empty"))
    assert nlp.pipe_names == ["textanon_llm_anonymizer"]


# -- end to end through the command line (blank pipelines: no model) ------------------------------------------
def test_run_case_reports_a_pass_through_leak_and_a_clean_empty_file(tmp_path):
    base = tmp_path / "passthrough"
    nlp = spacy.blank("en")
    nlp.add_pipe("textanon_fault_passthrough")
    nlp.to_disk(base)

    def leaky(folder: Path, seed: int):
        return write_records(folder / "in.jsonl", fault_records(seed, n=2))

    leak = run_case(Case("leak", "input", leaky, timeout_s=120), base, tmp_path / "work", seed=0)
    assert leak["exit_code"] == 0, (tmp_path / "work" / "leak" / "stderr.txt").read_text()
    assert (leak["records_in"], leak["records_out"], leak["records_lost"], leak["in_order"]) == (2, 2, 0, True)
    assert sum(leak["surviving_direct_identifiers"].values()) == 6  # 3 identifiers per record
    assert leak["surviving_protected_names"] == {"name": 2, "surname": 2}
    assert not leak["pass"]
    empty = run_case(Case("empty", "input", INPUT_CASES["empty_file"], timeout_s=120), base, tmp_path / "work", 0)
    assert empty["pass"] and empty["records_in"] == 0
    totals = summarize([leak, empty])
    assert totals["cases_failed"] == ["leak"] and totals["surviving_direct_identifiers"] == 6


def test_the_cli_command_is_registered():
    out = run_textanon("lab", "reliability", "--help", offline=False)
    assert out.returncode == 0 and "--big" in out.stdout


def test_records_without_a_usable_id_are_matched_by_position():
    expected = [Expected("a", False, []), Expected(None, None, [EMAIL])]
    rows = [{"id": "a", "anonymized_text": "***"}, {"id": "None", "anonymized_text": "to a.quint42@example.org"}]
    assert checks.surviving(expected, rows, {})["full"] == {"email": 1}
    assert checks.surviving(expected, rows[1:], {})["full"] == {}  # a record lost: positions mean nothing


def test_any_field_of_an_error_record_is_checked_for_pii():
    rows = [{"id": "x", "error": "malformed JSON", "raw": "Ada Quint"}]
    assert checks.pii_found(checks.messages(rows), [NAME]) == {"name": 1}


def test_the_faulty_document_must_become_an_error_record(tmp_path):
    from textanon_lab.reliability.suite import cases

    by_name = {c.name: c for c in cases()}
    data = by_name["component_exception"].build(tmp_path, 0)
    assert [e.error for e in data.expected] == [False, False, False, True, False, False, False, False]
    assert TRIGGER in data.path.read_text(encoding="utf8").splitlines()[3]
    killed = by_name["killed_worker"].build(tmp_path, 0)
    assert [e.error for e in killed.expected] == [None, None, None, True, None, None, None, None]
