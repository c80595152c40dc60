"""The ECHR benchmark's parts that run without a model: the applicant rule, the reference adapter, the applicants'
knowledge, the index input, the table and the command's refusals (invented cases, no real data)."""

import json

import pytest
from cli_runner import invoke, one_line

from textanon_lab.benchmarks.echr import (
    EchrDataError,
    applicants,
    build_echr_index,
    give_applicant_knowledge,
    load_cases,
    markdown,
    prepare_index,
    reference_rows,
    split_profiles,
    write,
)

INTRO = (
    "PROCEDURE The case originated in an application (no. 1234/05) against the Republic of Nowhere lodged with the "
    "Court under Article 34 of the Convention for the Protection of Human Rights and Fundamental Freedoms "
    "(“the Convention”) by {who}, on 3 March 2005. The Government were represented by their Agent, Mr P. Smith."
)


def test_one_applicant_with_a_title_and_a_nationality():
    assert applicants(INTRO.format(who="a Ruritanian national, Mr Ivan Petrov Novak (“the applicant”)")) == [
        "Ivan Petrov Novak"
    ]
    assert applicants(INTRO.format(who="Ms Anne-Marie van der Berg")) == ["Anne-Marie van der Berg"]
    # the quoted marker alone also names the applicant; a part of a name found already is not another name
    assert applicants("Mr Egon von Bülow (“the applicant”) was born in 1930.") == ["Egon von Bülow"]


def test_several_applicants_a_shared_surname_and_no_organisation():
    who = (
        "three nationals, Mrs Ada Lark, Mr Bo Finch and an action group, Greenfield Residents Forum, (“the applicants”)"
    )
    assert applicants(INTRO.format(who=who)) == ["Ada Lark", "Bo Finch"]
    assert applicants(INTRO.format(who="two British nationals, Kirk and Lorraine Dale")) == [
        "Kirk Dale",
        "Lorraine Dale",
    ]
    who = "Tom Reed (introduced on 4 May 1998) and Mary Jane Lowe (introduced on 12 August 1998)"
    assert applicants(INTRO.format(who=who)) == ["Tom Reed", "Mary Jane Lowe"]
    who = "two nationals, Mr Karl Olsen (the first applicant) and Jens Olsen (the second applicant), respectively"
    assert applicants(INTRO.format(who=who)) == ["Karl Olsen", "Jens Olsen"]


def test_applicants_named_in_sentences_of_their_own_or_not_at_all():
    text = (
        "PROCEDURE The case originated in two applications against the State lodged with the Commission. The first "
        "applicant, Mr David Stone, was born in 1946 and the second applicant, Mr Darren Ford, was born in 1974."
    )
    assert applicants(text) == ["David Stone", "Darren Ford"]
    assert applicants("PROCEDURE The applicant complained that the proceedings had been unfair.") == []
    assert applicants(INTRO.format(who="a limited company, Acme Holdings")) == []


def make_folder(tmp_path, text="Mr Ivan Novak (“the applicant”) lives in Varna and works at Acme."):
    folder = tmp_path / "echr-dev"
    (folder / "anonymizations").mkdir(parents=True)
    (folder / "echr_dev_entities.json").write_text(
        json.dumps([{"doc_id": "001-1", "text": text, "annotations": {}}]), encoding="utf-8"
    )
    (folder / "echr_dev_bk_public.json").write_text(
        json.dumps({"001-1": "JUDGMENT. " + text + " The Court holds..."}), encoding="utf-8"
    )
    varna = text.index("Varna")
    spans = {"001-1": [[varna, varna + 5, "a city"], [varna + 2, varna + 5, "x"], [0, 13, ""]]}
    (folder / "anonymizations" / "Manual_Dou.json").write_text(json.dumps(spans), encoding="utf-8")
    return folder, text


def test_the_reference_anonymization_is_applied_as_published(tmp_path):
    folder, text = make_folder(tmp_path)
    records, names = load_cases(folder)
    assert [r.name for r in records] == ["001-1"] and records[0].original == text
    assert records[0].background.startswith("JUDGMENT.") and names == {"001-1": ["Ivan Novak"]}
    rows = reference_rows(folder, records)
    assert list(rows) == ["Manual_Dou (reference)"]
    row = rows["Manual_Dou (reference)"]
    assert row["published"] and row["texts"]["001-1"] == " (“the applicant”) lives in a city and works at Acme."
    varna = text.index("Varna")
    assert row["masks"]["001-1"] == [[0, 13], [varna, varna + 5]]  # overlaps merged, the first replacement kept


def test_every_system_run_here_gets_the_applicants_names_masked(tmp_path):
    folder, text = make_folder(tmp_path, "Ivan Novak lives in Varna. Novak works at Acme.")
    records, names = load_cases(folder, limit=1)
    assert names == {"001-1": []}  # no "lodged ... by" clause: the rule names nobody
    names = {"001-1": ["Ivan Novak"]}
    systems = {
        "run here": {"masks": {"001-1": [[20, 25]]}, "seconds": 1.0},
        "published": {"masks": {"001-1": [[0, 4]]}, "texts": {"001-1": "x"}, "published": True},
    }
    give_applicant_knowledge(records, names, systems)
    novak = text.index("Novak", 12)
    assert systems["run here"]["masks"]["001-1"] == [[0, 10], [20, 25], [novak, novak + 5]]
    assert systems["run here"]["target_known"] is True and systems["run here"]["target_chars_added"] == 15
    assert systems["published"]["masks"]["001-1"] == [[0, 4]]  # as published
    assert systems["published"]["target_chars_left"] == 11  # " Novak" of the full name + the second "Novak"


def test_the_index_holds_the_judgments_and_the_distractors(tmp_path):
    folder, _ = make_folder(tmp_path)
    distractors = tmp_path / "actors.json"
    distractors.write_text(
        json.dumps([{"name": "Ann Actor", "public_knowledge": "Ann Actor is an actress."}]), encoding="utf-8"
    )
    meta = build_echr_index(folder, distractors, tmp_path / "corpus" / "index_echr")
    assert meta["documents"] == 2 and (tmp_path / "corpus" / "index_echr" / "meta.json").exists()


def test_the_table_says_what_27_cases_can_show(tmp_path):
    row = dict(bm25_reid=96.3, dense_reid=70.4, tpi=0.8, masked_share=0.14, trir=None, docs_per_s=None)
    result = {
        "data": "../shared/data/echr-dev",
        "documents": 27,
        "index": "corpus/index_echr",
        "applicants": {"cases_named": 27, "cases_unnamed": 0, "names": 40},
        "trir": "not run",
        "judges": {"pool": 27},
        "rows": [
            dict(row, system="Manual_Supression (reference)", target_known="as published", target_chars_left=0),
            dict(row, system="fast (default)", target_known=True, docs_per_s=0.5, x_presidio=0.4),
        ],
    }
    table = markdown(result)
    assert "| Manual_Supression (reference) | 96.3 | 70.4 | – | 0.8 | 0.14 | 0 | – |" in table
    assert "| fast (default) | 96.3 | 70.4 | – | 0.8 | 0.14 | 0 (known) | 0.5 (0.4×) |" in table
    assert "One case is 3.7 points" in table and "no significance is claimed" in table
    write(tmp_path / "benchmark_echr.json", result)
    assert "provenance" in json.loads((tmp_path / "benchmark_echr.json").read_text(encoding="utf-8"))
    assert (tmp_path / "benchmark_echr.md").read_text(encoding="utf-8") == table
    assert (tmp_path / "benchmark_echr.png").stat().st_size > 0


def test_the_command_refuses_a_missing_or_incomplete_data_folder(tmp_path):
    out = tmp_path / "b.json"
    result = invoke("lab", "--allow-dirty", "benchmark-echr", tmp_path / "nowhere", "--output", out)
    assert result.exit_code == 2 and not out.exists()
    (tmp_path / "empty").mkdir()
    result = invoke("lab", "--allow-dirty", "benchmark-echr", tmp_path / "empty", "--output", out)
    assert result.exit_code == 1 and "echr_dev_entities.json" in result.output and not out.exists()
    folder, _ = make_folder(tmp_path)
    result = invoke("lab", "--allow-dirty", "benchmark-echr", folder, "--profiles", "fast,paranoid", "--output", out)
    assert result.exit_code == 2 and not out.exists()


def test_profiles_are_split_and_the_unknown_ones_named():
    assert split_profiles(" fast, search ,") == (["fast", "search"], [])
    assert split_profiles("strict,paranoid,lm,zany") == (["strict", "paranoid", "lm", "zany"], ["paranoid", "zany"])


def test_an_index_given_without_distractors_must_already_be_one(tmp_path):
    folder, _ = make_folder(tmp_path)
    assert prepare_index(folder, None, None) is None
    with pytest.raises(EchrDataError, match="not a search index"):
        prepare_index(folder, tmp_path / "no_index", None)
    out = tmp_path / "b.json"
    result = invoke("lab", "--allow-dirty", "benchmark-echr", folder, "--index", tmp_path / "no_index", "--output", out)
    assert result.exit_code == 1 and "no meta.json" in one_line(result.output) and not out.exists()
    with pytest.raises(EchrDataError, match="echr_dev_entities.json"):
        prepare_index(tmp_path / "missing", None, None)
