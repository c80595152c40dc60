"""Adversarial input cases of the reliability suite (issue 27): text forms that hide a name or an address from a
recognizer, identifiers in unusual formats, names outside prose. Each is a file of records with the PII strings
written as they appear in the text (invisible characters included), which must not survive in the output.

The values are synthetic: names from :mod:`.pii`'s lists, reserved example domains, fictitious numbers.
"""

import random
from pathlib import Path
from typing import Dict, List

from textanon.detect.given_names import given_name
from textanon.detect.target import is_common_word
from textanon_lab.reliability.inputs import CaseInput, write_records
from textanon_lab.reliability.pii import FIRST, LAST, PiiRecord

SOFT_HYPHEN, ZERO_WIDTH_SPACE, NUL = "\u00ad", "\u200b", "\x00"


def _person(rng: random.Random):
    """A first name and a surname of 7+ letters (long enough to split, space out and inflect)."""
    long_names = [n for n in LAST if len(n) >= 7 and n.isascii() and n.isalpha()]
    return rng.choice(FIRST), rng.choice(long_names)


def _record(rid: str, text: str, target: str, pii: List[Dict[str, str]]) -> PiiRecord:
    return PiiRecord(rid, text, target, pii)


def text_forms(folder: Path, seed: int) -> CaseInput:
    """The protected surname with a soft hyphen, hyphenated at a line end, split by OCR, letter-spaced, inflected
    and with a NUL inside, with an apostrophe in a lower-case note, and in Cyrillic; an e-mail address with a zero-width
    space."""
    rng = random.Random(seed)
    first, last = _person(rng)
    full = f"{first} {last}"
    cut = len(last) // 2
    forms = {
        "soft_hyphen": last[:cut] + SOFT_HYPHEN + last[cut:],
        "line_end_hyphen": last[:cut] + "-\n" + last[cut:],
        "ocr_split": last[:cut] + " " + last[cut:],
        "letter_spaced": " ".join(last.upper()),
        "inflected": last + "ului",
        "nul_inside": last[:cut] + NUL + last[cut:],
    }
    records = []
    for kind, form in forms.items():
        text = f"The applicant, Mr {full}, was arrested in 2009. According to the report, {form} refused to sign it."
        records.append(_record(f"form-{kind}", text, full, [{"kind": "surname", "text": form}]))
    # a surname with an apostrophe, the whole name in lower case (as in a clinician's note)
    apostrophe = f"O'{last}"
    text = f"patient {first.lower()} {apostrophe.lower()}, 47, seen today. mr {apostrophe.lower()} smokes."
    records.append(
        _record(
            "form-lower_apostrophe", text, f"{first} {apostrophe}", [{"kind": "surname", "text": apostrophe.lower()}]
        )
    )
    # the name written in another script (a fixed Russian name: the lists hold Latin-script names)
    text = "The applicant, Mr Ivan Petrov, was arrested in 2009. According to the report, Петров refused to sign it."
    records.append(_record("form-other_script", text, "Ivan Petrov", [{"kind": "surname", "text": "Петров"}]))
    local = f"{first[0].lower()}.{last.lower()}"
    email = f"{local}{ZERO_WIDTH_SPACE}@example.org"
    text = f"The applicant, Mr {full}, wrote from {email} to the registry on 3 May 2010."
    records.append(_record("form-zero_width_email", text, full, [{"kind": "email", "text": email}]))
    return write_records(folder / "text_forms.jsonl", records)


#: (kind, identifier, sentence): formats a recognizer of ordinary forms misses
IDENTIFIER_FORMATS = [
    ("postcode_lower", "sw1a 1aa", "The family moved to a flat at sw1a 1aa in 2004."),
    ("ni_number_lower", "qq123456c", "His national insurance number qq123456c appeared on the claim."),
    ("passport_lower", "ab1234567", "She showed the document ab1234567 at the border."),
    ("number_plate_lower", "aa02 aaa", "A car registered aa02 aaa was seen near the house."),
    ("mac_colon", "00:1A:2B:3C:4D:5E", "The laptop's network card, 00:1A:2B:3C:4D:5E, was logged by the router."),
    ("mac_dash", "00-1a-2b-3c-4d-5f", "The device 00-1a-2b-3c-4d-5f connected at midnight."),
    ("mac_cisco", "001a.2b3c.4d60", "The switch recorded 001a.2b3c.4d60 on port 4."),
    ("handle", "@jnovak_77", "He posted the photographs as @jnovak_77 the same evening."),
    ("bare_domain", "novak-consulting.com", "She ran her business from novak-consulting.com until 2012."),
    (
        "bech32",
        "bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq",
        "The ransom was paid to bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq on 4 June.",
    ),
    ("email_brackets", "jane[at]example[dot]com", "Write to jane[at]example[dot]com for the files."),
    ("email_words", "bob at gmail dot com", "The witness gave his address as bob at gmail dot com to the officer."),
    ("phone_parentheses", "(415)555-0132", "Call (415)555-0132 after six."),
    ("phone_glued", "4155550199", "The number was tel:4155550199 on the invoice."),
    ("phone_second_prefix", "+44 161 496 0000", "Numbers: +44 20 7946 0958 / +44 161 496 0000."),
    ("phone_hyphen_groups", "07700-900-123", "Her mobile, 07700-900-123, was switched off."),
    ("record_number_bare", "00482913", "The clinic filed the scan under record 00482913 in May."),
    ("mrn_label", "48213", "Her MRN 48213 was printed on the wristband."),
    ("uuid", "3f2504e0-4f89-11d3-9a0c-0305e82c3301", "The app logged device 3f2504e0-4f89-11d3-9a0c-0305e82c3301."),
    ("us_zip", "20500", "He gave his address as Washington, DC 20500 at the hearing."),
    # continental addresses: the house number after the street, or (French) before the street's type
    ("street_pl", "Długa 5", "The applicant lived at ul. Długa 5, 00-238 Warszawa, until 2008."),
    ("street_de", "Hauptstraße 12", "The company's office was at Hauptstraße 12, 10115 Berlin."),
    ("street_fr", "25 rue de Rivoli", "The letter was sent to 25 rue de Rivoli, 75001 Paris, in May."),
    ("street_it", "Via Roma 10", "He rented a flat in Via Roma 10 in Turin."),
    ("street_tr", "Atatürk Caddesi No: 12", "The shop at Atatürk Caddesi No: 12 was searched."),
    # a US street with a direction (the number alone was read as a year: "the 19th century"), points on a map
    ("street_us", "1847 W. Maple Ave", "Officers were called to 1847 W. Maple Ave, Apt 3B, that night."),
    ("coordinates_decimal", "38.7139, -9.1394", "The photos were geotagged 38.7139, -9.1394 at midnight."),
    ("coordinates_dms", "38°42'50.0\"N 9°08'21.8\"W", "His phone placed him at 38°42'50.0\"N 9°08'21.8\"W."),
    ("what3words", "///filled.count.soap", "She shared ///filled.count.soap with the driver."),
    # national numbers as forms write them, a document's series, a plate after its label, a Nordic street
    ("fr_nir", "1 85 05 78 006 084 36", "His social security number, 1 85 05 78 006 084 36, was on the form."),
    ("de_social_insurance", "12 090785 M 123", "Her Sozialversicherungsnummer 12 090785 M 123 was checked."),
    ("passport_series", "AB no. 482913", "He showed passport series AB no. 482913 at the border."),
    ("plate_letters_first", "KA 1234 BC", "The car with licence plate KA 1234 BC was stopped."),
    ("street_dk", "Nørregade 10", "She lived at Nørregade 10, 1165 København K, until 2019."),
]


def identifier_formats(folder: Path, seed: int) -> CaseInput:
    """Lower-case UK codes, MAC addresses in three forms, a handle, a bare domain, a Bech32 address, obfuscated
    e-mails, phone numbers written tightly and continental street addresses (:data:`IDENTIFIER_FORMATS`)."""
    rng = random.Random(seed)
    records = []
    for kind, value, sentence in IDENTIFIER_FORMATS:
        first, last = _person(rng)
        text = f"Mr {first} {last} was questioned. {sentence}"
        records.append(_record(f"format-{kind}", text, f"{first} {last}", [{"kind": kind, "text": value}]))
    return write_records(folder / "identifier_formats.jsonl", records)


def names_outside_prose(folder: Path, seed: int) -> CaseInput:
    """Names in an e-mail header, a salutation and a signature, a first name alone after the full name, a nickname
    written inside the name (Julia 'Sonny' Novak, then "Sonny" alone), a form's field naming another person surname
    first ("Witness: Novak, Julia"), the user names of a chat transcript, a hashtag gluing the name together and the
    name written in Chinese characters after it ("Chen Wei-Ling (陈伟玲)")."""
    rng = random.Random(seed)
    (first, last), (other_first, other_last) = _person(rng), _person(rng)
    full, other = f"{first} {last}", f"{other_first} {other_last}"
    email = f"{first.lower()}.{last.lower()}@example.com"
    header = (
        f"From: {full} <{email}>\nTo: {other} <registry@example.org>\nSubject: the hearing\n\n"
        f"Dear {other_first},\nI attach the statement for Monday.\n\nBest,\n{first}"
    )
    first_alone = f"Mr {full} was a teacher in the town. In 2005 {first} moved abroad with his family."
    hashtag = f"{first.lower()}{last.lower()}art"
    nickname = rng.choice(["Bobby", "Danno", "Sonny", "Chip"])
    nicknamed = f"{first} '{nickname}' {last} coached the team for ten years; everyone in town knew {nickname}."
    records = [
        _record(
            "prose-email_header",
            header,
            full,
            [
                {"kind": "name", "text": full},
                {"kind": "email", "text": email},
                {"kind": "name", "text": other},
                {"kind": "first_name", "text": other_first},
                {"kind": "first_name", "text": first},
            ],
        ),
        _record("prose-first_name_alone", first_alone, full, [{"kind": "first_name", "text": first}]),
        _record("prose-nickname_inside_the_name", nicknamed, full, [{"kind": "name", "text": nickname}]),
        _record(
            "prose-form_field_surname_first",
            f"Mr {full} was questioned on 3 May 2010.\nWitness: {other_last}, {other_first}\n",
            full,
            [{"kind": "name", "text": other_last}, {"kind": "first_name", "text": other_first}],
        ),
        _record(
            "prose-chat_user_names",
            f"[10:42] {first.lower()}_{last[0].lower()}: did Mr {full} sign?\n[10:43] {other_first.lower()}.k: yes\n",
            full,
            [
                {"kind": "user_name", "text": f"{first.lower()}_{last[0].lower()}"},
                {"kind": "user_name", "text": f"{other_first.lower()}.k"},
            ],
        ),
        _record(
            "prose-hashtag_with_the_name",
            f"{full} opened a show in Lisbon. so proud!! #{hashtag} #art",
            full,
            [{"kind": "hashtag", "text": hashtag}],
        ),
        # the name in its own script after it, for the protected person and for another (no target)
        _record(
            "prose-name_in_its_own_script",
            "The patient, Ms. Chen Wei-Ling (陈伟玲), was referred by Dr. Ivan Petrov (Иван Петров). 伟玲 agreed.",
            "Chen Wei-Ling",
            [{"kind": "name", "text": "陈伟玲"}, {"kind": "first_name", "text": "伟玲"}],
        ),
    ]
    return write_records(folder / "names_outside_prose.jsonl", records)


def _lower_case_given_names() -> List[str]:
    """The given names of :mod:`.pii` that the relation-name rule reads in lower case: in the name dictionary and no
    ordinary word ("my friend will help" is no name; "hope" and "grace" are not looked for in lower case)."""
    return [f for f in FIRST if given_name(f.lower()) and not is_common_word(f.lower())]


def user_documents(folder: Path, seed: int) -> CaseInput:
    """Documents as users bring them, each holding what survived before session 66 (2026-11-30): a post with a
    hashtag gluing the protected name, GPS coordinates and a friend's name in lower case; a login log naming the
    owner's device; a page copied from the web with a phone number written with ``&nbsp;``; a police report with a
    US street address with a direction. (A relative named in prose, "her brother Tunde", is now found, but as a
    quasi-identifier whose risk is scored, not a direct identifier: it is no case here.) And what survived before
    session 68 (2026-12-01): a dating profile's handle right after its platform, without a colon, and a sister named
    in lower case after a familiar kinship word. And what survived before session 69 (2026-12-01), of another person
    than the target, found by the rules alone: a name in the first row of a tab-separated list, the account names of
    a traceback's home folders and a given name and surname in a file's name; and an employee number after "no is".
    And what survived before session 70 (2026-12-01): another written form of the given name before the surname
    (the NER read "Danielle" as a place), a middle name after the given name in a form in capitals, a US drive
    ("Dr") after a flat number, a Korean given name the NER cut at its hyphen ("Park Ji-") and a co-author's name
    with a footnote mark in an author list ("John Roe²": one token). And what survived before sessions 71 and 72
    (2026-12-01/02): an alias after "a/k/a" in a docket, a phone number spelled digit by digit in a voicemail, a
    judgment's neutral citation ("Crim 1123" had become "the 12th century"), a small town and its county before a UK
    postcode, a diminutive of the given name on its own ("known to friends as Bob") and a further surname after the
    full name ("Thomas Cruise Mapother IV" for Tom Cruise). And what survived before session 73 (2026-12-02): an
    e-mail address written out ("[dot]", "[at]"), a Reddit user name, a US numbered street's house number, a Dutch
    address without a street word and an EIN after its label. (A calendar invite's "CN=Dr Hope Castellano:mailto:..."
    is no record: its titled name is now found, but another person's title and given name, an everyday word, is a
    quasi-identifier whose risk is scored.) And what survived before session 75 (2026-12-02): a care note's bare
    initials of the person ("JS seen with mother"), a contact card's address in another country's form and its
    birth date glued to "BDAY:", a FHIR record's "birthDate" (generalized, not masked), a year of birth written
    "'85", the surname's initials after the given name in a class list ("Ella F-M"), a manager's name glued to a
    salary in a CSV row and a Japanese address in its own script. And what survived before session 76 (2026-12-02):
    the common given names of the people around the target in an HR e-mail ("Sarah said the complaint by Kevin"),
    scored by the risk until every person's name was masked (decision 13), and the second relative of a list
    ("mother Ada and brother Emeka"). The records of sessions 71 to 76 draw nothing at random (the records before them
    stay the same)."""
    rng = random.Random(seed)
    first, last = _person(rng)
    full = f"{first} {last}"
    friend = rng.choice(_lower_case_given_names()).lower()
    hashtag = f"{first.lower()}{last.lower()}studio"
    device = f"iPhone-of-{first}-{last}"
    phone = "+1&nbsp;415&nbsp;555&nbsp;0132"
    # another person, no target (drawn last: the records above stay the same); a given name of the name dictionary,
    # as a file's name is read for one
    o_first, o_last = _person(rng)
    o_first = o_first if given_name(o_first) else rng.choice([f for f in FIRST if given_name(f)])
    other = f"{o_first} {o_last}"
    records = [
        _record(
            "user-post",
            f"just landed in Lisbon for the opening!! huge thanks to my manager {friend} 💕 #{hashtag} #art "
            f"GPS for the afterparty: 38.7139, -9.1394",
            full,
            [
                {"kind": "hashtag", "text": hashtag},
                {"kind": "coordinates", "text": "-9.1394"},
                {"kind": "first_name", "text": friend},
            ],
        ),
        _record(
            "user-login_log",
            f"2024-03-01 12:03:44 WARN user={first[0].lower()}{last.lower()} failed password device={device}",
            full,
            [{"kind": "device", "text": device}],
        ),
        _record(
            "user-web_page",
            f"Contact {full}: call <span>{phone}</span> after six.",
            full,
            [{"kind": "phone", "text": phone}, {"kind": "name", "text": full}],
        ),
        _record(
            "user-dating_profile",
            f"hey im {first.lower()}, 29. find me on snap {first.lower()}{last[0].lower()}_95 or ask my little sis "
            f"{friend} x",
            full,
            [
                {"kind": "user_name", "text": f"{first.lower()}{last[0].lower()}_95"},
                {"kind": "first_name", "text": friend},
            ],
        ),
        _record(
            "user-staff_list",
            f"Name\tRole\tPhone\n{other}\tTeam Lead\t+48 601 234 567\nOluwaseun Adeyemi\tAnalyst\t07911 654321",
            full,
            [{"kind": "name", "text": other}],
        ),
        _record(
            "user-traceback",
            f'  File "/home/{o_first[0].lower()}{o_last.lower()}/projects/run.py", line 12\nPermissionError: '
            f"'/Users/{o_first.lower()}.{o_last[0].lower()}/payroll_2024_{o_first.lower()}_{o_last.lower()}.xlsx'",
            full,
            [
                {"kind": "user_name", "text": f"{o_first[0].lower()}{o_last.lower()}"},
                {"kind": "user_name", "text": f"{o_first.lower()}.{o_last[0].lower()}"},
                {"kind": "file_name", "text": f"{o_first.lower()}_{o_last.lower()}"},
            ],
        ),
        _record(
            "user-it_chat",
            f"[09:16] helpdesk: can you confirm your details? [09:17] {first}: my employee no is E-20394, I'm at the "
            f"Leeds office",
            full,
            [{"kind": "employee_number", "text": "E-20394"}],
        ),
        _record(
            "user-police_report",
            f"At 23:40 I responded to a call at 1847 W. Maple Ave, Apt 3B. The complainant, {full}, stated his car "
            f"was damaged.",
            full,
            [{"kind": "street", "text": "1847 W. Maple Ave"}],
        ),
        # session 70: another form of the given name before the surname; a middle name in a form in capitals; a US
        # drive after a flat; a Korean given name the NER cut at its hyphen
        _record(
            "user-race_results",
            f"RT @runnerstats: Bib 44127 {first}ella {last} finished 3:41:09",
            full,
            [{"kind": "given_name_form", "text": f"{first}ella"}],
        ),
        _record(
            "user-caps_form",
            f"SURNAME: {last.upper()}    FORENAME(S): {first.upper()} EMEKA\nDATE OF BIRTH: 02/11/1979",
            full,
            [{"kind": "middle_name", "text": "EMEKA"}],
        ),
        _record(
            "user-shipping_label",
            f"Ship to: {full}, Apt 4B, 1550 N Lake Shore Dr, Chicago, IL 60610-1234.",
            full,
            [{"kind": "street", "text": "1550 N Lake Shore Dr"}],
        ),
        _record(
            "user-lab_biography",
            f"{full} joined the lab in 2019. {first}'s wife, Park Ji-yeon, works at the same institute.",
            full,
            [{"kind": "name", "text": "Park Ji-yeon"}],
        ),
        _record(
            "user-author_list",
            f"{first} Q. {last}\u00b9*, John Roe\u00b2\n\u00b9Department of Physics, University of Leeds",
            f"{first} Q. {last}",
            [{"kind": "name", "text": "John Roe"}],
        ),
        # sessions 71 and 72
        _record(
            "user-docket",
            f'UNITED STATES v. {full.upper()}, a/k/a "T-Bone"\nNo. 1:23-cr-00412',
            full,
            [{"kind": "alias", "text": "T-Bone"}],
        ),
        _record(
            "user-voicemail",
            f"Hi it's {first}. Call me back on oh seven seven double oh nine one two three four five six, thanks.",
            full,
            [{"kind": "phone", "text": "oh seven seven double oh nine one two three four five six"}],
        ),
        _record(
            "user-judgment",
            f"R v {last} [2019] EWCA Crim 1123. The appellant, {full}, was convicted of wounding.",
            full,
            [{"kind": "citation", "text": "[2019] EWCA Crim 1123"}],
        ),
        _record(
            "user-letter",
            f"{full}\nFlat 2, Rosebank House, Mill Lane, Much Wenlock, Shropshire TF13 6AA",
            full,
            [{"kind": "town", "text": "Much Wenlock"}, {"kind": "postcode", "text": "TF13 6AA"}],
        ),
        _record(
            "user-nickname",
            f"Robert {last}, known to friends as Bob, grew up in Drogheda. Bob later moved to Boston.",
            f"Robert {last}",
            [{"kind": "diminutive", "text": "Bob"}],
        ),
        _record(
            "user-further_surname",
            f"{first} {last} Mapother IV (born 1962) is an actor. {last} began acting in 1981.",
            f"{first} {last}",
            [{"kind": "name", "text": "Mapother"}],
        ),
        # session 73
        _record(
            "user-spelled_out_email",
            f"Slides on request: {first.lower()} [dot] {last.lower()} [at] gmail [dot] com",
            full,
            [{"kind": "email", "text": f"{first.lower()} [dot] {last.lower()} [at] gmail [dot] com"}],
        ),
        _record(
            "user-reddit_post",
            f"Thanks u/{first.lower()}_{last.lower()}85 for the tip about the landlord.",
            full,
            [{"kind": "user_name", "text": f"u/{first.lower()}_{last.lower()}85"}],
        ),
        _record(
            "user-us_letter",
            f"Ship to: {full}, Apt. 4C, 221 E 21st St, New York, NY 10010",
            full,
            [{"kind": "street", "text": "221 E 21st St"}],
        ),
        _record(
            "user-dutch_address",
            f"{full}, Damrak 1, 1012 JS Amsterdam",
            full,
            [{"kind": "street", "text": "Damrak 1, 1012 JS Amsterdam"}],
        ),
        _record(
            "user-tax_letter",
            f"Taxpayer: {full}   EIN 12-3456789   Form 1040 for 2023",
            full,
            [{"kind": "tax_number", "text": "12-3456789"}],
        ),
        # session 75: the initials are fixed (drawn ones could write a frequent abbreviation, "MD", left to the NER)
        _record(
            "user-care_note_initials",
            "Progress note: JS seen with mother. J.S. reports low mood. Plan: JS to be reviewed in 2/52.",
            "Jonathan Stafford",
            [{"kind": "initials", "text": "JS"}],
        ),
        _record(
            "user-contact_card",
            f"BEGIN:VCARD\nFN:{full}\nADR;TYPE=HOME:;;Bygdøy allé 5;Oslo;;0257;Norway\nBDAY:1979-05-17\nEND:VCARD",
            full,
            [{"kind": "street", "text": "Bygdøy allé 5"}, {"kind": "birth_date", "text": "1979-05-17"}],
        ),
        _record(
            "user-fhir_patient",
            f'{{"resourceType": "Patient", "name": [{{"family": "{last}", "given": ["{first}"]}}], '
            f'"birthDate": "1966-09-30", "gender": "unknown"}}',
            full,
            [{"kind": "birth_date", "text": "1966-09-30"}],
        ),
        _record(
            "user-birth_year",
            f"{full}, b. 3rd of March '85 in Bremen, moved to Hamburg in 2009.",
            full,
            [{"kind": "birth_date", "text": "3rd of March '85"}],
        ),
        _record(
            "user-class_list",
            "Class 4B groups: Group 1 — Ella F-M, Noah K, Isla P.\nElla F-M to move to Group 1 after half term.",
            "Ella Fitzgerald-Moore",
            [{"kind": "initials", "text": "Ella F-M"}],
        ),
        _record(
            "user-csv_row",
            f"emp_id,name,dept,salary,manager\nE1043,{full},Finance,52000,{o_first[0]}. {o_last}",
            full,
            [{"kind": "name", "text": f"{o_first[0]}. {o_last}"}],
        ),
        _record(
            "user-japanese_address",
            f"{full}, 〒150-0001 東京都渋谷区神宮前1-2-3, tel 090-1234-5678.",
            full,
            [{"kind": "street", "text": "東京都渋谷区神宮前1-2-3"}],
        ),
        _record(
            "user-hr_email",
            "Tom Baker met with Sarah and Priya from HR on Monday. "
            "Sarah said the complaint by Kevin would be reviewed.",
            "Tom Baker",
            [{"kind": "name", "text": name} for name in ("Sarah", "Priya", "Kevin")],
        ),
        _record(
            "user-relatives_list",
            "Grace Okoro's mother Ada and brother Emeka live in Lagos.",
            "Grace Okoro",
            [{"kind": "name", "text": name} for name in ("Ada", "Emeka")],
        ),
    ]
    return write_records(folder / "user_documents.jsonl", records)


ADVERSARY_CASES = {
    "text_forms": text_forms,
    "identifier_formats": identifier_formats,
    "names_outside_prose": names_outside_prose,
    "user_documents": user_documents,
}
