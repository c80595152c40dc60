"""Direct identifiers in every format, and names outside prose: the candidate finder of the entity recognizer beside
the regular-expression rules (:mod:`textanon.detect.rules`).

:func:`find_identifiers` yields ``(start, end, label, name)`` like :func:`textanon.detect.rules.find_rule_matches`; the
recognizer records ``rule:<name>`` in ``span._.source``. Label CODE (always masked):

* Canadian postal codes (``H2X 1Y4``); UK formats in any case and spacing: postcodes (``sw1a 1aa``: a known postcode
  area), national-insurance numbers
  (``qq123456c``), passports (``ab1234567``), driving licences (``MORGA753116SM9IJ``), number plates (``aa02 aaa``);
* MAC addresses (``00:1a:2b:3c:4d:5e``, ``00-1A-...``, Cisco ``0123.4567.89ab``), ``@handles`` (at a word start),
  domains (``microsoft.com``: a public suffix of tldextract's bundled list, offline) and URLs with any scheme,
  crypto addresses (Bech32 ``bc1...``, base58 Bitcoin/Litecoin with their checksum, Ethereum ``0x`` + 40 hex);
* obfuscated e-mails (``jane[at]example[dot]com``, ``bob at gmail dot com``, ``jane (at) example (dot) com``);
* phone numbers (``phonenumbers.PhoneNumberMatcher``, leniency VALID, regions GB and US; numbers with ``+country``
  in any region), also glued to a label (``tel:4155550132``, ``Phone:+44 20 7946 0958``, ``mob07700900150``);
* numbers spelled digit by digit, as a speech transcript writes them (``seven seven zero zero nine double oh``);
* numbers shown in part (``xxx-xx-4821``, ``**** 1234``) and user names after a platform's label (``Snapchat:
  lenav99``);
* checksummed identifiers (python-stdnum): IBAN, payment cards (Luhn), NHS numbers, US SSN/ITIN, EU/UK VAT numbers,
  ISBN; in their written format: French social security numbers (NIR, ``1 85 05 78 006 084 36``) and German social
  insurance numbers (``12 090785 M 123``).

Label PERSON: names outside prose, in an e-mail header (``From: Julia Novak <julia.novak@example.com>``, ``To:``,
``Cc:``), a salutation (``Dear Julia,``) or a signature (``Best, Julia``, ``Regards,\\nJulia Novak``,
``Thanks,\\n-- J.``) or introduced (``my name is Dan``, ``Name: Julia Novak``, ``call me Jules``): the
correspondents' and speakers' names, direct identifiers as the codes are (in
:data:`IDENTIFIER_RULE_NAMES`, so in :data:`textanon.detect.rules.CODE_RULE_NAMES`: always masked, whatever the risk).
The text searched is its normalized view, as for the rules. Every pattern starts where a run of characters starts
and its repetitions are bounded (linear on hostile input).
"""

import hashlib
import re
from functools import lru_cache
from typing import Iterator, List, Tuple

import phonenumbers
import tldextract
from phonenumbers import Leniency, PhoneNumberMatcher
from spacy.lang.en.stop_words import STOP_WORDS
from stdnum import iban, isbn, luhn, vatin
from stdnum.bitcoin import b58decode
from stdnum.gb import nhs
from stdnum.us import itin, ssn
from wordfreq import zipf_frequency

from textanon.detect.field_labels import is_field_label
from textanon.detect.given_names import given_name
from textanon.detect.normalize import SUPERSCRIPT_CLASS, SUPERSCRIPT_DIGITS, normalized
from textanon.detect.tables import TABLE_RULE_NAMES, find_table_cells
from textanon.detect.target import is_common_word

Match = Tuple[int, int, str, str]

CODE, PERSON = "CODE", "PERSON"

#: UK postcode areas (the letters of the outward code): a postcode in lower or mixed case must start with one
UK_POSTCODE_AREAS = frozenset(
    """
AB AL B BA BB BD BF BH BL BN BR BS BT BX CA CB CF CH CM CO CR CT CV CW DA DD DE DG DH DL DN DT DY E EC EH EN EX FK FY G
GL GU GY HA HD HG HP HR HS HU HX IG IM IP IV JE KA KT KW KY L LA LD LE LL LN LS LU M ME MK ML N NE NG NN NP NR NW OL
OX PA PE PH PL PO PR RG RH RM S SA SE SG SK SL SM SN SO SP SR SS ST SW SY TA TD TF TN TQ TR TS TW UB W WA WC WD WF WN
WR WS WV YO ZE
""".split()
)
#: words that end an e-mail or letter and come before the writer's name
CLOSINGS = (
    r"(?:[Bb]est(?: [Rr]egards| [Ww]ishes)?|[Kk]ind(?:est)? [Rr]egards|[Ww]arm(?:est)? [Rr]egards|[Rr]egards|"
    r"[Mm]any [Tt]hanks|[Tt]hanks(?: [Aa]gain)?|[Tt]hank [Yy]ou|[Ww]ith [Tt]hanks|[Cc]heers|[Ss]incerely|"
    r"[Yy]ours(?: [Ss]incerely| [Ff]aithfully| [Tt]ruly)?|[Ll]ove|[Rr]espectfully|[Cc]ordially|[Ww]armly|"
    r"[Aa]ll the best|[Tt]ake care|[Ss]peak soon|[Tt]alk soon|[Ww]ith (?:best|kind) (?:wishes|regards))"
)
#: the words that open a letter before the addressee's name
SALUTATIONS = r"(?:Dear(?:est)?|Hi|Hello|Hey|Hiya|Greetings|Good (?:morning|afternoon|evening)|Morning)"
#: courtesy titles allowed inside a letter name ("Dear Ms Novak"): kept in the span
LETTER_TITLES = r"(?:(?:Mr|Mrs|Ms|Miss|Mx|Dr|Prof|Professor|Sir|Dame|Lady|Lord)\.?[ \t]+)?"
#: one name word: capitalized or upper case, with apostrophes and hyphens ("O'Neill", "Jean-Luc"), or an initial
NAME_WORD = r"(?:[^\W\d_][\w'’]*(?:-[^\W\d_][\w'’]*)*|[^\W\d_]\.)"
LETTER_NAME = rf"{LETTER_TITLES}{NAME_WORD}(?:[ \t]+{NAME_WORD}){{0,3}}"
#: words that are no name after a salutation, before a signature or in a header ("Dear Sir", "To: All staff")
NOT_LETTER_NAMES = frozenset(
    """
sir sirs madam madame all everyone everybody team staff colleagues friends friend members member customer customers
client clients reader readers parents parent editor editors committee board manager managers hiring whom it may
concern there world folks guys people you us me the a an and or of to for from in on at by undisclosed recipients
recipient department office support service services admin administrator info sales registry court human
resources management secretary secretariat council ministry unit desk helpdesk list mailing group sent
""".split()
)
#: a speaker or a form introducing a name ("my name is Dan", "Her name was Julia Novak", "call me Jules",
#: "Name: Julia Novak"): the name words that follow, capitalized, are a person's name
INTRODUCTION = re.compile(
    r"(?i:\b(?:my|his|her|their|your|our)[ \t]+(?:(?:full|first|given|last|maiden|real|legal)[ \t]+|sur)?name"
    r"(?:[ \t]+(?:is|was)|'s|’s)|\b(?:I[ \t]+am|I'm|I’m|he[ \t]+is|she[ \t]+is)[ \t]+called"
    r"|\bcall[ \t]+me|(?m:^)[ \t]*(?:(?:full|first|last|patient|client|applicant)[ \t]+)?name[ \t]*:"
    # a form's person field at a line start: "Patient: Doe, Jane", "Account holder: Smith, John A."
    r"|(?m:^)[ \t]*(?:patient|client|account[ \t]+holder|policy[ \t]?holder|beneficiary|tenant|guardian|next[ \t]+of"
    r"[ \t]+kin|emergency[ \t]+contact|insured|subscriber|claimant|defendant|plaintiff|witness|signed(?:[ \t]+by)?"
    r"|prepared[ \t]+by|referred[ \t]+by|reported[ \t]+by)[ \t]*:)"
    # the name words; the first may be a surname before a comma and the given names ("Smith, John A.")
    rf"[ \t]+(?P<name>{LETTER_TITLES}[^\W\d_][\w'’.-]*(?:,(?=[ \t]+[A-Z][a-z]))?"
    r"(?:[ \t]+[^\W\d_][\w'’.-]*){0,3})"
)
#: another name of a person after the words that give it ("a/k/a \"T-Bone\"", "aka Lil Tay", "nicknamed \"the Austrian
#: Oak\"", "alias: Smokey"): in quotation marks, or capitalized words (:func:`_leading_name`); a "the" before it is the
#: name's after the legal alias words only: "nicknamed" and "also known as" name places too ("led the area to be
#: nicknamed the Rocky Steps": a PERSON there split the film's "Rocky" from its character, and it survived). "known as"
#: only before quotation marks ("the area known as the Docklands" is no alias). The capitalized words are read ahead,
#: not taken, so that a second alias later on the line is found
ALIAS = re.compile(
    r"(?:(?<![\w/.])(?P<trigger>(?i:a/k/a|a\.k\.a\.?|aka|f/k/a|alias|nicknamed|also[ \t]+known[ \t]+as))[ \t]*:?"
    r"|(?<![\w])(?i:known[ \t]+as)(?=[ \t]+[\"“‘']))"
    r"[ \t]+(?:(?P<open>[\"“‘'])(?P<quoted>[^\"“”‘’'\n]{1,40})[\"”’']"
    r"|(?P<the>(?i:the)[ \t]+)?(?=(?P<words>[A-Z][^\n]{0,60})))"
)
HEADER_FIELDS = r"(?:From|To|Cc|CC|Bcc|BCC|Reply-To|Sender)"
#: the name of a header item: name words, a comma between surname and given name ("Novak, Julia") allowed
HEADER_NAME = re.compile(rf"{NAME_WORD}(?:[ \t]*,?[ \t]+{NAME_WORD}){{0,4}}")
HEADER_LINE = re.compile(rf"(?m)^[ \t>]*{HEADER_FIELDS}[ \t]*:[ \t]*(?P<rest>[^\r\n]*)")
SALUTATION_LINE = re.compile(
    rf"(?m)^[ \t>]*{SALUTATIONS}[ \t]+(?P<names>{LETTER_NAME}(?:[ \t]*(?:,|&|and)[ \t]*{LETTER_NAME})*)"
    r"[ \t]*(?:[,:;!.—–-]|\r?$)"
)
#: "Best, Julia" (the closing at a line start or after a sentence, the name ending the line)
SIGNATURE_SAME_LINE = re.compile(
    rf"(?m)(?:^|(?<=[.!?][ \t]))[ \t>]*{CLOSINGS}[ \t]*,[ \t]*(?:--?|—|–)?[ \t]*(?P<name>{LETTER_NAME})[ \t]*[.!]?\r?$"
)
#: "Regards,\nJulia Novak", "Thanks,\n-- Julia", "-- \nJulia" (the signature delimiter)
SIGNATURE_NEXT_LINE = re.compile(
    rf"(?m)(?:^[ \t>]*{CLOSINGS}[ \t]*[,.!]?|^--[ \t]?)[ \t]*\r?\n(?:[ \t]*\r?\n)?[ \t>]*(?:--?|—|–)?[ \t]*"
    rf"(?P<name>{LETTER_NAME})[ \t]*\r?$"
)
#: the time stamp that opens a line of a chat transcript ("[10:42]", "10:42 PM", "2023-05-01 10:42 -")
CHAT_TIME = (
    r"(?:\[[^\]\n]{0,16}\d{1,2}:\d{2}[^\]\n]{0,16}\]|(?:\d{4}-\d{2}-\d{2}[ T,]+)?\d{1,2}:\d{2}(?::\d{2})?"
    r"(?:[ \t]*[AaPp]\.?[Mm]\.?)?)"
    r"[ \t]*(?:[-–—|][ \t]*)?"
)
#: the speaker of a chat line: after a time stamp, a name (or a user name) before a colon ("[10:42] Anna:",
#: "10:42 - Mike Turner:", "[10:42] mike_t:"); without one, a user name only (lower case with "." or "_":
#: "sarah.k:"), since "Subject:" or "Note:" open lines too; in IRC style, any nick between angle brackets ("<mike_t>")
CHAT_SPEAKER = re.compile(
    rf"(?m)^[ \t]*(?:{CHAT_TIME}(?P<timed>[^\W\d][\w.'’-]{{0,31}}(?:[ \t][A-Z][\w'’-]{{0,31}}){{0,2}})[ \t]*:(?!//)"
    r"|(?P<handle>[a-z][a-z0-9]*[._][a-z0-9._]*[a-z0-9])[ \t]*:(?!//)"
    rf"|(?:{CHAT_TIME})?<(?P<nick>[^\s<>]{{1,32}})>)"
)

#: label words before a phone number, glued or not ("tel:4155550132", "Phone:+44 ...", "mob07700900150")
PHONE_LABELED = re.compile(
    r"(?i)(?<![^\W\d_])(?:tel|telephone|phone|ph|mob|mobile|cell|fax|call|whatsapp|sms)\.?[ \t]*[:.#]?[ \t]*"
    r"(?P<span>\+?\(?\d[\d \t().-]{5,22}\d)"
)
#: a number right after "+" country code (the second number of a line: "+44 20 7946 0958 / +44 161 496 0000")
PHONE_INTERNATIONAL = re.compile(r"(?<![\w+])\+[1-9]\d{0,2}[ .-]?\(?\d{1,5}\)?(?:[ .-]?\d{2,5}){1,4}\b")

#: the platforms whose user names a text writes after their name (:data:`PATTERNS` ``platform_user_name``, with a colon:
#: ``labelled_user_name``), the longer name first where one begins another ("snapchat" before "snap")
PLATFORMS = (
    "snapchat",
    "snap",
    "instagram",
    "insta",
    "ig",
    "tiktok",
    "twitter",
    "telegram",
    "discord",
    "skype",
    "wechat",
    "kik",
    "reddit",
    "github",
    "gitlab",
    "threads",
    "bluesky",
    "mastodon",
    "facebook",
    "fb",
    "youtube",
    "twitch",
    "steam",
    "xbox",
    "psn",
)
#: the digits spelled out (:data:`PATTERNS`' ``spelled_digits``), "oh" and "nought" for zero
SPELLED_DIGITS = {
    w: n
    for n, words in enumerate(
        ["zero oh nought", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine"]
    )
    for w in words.split()
}
_SPELLED_ITEM = r"(?:(?:double|triple)[ \t-]+)?(?:" + "|".join(sorted(SPELLED_DIGITS, key=len, reverse=True)) + ")"
#: the fewest digits a number spelled out holds (a phone number's local part: seven)
SPELLED_MIN_DIGITS = 7

PATTERNS = {
    "uk_postcode_any_case": re.compile(
        r"(?i)(?<![\w-])(?P<area>[a-z]{1,2})\d[a-z\d]?[ \t]?(?P<inward>\d[abd-hjlnp-uw-z]{2})\b"
    ),
    "national_insurance_any_case": re.compile(r"(?i)(?<![\w-])[a-z]{2}[ \t]?\d{2}[ \t]?\d{2}[ \t]?\d{2}[ \t]?[a-d]\b"),
    "passport_any_case": re.compile(r"(?i)(?<![\w-])[a-z]{1,3}\d{6,10}[a-z]?\b"),
    "driving_licence": re.compile(r"(?i)(?<![\w-])[a-z9]{5}[ \t]?\d{6}[ \t]?[a-z9]{2}\d[a-z]{2}(?:[ \t]?\d{2})?\b"),
    # current UK plates: memory tag (no I, Q, Z in the second letter... see DVLA), age identifier, three letters
    "plate_uk_any_case": re.compile(
        r"(?i)(?<![\w-])[a-hj-pr-y][a-hj-pr-y](?:0[2-9]|1\d|2[0-5]|5[1-9]|6\d|7[0-5])[ \t-]?(?P<last>[a-hj-pr-z]{3})\b"
    ),
    "mac_address": re.compile(
        r"(?i)(?<![\w:.-])(?:[0-9a-f]{2}(?P<sep>[:-])[0-9a-f]{2}(?:(?P=sep)[0-9a-f]{2}){4}"
        r"|[0-9a-f]{4}\.[0-9a-f]{4}\.[0-9a-f]{4})(?![\w:-]|\.\w)"
    ),
    "handle": re.compile(r"(?<![\w@.+-])@(?=\w*[^\W\d])\w{1,30}(?:\.\w{1,30})*"),
    "url_any_scheme": re.compile(r"(?i)(?<![\w.+-])[a-z][a-z0-9+.-]{1,15}://[^\s<>\"'`]+[^\s<>\"'`.,;:!?)\]}]"),
    "domain": re.compile(
        r"(?i)(?<![\w@.\-/:])(?P<host>(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.){1,8}(?P<tld>[a-z]{2,24}))"
        r"(?![\w-]|\.[a-z0-9])(?P<path>[/?#][^\s<>\"'`]*[^\s<>\"'`.,;:!?)\]}])?"
    ),
    "bech32_address": re.compile(
        r"(?<![\w-])(?:(?:bc|tb|ltc|bcrt)1[ac-hj-np-z02-9]{20,87}|(?:BC|TB|LTC)1[AC-HJ-NP-Z02-9]{20,87})\b"
    ),
    "base58_address": re.compile(r"(?<![\w-])[13LM][1-9A-HJ-NP-Za-km-z]{25,34}\b"),
    "ethereum_address": re.compile(r"(?<![\w-])0x[0-9a-fA-F]{40}\b"),
    "obfuscated_email": re.compile(
        r"(?i)(?<![\w.+-])(?P<local>[\w+-]+(?:\.[\w+-]+)*)"
        r"(?P<at>[ \t]*[\[({<][ \t]*at[ \t]*[\])}>][ \t]*|[ \t]+at[ \t]+|[ \t]*@[ \t]*)"
        r"(?P<domain>[\w-]+(?:(?:[ \t]*[\[({<][ \t]*dot[ \t]*[\])}>][ \t]*|[ \t]+dot[ \t]+|\.)[\w-]+){1,5})\b"
    ),
    # parts separated by one space (no two ways to split a run: linear); the valid prefix is kept (_longest_valid)
    "iban_checked": re.compile(r"(?i)(?<![\w-])[a-z]{2}\d{2}[a-z0-9]{0,30}(?:[ \t][a-z0-9]{1,30}){0,8}(?!\w)"),
    "card_number_luhn": re.compile(
        r"(?<![\w.,-])(?:\d{13,19}|\d{4}(?P<s1>[ -])\d{4}(?P=s1)\d{4}(?P=s1)\d{1,4}(?:(?P=s1)\d{1,3})?"
        r"|\d{4}(?P<s2>[ -])\d{6}(?P=s2)\d{4,5})(?![\w-]|[.,]\d)"
    ),
    "nhs_number": re.compile(r"(?<![\w.,/-])\d{3}(?P<s>[ -]?)\d{3}(?P=s)\d{4}(?![\w/-]|[.,]\d)"),
    # 123-45-6789, 123 45 6789; the nine digits split once elsewhere (123-456789, 12345-6789) when valid
    "us_ssn": re.compile(r"(?<![\w.,/-])(?:\d{3}(?P<s>[ -])\d{2}(?P=s)\d{4}|\d{3}-\d{6}|\d{5}-\d{4})(?![\w/-]|[.,]\d)"),
    "us_ssn_labelled": re.compile(
        r"(?i)\b(?:SSN|ITIN|social security(?: number| no\.?)?|tax(?:payer)? id(?:entification)?(?: number)?)"
        r"[ \t]*(?:no\.?|number|#)?[ \t]*:?[ \t]*(?P<span>\d{9})\b"
    ),
    # a Canadian postal code ("H2X 1Y4", "K1A0B1"; "H2X" had survived beside a masked "1Y4")
    "ca_postcode": re.compile(
        r"(?<![\w-])[ABCEGHJ-NPRSTVXY]\d[ABCEGHJ-NPRSTV-Z][ \t-]?\d[ABCEGHJ-NPRSTV-Z]\d(?![\w-])"
    ),
    # a French social security number (NIR): sex, year, month, department, commune, order, key, as it is written in
    # groups ("1 85 05 78 006 084 36"; a key that does not check is a typo of one: masked too)
    "fr_nir": re.compile(
        r"(?<![\w.,/-])[1-478][ .]?\d{2}[ .]?(?:0[1-9]|1[0-2]|[2-9]\d)[ .]?(?:\d{2}|2[AaBb])[ .]?\d{3}[ .]?\d{3}"
        r"(?:[ .]?\d{2})?(?![\w/-]|[.,]\d)"
    ),
    # a German social insurance number: area, date of birth (day, month, year), the surname's initial, serial and
    # check digit ("12 090785 M 123")
    "de_social_insurance": re.compile(
        r"(?<![\w-])\d{2}[ \t]?(?:0[1-9]|[12]\d|3[01]|[4-8]\d)(?:0[1-9]|1[0-2])\d{2}[ \t]?[A-Z][ \t]?\d{3}(?![\w-])"
    ),
    # a number shown in part, the rest masked by its writer ("SSN xxx-xx-4821", "card **** **** **** 1234"): its
    # visible digits still identify (the last four of an SSN or a card are asked to verify a person)
    # ("###-##-1234" with hyphens only: a Markdown heading "### 2021 results" is no number)
    "partial_number": re.compile(
        r"(?i)(?<![\w*•#])(?:(?=(?:[x*•][ .-]?){3})(?:[x*•]{1,6}[ .-]?){1,5}|#{2,6}(?:-#{1,6}){1,4}-)\d{2,6}(?![\w-])"
    ),
    # a user name after a platform's or an account's label and a colon ("Snapchat: lenav99", "username = jdoe_77")
    # (the colon first: a literal is cheap to find; the label before it is read by :func:`_labelled_user_name`)
    "labelled_user_name": re.compile(r"[:=][ \t]*(?P<span>@?[^\W_][\w.\-]{1,40}[^\W_])"),
    # a user name right after its platform, no colon ("find me on snap jessm_95", "insta: ..." is the rule above):
    # only a handle-like word (a digit, "_", "." or "@" in it: "on insta today" is prose); read only in a text that
    # names a platform (:data:`_NEEDS`)
    "platform_user_name": re.compile(
        rf"(?i)(?<![^\W_])(?:{'|'.join(PLATFORMS)})(?:[ \t]+(?:is|at|as))?"
        r"[ \t]+(?P<span>@?[^\W_][\w.\-]{1,40}[^\W_.])"
    ),
    "vat_number": re.compile(
        r"(?i)(?<![\w-])(?:AT|BE|BG|CH|CY|CZ|DE|DK|EE|EL|ES|FI|FR|GB|HR|HU|IE|IT|LT|LU|LV|MT|NL|PL|PT|RO|SE|SI|SK|XI)"
        r"[ \t-]?(?=[0-9A-Z]*\d)[0-9A-Z]{2,14}(?:[ \t.-][0-9A-Z]{1,7}){0,4}(?!\w)"
    ),
    # a UUID / GUID (device, session, record ids), any case
    "uuid": re.compile(r"(?i)(?<![\w-])[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}(?![\w-])"),
    # a hexadecimal token of 16 or more characters, letters and digits (a key, a hash, a device serial)
    "hex_token": re.compile(r"(?i)(?<![\w-])(?=[0-9a-f]*\d)(?=[0-9a-f]*[a-f])[0-9a-f]{16,}(?![\w-])"),
    # a bare run of six or more digits that no other rule reads (a record, account or customer number with no label:
    # "The record 00482913", "MRN 00482913"): an identifier unless shown otherwise (amounts have separators or a
    # currency, years four digits, phone numbers and checksummed numbers their own rules, which win when longer)
    "digit_run": re.compile(r"(?<![\w.,/:+-])\d{6,}(?![\w/-]|[.,:]\d)"),
    # digits in three or more groups joined by one hyphen, dot or space, nine digits or more in all ("07700-900-123",
    # "4047 8470 8724 90"): a number no other rule validates (:func:`_digit_groups`); dates have fewer digits
    "digit_groups": re.compile(r"(?<![\w.,/:+-])(?<!\d[ .-])\d{2,6}(?:[ .-]\d{2,6}){2,5}(?![\w/-]|[.,:]\d)"),
    # digits spelled out one by one, as a speech transcript or a call centre's note writes a number ("plus four four
    # seven seven double oh nine", "seven seven zero zero, nine zero zero, four six one"): seven digits or more
    # (:func:`_spelled_digits`; "double"/"triple" repeat the next digit)
    "spelled_digits": re.compile(
        rf"(?i)(?<![\w-])(?:plus[ \t]+)?{_SPELLED_ITEM}(?:(?:[ \t]*[,-][ \t]*|[ \t]+){_SPELLED_ITEM}){{5,30}}(?![\w-])"
    ),
    # a point on the map, as phones and cameras write it: decimal degrees with three decimals or more (about 100 m),
    # signed or with hemispheres ("38.7139, -9.1394", "38.7139° N 9.1394° W", "geo:38.7139,-9.1394"), or degrees and
    # minutes ("38°42'50.0\"N 9°08'21.8\"W"); in range (:func:`_coordinates`)
    "coordinates": re.compile(
        r"(?<![\w.,-])(?P<lat>[-+−]?\d{1,2}(?:\.\d{3,12}[ \t]?°?|[ \t]?°[ \t]?\d{1,2}(?:\.\d+)?[ \t]?['′’]"
        r"(?:[ \t]?\d{1,2}(?:\.\d+)?[ \t]?(?:[\"″”]|''))?)[ \t]?(?P<ns>[NSns])?)[ \t]*[,;/]?[ \t]*"
        r"(?P<lon>[-+−]?\d{1,3}(?:\.\d{3,12}[ \t]?°?|[ \t]?°[ \t]?\d{1,2}(?:\.\d+)?[ \t]?['′’]"
        r"(?:[ \t]?\d{1,2}(?:\.\d+)?[ \t]?(?:[\"″”]|''))?)[ \t]?(?P<ew>[EWew])?)(?!\w|[.,]\d)"
    ),
    # a device's network name, which carries its owner's name ("Johns-iPhone", "John-Does-MacBook-Pro",
    # "iPhone-of-John-Doe", "iPhone-de-Juan"): in DHCP, MDM and login logs
    "device_name": re.compile(
        r"(?i)(?<![\w.-])(?:(?:[a-z]+-){1,3}(?:iphone|ipad|ipod|macbook(?:-pro|-air)?|imac|mac-mini|galaxy(?:-[a-z0-9]+)?|"
        r"pixel(?:-\d+[a-z]?)?|android|laptop|desktop|pc)(?:-\d+)?|(?:iphone|ipad|ipod|macbook(?:-pro|-air)?|imac|"
        r"galaxy|pixel|android|laptop|pc)-(?:of|de|di|da|do|du|von|van)-[a-z]+(?:-[a-z]+){0,2})(?![\w-])"
    ),
    # the account name in a home folder's path ("/home/agarcia/", "/Users/mike.r/", "C:\\Users\\SarahOConnell\\"): a
    # user name, in tracebacks, logs and shell prompts (its ``span`` group: the name alone)
    "home_folder_user": re.compile(
        r"(?:(?<![\w.~-])/(?:home|Users|users)/|(?i:\b[A-Z]:\\(?:Users|Documents and Settings)\\))"
        r"(?P<span>[^\W_][\w.$-]{1,40}?)(?=[/\\'\"\s:;,)]|$)"
    ),
    # the user of a login log ("Accepted publickey for agarcia from", "Failed password for invalid user admin from",
    # "sudo: agarcia : TTY=")
    "log_user": re.compile(
        r"(?:\b(?:[Aa]ccepted|[Ff]ailed) [\w-]+ for (?:invalid user )?|\bsudo:[ \t]+)(?P<span>[^\W_][\w.$-]{0,31})"
        r"(?=[ \t]+from\b|[ \t]+:)"
    ),
    # a what3words address: three words after three slashes ("///filled.count.soap"), a 3 m square
    "what3words": re.compile(r"///[^\W\d_]{1,20}\.[^\W\d_]{1,20}\.[^\W\d_]{1,20}\b"),
    "isbn": re.compile(
        r"(?i)\bISBN(?:-1[03])?[ \t]*:?[ \t]*(?P<span>(?:97[89][ \t-]?)?\d[\d \t-]{7,14}[\dX])\b"
        r"|(?<![\w-])(?P<bare>97[89]-\d{1,5}-\d{1,7}-\d{1,7}-\d)\b"
    ),
}
#: the PERSON rules of this module (names outside prose); the names of all but an initial alone are looked for again
#: in the whole document (:func:`textanon.pipes.entity_recognizer._name_mentions`)
LETTER_NAME_RULES = frozenset(
    {
        "header_name",
        "salutation_name",
        "signature_name",
        "signature_initial",
        "introduced_name",
        "chat_speaker",
        "relation_name",
        "file_name_person",
        "author_name",
        "alias_name",
    }
)
#: the words for a relative, one alternation (no group), read by this module's relation names and by the rules'
#: ``kin_name`` (:mod:`textanon.detect.rules`), each with the words of its own around it
KIN_WORDS = (
    r"brother|sister|son|daughter|wife|husband|partner|mother|father|mum|mom|dad|uncle|aunt|cousin|nephew|niece|"
    r"grandson|granddaughter|grandmother|grandfather|grandma|grandpa|fianc[ée]e?|boyfriend|girlfriend|sis|bro|hubby|"
    r"wifey|stepmum|stepmom|stepdad|grandad|granny|gran|nana|nan"
)
#: a person's relative, friend or colleague, then a given name in lower case ("my manager jess", "my sister sam"), the
#: way chats and posts write them: the generic NER misses it (a capitalized name is the NER's and ``kin_name``'s); not
#: an ordinary word that is also a name ("my friend will help")
RELATION_NAME = re.compile(
    r"(?i)\b(?:my|his|her|their|our|your)[ \t]+(?:(?:elder|older|younger|little|big|late|twin|step|half|best|"
    rf"old|ex)[ -]?)?(?:{KIN_WORDS}|auntie|friend|mate|bestie|bff|bf|gf|boss|manager|colleague|co-?worker|neighbou?r|"
    r"roommate|flatmate|housemate|teacher|coach|tutor|therapist|landlord|landlady|carer|caregiver|ex)s?,?[ \t]+"
    r"(?P<name>[^\W\d_][\w'’-]{1,24})\b"
)
#: the rules of this module whose spans are direct identifiers (always masked), whatever their label: the CODE
#: rules, and the names of the correspondents in headers, salutations and signatures
IDENTIFIER_RULE_NAMES = (
    frozenset(PATTERNS) | frozenset({"phone_number", "phone_labelled"}) | LETTER_NAME_RULES | TABLE_RULE_NAMES
)
#: stop words that end a lower-case number plate match ("ab12 and"): prose, not a plate
_PLATE_STOP = frozenset(
    "and the for was are not but has had his her you all any can may our out own per she too two via "
    "who why yet its one off get got let see set use new now how did".split()
)
#: file extensions that are also top-level domains: "setup.py" (one name and the extension, no path) is a file name;
#: not the country domains a court text may give ("example.md", "onet.pl", "b92.rs")
_FILE_SUFFIXES = frozenset("py sh so ps zip mov".split())
PHONE_REGIONS = ("GB", "US")
#: where a phone number may be: digits with separators (the matcher reads this with PHONE_CONTEXT characters around)
PHONE_CANDIDATE = re.compile(r"[+(]?\d[\d \t().\-/]{5,40}\d")
PHONE_CONTEXT = 12
PHONE_WINDOW = 5_000


def find_identifiers(text: str) -> List[Match]:
    """Every CODE identifier and letter name of ``text`` as ``(start, end, label, name)``, sorted; found in the
    normalized view of ``text`` as the rules are (:func:`textanon.detect.normalize.normalized`: a zero-width space
    inside an address, look-alike letters), the offsets are the original text's."""
    view = normalized(text)
    found = set(find_codes(view.text)) | set(find_letter_names(view.text)) | set(find_table_cells(view.text))
    found = {(*view.to_original(start, end), label, name) for start, end, label, name in found}
    return sorted(found | set(find_author_names(text)))  # footnote marks: read in the text as written


# -- CODE -------------------------------------------------------------------------------------------------------
#: patterns searched only in a text holding one of these strings in lower case (a device's name: a few substring
#: tests on the lower-cased text, not a case-insensitive match tried at every word)
_NEEDS = {
    "device_name": (
        "iphone",
        "ipad",
        "ipod",
        "macbook",
        "imac",
        "mac-mini",
        "galaxy",
        "pixel",
        "android",
        "laptop",
        "desktop",
        "pc",
    ),
    "partial_number": ("xx", "**", "••", "##"),
    "home_folder_user": ("/home/", "/users/", "\\users\\", "\\documents and settings\\"),
    "log_user": ("ccepted ", "ailed ", "sudo:"),
    # a platform's name (one of two letters before a space: "ig ", "fb ")
    "platform_user_name": tuple(p if len(p) > 2 else p + " " for p in PLATFORMS),
}


def find_codes(text: str) -> Iterator[Match]:
    """The CODE identifiers of ``text`` (see the module docstring)."""
    lower = None
    for name, regex in PATTERNS.items():
        needs = _NEEDS.get(name)
        if needs is not None:
            lower = text.lower() if lower is None else lower
            if not any(word in lower for word in needs):
                continue
        check = CHECKS.get(name)
        spanned = "span" in regex.groupindex  # the code is that group, the rest of the match its context
        for m in regex.finditer(text):
            if check is None:
                yield (*m.span("span" if spanned else 0), CODE, name)
                continue
            for start, end in check(text, m):
                if end > start:
                    yield start, end, CODE, name
    yield from find_phones(text)


def _postcode(text, m):
    if m.group("area").upper() not in UK_POSTCODE_AREAS:
        return []
    if m.group("inward")[1:] in ("st", "nd", "rd", "th"):  # "m1 5th": an ordinal, not an inward code
        return []
    return [m.span()]


def _plate(text, m):
    last = m.group("last")
    return [] if last.islower() and last in _PLATE_STOP else [m.span()]


@lru_cache(maxsize=1)
def _tld_extractor():
    # the bundled public-suffix snapshot only: no download, no cache folder
    return tldextract.TLDExtract(suffix_list_urls=(), cache_dir=None)


def public_suffix(host: str) -> bool:
    """``host`` ends with a public suffix and has a registrable name before it ("microsoft.com", "bbc.co.uk")."""
    result = _tld_extractor()(host.lower())
    return bool(result.suffix and result.domain and any(c.isalpha() for c in result.domain))


def _domain(text, m):
    host, tld, path = m.group("host"), m.group("tld"), m.group("path")
    if not (tld.islower() or host.isupper()):  # "end.It was": a missing space, not a domain
        return []
    if not path and tld.lower() in _FILE_SUFFIXES and host.count(".") == 1:
        return []
    return [m.span()] if public_suffix(host) else []


def _base58(text, m):
    try:
        raw = b58decode(m.group())
    except Exception:
        return []
    ok = len(raw) == 25 and hashlib.sha256(hashlib.sha256(raw[:-4]).digest()).digest()[:4] == raw[-4:]
    return [m.span()] if ok else []


def _obfuscated_email(text, m):
    at, domain = m.group("at"), m.group("domain")
    marked = "[" in at or "(" in at or "{" in at or "<" in at or re.search(r"(?i)dot", domain) is not None
    if not marked:  # "bob@gmail.com" is the email rule's, "met at microsoft.com" is no address
        return []
    host = re.sub(r"(?i)[ \t]*[\[({<]?[ \t]*\bdot\b[ \t]*[\])}>]?[ \t]*", ".", domain)
    return [m.span()] if public_suffix(host) else []


def _longest_valid(text, m, is_valid):
    """The longest prefix of the match's space-separated parts that ``is_valid`` accepts ("GB82 WEST ... 32 was")."""
    parts = list(re.finditer(r"\S+", m.group()))
    for k in range(len(parts), 0, -1):
        end = m.start() + parts[k - 1].end()
        if is_valid(text[m.start() : end]):
            return [(m.start(), end)]
    return []


def _iban(text, m):
    return _longest_valid(text, m, iban.is_valid)


def _card(text, m):
    digits = re.sub(r"\D", "", m.group())
    return [m.span()] if 13 <= len(digits) <= 19 and digits[0] in "23456" and luhn.is_valid(digits) else []


def _nhs(text, m):
    return [m.span()] if nhs.is_valid(m.group()) else []


def _ssn(text, m):
    if m.group("s") == "-":  # 123-45-6789 is the SSN/ITIN format, valid or not (a typo still identifies)
        return [m.span()]
    digits = m.group().replace("-", "").replace(" ", "")
    return [m.span()] if ssn.is_valid(digits) or itin.is_valid(digits) else []


def _vat(text, m):
    return _longest_valid(text, m, lambda s: sum(c.isdigit() for c in s) >= 7 and vatin.is_valid(s))


def _isbn(text, m):
    if m.group("span") is not None:
        return _longest_valid_group(text, m, "span", isbn.is_valid)
    return [m.span("bare")] if isbn.is_valid(m.group("bare")) else []


def _longest_valid_group(text, m, group, is_valid):
    start, end = m.span(group)
    for cut in [end] + [i for i in range(end - 1, start, -1) if text[i] in " \t-"]:
        piece = text[start:cut].rstrip(" \t-")
        if is_valid(piece):
            return [(start, start + len(piece))]
    return [(start, end)]  # "ISBN" said so: privacy first


def _coordinates(text, m):
    """A latitude of at most 90 and a longitude of at most 180 degrees, minutes under 60, a hemisphere's letter on
    both or neither ("12.345, 67.891": a pair of measures written with three decimals is masked too, privacy first)."""
    if (m.group("ns") is None) != (m.group("ew") is None):
        return []
    degrees = []
    for part in (m.group("lat"), m.group("lon")):
        numbers = [float(n) for n in re.findall(r"\d+(?:\.\d+)?", part)]
        if len(numbers) > 1 and any(n >= 60 for n in numbers[1:]):
            return []
        degrees.append(numbers[0])
    return [m.span()] if degrees[0] <= 90 and degrees[1] <= 180 else []


def _what3words(text, m):
    """Three slashes that open no longer run of slashes nor follow a word ("http:///a.b.c" is no address)."""
    before = text[m.start() - 1] if m.start() else " "
    return [] if before == "/" or before.isalnum() or before == "_" else [m.span()]


def _labelled_ssn(text, m):
    return [m.span("span")]


#: a platform's or an account's label right before the colon of :data:`PATTERNS` ``labelled_user_name``
_USER_NAME_LABEL = re.compile(
    rf"(?i)(?<![^\W_])(?:{'|'.join(PLATFORMS)}|signal|user[ _-]?name|screen[ _-]?name|handle|login|user[ _-]?id)"
    r"[ \t]*\Z"
)


def _labelled_user_name(text, m):
    return [m.span("span")] if _USER_NAME_LABEL.search(text, max(0, m.start() - 24), m.start()) else []


def _platform_user_name(text, m):
    """A handle after its platform's name: a letter and a digit, "_", "." or "@" in it (not a word of prose, not a
    year: "Steam 2024 sale")."""
    handle = m.group("span")
    return [m.span("span")] if re.search(r"[\d_.@]", handle) and re.search(r"[^\W\d_]", handle) else []


def _partial_number(text, m):
    """Three or more masking characters: "xxx-xx-4821", "****1234" (not "x2" or "xx 12")."""
    return [m.span()] if sum(c in "xX*•#" for c in m.group()) >= 3 else []


def _digit_groups(text, m):
    """A run of digit groups with nine digits or more, one separator throughout, one group of three digits or more."""
    groups = re.split(r"[ .-]", m.group())
    separators = set(re.findall(r"[ .-]", m.group()))
    if sum(map(len, groups)) >= 9 and len(separators) == 1 and max(map(len, groups)) >= 3:
        return [m.span()]
    return []


def _spelled_digits(text, m):
    """A number spelled digit by digit (``spelled_digits``) of :data:`SPELLED_MIN_DIGITS` digits or more, "double"
    and "triple" counted as the digits they write; not a count from one ("one, two, three, four, five, six, seven":
    each digit one more than the last)."""
    digits: List[int] = []
    repeat = 1
    for word in re.findall(r"[a-z]+", m.group().lower()):
        if word in ("double", "triple"):
            repeat = 2 if word == "double" else 3
        elif word in SPELLED_DIGITS:
            digits += [SPELLED_DIGITS[word]] * repeat
            repeat = 1
    if len(digits) < SPELLED_MIN_DIGITS or all(b == a + 1 for a, b in zip(digits, digits[1:])):
        return []
    return [m.span()]


CHECKS: dict = {
    "spelled_digits": _spelled_digits,
    "coordinates": _coordinates,
    "what3words": _what3words,
    "digit_groups": _digit_groups,
    "uk_postcode_any_case": _postcode,
    "plate_uk_any_case": _plate,
    "domain": _domain,
    "base58_address": _base58,
    "obfuscated_email": _obfuscated_email,
    "iban_checked": _iban,
    "card_number_luhn": _card,
    "nhs_number": _nhs,
    "us_ssn": _ssn,
    "us_ssn_labelled": _labelled_ssn,
    "labelled_user_name": _labelled_user_name,
    "platform_user_name": _platform_user_name,
    "partial_number": _partial_number,
    "vat_number": _vat,
    "isbn": _isbn,
}


def find_phones(text: str) -> Iterator[Match]:
    """Phone numbers: ``phonenumbers.PhoneNumberMatcher`` (leniency VALID) for :data:`PHONE_REGIONS`, numbers after
    a phone label (possible numbers, glued or not: "tel:4155550132") and every "+country" number."""
    for start, end in _phone_windows(text):  # the matcher only where 7 digits or more are close together
        for region in PHONE_REGIONS:
            for match in PhoneNumberMatcher(text[start:end], region, leniency=Leniency.VALID):
                yield start + match.start, start + match.end, CODE, "phone_number"
    for m in PHONE_LABELED.finditer(text):
        start, end = m.span("span")
        raw = text[start:end].rstrip(" \t(.-")
        if _possible_phone(phonenumbers, raw):
            yield start, start + len(raw), CODE, "phone_labelled"
    for m in PHONE_INTERNATIONAL.finditer(text):
        if _possible_phone(phonenumbers, m.group()):
            yield m.start(), m.end(), CODE, "phone_number"


def _phone_windows(text: str) -> Iterator[Tuple[int, int]]:
    """Where the phone matcher reads: each run of digits and separators with 7 digits or more, PHONE_CONTEXT
    characters around it on its line; overlapping windows joined up to PHONE_WINDOW characters (the matcher gives up
    after a fixed number of tries per text)."""
    current = None
    for m in PHONE_CANDIDATE.finditer(text):
        if sum(c.isdigit() for c in m.group()) < 7:
            continue
        line_start = text.rfind("\n", 0, m.start()) + 1
        line_end = text.find("\n", m.end())
        start = max(line_start, m.start() - PHONE_CONTEXT)
        end = min(len(text) if line_end < 0 else line_end, m.end() + PHONE_CONTEXT)
        if current and start <= current[1] and end - current[0] <= PHONE_WINDOW:
            current = (current[0], end)
            continue
        if current:
            yield current
        current = (start, end)
    if current:
        yield current


def _possible_phone(phonenumbers, raw: str) -> bool:
    digits = sum(c.isdigit() for c in raw)
    if not 7 <= digits <= 15:
        return False
    for region in PHONE_REGIONS:
        try:
            if phonenumbers.is_possible_number(phonenumbers.parse(raw, region)):
                return True
        except phonenumbers.NumberParseException:
            continue
    return False


# -- PERSON: names outside prose ------------------------------------------------------------------------------
def find_letter_names(text: str) -> Iterator[Match]:
    """Names in e-mail headers, salutations and signatures (label PERSON)."""
    for m in HEADER_LINE.finditer(text):
        for start, end in _header_names(text, m.start("rest"), m.end("rest")):
            yield start, end, PERSON, "header_name"
    for m in SALUTATION_LINE.finditer(text):
        names_start = m.start("names")
        pieces = [(start, _name_words(piece)) for start, piece in _pieces(m.group("names"), NAME_SEPARATOR)]
        if any(span is None for _, span in pieces):  # "Hey There, It's Yogi Bear!": not a list of names
            continue
        for start, (word_start, word_end) in pieces:  # "Julia, Tom and Anna"
            yield names_start + start + word_start, names_start + start + word_end, PERSON, "salutation_name"
    for m in INTRODUCTION.finditer(text):
        name, at = m.group("name"), m.start("name")
        surname = re.match(r"[^\W\d_][\w'’.-]*,[ \t]+", name)  # "Smith, John A.": the surname, then the given names
        parts = [(0, name)] if surname is None else [(0, name[: surname.end()]), (surname.end(), name[surname.end() :])]
        for offset, part in parts:
            span = _leading_name(part)
            if span is not None:
                yield at + offset + span[0], at + offset + span[1], PERSON, "introduced_name"
    for m in ALIAS.finditer(text):
        if m.group("quoted") is not None:
            if m.group("quoted").strip():
                yield m.start("quoted"), m.end("quoted"), PERSON, "alias_name"
            continue
        trigger = (m.group("trigger") or "").lower()
        if m.group("the") and trigger.startswith(("nick", "also")):  # "nicknamed the Rocky Steps": a place too
            continue
        span = _leading_name(m.group("words"))
        if span is not None:
            yield (
                m.start("the") if m.group("the") else m.start("words") + span[0],
                m.start("words") + span[1],
                PERSON,
                "alias_name",
            )
    for m in RELATION_NAME.finditer(text):
        name = m.group("name")
        # the cheap tests first: the name dictionary loads (0.1 s) only for a lower-case word that may be a name
        if name.islower() and name not in STOP_WORDS and not is_common_word(name) and given_name(name):
            yield m.start("name"), m.end("name"), PERSON, "relation_name"
    if "." in text:
        for m in FILE_NAME.finditer(text):
            yield from _file_name_person(m)
    for m in CHAT_SPEAKER.finditer(text):
        group = next(g for g in ("timed", "handle", "nick") if m.group(g))
        name = m.group(group)
        if is_field_label(name) or name.lower() in NOT_LETTER_NAMES:
            continue
        if group == "timed" and name.lower() in STOP_WORDS:
            continue  # "10:30 Then: ...": a function word, no speaker (privacy first: "10:30 Meeting:" is masked)
        yield m.start(group), m.end(group), PERSON, "chat_speaker"
    for regex in (SIGNATURE_SAME_LINE, SIGNATURE_NEXT_LINE):
        for m in regex.finditer(text):
            word_span = _name_words(m.group("name"), initials=True)
            if word_span is not None:
                start, end = m.start("name") + word_span[0], m.start("name") + word_span[1]
                initial = len(text[start:end].rstrip(".")) == 1  # "-- J.": linked to a full name, not looked for
                yield start, end, PERSON, "signature_initial" if initial else "signature_name"


NAME_SEPARATOR = re.compile(r"[ \t]*(?:,|&|\band\b)[ \t]*")
#: an author in a paper's author list: a given name, initials, one or two surnames
_AUTHOR_WORD = r"[A-Z\u00c0-\u00de](?:[^\W\d_\u00b2\u00b3\u00b9\u2070-\u2079]|['’-])+"
_AUTHOR = rf"{_AUTHOR_WORD}(?:[ \t]+(?:[A-Z]\.[ \t]*)+)?(?:[ \t]+{_AUTHOR_WORD}){{1,2}}"
#: the footnote marks after an author's name: superscript digits (with commas between) and symbols
_FOOTNOTE_SYMBOLS = "*\u2020\u2021\u00a7"
_AUTHOR_MARK = rf"(?:{SUPERSCRIPT_CLASS}+(?:,{SUPERSCRIPT_CLASS}+)*[{_FOOTNOTE_SYMBOLS}]*|[{_FOOTNOTE_SYMBOLS}]+)"
_AUTHOR_ITEM = rf"(?P<name>{_AUTHOR})(?P<mark>{_AUTHOR_MARK})?"
_AUTHOR_SEPARATOR = r"(?:[ \t]*,[ \t]*|[ \t]+and[ \t]+|[ \t]*&[ \t]*)"
#: a line that is only a list of two authors or more ("Jane Q. Doe¹*, John Roe²")
AUTHOR_LINE = re.compile(
    rf"(?m)^[ \t]*{_AUTHOR}(?:{_AUTHOR_MARK})?(?:{_AUTHOR_SEPARATOR}{_AUTHOR}(?:{_AUTHOR_MARK})?)+[ \t]*$"
)
_AUTHOR_ITEM_RE = re.compile(_AUTHOR_ITEM)


def find_author_names(text: str) -> Iterator[Match]:
    """The authors of a paper's author list: a line that is only two names or more, separated by commas, "and" or
    "&", with footnote marks after at least one of them ("Jane Q. Doe¹*, John Roe²": "Roe²" was one token no model
    read as a name; label PERSON, rule ``author_name``, always masked). Read in the text as written (the normalized
    view reads a footnote mark as a space)."""
    if not any(ch in text for ch in (*SUPERSCRIPT_DIGITS, *_FOOTNOTE_SYMBOLS)):
        return
    for line in AUTHOR_LINE.finditer(text):
        items = list(_AUTHOR_ITEM_RE.finditer(text, line.start(), line.end()))
        if any(m.group("mark") for m in items):
            for m in items:
                yield m.start("name"), m.end("name"), PERSON, "author_name"


#: a file's name with a document's, a picture's or an archive's extension ("payroll_2024_mike_rossi.xlsx")
FILE_NAME = re.compile(
    r"(?<![\w.-])(?P<stem>[^\W_][\w.-]{2,80}?)\.(?i:pdf|docx?|xlsx?|csv|txt|rtf|odt|pptx?|jpe?g|png|heic|zip|msg|eml)\b"
)
_STEM_PART = re.compile(r"[A-Za-z]+")
#: a surname in a file's name in lower case is a rare word (``wordfreq``'s Zipf scale): "rossi" 3.4, "period" 5.2
FILE_SURNAME_MAX_ZIPF = 4.0


def _file_name_person(m) -> Iterator[Match]:
    """A given name and the word after it in a file's name, the way people name their files ("payroll_2024_mike_rossi",
    "John_Smith_CV"): the first a given name of the name dictionary, the second capitalized or, in lower case, a rare
    word (:data:`FILE_SURNAME_MAX_ZIPF`), joined by "_", "-" or "."; PERSON (rule ``file_name_person``), always
    masked."""
    parts = list(_STEM_PART.finditer(m.group("stem")))
    base = m.start("stem")
    for first, second in zip(parts, parts[1:]):
        between = m.group("stem")[first.end() : second.start()]
        given, surname = first.group(), second.group()
        if between not in ("_", "-", ".") or len(given) < 3 or len(surname) < 3 or given.lower() in STOP_WORDS:
            continue
        name_like = surname[0].isupper() and given[0].isupper()
        rare = surname.islower() and zipf_frequency(surname, "en") < FILE_SURNAME_MAX_ZIPF
        if (name_like or rare) and given_name(given):
            yield base + first.start(), base + second.end(), PERSON, "file_name_person"
            return


def _pieces(text: str, separator) -> Iterator[Tuple[int, str]]:
    """The non-empty pieces of ``text`` between matches of ``separator``, with their offsets."""
    start = 0
    for sep in list(separator.finditer(text)) + [None]:
        end = sep.start() if sep else len(text)
        if text[start:end].strip():
            yield start, text[start:end]
        start = sep.end() if sep else end


def _name_words(name: str, initials: bool = False, with_address: bool = False):
    """``(start, end)`` in ``name`` of its name words: capitalized (or, next to an address, any case), none of them a
    word that is no name (:data:`NOT_LETTER_NAMES`); an initial alone only where ``initials`` ("-- J.")."""
    words = list(re.finditer(r"[^\W\d_][\w'’.-]*", name))
    if not words or len(words) > 5:
        return None
    for w in words:
        word = w.group().rstrip(".")
        if word.lower() in NOT_LETTER_NAMES:
            return None
        if not with_address and not word[:1].isupper():
            return None
    if len(words) == 1 and len(words[0].group().rstrip(".")) == 1 and not initials:
        return None
    end = words[-1].end()
    if name[end - 1 : end] == "." and len(words[-1].group()) > 2:  # "Julia." ends a sentence
        end -= 1
    return words[0].start(), end


def _leading_name(words: str):
    """``(start, end)`` in ``words`` of its leading name: the capitalized words (a courtesy title, initials
    included) up to the first word that is not one ("Dan and I" -> "Dan"); None when there is none."""
    end = 0
    for w in re.finditer(r"[^\W\d_][\w'’.-]*", words):
        word = w.group().rstrip(".")
        if not word[:1].isupper() or word.lower() in NOT_LETTER_NAMES or is_field_label(word):
            break  # "Patient: DOB 03/14/1962": a field label, no name
        end = w.end()
    if not end:
        return None
    span = _name_words(words[:end], initials=True)
    return None if span is None or re.fullmatch(LETTER_TITLES.rstrip("?"), words[: span[1]] + " ") else span


def _header_names(text: str, start: int, end: int) -> List[Tuple[int, int]]:
    """Names in the value of a From/To/Cc header: ``Name <addr>``, ``"Name" <addr>``, ``addr (Name)``, ``Name``."""
    found = []
    for item in _header_items(text, start, end):
        s, e = item
        value = text[s:e]
        angle = value.find("<")
        if angle >= 0 and "@" in value[angle:]:
            name_s, name_e = s, s + angle
            with_address = True
        elif "@" in value:
            paren = re.search(r"\(([^()]*)\)", value)
            if not paren:
                continue
            name_s, name_e = s + paren.start(1), s + paren.end(1)
            with_address = True
        else:
            name_s, name_e, with_address = s, e, False
        raw = text[name_s:name_e]
        stripped = raw.strip().strip("\"'“”‘’").strip()
        if not stripped or not HEADER_NAME.fullmatch(stripped):
            continue
        offset = name_s + raw.index(stripped)
        span = _name_words(stripped, with_address=with_address)
        if span is not None:
            found.append((offset + span[0], offset + span[1]))
    return found


def _header_items(text: str, start: int, end: int) -> Iterator[Tuple[int, int]]:
    """The comma/semicolon-separated items of a header value, separators inside quotes or <> ignored."""
    quote = angle = False
    item = start
    for i in range(start, end):
        c = text[i]
        if c == '"':
            quote = not quote
        elif c == "<" and not quote:
            angle = True
        elif c == ">" and not quote:
            angle = False
        elif c in ",;" and not quote and not angle:
            yield item, i
            item = i + 1
    yield item, end
