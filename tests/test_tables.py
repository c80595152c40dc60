"""Tables written as text (textanon.detect.tables): the cells under a name or date-of-birth header, and what is no
table."""

import pytest

from textanon.detect.identifiers import IDENTIFIER_RULE_NAMES, find_identifiers
from textanon.detect.tables import find_table_cells


def cells(text):
    return [(text[s:e], label, rule) for s, e, label, rule in find_table_cells(text)]


def test_a_tab_separated_list_of_people():
    # seen in a message: the first row's name was kept (the NER read the table as no sentence)
    text = (
        "Name\tRole\tPhone\nKatarzyna Wiśniewska\tTeam Lead\t+48 601 234 567\nOluwaseun Adeyemi\tAnalyst\t07911 654321"
    )
    assert cells(text) == [
        ("Katarzyna Wiśniewska", "PERSON", "table_name"),
        ("Oluwaseun Adeyemi", "PERSON", "table_name"),
    ]
    found = {(text[s:e], rule) for s, e, _, rule in find_identifiers(text)}
    assert ("Katarzyna Wiśniewska", "table_name") in found  # a direct identifier, as a letter's names
    assert {"table_name", "table_birth_date"} <= IDENTIFIER_RULE_NAMES


@pytest.mark.parametrize(
    "text,expected",
    [
        (
            "Surname; DOB\nOkafor; 12/03/1980\nBrandt; 01/01/1990",
            [("Okafor", "PERSON"), ("12/03/1980", "DATETIME"), ("Brandt", "PERSON"), ("01/01/1990", "DATETIME")],
        ),
        ("| Patient | Ward |\n|---|---|\n| Mo Khan | 7B |", [("Mo Khan", "PERSON")]),  # a Markdown table
        ("first_name, last_name\nAnn, Lee", [("Ann", "PERSON"), ("Lee", "PERSON")]),
    ],
)
def test_columns_by_their_header(text, expected):
    assert [(c, label) for c, label, _ in cells(text)] == expected


@pytest.mark.parametrize(
    "text",
    [
        "Name, please. I asked twice, then left.\nShe said no, twice.",  # prose with commas: no header of words only
        "Name\tRole\nAnn Lee",  # one line under the header, not split the same way: no table
        "Role\tPhone\nAnalyst\t07911 654321\nLead\t07911 654322",  # no name column
        "Name: Ann Lee, born 1990",  # one line
    ],
)
def test_no_table(text):
    assert cells(text) == []
