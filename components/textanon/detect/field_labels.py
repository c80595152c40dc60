"""The labels of a form's fields ("DOB", "MRN", "NHS number", "Tel"): words that name a kind of information, not
a person, an organization or a quasi-identifier. A generic NER reads some as organizations ("DOB" as an ORG) and a
word-frequency prior finds them rare; the value that follows them is what identifies (a date of birth, a record
number: the rules find those). The recognizer drops a NER entity that is only a field label and the search risk
proposes none as a candidate, so that the label stays readable in every rendering (a pseudonym would turn "DOB" into
a town)."""

from textanon.detect.target import fold

#: field labels, lower case (abbreviations of clinical, administrative and contact forms)
FIELD_LABELS = frozenset(
    {
        "dob",
        "d.o.b",
        "d.o.b.",
        "mrn",
        "nhs",
        "nhs no",
        "nhs no.",
        "nhs number",
        "ssn",
        "nino",
        "ni number",
        "tel",
        "tel.",
        "fax",
        "mob",
        "mob.",
        "email",
        "e-mail",
        "ref",
        "ref.",
        "dx",
        "hx",
        "rx",
        "pmh",
        "id",
        "id no",
        "id number",
    }
)


def is_field_label(text: str) -> bool:
    """``text`` (any case, surrounding spaces ignored) is only a field label (:data:`FIELD_LABELS`). Asked of every
    token of a document: ASCII text is only lower-cased (what :func:`fold` does to it)."""
    key = " ".join(text.split())
    return (key.lower() if key.isascii() else fold(key)) in FIELD_LABELS
