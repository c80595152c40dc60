"""Each operator on its own: what it writes, its arguments, its keys (textanon.render.operators)."""

import pytest

from textanon.render.operators import Mention, OperatorError, build, decrypt_text
from textanon.render.operators.base import untyped
from textanon.render.operators.encrypt import Encrypt
from textanon.render.operators.hash import Hash
from textanon.render.operators.mask import Mask
from textanon.render.operators.replace import Replace

KEY = "correct horse battery staple"


def mention(text="Andrei Petrescu", label="PERSON", eid="PERSON_1", entity_text=None, **kw):
    return Mention(text, label, eid, entity_text or text, **kw)


def test_replace_label_numbered_and_custom_value():
    assert Replace()(mention()) == "[PERSON]"
    assert Replace(style="numbered")(mention()) == "[PERSON_1]"
    assert Replace("<{label}>")(mention(label="LOC")) == "<LOC>"
    assert Replace("")(mention()) == ""
    with pytest.raises(OperatorError, match="style"):
        Replace(style="upper")


def test_redact_writes_nothing_and_keep_keeps():
    assert build("redact")(mention()) == ""
    assert build("keep")(mention()) is None


@pytest.mark.parametrize(
    "args, expected",
    [
        ({}, "****************"),
        ({"chars_to_mask": 12}, "************1111"),
        ({"chars_to_mask": 4, "from_end": True}, "411111111111****"),
        ({"chars_to_mask": 99, "masking_char": "#"}, "################"),
        ({"chars_to_mask": 0}, "4111111111111111"),
    ],
)
def test_mask_characters_from_either_end(args, expected):
    assert Mask(**args)(mention("4111111111111111", "CODE")) == expected


def test_mask_rejects_bad_arguments():
    with pytest.raises(OperatorError):
        Mask(masking_char="**")
    with pytest.raises(OperatorError):
        Mask(chars_to_mask=-1)


def test_hash_is_keyed_consistent_per_entity_and_not_plain_sha256(monkeypatch):
    import hashlib

    monkeypatch.setenv("TEXTANON_MAPPING_KEY", KEY)
    first = Hash()
    a = first(mention("Mr Andrei Petrescu", entity_text="Mr Andrei Petrescu"))
    b = first(mention("Petrescu", entity_text="Mr Andrei Petrescu"))  # another mention of the same entity
    assert a == b and len(a) == 16 and all(c in "0123456789abcdef" for c in a)
    assert Hash()(mention("x", entity_text="Mr Andrei Petrescu")) == a  # the same key: reproducible
    assert first(mention("Ion Rusu")) != a
    assert a not in hashlib.sha256(b"Mr Andrei Petrescu").hexdigest()  # a dictionary of names cannot reverse it
    monkeypatch.setenv("TEXTANON_MAPPING_KEY", "another secret key")
    assert Hash()(mention(entity_text="Mr Andrei Petrescu")) != a  # two keys, two hashes
    assert not first.warnings()
    assert len(Hash(length=64)(mention())) == 64
    with pytest.raises(OperatorError):
        Hash(length=4)


def test_hash_without_a_key_draws_a_random_one_and_says_so(monkeypatch):
    monkeypatch.delenv("TEXTANON_MAPPING_KEY", raising=False)
    one, two = Hash(), Hash()
    assert one(mention()) != two(mention())
    assert "cannot be reproduced" in one.warnings()[0]


def test_hash_reads_the_key_file(tmp_path, monkeypatch):
    monkeypatch.delenv("TEXTANON_MAPPING_KEY", raising=False)
    key_file = tmp_path / "key"
    key_file.write_text(KEY + "\n")
    from_file = Hash(key_file=str(key_file))
    monkeypatch.setenv("TEXTANON_MAPPING_KEY", KEY)
    assert from_file(mention()) == Hash()(mention())
    assert not from_file.warnings()


def test_encrypt_round_trip_and_authentication(monkeypatch):
    monkeypatch.setenv("TEXTANON_MAPPING_KEY", KEY)
    encrypt = Encrypt()
    token = encrypt(mention("Bucharest", "LOC"))
    assert token.startswith("[enc:") and "Bucharest" not in token
    assert encrypt(mention("Bucharest", "LOC")) == token  # deterministic: one entity, one token
    text = f"He lives in {token}, born in {encrypt(mention('1961', 'DATETIME'))}."
    assert decrypt_text(text, KEY) == "He lives in Bucharest, born in 1961."
    with pytest.raises(OperatorError, match="offset 12"):
        decrypt_text(text, "a wrong key, long enough")
    forged = text.replace(token, token[:-3] + ("A" if token[-3] != "A" else "B") + token[-2:])
    with pytest.raises(OperatorError):
        decrypt_text(forged, KEY)


def test_encrypt_needs_a_key(monkeypatch):
    monkeypatch.delenv("TEXTANON_MAPPING_KEY", raising=False)
    with pytest.raises(OperatorError, match="key"):
        Encrypt()
    monkeypatch.setenv("TEXTANON_MAPPING_KEY", "short")
    with pytest.raises(OperatorError, match="12 characters"):
        Encrypt()


def test_pseudonym_and_generalize():
    surrogate = build("pseudonym")(mention("Mr Andrei Petrescu"))
    assert surrogate.startswith("Mr ") and "Petrescu" not in surrogate
    assert build("generalize")(mention("Bucharest", "LOC", generalization="a city")) == "a city"
    assert build("generalize")(mention("Bucharest", "LOC")) == "***"


def test_a_phrase_of_ordinary_words_is_untyped_unless_a_capital_inside_a_sentence_makes_it_name_like():
    """Pseudonyms suppress a risky phrase of ordinary words (no surrogate of its kind exists); a capital that only
    opens a sentence or a field makes no name of it ("Pt is a 58M", "Witness statement of" became town names)."""
    text = "Pt is a 58M.\nWitness statement of X. NOK: daughter Tanya. We met Golden Globe winners."
    assert untyped("Pt", True, text, 0)
    assert untyped("Witness statement", True, text, text.index("Witness"))
    assert untyped("NOK", True, text, text.index("NOK"))  # after a full stop
    assert not untyped("Golden Globe", True, text, text.index("Golden"))  # capitals inside a sentence: name-like
    assert not untyped("statement", False, text, text.index("statement"))  # a typed mention (not plain words)
