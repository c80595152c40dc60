"""The pseudonym replacement style: keyed, stable, realistic surrogates, one per entity, never an original."""

import re
from datetime import datetime

import pytest
import spacy
from core_fixtures import decision_pipeline, spans_at

import textanon  # noqa: F401  (extensions)
from textanon.detect.target import fold
from textanon.render.pseudonyms import RANDOM_KEY_WARNING, Pseudonymizer, _faker_pools, read_key, vocabulary

TEXT = (
    "The applicant, Mr Galip Yalman (no. 12345/06), was born on 3 May 1961 in Balti. On 3 March 2006 Mr Yalman "
    "was arrested; G. Yalman was released on 6 March 2006. His lawyer, Ms Hope Lungu, wrote to g.yalman@mail.md "
    "and paid EUR 1,300. Yalman appealed."
)
KEY = "correct horse battery staple"
OTHER_KEY = "another secret, long enough"


@pytest.fixture
def key_file(tmp_path):
    path = tmp_path / "pseudonym.key"
    path.write_text(KEY + "\n", encoding="utf-8")
    return path


@pytest.fixture(autouse=True)
def _no_environment_key(monkeypatch):
    monkeypatch.delenv("TEXTANON_MAPPING_KEY", raising=False)


def _nlp(**optimizer):
    return decision_pipeline(**{"replacement": "pseudonym", **optimizer})


def _anonymize(nlp, text=TEXT, target="Galip Yalman"):
    doc = nlp.make_doc(text)
    doc._.target = target
    return nlp(doc)


def _surrogates(doc):
    return {doc.text[s:e]: rep for s, e, rep in doc._.masks}


def _keyed(key=KEY, text=TEXT, names=("Mr Galip Yalman", "Ms Hope Lungu"), **kw):
    p = Pseudonymizer(key=key, **kw)
    p.start_document(text, list(names))
    return p


def test_every_mention_of_a_person_gets_the_same_surrogate_name(key_file):
    doc = _anonymize(_nlp(pseudonym_key=str(key_file)))
    out, reps = doc._.anonymized_text, _surrogates(doc)
    for word in ("Galip", "Yalman", "Lungu", "Hope", "12345/06", "g.yalman", "1961"):
        assert word not in out
    first, surname = reps["Mr Galip Yalman"].split()[1:]
    assert reps["Mr Galip Yalman"].startswith("Mr ")
    assert reps["Mr Yalman"] == f"Mr {surname}" and reps["Yalman"] == surname
    assert reps["G. Yalman"] == f"{first[0]}. {surname}"
    assert first in _faker_pools()["given_male"]  # "Mr": a male given name (Faker's en_GB names)
    assert surname in _faker_pools()["surnames"]
    assert reps["Ms Hope Lungu"].split()[1] in _faker_pools()["given_female"]
    assert len({reps["Mr Galip Yalman"], reps["Ms Hope Lungu"]}) == 2
    assert RANDOM_KEY_WARNING not in (doc._.anonymization_warnings or [])


def test_dates_are_shifted_by_one_offset_and_numbers_keep_their_shape(key_file):
    reps = _surrogates(_anonymize(_nlp(pseudonym_key=str(key_file))))
    shifted = {}
    for original in ("3 March 2006", "6 March 2006"):
        new = reps[original]
        assert re.fullmatch(r"\d{1,2} [A-Z][a-z]+ \d{4}", new), new
        shifted[original] = new

    def day(text):
        return datetime.strptime(text, "%d %B %Y").date()

    delta = day(shifted["3 March 2006"]) - day("3 March 2006")
    assert delta.days != 0 and day(shifted["6 March 2006"]) - day("6 March 2006") == delta
    code = reps["12345/06"]
    assert re.fullmatch(r"\d{5}/\d{2}", code) and code != "12345/06"
    email = reps["g.yalman@mail.md"]
    assert re.fullmatch(r"[a-z]\.[a-z]{6}@[a-z]{4}\.md", email) and email != "g.yalman@mail.md"


# -- 1. keyed: a secret, never a public function of the input ----------------------------------------------------
def _shift(p):
    return p._shift_days()


def test_same_key_same_surrogates_other_key_other_surrogates_and_date_shift():
    mentions = [("PERSON", "Mr Galip Yalman"), ("CODE", "12345/06"), ("DATETIME", "3 March 2006"), ("LOC", "Balti")]
    a, b, c = _keyed(KEY), _keyed(KEY), _keyed(OTHER_KEY)
    out = [[p(label, text) for label, text in mentions] for p in (a, b, c)]
    assert out[0] == out[1]
    assert all(x != y for x, y in zip(out[0], out[2]))  # every surrogate changes with the key
    assert _shift(a) == _shift(b) != _shift(c)
    corpus = [_keyed(k, scope="corpus") for k in (KEY, OTHER_KEY)]
    assert _shift(corpus[0]) != _shift(corpus[1])  # every corpus no longer shifts its dates by the same days


def test_without_a_key_two_runs_differ_and_the_doc_says_so():
    a, b = _keyed(None), _keyed(None)
    assert a.random_key and b.random_key
    assert a("PERSON", "Mr Galip Yalman") != b("PERSON", "Mr Galip Yalman") or _shift(a) != _shift(b)
    assert a("CODE", "12345/06") != b("CODE", "12345/06")
    doc = _anonymize(_nlp())
    assert RANDOM_KEY_WARNING in doc._.anonymization_warnings
    assert _surrogates(doc)["12345/06"] != _surrogates(_anonymize(_nlp()))["12345/06"]


def test_nobody_reproduces_the_surrogates_from_the_seed_alone():
    """The old attack: a pseudonymizer with the default seed 0 (and the corpus scope's empty salt) reproduced every
    surrogate, and all 100,000 case numbers NNNNN/09 could be tried. Now the seed is public and mixed with the
    secret: without it the same seed gives other surrogates and another date shift."""
    real = _keyed(KEY, scope="corpus")
    surrogate = real("CODE", "48213/09")
    for attempt in (Pseudonymizer(0, "corpus"), Pseudonymizer(0, "corpus"), Pseudonymizer(0, "document")):
        attempt.start_document(TEXT, [])
        assert attempt("CODE", "48213/09") != surrogate
    guesses = Pseudonymizer(0, "corpus")
    guesses.start_document("", [])
    assert surrogate not in {guesses("CODE", f"{n:05d}/09") for n in range(48000, 48500)}
    assert _keyed(KEY, seed=1)("CODE", "48213/09") != _keyed(KEY, seed=0)("CODE", "48213/09")  # seed: a variant


def test_the_key_comes_from_a_file_or_a_variable_never_from_the_config(tmp_path, key_file, monkeypatch):
    assert read_key(str(key_file)) == KEY
    monkeypatch.setenv("MY_PSEUDONYM_KEY", OTHER_KEY)
    assert read_key("$MY_PSEUDONYM_KEY") == OTHER_KEY
    assert read_key(None) is None
    monkeypatch.setenv("TEXTANON_MAPPING_KEY", KEY)
    assert read_key(None) == KEY
    with pytest.raises(ValueError) as err:  # the key itself in the setting: refused, and never repeated
        read_key("s3cret passphrase in the config")
    assert "s3cret" not in str(err.value)
    with pytest.raises(ValueError, match="not set"):
        read_key("$NOT_SET_ANYWHERE")
    nlp = _nlp(pseudonym_key=str(key_file))
    nlp.to_disk(tmp_path / "model")
    saved = "".join(p.read_text(encoding="utf-8", errors="ignore") for p in (tmp_path / "model").rglob("*.*"))
    assert KEY not in saved and str(key_file) in (tmp_path / "model" / "config.cfg").read_text()
    monkeypatch.delenv("TEXTANON_MAPPING_KEY")
    keyed, env = _anonymize(_nlp(pseudonym_key=str(key_file))), _anonymize(_nlp(pseudonym_key="$MY_PSEUDONYM_KEY"))
    assert _anonymize(_nlp(pseudonym_key=str(key_file)))._.anonymized_text == keyed._.anonymized_text
    assert env._.anonymized_text != keyed._.anonymized_text


# -- 2. one surrogate per linked entity, in every form ------------------------------------------------------------
def test_every_form_of_one_entity_follows_its_surrogate():
    p = _keyed()
    entity = "Mr Galip Yalman"
    full = p("PERSON", entity)
    title, first, surname = full.split()
    forms = {
        "Yalman's": f"{surname}'s",
        "G. Yalman": f"{first[0]}. {surname}",
        "YALMAN": surname.upper(),
        "YALMAN'S": f"{surname.upper()}'S",
        "Galip": first,
        "Mr Yalman": f"Mr {surname}",
    }
    for form, expected in forms.items():
        # a mention the recognizer labelled LOC but the linker put in the person's entity: a person's surrogate
        assert p("LOC", form, entity=entity, entity_label="PERSON") == expected, form
    unnamed = _keyed(names=())  # no person names given to the document: the entity says which word is a given name
    first = unnamed("PERSON", "Mr Galip Yalman").split()[1]
    assert unnamed("PERSON", "Galip", entity="Mr Galip Yalman") == first


@pytest.mark.parametrize("name,nickname", [("Robert 'Bobby' Fenwick", "Bobby"), ("Earvin (Magic) Johnson", "Magic")])
def test_a_nickname_in_quotes_or_brackets_inside_a_name_gets_a_surrogate_too(name, nickname):
    out = _keyed(names=())("PERSON", name)
    assert nickname not in out and not set(name.split()) & set(out.split()), out
    assert out.split()[1][0] == name.split()[1][0] and out.split()[1][-1] == name.split()[1][-1]  # the marks stay


def _decided(key_file, text, mentions, entity_ids, target=None):
    """``text`` with ``mentions`` (linked as ``entity_ids``) every one risky, decided and written as pseudonyms."""
    nlp = spacy.blank("en")
    nlp.add_pipe("test_every_entity_risky")
    nlp.add_pipe("textanon_optimizer", config={"replacement": "pseudonym", "pseudonym_key": str(key_file)})
    doc = nlp.make_doc(text)
    doc._.target = target
    spans = spans_at(doc, mentions)
    for span, entity_id in zip(spans, entity_ids):
        span._.entity_id = entity_id
    doc.spans["pii"] = spans
    for _, proc in nlp.pipeline:
        doc = proc(doc)
    return doc


def test_the_optimizer_gives_every_mention_of_a_linked_entity_one_surrogate(key_file):
    text = "Mr Lewis Hopkins sued. HOPKINS's claim failed; L. Hopkins appealed. The Harrogate court heard Hopkins."
    mentions = [("Mr Lewis Hopkins", "PERSON"), ("HOPKINS's", "ORG"), ("L. Hopkins", "PERSON"), ("Hopkins", "PERSON")]
    doc = _decided(key_file, text, mentions, ["PERSON_1"] * 4)
    reps = _surrogates(doc)
    first, surname = reps["Mr Lewis Hopkins"].split()[1:]
    assert reps["HOPKINS's"] == f"{surname.upper()}'s"
    assert reps["L. Hopkins"] == f"{first[0]}. {surname}"
    assert reps["Hopkins"] == surname
    assert "Hopkins" not in doc._.anonymized_text and "HOPKINS" not in doc._.anonymized_text


def test_a_handle_linked_to_a_person_keeps_a_code_surrogate_and_never_a_piece_of_the_name(key_file):
    # seen on a user's post: "@lena.vogel" became "@wqca.vogel" (".vogel" kept as a top-level domain) and, the handle
    # being the entity's longest mention, "Lena Vogel" became letters of a code's shape ("Mthv Secvw")
    text = "Follow Lena Vogel on @lena.vogel or mail lena.vogel@gmail.com today."
    mentions = [("Lena Vogel", "PERSON"), ("@lena.vogel", "CODE"), ("lena.vogel@gmail.com", "CODE")]
    doc = _decided(key_file, text, mentions, ["PERSON_1", "PERSON_1", "CODE_1"])
    reps = _surrogates(doc)
    given, surname = reps["Lena Vogel"].split()
    assert given in _faker_pools()["given_female"] + _faker_pools()["given_any"] and surname.isalpha()
    assert reps["@lena.vogel"].startswith("@") and re.fullmatch(r"@[a-z]{4}\.[a-z]{5}", reps["@lena.vogel"])
    assert reps["lena.vogel@gmail.com"].endswith(".com")  # a real top-level domain is kept
    assert "vogel" not in doc._.anonymized_text.lower() and "lena" not in doc._.anonymized_text.lower()


def test_the_protected_name_gets_a_persons_surrogate_whatever_label_the_ner_gave_it(key_file):
    # seen on a chat transcript: the NER read "Rhiannon Pryce-Evans" as an ORG, and her pseudonym was two towns
    # ("it's Shrewsbury Dorchester-Skipton", "thanks Shrewsbury")
    text = "Customer: it's Rhiannon Pryce-Evans, CF10 3AT. Agent: thanks Rhiannon, noted."
    mentions = [("Rhiannon Pryce-Evans", "ORG"), ("Rhiannon", "ORG")]
    doc = _decided(key_file, text, mentions, ["ORG_1", "ORG_1"], target="Rhiannon Pryce-Evans")
    reps = _surrogates(doc)
    given = reps["Rhiannon"]
    assert reps["Rhiannon Pryce-Evans"].startswith(given + " "), reps
    pools = _faker_pools()
    assert given in pools["given_female"] + pools["given_any"] + pools["given_male"], reps
    assert given not in vocabulary()["places"], reps
    assert "Rhiannon" not in doc._.anonymized_text and "Pryce" not in doc._.anonymized_text


def test_the_letters_glued_to_digits_in_a_place_or_firm_are_drawn_too():
    """A handle or a code that the NER read as a place ("snap jessm_95": LOC) keeps nothing of its letters; a house
    number's letter is drawn as its digits are."""
    out = _keyed()("LOC", "jessm_95")
    assert re.fullmatch(r"[a-z]{5}_\d\d", out) and not out.startswith("jess"), out
    out = _keyed()("LOC", "12a Baker Street")
    assert re.fullmatch(r"\d\d[a-z] \w+ Street", out) and not out.startswith("12a"), out


def test_an_age_gets_another_number_not_an_occupation():
    # seen on an obituary and a forum post: "aged 87" became "baker", "I (34F)" became "I (postman)"
    p = _keyed()
    for age in ("aged 87", "34F", "fifteen years of age"):
        out = p("DEM", age)
        assert out != age and re.sub(r"\d", "0", out) == re.sub(r"\d", "0", age) or "years of age" in out, out
    assert re.fullmatch(r"aged [1-9]\d", p("DEM", "aged 87"))
    assert p("DEM", "teacher").isalpha()


# -- 3. dates: ranges, weekdays, times ---------------------------------------------------------------------------
def _day(text, fmt):
    return datetime.strptime(text, fmt).date()


def test_date_ranges_keep_their_shape_and_weekdays_follow_the_shift():
    p = _keyed()
    days = _shift(p)
    out = p("DATETIME", "between 3 and 5 March 2009")
    m = re.fullmatch(r"between (\d+) (?:([A-Z][a-z]+) )?(?:\d{4} )?and (\d+) ([A-Z][a-z]+) (\d{4})", out)
    assert m, out
    first = _day(f"{m.group(1)} {m.group(2) or m.group(4)} {m.group(5)}", "%d %B %Y")
    second = _day(f"{m.group(3)} {m.group(4)} {m.group(5)}", "%d %B %Y")
    assert (first - _day("3 March 2009", "%d %B %Y")).days == days and (second - first).days == 2
    no_year = p("DATETIME", "between 3 and 5 March")
    assert re.fullmatch(r"between \d+ (?:[A-Z][a-z]+ )?and \d+ [A-Z][a-z]+", no_year), no_year
    assert "March" not in no_year or abs(days) < 3
    weekday = p("DATETIME", "Monday, 14 September 2009")
    new = _day(weekday, "%A, %d %B %Y")  # raises if the weekday is not the new date's
    assert (new - _day("14 September 2009", "%d %B %Y")).days == days
    assert p("DATETIME", "Monday") != "Monday"


@pytest.mark.parametrize("time", ["14:30", "09:05", "23:59", "2 p.m.", "11.45 am"])
def test_times_stay_valid_times(time):
    out = _keyed()("DATETIME", time)
    assert out != time
    if ":" in time:
        assert re.fullmatch(r"\d{2}:\d{2}", out) and int(out[:2]) < 24 and int(out[3:]) < 60, out
    elif "p.m." in time:
        assert re.fullmatch(r"(?:[1-9]|1[0-2]) [ap]\.m\.", out), out
    else:
        assert re.fullmatch(r"(?:[1-9]|1[0-2])\.[0-5]\d [ap]m", out), out


# -- 4. amounts, codes, abbreviations ------------------------------------------------------------------------------
def test_amounts_keep_their_magnitude_and_codes_the_words_around_them():
    p = _keyed()
    amount = p("QUANTITY", "USD 2 million")
    assert re.fullmatch(r"USD [1-9] million", amount) and amount != "USD 2 million"
    assert re.fullmatch(r"EUR [1-9],\d{3}", p("QUANTITY", "EUR 1,300"))
    assert re.fullmatch(r"(?:one|two|three|four|five|six|seven|eight|nine) thousand", p("QUANTITY", "two thousand"))
    code = p("CODE", "case no. T20187741")
    assert re.fullmatch(r"case no\. [A-Z]\d{8}", code) and code != "case no. T20187741"
    assert re.fullmatch(r"Application no\. \d{5}/\d{2}", p("CODE", "Application no. 12345/06"))
    whole = p("CODE", "no. 55123/07")  # a mention of the same code entity: the same characters
    assert whole.endswith(p("CODE", "55123/07", entity="no. 55123/07")) and whole.startswith("no. ")
    iban = p("CODE", "GB29 NWBK 6016 1331")
    assert re.fullmatch(r"[A-Z]{2}\d{2} [A-Z]{4} \d{4} \d{4}", iban) and "NWBK" not in iban


def test_organisations_keep_abbreviations_and_structure():
    p = _keyed(text="She was treated at St. Mary's Hospital and St Thomas' Hospital.", names=())
    out = p("ORG", "St. Mary's Hospital")
    assert re.fullmatch(r"St\. [A-Z][a-z]+(?:-[A-Z][a-z]+)?'s Hospital", out) and "Mary" not in out, out
    assert p("ORG", "Balti District Court").endswith(" District Court")
    street = p("LOC", "12 Baker Street")
    assert re.fullmatch(r"\d{2} [A-Z][\w-]+ Street", street) and "Baker" not in street


# -- 5. never an original ------------------------------------------------------------------------------------------
def test_a_surrogate_is_never_an_original_of_the_corpus():
    p = Pseudonymizer(key=KEY, scope="corpus")
    p.start_document("Mr Galip Yalman lives in Balti.", ["Mr Galip Yalman"])
    first = p("PERSON", "Mr Galip Yalman", entity="Mr Galip Yalman")
    surname = first.split()[-1]
    # a later document names a real person with that surname, and Yalman again
    later = f"Mr Galip Yalman met Mr John {surname} and {surname}'s sister."
    p.start_document(later, ["Mr Galip Yalman", f"Mr John {surname}"])
    again = p("PERSON", "Mr Galip Yalman")
    assert surname not in again  # this document's real name is never a surrogate in it
    words = set(re.findall(r"\w+", fold(later)))
    other = p("PERSON", f"Mr John {surname}")
    assert not (set(re.findall(r"\w+", fold(other))) - {"mr"}) & words  # the title aside
    p.start_document("Yalman appealed.", [])
    assert p("PERSON", "Mr Galip Yalman") == first  # elsewhere the corpus surrogate stays
    # and no new surrogate is a word of an earlier original (any label)
    p.start_document("Ms Hope Lungu.", ["Ms Hope Lungu"])
    assert not {"yalman", "galip", "balti", fold(surname)} & set(re.findall(r"\w+", fold(p("PERSON", "Ms Hope Lungu"))))


@pytest.mark.parametrize("seed", range(5))
def test_never_the_original_never_shared_never_in_the_document(seed):
    vocab = vocabulary()
    people = [f"{g} {s}" for g, s in zip(vocab["given_male"][:20], vocab["surnames"][:20])]
    places = vocab["places"][:20]
    text = " ".join(people + places)
    p = Pseudonymizer(seed=seed, key=KEY)
    p.start_document(text, people)
    words = set(re.findall(r"\w+", fold(text)))
    surrogates = [p("PERSON", name) for name in people] + [p("LOC", place) for place in places]
    assert len(set(surrogates)) == len(surrogates)  # no two originals share a surrogate
    for original, surrogate in zip(people + places, surrogates):
        assert fold(surrogate) != fold(original)
        assert not set(re.findall(r"\w+", fold(surrogate))) & words  # never a word of the document
    for label, original in [("QUANTITY", "5"), ("CODE", "A"), ("DATETIME", "1999"), ("DATETIME", "Monday")]:
        assert p(label, original) != original


def test_document_scope_unrelated_across_documents_corpus_scope_consistent():
    other = "Mr Galip Yalman lives in Balti. Yalman is a teacher."
    docs = [Pseudonymizer(seed=0, scope=scope, key=KEY) for scope in ("document", "corpus")]
    out = {}
    for p in docs:
        names = []
        for text in (TEXT, other):
            p.start_document(text, ["Mr Galip Yalman"])
            names.append(p("PERSON", "Mr Galip Yalman"))
        out[p.scope] = names
    assert out["corpus"][0] == out["corpus"][1]
    assert out["document"][0] != out["document"][1]
    carried = Pseudonymizer(seed=0, scope="corpus", table=docs[1].table, key=KEY)  # a saved table carries it over
    carried.start_document("Galip Yalman again.", [])
    assert carried("PERSON", "Mr Galip Yalman") == out["corpus"][0]


def test_types_without_a_surrogate_get_the_entity_placeholder():
    p = Pseudonymizer(key=KEY)
    p.start_document("in the summer", [])
    assert p("DATETIME", "the summer", fallback="[DATETIME_4]") == "[DATETIME_4]"
    assert p("DEM", "Moldavian") in vocabulary()["nationalities"]
    assert p("ORG", "Balti District Court").endswith(" District Court")


def test_unknown_scope_and_short_key_are_errors():
    with pytest.raises(ValueError, match="pseudonym scope"):
        Pseudonymizer(scope="global")
    with pytest.raises(ValueError, match="too short"):
        Pseudonymizer(key="short")
    with pytest.raises(ValueError, match="replacement must be one of"):
        _nlp().get_pipe("textanon_optimizer").__class__(replacement="pseudonyms")


def test_command_line_pseudonym_key_reproduces_a_run_and_no_key_is_said(tmp_path, key_file):
    import json

    from cli_runner import invoke
    from input_files import write_jsonl

    decision_pipeline().to_disk(tmp_path / "model")
    write_jsonl(tmp_path / "in.jsonl", [{"id": "a", "text": TEXT, "target": "Galip Yalman"}])
    common = ["--model", tmp_path / "model", "--replacement", "pseudonym"]

    def run(name, *args):
        result = invoke("anonymize", tmp_path / "in.jsonl", "-o", tmp_path / name, *common, *args)
        assert result.exit_code == 0, result.output
        return json.loads((tmp_path / name).read_text(encoding="utf-8"))

    first, again = run("1.jsonl", "--pseudonym-key", key_file), run("2.jsonl", "--pseudonym-key", key_file)
    assert first["anonymized_text"] == again["anonymized_text"] and "Yalman" not in first["anonymized_text"]
    assert RANDOM_KEY_WARNING not in first["warnings"]
    variant = run("3.jsonl", "--pseudonym-key", key_file, "--pseudonym-seed", "7")
    assert variant["anonymized_text"] != first["anonymized_text"]
    unkeyed = run("4.jsonl")
    assert RANDOM_KEY_WARNING in unkeyed["warnings"] and unkeyed["anonymized_text"] != first["anonymized_text"]


def test_the_pseudonym_operator_is_keyed_too(key_file, monkeypatch):
    from textanon.render.operators import Mention, OperatorError, build

    mention = Mention("Mr Andrei Petrescu", "PERSON", "PERSON_1", "Mr Andrei Petrescu")
    keyed = [build("pseudonym", key_file=str(key_file))(mention) for _ in range(2)]
    assert keyed[0] == keyed[1] and keyed[0].startswith("Mr ") and "Petrescu" not in keyed[0]
    assert build("pseudonym").random_key and not build("pseudonym", key_file=str(key_file)).random_key
    nlp = decision_pipeline(
        operators={"PERSON": {"@misc": "textanon.operators.pseudonym.v1", "key_file": str(key_file)}}
    )
    assert not nlp.get_pipe("textanon_optimizer").pseudonyms.random_key  # the optimizer uses the operator's key
    monkeypatch.setenv("TEXTANON_MAPPING_KEY", "short")
    with pytest.raises(OperatorError, match="too short"):
        _nlp()


def test_the_digits_of_an_address_are_drawn_one_by_one():
    """A house number and a postcode keep their shape, each digit drawn (it was one draw repeated: "88888"), no
    leading zero."""
    out = _keyed()("LOC", "Hauptstraße 12, 10115 Berlin")
    groups = re.findall(r"\d+", out)
    assert [len(g) for g in groups] == [2, 5] and groups != ["12", "10115"], out
    assert all(g[0] != "0" for g in groups) and len(set(groups[1])) > 1, out


def test_a_nickname_alone_and_the_name_in_its_own_script_follow_the_persons_surrogate():
    text = 'Robert "Bob" Hartley met Chen Wei-Ling (陈伟玲). Bob left.'
    p = _keyed(text=text, names=['Robert "Bob" Hartley', "Chen Wei-Ling"])
    full = p("PERSON", 'Robert "Bob" Hartley', entity='Robert "Bob" Hartley')
    nickname = re.search(r'"(.+)"', full).group(1)
    assert p("PERSON", "Bob", entity='Robert "Bob" Hartley') == nickname  # a given name, the quoted one's
    chen = p("PERSON", "Chen Wei-Ling", entity="Chen Wei-Ling")
    assert p("PERSON", "陈伟玲", entity="Chen Wei-Ling") == chen  # never a surrogate of its own ("(Kent)")


def test_a_surrogate_given_name_has_the_gender_of_the_original():
    """Without a title, the gender_guesser dictionary's gender of the first given name ("his wife Margaret" stays a
    woman); a given name alone that is no surname of the document is a given name ("called him Bobby")."""
    text = "Robert Hartley met his wife Margaret Hartley; friends called him Bobby."
    p = _keyed(text=text, names=["Robert Hartley", "Margaret Hartley", "Bobby"])
    pools = _faker_pools()
    assert p("PERSON", "Robert Hartley").split()[0] in pools["given_male"]
    assert p("PERSON", "Margaret Hartley").split()[0] in pools["given_female"]
    assert p("PERSON", "Bobby") in pools["given_male"]
    assert p("PERSON", "Hartley") == p("PERSON", "Robert Hartley").split()[1]  # a surname of the document
