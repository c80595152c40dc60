"""Operators by name: the registry, the command-line spec, a user's own operator."""

import pytest
from spacy.util import registry

from textanon.render.operators import OPERATORS, Operator, OperatorError, build, operators_from_specs, parse_spec
from textanon.render.operators.mask import Mask


def test_every_operator_is_registered_under_its_full_name(monkeypatch):
    monkeypatch.setenv("TEXTANON_MAPPING_KEY", "correct horse battery staple")
    for name, full in OPERATORS.items():
        assert registry.misc.get(full)
        assert build(name).name == name and build(full).name == name


@pytest.mark.parametrize(
    "spec, expected",
    [
        ("PERSON=replace", ("PERSON", "replace", {})),
        ("CODE=mask:chars_to_mask=12:from_end=true", ("CODE", "mask", {"chars_to_mask": 12, "from_end": True})),
        ("ORG=replace:new_value=<ORG>", ("ORG", "replace", {"new_value": "<ORG>"})),
        ("default=redact", ("default", "redact", {})),
    ],
)
def test_parse_spec(spec, expected):
    assert parse_spec(spec) == expected


@pytest.mark.parametrize("spec", ["PERSON", "=replace", "PERSON=", "CODE=mask:12"])
def test_parse_spec_errors_name_the_spec(spec):
    with pytest.raises(OperatorError, match="--operator"):
        parse_spec(spec)


def test_unknown_operator_and_bad_argument_are_clear_errors():
    with pytest.raises(OperatorError, match="unknown operator 'shred'"):
        build("shred")
    with pytest.raises(OperatorError, match="mask"):
        build("mask", colour="red")
    with pytest.raises(OperatorError, match="twice"):
        operators_from_specs(["PERSON=redact", "PERSON=mask"])


def test_operators_from_specs():
    ops = operators_from_specs(["PERSON=redact", "CODE=mask:chars_to_mask=2"])
    assert ops["PERSON"].name == "redact" and isinstance(ops["CODE"], Mask) and ops["CODE"].chars_to_mask == 2


class Shout(Operator):
    name = "shout"

    def __call__(self, mention):
        return mention.label.upper() + "!"


@registry.misc("tests.operators.shout.v1")
def shout_operator() -> Operator:
    return Shout()


def test_a_users_registered_operator_is_built_by_its_full_name():
    assert build("tests.operators.shout.v1").name == "shout"


def test_a_registered_function_that_builds_no_operator_is_refused():
    registry.misc.register("tests.operators.not_one.v1", func=lambda: "nope")
    with pytest.raises(OperatorError, match="does not build"):
        build("tests.operators.not_one.v1")
