"""The profiles benchmark's pure parts: the prior's selection rule, the table, the README markers."""

from textanon.benchmarks.profiles import README_END, README_START, label, profiles_markdown, select, update_readme


def row(system, bm25, dense, tpi_lm, setting=None):
    return {"system": system, "bm25_reid": bm25, "dense_reid": dense, "tpi_lm": tpi_lm, "setting": setting or {}}


def test_the_rule_keeps_the_most_useful_setting_under_both_bars_else_the_most_private():
    rows = [row("a", 70, 20, 0.6), row("b", 60, 30, 0.5), row("c", 50, 20, 0.4)]
    assert select(rows)["system"] == "b"
    rows = [row("a", 90, 60, 0.6), row("b", 80, 50, 0.5)]
    chosen = select(rows)
    assert chosen["system"] == "b" and "no setting met the rule" in chosen["rule"]
    assert label({"n_docs": 10000, "generalize": False, "candidate_rare_df": 0.1}) == "n_docs=1e+04, rare_df=0.1"


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
    table = profiles_markdown(result)
    assert '| fast (default) | `spacy.load("en_textanon")`' in table and "15.6 (1.06×)" in table
    readme = tmp_path / "README.md"
    readme.write_text(f"before\n{README_START}\nold\n{README_END}\nafter\n")
    assert update_readme(readme, table)
    text = readme.read_text()
    assert "old" not in text and table in text and text.startswith("before") and text.endswith("after\n")
    readme.write_text("no markers")
    assert not update_readme(readme, table)
