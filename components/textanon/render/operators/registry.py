"""Registered operator functions (``@misc``): the config and the command line build operators by name.

In a config, the optimizer's ``operators`` block maps a label to an operator (``default`` for every other
label)::

    [components.textanon_optimizer.operators.PERSON]
    @misc = "textanon.operators.pseudonym.v1"

    [components.textanon_optimizer.operators.CODE]
    @misc = "textanon.operators.mask.v1"
    chars_to_mask = 12

On the command line: ``--operator PERSON=pseudonym --operator CODE=mask:chars_to_mask=12`` (:func:`parse_spec`).
A package registers its own operator the same way, ``@spacy.registry.misc("my_package.operators.x.v1")``, and
names it by that full name (``--operator ORG=my_package.operators.x.v1:arg=1``).
"""

import json
from pathlib import Path
from typing import Dict, Optional, Tuple, Union

from spacy.util import registry

from textanon.render.operators.base import Operator, OperatorError
from textanon.render.operators.encrypt import Encrypt
from textanon.render.operators.generalize import Generalize
from textanon.render.operators.hash import Hash
from textanon.render.operators.keep import Keep
from textanon.render.operators.mask import Mask
from textanon.render.operators.pseudonym import Pseudonym
from textanon.render.operators.redact import Redact
from textanon.render.operators.replace import Replace

#: short name -> registered function name (``--operator LABEL=NAME``)
OPERATORS = {
    name: f"textanon.operators.{name}.v1"
    for name in ("replace", "redact", "mask", "hash", "encrypt", "pseudonym", "generalize", "keep")
}
#: the key the ``operators`` block uses for every label it does not name
DEFAULT = "default"
#: operators that read the user's key (the command line passes them ``--key-file``)
KEYED = ("hash", "encrypt")


@registry.misc(OPERATORS["replace"])
def replace_operator(new_value: Optional[str] = None, style: str = "label") -> Operator:
    """A custom text (``new_value``; ``{label}`` becomes the label), else ``[LABEL]`` or ``[LABEL_N]`` (numbered)."""
    return Replace(new_value, style)


@registry.misc(OPERATORS["redact"])
def redact_operator() -> Operator:
    """Removes the mention."""
    return Redact()


@registry.misc(OPERATORS["mask"])
def mask_operator(masking_char: str = "*", chars_to_mask: Optional[int] = None, from_end: bool = False) -> Operator:
    """``chars_to_mask`` characters (all by default) replaced by ``masking_char``, from the start or the end."""
    return Mask(masking_char, chars_to_mask, from_end)


@registry.misc(OPERATORS["hash"])
def hash_operator(length: int = 16, key_file: Optional[str] = None) -> Operator:
    """Keyed HMAC-SHA256 of the entity (key: ``key_file`` or ``$TEXTANON_MAPPING_KEY``), ``length`` hex digits."""
    return Hash(length, key_file)


@registry.misc(OPERATORS["encrypt"])
def encrypt_operator(key_file: Optional[str] = None) -> Operator:
    """AES-SIV encryption of the mention with the user's key; ``textanon deanonymize --key-file`` reverses it."""
    return Encrypt(key_file)


@registry.misc(OPERATORS["pseudonym"])
def pseudonym_operator(seed: int = 0, key_file: Optional[str] = None) -> Operator:
    """A realistic surrogate of the same type, keyed (the optimizer's pseudonymizer where it has one; else
    ``key_file`` or ``$TEXTANON_MAPPING_KEY``); ``seed`` is public, mixed with the key."""
    return Pseudonym(seed, key_file)


@registry.misc(OPERATORS["generalize"])
def generalize_operator(suppression: str = "***") -> Operator:
    """The optimizer's truthful generalization ("a city"), else ``suppression``."""
    return Generalize(suppression)


@registry.misc(OPERATORS["keep"])
def keep_operator() -> Operator:
    """The mention stays (refused for the protected person and direct identifiers)."""
    return Keep()


def build(name: str, **arguments) -> Operator:
    """The operator ``name`` (a short name of :data:`OPERATORS` or a registered function's full name) built with
    ``arguments``. Raises :class:`OperatorError` (unknown name, bad argument)."""
    full = OPERATORS.get(name, name)
    try:
        func = registry.misc.get(full)
    except Exception:  # catalogue.RegistryError
        known = ", ".join(OPERATORS)
        raise OperatorError(f"unknown operator {name!r}: one of {known}, or a registered function's name") from None
    try:
        operator = func(**arguments)
    except TypeError as err:
        raise OperatorError(f"operator {name!r}: {err}") from None
    if not isinstance(operator, Operator):
        raise OperatorError(
            f"{full!r} does not build a textanon operator (a subclass of textanon.render.operators.Operator)"
        )
    return operator


def parse_spec(spec: str) -> Tuple[str, str, Dict[str, object]]:
    """``LABEL=NAME[:ARG=VALUE...]`` -> (label, name, arguments); values are read as JSON where they parse
    (``12``, ``true``, ``null``), else as text. Raises :class:`OperatorError` naming what is wrong."""
    label, sep, rest = spec.partition("=")
    if not sep or not label.strip() or not rest.strip():
        raise OperatorError(f"--operator {spec!r}: expected LABEL=NAME[:ARG=VALUE...], e.g. PERSON=replace")
    name, *pairs = rest.split(":")
    arguments: Dict[str, object] = {}
    for pair in pairs:
        arg, eq, value = pair.partition("=")
        if not eq or not arg:
            raise OperatorError(f"--operator {spec!r}: argument {pair!r} is not ARG=VALUE")
        try:
            arguments[arg] = json.loads(value)
        except json.JSONDecodeError:
            arguments[arg] = value
    return label.strip(), name.strip(), arguments


def operator_block(specs, key_file: Optional[Union[str, Path]] = None) -> Dict[str, dict]:
    """The optimizer's ``operators`` config block (``{label: {"@misc": full name, **arguments}}``) from
    ``--operator`` specs (:func:`parse_spec`; ``default=NAME`` for the rest; ``key_file`` given to the keyed
    operators). Each operator is built once here, so a wrong name, argument or missing key raises
    :class:`OperatorError` before any pipeline loads."""
    block: Dict[str, dict] = {}
    for spec in specs:
        label, name, arguments = parse_spec(spec)
        if label in block:
            raise OperatorError(f"--operator {spec!r}: {label} is given twice")
        if name in KEYED and key_file is not None:
            arguments.setdefault("key_file", str(key_file))
        build(name, **arguments)
        block[label] = {"@misc": OPERATORS.get(name, name), **arguments}
    return block


def operators_from_specs(specs, key_file: Optional[Union[str, Path]] = None) -> Dict[str, Operator]:
    """``{label: operator}`` from ``--operator`` specs (:func:`operator_block`)."""
    return {
        label: build(config["@misc"], **{k: v for k, v in config.items() if k != "@misc"})
        for label, config in operator_block(specs, key_file).items()
    }
