"""The eight TAB categories and the mapping from OntoNotes NER labels to them."""

from typing import Dict, Optional

PERSON, CODE, LOC, ORG, DEM, DATETIME, QUANTITY, MISC = (
    "PERSON",
    "CODE",
    "LOC",
    "ORG",
    "DEM",
    "DATETIME",
    "QUANTITY",
    "MISC",
)
TAB_LABELS = (PERSON, CODE, LOC, ORG, DEM, DATETIME, QUANTITY, MISC)

#: OntoNotes (spaCy en_core_web_*) label -> TAB label; ``None`` drops the entity.
ONTONOTES_TO_TAB: Dict[str, Optional[str]] = {
    "PERSON": PERSON,
    "NORP": DEM,
    "LANGUAGE": DEM,
    "FAC": LOC,
    "GPE": LOC,
    "LOC": LOC,
    "ORG": ORG,
    "DATE": DATETIME,
    "TIME": DATETIME,
    "MONEY": QUANTITY,
    "PERCENT": QUANTITY,
    "QUANTITY": QUANTITY,
    "CARDINAL": QUANTITY,
    "PRODUCT": MISC,
    "EVENT": MISC,
    "WORK_OF_ART": MISC,
    "LAW": None,
    "ORDINAL": None,
}


def check_label(label: str) -> str:
    """Return ``label`` if it is one of the eight TAB categories, else raise ValueError."""
    if label not in TAB_LABELS:
        raise ValueError(f"Unknown TAB label {label!r}; expected one of {', '.join(TAB_LABELS)}")
    return label
