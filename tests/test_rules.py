import pytest

from textanon.rules import RULES, compile_rules, find_rule_matches

COMPILED = compile_rules()


def matches(text):
    return {(text[s:e], label) for s, e, label, _ in find_rule_matches(text, COMPILED)}


@pytest.mark.parametrize(
    "text,expected",
    [
        ("application (no. 36110/97) lodged", ("36110/97", "CODE")),
        ("write to jane.doe@example.org now", ("jane.doe@example.org", "CODE")),
        ("see https://example.org/case?id=4 today", ("https://example.org/case?id=4", "CODE")),
        ("IBAN GB82 WEST 1234 5698 7654 32 was used", ("GB82 WEST 1234 5698 7654 32", "CODE")),
        ("passport AB1234567 expired", ("AB1234567", "CODE")),
        ("on 21 March 2005 he", ("21 March 2005", "DATETIME")),
        ("on March 21, 2005 he", ("March 21, 2005", "DATETIME")),
        ("born in 1970 in", ("1970", "DATETIME")),
        ("on 03.04.2001 at", ("03.04.2001", "DATETIME")),
        ("fined EUR 5,000 for", ("EUR 5,000", "QUANTITY")),
        ("paid 7,000 US dollars to", ("7,000 US dollars", "QUANTITY")),
        ("fined MDL 20,000 for", ("MDL 20,000", "QUANTITY")),
        ("a 45% share", ("45%", "QUANTITY")),
    ],
)
def test_rule_finds(text, expected):
    assert expected in matches(text)


@pytest.mark.parametrize("text", ["COVID-19 spread", "Article 34 of the Convention", "the year was long"])
def test_rules_do_not_fire_on_ordinary_text(text):
    assert not {m for m in matches(text) if m[1] == "CODE"}


def test_invalid_rule_names_itself():
    with pytest.raises(ValueError, match="broken"):
        compile_rules(RULES + [("CODE", "broken", "(unclosed")])
