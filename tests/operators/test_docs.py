"""The README documents every operator, and its custom-operator example runs as written."""

import re

from core_fixtures import ROOT

from textanon.render.operators import OPERATORS, build


def section(title):
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    start = text.index(f"### {title}\n")
    return text[start : text.index("\n### ", start + 1)]


def test_the_operator_table_has_a_row_with_an_example_for_every_operator():
    rows = [line for line in section("Operators").splitlines() if line.startswith("| `")]
    named = {re.match(r"\| `([a-z]+)`", row).group(1): row for row in rows}
    assert set(named) == set(OPERATORS)
    assert all(row.rstrip("|").split("|")[-1].strip() for row in named.values())  # an example each


def test_the_custom_operator_example_runs():
    blocks = re.findall(r"```python\n(.*?)```", section("Operators"), re.S)
    example = next(b for b in blocks if "class Initials" in b)
    exec(compile(example, "README.md", "exec"), {})
    from textanon.render.operators import Mention

    assert build("my_package.initials.v1")(Mention("Ion Rusu", "PERSON", "PERSON_1", "Ion Rusu")) == "I.R."
