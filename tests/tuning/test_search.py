"""Tuning data of the search risk: the defender never indexes a pseudo-abstract; the judge ranks groups."""

from cli_runner import invoke
from input_files import write_json

from textanon_lab.tuning.search_settings import DEFAULT_GRID, GroupJudge, TuningSettings, tuning_documents
from textanon_lab.tuning.threshold import pseudo_abstracts


def _files(tmp_path):
    lead = "Ann Vell is a stage actress from Cork who trained as a surgeon. " * 6
    rest = "\n".join(f"Paragraph {i} about Ann Vell, the harbour and the theatre of Cork." for i in range(40))
    records = [
        {"name": "Ann Vell", "public_knowledge": lead + "\n" + rest},
        {"name": "Bo Lind", "public_knowledge": "Bo Lind is a Swedish actor.\n" + "Bo Lind sang in Malmo. " * 60},
    ]
    evaluated = write_json(tmp_path / "eval.json", [{"name": "Bo Lind", "original_abstract": "x"}])
    return write_json(tmp_path / "bk.json", records), evaluated, lead


def test_tuning_index_cuts_the_pseudo_abstract_out(tmp_path):
    background, evaluated, lead = _files(tmp_path)
    docs = {d["name"]: d["text"] for d in tuning_documents(background, evaluated, share=0.5)}
    assert "surgeon" not in docs["Ann Vell"] and "Paragraph 0 about Ann Vell" in docs["Ann Vell"]
    assert "Paragraph 39" not in docs["Ann Vell"]  # only the first half of what is left
    assert docs["Bo Lind"].startswith("Bo Lind is a Swedish actor.")  # evaluated: a distractor, first half
    (item,) = [p for p in pseudo_abstracts(background, evaluated) if p["eligible"]]
    assert item["abstract"] not in docs["Ann Vell"]


def test_group_judge_ranks_each_group_over_its_own_bodies():
    items = [{"name": n, "abstract": ""} for n in ("a", "b", "c", "d")]
    pool = [{"name": n, "body": f"{n}word shared"} for n in ("a", "b", "c", "d", "e")]
    judge = GroupJudge(items, pool, size=2)
    assert [names for _, _, names in judge.groups] == [["a", "b"], ["c", "d"]]
    assert judge.rate(items, ["aword", "cword", "cword", "dword shared"]) == 0.75  # b's text names c: not in b's group


def test_tuning_settings_default_to_the_documented_choice():
    settings = TuningSettings()
    assert settings.grid == DEFAULT_GRID and settings.tolerance == 0.02 and settings.ic_model == "wordfreq"
    assert settings.judge_pool == 50 and settings.dense and settings.max_masked_share is None
    assert settings.min_tpi is None and settings.cache_dir is None


def test_index_tune_refuses_an_unknown_dev_set_before_any_work(tmp_path):
    background, exclude = _files(tmp_path)[:2]
    out = tmp_path / "tuning.json"
    result = invoke("index", "tune", background, "--exclude", exclude, "--pipeline", "x", "--dev", "nope", "-o", out)
    assert result.exit_code == 1 and "--dev must be one of summary, lead" in result.output and not out.exists()
