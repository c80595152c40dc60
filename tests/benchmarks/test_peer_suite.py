"""lab peer-suite: cases extracted from a (synthetic) recognizer test file with ast, and the fully-masked count."""

import json
import textwrap

import pytest
from cli_runner import invoke

from textanon_lab.benchmarks import peer_suite
from textanon_lab.benchmarks.peer_suite import (
    BAD_SHAPE,
    NEGATIVE,
    NO_POSITIONS,
    NO_TEXT_OR_POSITIONS,
    NOT_DETECTED,
    NOT_LITERAL,
    NOT_MASKED,
    PARTLY_DETECTED,
    extract_file,
    fully_masked,
    markdown,
    run_peer_suite,
)

# A test file in the shapes of Presidio's recognizer tests (written here: not Presidio's).
SYNTHETIC = """
import pytest
from tests import assert_result


def make(x):
    return x


CASES = [
    ("code AB12", 1, ((5, 9),),),
    ("nothing here", 0, ()),
]


@pytest.mark.parametrize(
    "text, expected_len, expected_positions",
    [
        ("id 1234 and 5678", 2, ((3, 7), (12, 16),),),
        ("none", 0, ()),
        ("positive without positions 99", 1, ()),
        (make("built at run time"), 1, ((0, 5),)),
        pytest.param("param 4242", 1, ((6, 10),), id="param"),
        ("split over "
         "two lines 777", 1, ((21, 24),),),
        ("ref  X9 ", 1, ((4, 8),),),
        ("too short", 1),
    ],
)
def test_when_codes_then_found(text, expected_len, expected_positions, recognizer):
    results = recognizer.analyze(text)
    assert len(results) == expected_len
    for res, (st, fn) in zip(results, expected_positions):
        assert_result(res, "CODE", st, fn, 1.0)


@pytest.mark.parametrize("iban, expected_len, expected_res", CASES)
def test_when_ibans_then_found(iban, expected_len, expected_res, recognizer):
    assert len(recognizer.analyze(iban)) == expected_len


@pytest.mark.parametrize("entity, score", [("CODE", 1.0), ("IBAN", 0.5)])
def test_scores(entity, score):
    assert score
"""


@pytest.fixture
def suite(tmp_path):
    folder = tmp_path / "presidio-analyzer" / "tests"
    folder.mkdir(parents=True)
    (folder / "test_code_recognizer.py").write_text(textwrap.dedent(SYNTHETIC), encoding="utf-8")
    return folder


def test_extraction_keeps_the_positive_cases_with_positions(suite):
    ext = extract_file(suite / "test_code_recognizer.py")
    got = [(c.function, c.index, c.text, c.spans) for c in ext.cases]
    assert got == [
        ("test_when_codes_then_found", 0, "id 1234 and 5678", [(3, 7), (12, 16)]),
        ("test_when_codes_then_found", 4, "param 4242", [(6, 10)]),  # pytest.param
        ("test_when_codes_then_found", 5, "split over two lines 777", [(21, 24)]),  # implicit concatenation
        ("test_when_codes_then_found", 6, "ref  X9 ", [(5, 7)]),  # white space at the ends trimmed
        ("test_when_ibans_then_found", 0, "code AB12", [(5, 9)]),  # case list named at module level
    ]
    assert ext.skipped == {NEGATIVE: 2, NO_POSITIONS: 1, NOT_LITERAL: 1, BAD_SHAPE: 1, NO_TEXT_OR_POSITIONS: 2}


def test_fully_masked_needs_every_character_of_every_span():
    assert fully_masked([[0, 3, "X"], [3, 8, "Y"]], [(1, 7)])  # touching masks
    assert not fully_masked([[0, 5]], [(1, 7)])
    assert not fully_masked([[3, 7]], [(3, 7), (12, 16)])  # the second span not masked
    assert fully_masked([[12, 16], [2, 8]], [(3, 7), (12, 16)])  # any order


def fake(masks_by_text, detected_by_text=None):
    """A system masking (and detecting) the given regions of each text."""
    detected_by_text = detected_by_text or masks_by_text
    return lambda texts: [{"masks": masks_by_text.get(t, []), "detected": detected_by_text.get(t, [])} for t in texts]


def test_a_case_with_a_span_not_masked_is_a_miss(suite):
    system = fake(
        {"id 1234 and 5678": [[3, 7]], "param 4242": [[0, 10]], "split over two lines 777": [[21, 24]]},
        {"id 1234 and 5678": [[3, 7], [12, 16]], "param 4242": [[0, 10]], "ref  X9 ": [[6, 7]]},
    )
    results, cases, verdicts = run_peer_suite(
        suite, files=["test_code_recognizer.py", "test_absent.py"], systems={"fake": system}
    )
    assert len(cases) == 5
    assert verdicts["fake"] == [NOT_MASKED, None, None, PARTLY_DETECTED, NOT_DETECTED]
    assert results["overall"]["fake"] == {
        "cases": 5,
        "fully_masked": 2,
        "percent": 40.0,
        "misses_by_cause": {NOT_DETECTED: 1, NOT_MASKED: 1, PARTLY_DETECTED: 1},
    }
    (row,) = results["per_file"]
    assert row["fake"]["fully_masked"] == 2
    assert [(m["function"], m["index"]) for m in row["fake"]["misses"]] == [
        ("test_when_codes_then_found", 0),
        ("test_when_codes_then_found", 6),
        ("test_when_ibans_then_found", 0),
    ]
    assert results["suite"]["missing_files"] == ["test_absent.py"]
    table = markdown(results)
    assert "| test_code_recognizer.py | 5 | 2 (40.0 %) |" in table
    assert "test_when_codes_then_found[0], test_when_codes_then_found[6], test_when_ibans_then_found[0]" in table
    written = json.dumps(results) + table
    assert not any(c.text in written for c in cases)  # misses by file and index, never the case texts


def test_cli_writes_json_and_table_without_the_texts(suite, tmp_path, monkeypatch):
    everything = fake({})
    seen = []

    def textanon_system(model, profile):
        seen.append(profile)
        return lambda texts: everything(texts)

    monkeypatch.setattr(peer_suite, "textanon_system", textanon_system)
    monkeypatch.setattr(
        peer_suite, "presidio_system", lambda model: lambda texts: [{"masks": [[0, len(t)]]} for t in texts]
    )
    out = tmp_path / "metrics" / "peer.json"
    result = invoke(
        "lab", "peer-suite", "--presidio-tests", suite, "--file", "test_code_recognizer.py", "--output", out
    )
    assert result.exit_code == 0, result.output
    data = json.loads(out.read_text(encoding="utf-8"))
    assert seen == ["fast", "strict"]  # one row per profile, the default's first
    assert data["systems"] == ["textanon fast", "textanon strict", "presidio"]
    assert data["overall"]["textanon fast"]["fully_masked"] == 0
    assert data["overall"]["presidio"]["fully_masked"] == 5
    assert data["provenance"]["machine"]["cores"]
    table = "| test_code_recognizer.py | 5 | 0 (0.0 %) | 0 (0.0 %) | 5 (100.0 %) |"
    assert table in out.with_suffix(".md").read_text("utf-8")
    assert "id 1234" not in out.read_text("utf-8") + out.with_suffix(".md").read_text("utf-8")


def test_cli_refuses_an_unknown_profile(suite, tmp_path):
    out = tmp_path / "p.json"
    result = invoke("lab", "peer-suite", "--presidio-tests", suite, "--profile", "paranoid", "--output", out)
    assert result.exit_code == 2
    assert "paranoid" in result.output and not out.exists()


def test_quasi_identifier_files_are_totalled_apart(tmp_path):
    """The date and spaCy NER files (quasi-identifiers: the fast profile masks them by risk) are left out of the
    direct-identifier total, and marked in the table."""
    tests = tmp_path / "tests"
    tests.mkdir()
    case = '@pytest.mark.parametrize("text, expected_len, expected_positions", [("{t}", 1, ((0, 4),))])\n'
    for name, text in (("test_date_recognizer.py", "2021"), ("test_email_recognizer.py", "a@bc")):
        (tests / name).write_text("import pytest\n\n" + case.format(t=text) + "def test_x(text): pass\n", "utf-8")
    masks_email_only = fake({"a@bc": [[0, 4]]}, {"a@bc": [[0, 4]], "2021": [[0, 4]]})
    results, _, _ = run_peer_suite(
        tests, files=["test_date_recognizer.py", "test_email_recognizer.py"], systems={"fake": masks_email_only}
    )
    assert results["overall"]["fake"]["fully_masked"] == 1
    assert results["overall_identifier_files"]["fake"] == {
        "cases": 1,
        "fully_masked": 1,
        "percent": 100.0,
        "misses_by_cause": {},
    }
    table = markdown(results)
    assert "| test_date_recognizer.py ² | 1 |" in table
    assert "| **direct identifiers: all but ²** | 1 | **1 (100.0 %)** |" in table


def test_cli_fails_without_a_checkout(tmp_path):
    result = invoke("lab", "peer-suite", "--presidio-tests", tmp_path / "nowhere", "--output", tmp_path / "p.json")
    assert result.exit_code == 1
    assert not (tmp_path / "p.json").exists()
