"""The profiles benchmark's pure parts: the prior's selection rule, the table, the README markers."""

import inspect
import json
from pathlib import Path

from textanon.pipes.search_risk import SearchRisk
from textanon_lab.benchmarks.profile_rows import (
    DATES_AND_NUMBERS,
    PRIOR_GRIDS,
    PRIOR_RULES,
    README_END,
    README_START,
    SEARCH_GRID,
    SEARCH_GRIDS,
    SEARCH_RULES,
    label,
    prior_pipeline,
    profiles_markdown,
    search_config,
    search_label,
    select,
    select_round6,
    select_round7,
    select_search,
    select_search_names,
    select_search_round5,
    update_readme,
)


def row(system, bm25, dense, tpi_lm, setting=None):
    return {"system": system, "bm25_reid": bm25, "dense_reid": dense, "tpi_lm": tpi_lm, "setting": setting or {}}


def test_the_rule_keeps_the_most_useful_setting_under_both_bars_else_the_most_private():
    rows = [row("a", 70, 20, 0.6), row("b", 60, 30, 0.5), row("c", 50, 20, 0.4)]
    assert select(rows)["system"] == "b"
    rows = [row("a", 90, 60, 0.6), row("b", 80, 50, 0.5)]
    chosen = select(rows)
    assert chosen["system"] == "b" and "no setting met the rule" in chosen["rule"]
    assert label({"n_docs": 10000, "generalize": False, "candidate_rare_df": 0.1}) == "n_docs=1e+04, rare_df=0.1"
    assert label({"n_docs": 3000, "generalize": True}) == "n_docs=3e+03, generalize"
    assert label({"n_docs": 3000, "generalize": DATES_AND_NUMBERS}) == "n_docs=3e+03, generalize dates and numbers"
    assert [len(PRIOR_GRIDS[n]) for n in (1, 2, 3, 4)] == [8, 8, 6, 4]


def test_round_six_keeps_the_most_useful_generalizing_setting_under_its_three_bars_else_the_shipped_one():
    """Round 6 (the generalizing fast profile): dev BM25 <= 46 %, MiniLM <= 30 % and SmolLM2 TPI >= 0.48, then the
    highest TPI; when none passes, the shipped population (2e4) stays, however private another setting is."""
    grid = PRIOR_GRIDS[6]
    assert [s["n_docs"] for s in grid] == [5_000, 10_000, 20_000] and all(s["generalize"] is True for s in grid)
    assert PRIOR_RULES[6] is select_round6
    rows = [row("5e3", 40, 20, 0.50, grid[0]), row("1e4", 44, 22, 0.52, grid[1]), row("2e4", 48, 22, 0.55, grid[2])]
    assert select_round6(rows)["system"] == "1e4"  # 2e4 over the BM25 bar; of the two under it, the more useful
    rows = [row("5e3", 40, 20, 0.47, grid[0]), row("1e4", 44, 32, 0.52, grid[1]), row("2e4", 48, 22, 0.55, grid[2])]
    chosen = select_round6(rows)  # 5e3 under the TPI bar, 1e4 over the MiniLM bar, 2e4 over the BM25 bar
    assert chosen["system"] == "2e4" and "shipped population stays" in chosen["rule"]


def search_row(system, bm25, dense, tpi, masked):
    return {
        "system": system,
        "bm25_reid": bm25,
        "dense_reid": dense,
        "tpi": tpi,
        "masked_share": masked,
        "setting": {"assume_unindexed": float(system)},
    }


def test_the_search_rule_keeps_the_most_private_setting_under_the_utility_bars_then_the_most_useful():
    rows = [
        search_row("0.1", 20, 12, 0.47, 0.50),
        search_row("0.15", 16, 10, 0.44, 0.52),
        search_row("0.2", 15, 11, 0.42, 0.53),  # within 2 points of the lowest: the more useful of the two wins
        search_row("0.3", 10, 8, 0.39, 0.56),  # the most private, but under the TPI bar and over the masked bar
    ]
    assert select_search(rows)["system"] == "0.15"
    rows[1]["tpi"] = 0.41
    assert select_search(rows)["system"] == "0.2"
    rows[2]["bm25_reid"] = 19  # now 0.15 is the most private, alone within the tolerance
    assert select_search(rows)["system"] == "0.15"
    chosen = select_search([search_row("0.3", 10, 8, 0.39, 0.56), search_row("0.1", 20, 12, 0.30, 0.60)])
    assert chosen["system"] == "0.3" and "no setting kept" in chosen["rule"]
    assert SEARCH_GRID[0] == {"assume_unindexed": 0.1} and search_label(SEARCH_GRID[1]) == "assume_unindexed=0.15"


def test_the_second_search_round_turns_the_tagger_and_parser_on_and_off_over_the_profile(tmp_path, monkeypatch):
    import textanon_lab.benchmarks.profile_rows as rows_module
    from textanon.profiles import PARSER

    monkeypatch.setattr(rows_module, "profile", lambda name, index: {"nlp.disabled": ["textanon_lm_risk", *PARSER]})
    on, off = (search_config(s, str(tmp_path)) for s in SEARCH_GRIDS[2])
    assert (
        on["components.textanon_search_risk.assume_unindexed"]
        == 0.1
        == off["components.textanon_search_risk.assume_unindexed"]
    )
    assert on["nlp.disabled"] == ["textanon_lm_risk"]
    assert off["nlp.disabled"] == ["textanon_lm_risk", *PARSER]
    assert not any(k.endswith(".parser") for k in on)  # not a search risk setting
    assert search_config({"assume_unindexed": 0.2}, str(tmp_path)) == {
        "components.textanon_search_risk.assume_unindexed": 0.2
    }


def test_the_third_search_round_starts_from_the_shipped_settings_and_leaves_the_parser_as_shipped(tmp_path):
    defaults = inspect.signature(SearchRisk.__init__).parameters
    shipped = SEARCH_GRIDS[3][0]  # the factory's own then; decision 14 (round 5) raised assume_unindexed to 0.125
    assert defaults["k_rank"].default == shipped["k_rank"] and shipped["assume_unindexed"] == 0.1
    for setting in SEARCH_GRIDS[3]:
        config = search_config(setting, str(tmp_path))
        assert "nlp.disabled" not in config  # the profile's own disabled list: no parser, as shipped
        assert set(config) == {
            "components.textanon_search_risk.assume_unindexed",
            "components.textanon_search_risk.k_rank",
        }


def test_round_seven_masks_every_person_only_within_the_utility_bar_and_one_document_of_either_judge():
    """Round 7 (other people's names): the shipped fast profile against the same with every PERSON masked; the names
    setting wins when its dev SmolLM2 TPI keeps round 6's bar and neither judge is more than one document (2 points)
    above the shipped setting's."""
    shipped, names = PRIOR_GRIDS[7]
    assert shipped == PRIOR_GRIDS[6][0] and names == {**shipped, "mask_labels": ["PERSON"]}
    assert PRIOR_RULES[7] is select_round7
    assert label(names) == "n_docs=5e+03, generalize, every PERSON masked"
    rows = [row("shipped", 44, 28, 0.52, shipped), row("names", 40, 28, 0.50, names)]
    assert select_round7(rows)["system"] == "names"
    rows[1]["dense_reid"] = 30  # one document more: within the tolerance
    assert select_round7(rows)["system"] == "names"
    rows[1]["dense_reid"] = 32  # two documents more: less private
    assert select_round7(rows)["system"] == "shipped"
    rows[1]["dense_reid"], rows[1]["tpi_lm"] = 28, 0.47  # under the utility bar
    chosen = select_round7(rows)
    assert chosen["system"] == "shipped" and "shipped setting stays" in chosen["rule"]


def test_the_names_setting_reaches_the_optimizer_of_the_fast_and_the_search_profile(tmp_path, monkeypatch):
    import textanon_lab.benchmarks.profile_rows as rows_module

    loads = []
    monkeypatch.setattr(rows_module, "load", lambda *args, config, **kw: loads.append(config))
    prior_pipeline("en_textanon", 5_000, True, mask_labels=["PERSON"])
    prior_pipeline("en_textanon", 5_000, True)
    assert loads[0]["components.textanon_optimizer.mask_labels"] == ["PERSON"]
    assert "components.textanon_optimizer.mask_labels" not in loads[1]  # the profile's own
    shipped, names = SEARCH_GRIDS[4]
    assert search_config(names, str(tmp_path)) == {
        "components.textanon_search_risk.assume_unindexed": 0.1,
        "components.textanon_optimizer.mask_labels": ["PERSON"],
    }
    assert search_config(shipped, str(tmp_path)) == {"components.textanon_search_risk.assume_unindexed": 0.1}
    assert search_label(names) == "assume_unindexed=0.1, every PERSON masked"


def test_the_fourth_search_round_keeps_the_search_profiles_utility_bars():
    shipped, names = SEARCH_GRIDS[4]
    assert SEARCH_RULES[4] is select_search_names

    def names_row(system, bm25, dense, tpi, masked, setting):
        return {**search_row("0.1", bm25, dense, tpi, masked), "system": system, "setting": setting}

    rows = [names_row("shipped", 24, 12, 0.44, 0.52, shipped), names_row("names", 20, 14, 0.42, 0.53, names)]
    assert select_search_names(rows)["system"] == "names"
    rows[1]["masked_share"] = 0.56  # over the manual anonymization's masked share
    assert select_search_names(rows)["system"] == "shipped"
    rows[1]["masked_share"], rows[1]["tpi"] = 0.53, 0.39  # under the manual anonymization's TPI
    assert select_search_names(rows)["system"] == "shipped"


def test_the_table_goes_between_the_readme_markers(tmp_path):
    result = {
        "data": "x/WikiActors_50_eval.json",
        "documents": 50,
        "index": None,
        "rows": [
            dict(
                row("fast (default)", 78.0, 34.0, 0.448), tpi=0.5, masked_share=0.41, docs_per_s=15.6, x_presidio=1.06
            ),
            dict(row("manual (published)", 42.0, 24.0, 0.355), tpi=0.4, masked_share=0.55, docs_per_s=None),
        ],
    }
    result["rows"][0].update(fragment_rate=0.12, adjacent_placeholders=0.34, fluency_ratio=1.56)
    table = profiles_markdown(result)
    assert '| fast (default) | `spacy.load("en_textanon")`' in table and "15.6 (1.06×)" in table
    assert "| 0.12 | 0.34 | 1.56 |" in table and "| fragment rate | adjacent placeholders | fluency" in table
    readme = tmp_path / "README.md"
    readme.write_text(f"before\n{README_START}\nOLD TABLE\n{README_END}\nafter\n")
    assert update_readme(readme, table)
    text = readme.read_text()
    assert "OLD TABLE" not in text and table in text and text.startswith("before") and text.endswith("after\n")
    readme.write_text("no markers")
    assert not update_readme(readme, table)
    assert "TRIR – : the attack was not run" in table
    assert "attack seed 42 (one attack" in profiles_markdown(dict(result, trir_seeds=[42]))
    assert "attack seeds 42, 1, 2 (mean ± sample sd" in profiles_markdown(dict(result, trir_seeds=[42, 1, 2]))


def test_the_before_after_paragraph_is_each_profiles_output_cut_at_a_sentence_end():
    from textanon.io.datasets.wikiactors import WikiActor
    from textanon_lab.benchmarks.profile_rows import examples, examples_markdown

    original = "Ann Lee is an actress. She won the Drama Desk Award in 2004. She lives in Oslo with two cats."
    manual = "*** is an actress. She won *** in ***."
    record = WikiActor(index=0, name="Ann Lee", abstracts={"original_abstract": original, "manual_abstract": manual})
    start = original.index("Drama")
    systems = {
        "fast (default)": {"replacements": {"Ann Lee": [[0, 7, "***"], [start, start + 16, "***"]]}},
        "strict": {
            "replacements": {"Ann Lee": [[0, 7, "***"], [original.index("Oslo"), original.index("Oslo") + 4, "***"]]}
        },
    }
    ex = examples([record], systems, chars=62)
    assert ex["original"] == "Ann Lee is an actress. She won the Drama Desk Award in 2004."
    assert ex["rows"]["fast (default)"] == "*** is an actress. She won the *** in 2004."
    assert ex["rows"]["strict"] == "*** is an actress. She won the Drama Desk Award in 2004."  # Oslo is after the cut
    assert "search" not in ex["rows"] and ex["rows"]["manual (published)"].endswith(" …")
    text = examples_markdown({"examples": ex})
    assert "- **fast (default)**: *** is an actress." in text and "Ann Lee" in text


def test_the_fifth_search_round_takes_a_stronger_attacker_only_when_both_judges_gain_at_the_bars():
    assert SEARCH_RULES[5] is select_search_round5
    assert [s["assume_unindexed"] for s in SEARCH_GRIDS[5]] == [0.1, 0.125, 0.15]
    rows = [
        search_row("0.1", 20, 12, 0.43, 0.51),
        search_row("0.125", 17, 12, 0.41, 0.52),
        search_row("0.15", 15, 11, 0.39, 0.53),  # the most private, under the manual anonymization's TPI
    ]
    assert select_search_round5(rows)["system"] == "0.125"
    rows[1]["dense_reid"] = 13  # one judge worse than the shipped setting's: never taken
    assert select_search_round5(rows)["system"] == "0.1"
    rows[1]["dense_reid"], rows[1]["bm25_reid"] = 12, 19  # one document better in all: within the tolerance
    assert select_search_round5(rows)["system"] == "0.1"  # the shipped setting's higher TPI
    rows[0]["tpi"] = 0.39  # the shipped setting under the bar too: nothing qualifies but 0.125
    assert select_search_round5(rows)["system"] == "0.125"
    rows[1]["tpi"] = 0.38
    assert select_search_round5(rows)["system"] == "0.1" and "no setting" in select_search_round5(rows)["rule"]


def test_the_search_risk_ships_the_attacker_that_the_latest_search_round_selected():
    """Decision 14: the factory default (what ``--index`` and the search profile run) is round 5's selection."""
    selected = json.loads(Path("metrics/search_profile_selection_round5.json").read_text())["selected"]["setting"]
    default = inspect.signature(SearchRisk).parameters["assume_unindexed"].default
    assert selected == {"assume_unindexed": default} and default == 0.125
