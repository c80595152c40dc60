"""Regular-expression rules for CODE, PERSON, DATETIME and QUANTITY mentions that statistical NER misses.

Each rule is ``(label, name, pattern)``; the name is recorded in ``span._.source`` as ``rule:<name>``.
Patterns are applied to the raw text and snapped outwards to token boundaries (a pattern that scans a
run of characters starts only where the run starts, so that hostile input stays linear); a pattern with a group
named ``span`` yields that group only (the rest is context, e.g. the "née" before a maiden name).

CODE rules are direct identifiers (the optimizer always masks them): application, case and file references, emails,
URLs, IBANs, card and phone numbers, IPv4/IPv6 addresses, UK postcodes (an outward code alone only in an address
context), national-insurance numbers, vehicle number plates, house/flat numbers in addresses, continental street
addresses (the house number after the street, "ul. Długa 5", "Hauptstraße 12", or the French "25 rue de Rivoli"; a
postcode and town written after them taken in), and any code after "no."/"number"/"passport"/"ID"... A number after
"no." is dropped only when the word before is a legal text ("Law no. 123", "Protocol No. 11"):
:data:`LEGAL_TEXT_WORDS`; "Article 6 § 1" is no code at all. PERSON rules: a name after a title ("Ms Hope Summers",
"Mr Will Power": capitalized words, whatever they mean) and a maiden name after "née".
"""

import re
from typing import Iterator, List, Optional, Pattern, Tuple

from spacy.lang.en.stop_words import STOP_WORDS

from textanon.detect.identifiers import IDENTIFIER_RULE_NAMES, KIN_WORDS, UK_POSTCODE_AREAS
from textanon.detect.normalize import normalized
from textanon.detect.target import NAME_LIKE_WORDS, RULE_TITLES, fold

#: a month of the Islamic (Hijri), the Persian (Solar Hijri) or the Hebrew calendar, as English texts transliterate
#: them: a year after one is no Gregorian year ("14 Jumada al-Awwal 1445" is November 2023, not "the 15th century";
#: "12 Adar 5784" is March 2024). Capitalized as English writes them (no IGNORECASE: a case-insensitive alternation
#: tried at every position costs 4-5 times more)
OTHER_CALENDAR_MONTHS = (
    r"(?:Muharram|Safar|Rabi(?:[ '‘’-]?(?:al|ul|ol|el)[ -]?|\s+)(?:Awwal|Awal|Thani|Thaani|Akhir|Akhar|Sani|I{1,2})|"
    r"Jumad[ae](?:[ '‘’-]?(?:al|ul|ol|el)[ -]?|\s+)(?:Awwal|Awal|Ula|Oula|Thani|Thaani|Akhira|Akhirah|Akhir|I{1,2})|"
    r"Rajab|Sha['‘’]?b[aā]n|Rama[dz][aā]n|Ramzan|Shawwal|Dh?[uo]l?[ -]?(?:al[ -])?Qa['‘’]?d(?:ah|a)?|"
    r"Dh?[uo]l?[ -]?(?:al[ -])?Hij(?:j)?(?:ah|a)?|Zul[ -]?(?:Qa['‘’]?dah|Hijjah)|"
    r"Farvardin|Ordibehesht|Khordad|Tir|Mordad|Shahrivar|Mehr|Aban|Azar|Dey|Bahman|Esfand|"
    r"Tishrei|Tishri|Cheshvan|Heshvan|Marcheshvan|Kislev|Tevet|Teveth|Shevat|Shvat|Adar(?:[ \t]+(?:II|I|Bet|Aleph))?|"
    r"Nisan|Nissan|Iyar|Iyyar|Sivan|Tammuz|Tamuz|Elul)"
)
#: month names of French, Spanish, Italian, German, Portuguese and Dutch dates (English-like ones, "april", "august",
#: "september", and the English names the other rules read aside: whole dates only, with their year)
OTHER_LANGUAGE_MONTHS = (
    r"(?:janvier|février|fevrier|mars|avril|mai|juin|juillet|août|aout|septembre|octobre|novembre|décembre|decembre|"
    r"enero|febrero|marzo|abril|mayo|junio|julio|agosto|septiembre|setiembre|octubre|noviembre|diciembre|"
    r"gennaio|febbraio|aprile|maggio|giugno|luglio|settembre|ottobre|dicembre|"
    r"januar|jänner|februar|märz|juni|juli|oktober|dezember|"
    r"janeiro|fevereiro|março|maio|junho|julho|setembro|outubro|dezembro|"
    r"januari|februari|maart|mei|augustus|oktober)"
)
_MONTH_NAMES = (
    "January February March April May June July August September October November December "
    "Jan Feb Mar Apr Jun Jul Aug Sep Sept Oct Nov Dec"
).split()
#: a month name or abbreviation, capitalized or upper case ("May", "MAY"; never "may": "section 5 may apply")
MONTHS = r"(?:" + "|".join(_MONTH_NAMES + [m.upper() for m in _MONTH_NAMES]) + r")\.?"
#: between the parts of a written date: spaces, or one hyphen ("5-May-2021", "May-2021")
DATE_SEP = r"(?:\s+|-)"
CURRENCY_CODES = (
    r"(?:EUR|USD|GBP|CHF|TRY|RUB|PLN|UAH|RON|BGN|HUF|CZK|SEK|NOK|DKK|HRK|ATS|DEM|FRF|ITL|ESP|GRD|YTL|TRL|SIT|SKK)"
)
CURRENCY_WORDS = (
    r"(?:euros?|dollars?|pounds?(?: sterling)?|francs?|lira|liras|lire|roubles?|rubles?|zlotys?|"
    r"hryvnias?|marks?|drachmas?|pesetas?|schillings?|kroner|kronor|forints?|lei|levs?|korunas?|kunas?|tolars?|"
    r"US dollars)"
)
NUMBER = r"\d{1,3}(?:[,. ]\d{3})+(?:[.,]\d+)?|\d+(?:[.,]\d+)?"
#: upper-case letters, ASCII and Latin-1/Latin Extended-A/B ("Ștefan", "Łukasz", "Émile")
UPPER = "A-Z" + "".join(c for c in map(chr, range(0xC0, 0x250)) if c.isupper() and c.lower() != c)
NAME_WORD = rf"[{UPPER}][\w'’]*(?:-[{UPPER}][\w'’]*)?"
ANY_WORD = r"[^\W\d_][\w'’]*(?:-[^\W\d_][\w'’]*)?"
#: a title before a name (:data:`textanon.detect.target.RULE_TITLES`), capitalized, or in upper case for the usual four
NAME_TITLES = (
    "(?:"
    + "|".join(sorted({t.capitalize() for t in RULE_TITLES} | {"MR", "MRS", "MS", "DR"}, key=lambda t: (-len(t), t)))
    + ")"
)
#: one space, or one line break, between two words of a name
NAME_GAP = r"(?:[ \t]+|[ \t]*\r?\n[ \t]*)"
#: initials before a surname: "E. ", "H.S. ", "J.-P. " (one way to match a run: no backtracking blow-up)
INITIALS = r"(?:[A-Z]\.-?\s*)*"
#: police and military ranks used as titles (:data:`PERSON_PATTERNS` ``ranked_name``)
RANKS = r"(?:Sergeant|Sgt|Constable|Inspector|Insp|Superintendent|Lieutenant|Captain|Corporal|Colonel)"
#: words of an office after "Lord"/"Lady"/"Judge" ("Lord Chancellor", "Lord Chief Justice"): not a name; the name, if
#: any, comes after them ("Lord Justice Nourse")
OFFICE_WORDS = frozenset(
    "chancellor chief justice advocate president mayor provost privy commissioner ordinary judge clerk registrar "
    "secretary minister speaker general lieutenant high chamberlain steward bishop".split()
)
#: titles after which a lower-case word may still be a name ("Mr igor munteanu"); after the others ("Judge", "Lord")
#: only capitalized words are taken
PERSONAL_TITLES = frozenset({"mr", "mrs", "ms", "miss", "mx", "dr", "mme", "mlle"})
HEX4 = r"[0-9A-Fa-f]{1,4}"
#: street-type words after which a preceding number is a house number ("12 Baker Street")
STREET_WORDS = (
    r"(?:Street|St|Road|Rd|Avenue|Ave|Lane|Ln|Drive|Close|Place|Square|Sq|Terrace|Way|Crescent|"
    r"Gardens|Boulevard|Blvd|Mews|Grove|Parade|View|Walk|Rise|Vale|Wharf|Quay|Yard|Highway|Hwy|Ct|Cir|Pkwy|"
    r"Strasse|Straße|Rue|Via|Calle|Strada|Str)"
)
#: the street types written in lower case by chats and forms after a capitalized name ("5521 Belmont ave"): only the
#: abbreviations ("the 2004 Olympic road race" is no address)
STREET_WORDS_LOWER = r"(?:ave|st|rd|blvd|ln|hwy|pkwy)"
#: continental street types written before the street's name, in either case ("ul. Długa 5", "rue de Rivoli 25",
#: "calle Mayor 3", "Rua Augusta 100"; Polish, French, Spanish, Catalan, Portuguese, Italian, Romanian, Czech,
#: Russian/Ukrainian transliterated); the ones that are also English words ("via", "corso", "largo", "strada") only
#: capitalized (:data:`STREET_TYPES_CAPITALIZED`); "Place", "Avenue" and "Plaza" not at all before a name ("Melrose
#: Place", "Avenue Productions"): French writes the number first (``number_then_street_type``)
STREET_TYPES_BEFORE = (
    r"(?:[Uu]l\.|[Uu]lica|[Aa]l\.|[Aa]leja|[Pp]l\.|[Pp]lac|[Oo]s\.|[Oo]siedle|[Rr]ue|[Bb]oulevard|[Bb]d\.|[Bb]vd\.?|"
    r"[Cc]hemin|[Qq]uai|[Aa]llée|[Ii]mpasse|[Vv]iale|[Pp]iazza|[Pp]iazzale|[Vv]icolo|[Cc]alle|[Cc]/|[Aa]venida|"
    r"[Aa]vda\.|[Pp]aseo|[Cc]arrer|[Rr]ua|[Tt]ravessa|[Pp]raça|[Uu]litsa|[Pp]rospekt|[Pp]rovulok|[Vv]ulytsia|"
    r"[Bb]ulevardul|[Ss]tr\.|[Cc]alea|[Ss]oseaua|[Uu]lice|[Nn]áměstí|[Tt]řída|[Bb]ulevar)"
)
STREET_TYPES_CAPITALIZED = r"(?:Via|Corso|Largo|Strada)"
#: Welsh, Irish and Scottish Gaelic street types, written before the name and after the house number, as in English
#: ("27 Heol y Nant", "4 Ffordd Las", "12 Sráid an Mhuilinn", "3 Rathad na Mara")
CELTIC_STREET_TYPES = r"(?:[Hh]eol|[Ff]fordd|[Ss]tryd|[Ll]ôn|[Rr]hodfa|[Ss]ráid|[Bb]óthar|[Ss]ràid|[Rr]athad)"
#: street names ending in their type, written as one word ("Hauptstraße", "Kungsgatan", "Vesterbrogade",
#: "Keizersgracht", "Váci utca" is two words: :data:`STREET_TYPES_AFTER`)
STREET_COMPOUND = (
    rf"[{UPPER}][\w'’-]*?(?:straße|strasse|str\.|gasse|weg|allee|platz|damm|ufer|gatan|vägen|gata|väg|veien|"
    r"vej|gade|stræde|torv|plads|straat|laan|gracht|plein|kade|singel)"
)
#: street types written after the name as a word of their own ("Váci utca 5", "Atatürk Caddesi 12", "Bağdat Cad. 4")
STREET_TYPES_AFTER = (
    r"(?:utca|út|útja|tér|körút|[Ss]okak|[Ss]okağı|[Cc]addesi|[Cc]ad\.|[Ss]ok\.|[Bb]ulvarı|gate|gata|gade|vei|vej)"
)
#: a word of a street's name after its type: capitalized, or a particle ("rue de la Paix", "Rua dos Douradores")
STREET_NAME_WORD = (
    rf"(?:[{UPPER}][\w'’.-]*|\d{{1,2}}(?:-?(?:go|ego|th|st|nd|rd|er|e))?(?=\s+[{UPPER}])|(?:de|del|della|delle|dei|degli|di|"
    rf"da|do|dos|das|du|des|la|le|les|el|los|las|sur|der|den|cel|lui|y|yr|na|an)\b|[ld]['’][{UPPER}][\w'’.-]*)"
)
#: a house number of a continental address (and flat: "5/12", "12a", "14-16", "7 bis"): at most three digits, so never a
#: year ("Melrose Place in 1994") or a catalogue number ("Avenue Productions MAPI 8486")
HOUSE_NUMBER = r"\d{1,3}[A-Za-z]?(?:\s?(?:bis|ter))?(?:\s?[/-]\s?\d{1,4}[A-Za-z]?)?"
#: a continental postcode and its town after an address (", 00-238 Warszawa", ", 75008 Paris", ", D-10115 Berlin",
#: ", 1012 AB Amsterdam", ", 1010 Wien"), taken into the address's span
POSTCODE_TOWN = (
    rf"(?:,?\s+(?:[A-Z]{{1,2}}-)?(?:\d{{2}}-\d{{3}}|\d{{4}}(?:\s?[A-Z]{{2}}\b)?|\d{{5}}|\d{{3}}\s\d{{2}})\s+"
    rf"[{UPPER}][\w'’-]*(?:[ -][{UPPER}][\w'’-]*)?)?"
)
#: what a number after a street-like phrase is when it is no house number ("via Rome 12 times", "Place 2 votes")
NOT_A_HOUSE = (
    r"(?!\s*(?:%|per\b|percent|times|years?|months?|weeks?|days?|hours?|minutes?|km|kilomet|miles?|metres?|meters?|"
    r"kg|votes?|people|persons?|points?|goals?|[AaPp]\.?[Mm]\.?\b))"
)
#: a whole number that is a valid date written with one separator twice: ISO "2024-02-03", day first "03.04.2001"
#: or "14-09-09", month first "03-14-1962" (days 1-31, months 1-12), nothing numeric after it but a time of day
#: ("2024-02-03 12:30")
_DAY, _MONTH = r"(?:0?[1-9]|[12]\d|3[01])", r"(?:0?[1-9]|1[0-2])"
NUMERIC_DATE_WHOLE = (
    rf"(?:(?:1[6-9]|20)\d{{2}}(?P<iso>[-./]){_MONTH}(?P=iso){_DAY}"
    rf"|{_DAY}(?P<dmy>[-.]){_MONTH}(?P=dmy)(?:(?:1[6-9]|20)\d{{2}}|\d{{2}})"
    rf"|{_MONTH}(?P<mdy>[-.]){_DAY}(?P=mdy)(?:(?:1[6-9]|20)\d{{2}}|\d{{2}}))"
    r"(?:(?![ .-]?\d)|(?=[ T]\d{1,2}:\d{2}\b))"
)
#: labels after which an alphanumeric run is an identifier ("passport no. 123456789", "ID No 123")
ID_LABELS = (
    r"(?:[Pp]assport|[Ii]dentity [Cc]ard|ID [Cc]ard|ID|I\.D\.|[Ll]icen[cs]e|[Aa]ccount|[Rr]ef(?:erence)?|"
    r"[Mm]embership|[Cc]ustomer|[Pp]olicy|[Tt]ax|[Ss]ocial [Ss]ecurity|SSN|NINO|[Nn]ational [Ii]nsurance|NI|"
    r"[Pp]ersonal|[Rr]egistration|[Vv]ehicle|[Pp]late|[Ss]ort [Cc]ode|[Cc]ase|[Ff]ile|[Aa]pplication|[Cc]laim|"
    r"MRN|[Mm]edical [Rr]ecord|NHS|CHI|IMEI|VIN|[Ss]erial|[Ii]nvoice|[Tt]racking|[Rr]outing|[Bb]adge|"
    r"ZIP(?: [Cc]ode)?|[Zz]ip(?: [Cc]ode)?|[Pp]ostal [Cc]ode|[Pp]ost ?[Cc]ode|"
    # the numbers an employer, a school, a shop or a court gives a person ("employee no is E-20394", "Booking
    # confirmation 7HQ2KX", "docket 23-1187")
    r"[Ee]mployee|[Ss]taff|[Ss]tudent|[Pp]upil|[Pp]atient|[Mm]ember|[Pp]ayroll|[Pp]ersonnel|[Bb]ooking|"
    r"[Cc]onfirmation|[Rr]eservation|[Oo]rder|[Tt]icket|[Dd]ocket|[Ww]arrant|[Cc]ollar|[Pp]rison(?:er)?|"
    r"[Ii]nmate|[Cc]ustody|[Bb]ank [Aa]ccount|[Ll]oyalty [Cc]ard|"
    # tax and professional registers, a frequent flyer's account ("EIN 12-3456789", "UTR 1234567890", "GMC 7012345",
    # "frequent flyer EI 445 882 110": session 73's users' documents had kept the first and the last)
    r"EIN|FEIN|ITIN|TIN|UTR|EORI|NPI|GMC|NMC|HCPC|[Ff]requent [Ff]lyer|"
    # a researcher's registry ids ("ResearcherID B-7543-2011" had become "ResearcherID the 21st century": its year)
    r"ResearcherID|Researcher(?= ID)|Scopus(?: [Aa]uthor)?(?= ID))"
)
#: an identifier: starts with a capital letter or digit, may continue over single spaces ("QQ 12 34 56 C")
CODE_RUN = r"[A-Z0-9](?:[A-Z0-9/.-]*[A-Z0-9])?(?:\s[A-Z0-9/.-]+\b)*"  # not the full stop ending a sentence
#: a number after "no." is a reference into a legal text when one of these words comes before "no."
LEGAL_TEXT_WORDS = frozenset(
    {
        "law",
        "laws",
        "act",
        "acts",
        "protocol",
        "protocols",
        "decree",
        "decrees",
        "resolution",
        "directive",
        "regulation",
        "ordinance",
        "constitution",
        "treaty",
        "convention",
        "article",
        "articles",
        "rule",
        "rules",
        "section",
        "paragraph",
        "recommendation",
        # the same in the languages of the parties' legal texts ("bekendtgørelse nr. 224", "Ustawa nr 12")
        "lov",
        "loven",
        "bekendtgørelse",
        "ustawa",
        "kanun",
        "loi",
        "décret",
        "gesetz",
        "zakon",
        "legge",
        "ley",
        "decreto",
    }
)
#: an EU legal act ("83/189/EEC", "2004/38/EC"): a reference into a legal text, not an identifier
EU_LEGAL_ACT = re.compile(r"\d{2,4}/\d{1,4}/(?:EEC|EC|EU|CE|EG|EWG|Euratom)\b")
#: a numbered case title "X v. Y (no. 2)" or a volume of the Court's Reports ("Reports 1997-I, no. 30")
CASE_TITLE_NUMBER = re.compile(r"\(\s*[Nn]o\.\s*\d{1,2}\s*\)")
REPORTS_VOLUME = re.compile(r"\b\d{4}-[IVX]+\b")
#: the Court's former law reports, cited "Series A no. 94": a reference, not an identifier
REPORTS_SERIES = re.compile(r"\bSeries [AB],?\s*$")

#: the types of case of a US federal docket number ("cv" civil, "cr" criminal, "mj" magistrate judge...)
DOCKET_TYPES = ("cv", "cr", "mj", "mc", "md", "bk", "ap", "po", "sw", "civ", "crim")
#: the courts of neutral citations (UK, Ireland, Australia, New Zealand, Canada): "[2019] EWCA Crim 1123"
NEUTRAL_CITATION_COURTS = (
    "UKSC", "UKHL", "UKPC", "UKUT", "UKFTT", "UKEAT", "UKIPTrib", "EWCA", "EWHC", "EWFC", "EWCOP", "EWMC", "CSIH",
    "CSOH", "HCJAC", "SAC", "NICA", "NIQB", "NICh", "NIFam", "IESC", "IECA", "IEHC", "HCA", "FCA", "FCAFC", "NSWSC",
    "NSWCA", "VSC", "VSCA", "QCA", "NZSC", "NZCA", "NZHC", "SCC", "ONCA", "BCCA", "ONSC",
)  # fmt: skip
#: CODE rules (identifiers), name -> pattern
CODE_PATTERNS = {
    "application_number": r"(?<![/.])\b\d{1,6}/\d{2,4}\b(?![/.]\d)",
    "email": r"(?<![\w.+-])[\w.+-]+@[\w-]+(?:\.[\w-]+)+\b",
    "url": r"\b(?:https?://|www\.)[^\s<>\"')]+[^\s<>\"').,;:]",
    # an e-mail address whose local part's dots are written out too ("jane [dot] doe [at] gmail [dot] com": its words
    # had been masked piece by piece, the user's given name kept); the other written-out forms ("jane[at]acme[dot]io",
    # "john at example dot org") are textanon.detect.identifiers' obfuscated_email
    "email_spelled_out": (
        r"(?<![\w.+-])[\w+-]+(?:[ \t]*[\[(][ \t]*(?:dot|DOT)[ \t]*[\])][ \t]*[\w+-]+)+"
        r"[ \t]*[\[(][ \t]*(?:at|AT|@)[ \t]*[\])][ \t]*[\w-]+"
        r"(?:[ \t]*[\[(][ \t]*(?:dot|DOT)[ \t]*[\])][ \t]*[\w-]+|\.[\w-]+)+"
    ),
    # a Reddit user name ("u/throwaway_jane", "/u/jdoe"): a handle, as an @handle is
    "reddit_user": r"(?<![\w/])/?u/[A-Za-z0-9][\w-]{2,19}\b",
    "iban": r"\b[A-Z]{2}\d{2}(?: ?[A-Z0-9]{4}){3,7}(?: ?[A-Z0-9]{1,3})?\b",
    # not a date written with one separator twice ("2024-02-03", "03.04.2001", "14-09-09": DATETIME_PATTERNS'
    # numeric_date), which is no direct identifier
    "phone": r"(?<![\w/])(?<!\d[-.])(?!"
    + NUMERIC_DATE_WHOLE
    + r")\+?\(?\d{2,4}\)?[ .-]\d{2,4}[ .-]\d{2,6}(?:[ .-]\d{2,4})?\b(?!/)",
    # letters and at least three digits, e.g. passport "AB1234567" (not "COVID-19")
    # not a month and year in capitals ("MAY-2021": a date, :data:`DATETIME_PATTERNS`)
    "id_number": (
        r"\b(?!(?:" + "|".join(m.upper() for m in _MONTH_NAMES) + r")-\d{2}(?:\d{2})?\b)"
        # not an ISO date and hour ("2024-02-03T12:30"), nor its end
        r"(?<!\d-)(?!(?:1[6-9]|20)\d{2}-\d{2}-\d{2}T\d{2}\b)"
        r"(?=(?:[A-Z-]*\d){3})(?=[A-Z0-9-]*[A-Z])[A-Z0-9]{2,}(?:-[A-Z0-9]+)*\b"
    ),
    "case_reference": (
        r"\b(?:[Cc]ase|[Ff]ile|[Dd]ecision|[Rr]eference|[Rr]eg(?:istration)?)\s+(?:[Nn]o\.?|[Nn]umber)"
        r"\s*[A-Z0-9][\w./-]*\d[\w./-]*"
    ),
    # a neutral citation of a judgment ("[2019] EWCA Crim 1123", "[2018] EWHC 123 (QB)", "[2020] UKSC 5", "[2015]
    # IEHC 77", "[2012] HCA 14"): one identifier of one case, found by it in any law library; a report's volume and
    # page ("[2001] 3 WLR 533") are not one
    "neutral_citation": (
        r"\[(?:1[89]|20)\d{2}\][ \t]+(?:" + "|".join(NEUTRAL_CITATION_COURTS) + r")"
        r"(?:[ \t]+(?:Civ|Crim|Admin|IAC|AAC|LC|TCC|TC|GRC|B))?[ \t]+\d{1,5}"
        r"(?:[ \t]*\((?:Admin|Ch|QB|KB|Fam|Comm|TCC|Pat|IPEC|Costs|Mercantile|IAC|AAC|LC|TC)\))?(?!\w)"
    ),
    # a US federal court's docket number ("1:23-cv-04417", "2:19-cr-00123-JAM-1", "23-mj-0456"): the office, the
    # year, the type of case, its number, the judges' initials
    "us_docket": (
        r"(?<![\w:.-])(?:\d{1,2}:)?\d{2}-(?i:" + "|".join(DOCKET_TYPES) + r")-\d{2,6}"
        r"(?:-[A-Z]{1,4}){0,3}(?:-\d{1,2})?(?![\w-])"
    ),
    # a police officer's collar or shoulder number after the rank ("PC 4471", "PCSO 7712", "DS 2205"): it names the
    # officer as the surname does
    "police_number": r"\b(?:PC|PCSO|WPC|DC|DS|PS|SC|Sgt\.?|Insp\.?)[ \t]*#?(?P<span>\d{3,6})\b(?![/.,]\d)",
    # a reference with a slash, letters and digits: "2006/SHF/1123", "AB/123"
    "slash_reference": (
        r"(?<![\w/.-])(?=[\w/.-]*?[A-Za-z])(?=[\w/.-]*?\d)[A-Za-z0-9]+(?:[.-][A-Za-z0-9]+)*"
        r"(?:/[A-Za-z0-9]+(?:[.-][A-Za-z0-9]+)*)+\b"
    ),
    # whatever follows "no."/"number"/"#" and contains a digit ("passport no. 123456789"; see LEGAL_TEXT_WORDS)
    "number_after_no": (
        r"(?:\b(?:[Nn]o|NO|[Nn]os|[Nn]r|[Nn]um|[Nn]umber)\b\.?|#)\s*:?\s*"
        r"(?P<span>(?=[A-Z0-9/.-]*\d)" + CODE_RUN + ")"
    ),
    "labelled_identifier": (
        r"\b" + ID_LABELS + r"\s*(?:(?:[Nn]o\.?|[Nn]os\.?|[Nn]umber|[Nn]r\.?|#|[Cc]ode|ID)(?:\s+(?:is|was)\b)?)?"
        r"\s*[:=]?\s*(?P<span>(?=[A-Z0-9/.-]*\d)" + CODE_RUN + ")"
    ),
    # an identity document's series and number, one identifier: "passport series FE no. 482913", "ID card (series
    # 4508, No 123456)", "CI seria RX nr. 123456"; the English word only after a document's (:func:`_out_of_context`),
    # so a law report's "Series A no. 94" stays a reference
    "document_series": (
        r"\b(?P<keyword>[Ss]eries|SERIES|[Ss]er\.|[Ss]eria|SERIA|[Ss]erie|SERIE|[Сс]ерия|СЕРИЯ)\s*:?\s*"
        r"(?P<span>(?:[A-Z]{1,4}|\d{2} ?\d{2}|[IVXLC]{1,4}-[A-Z]{2})(?:\s*,)?\s*"
        r"(?:(?:[Nn]o\.?|NO\.?|[Nn]umber|NUMBER|[Nn]r\.?|№|#)\s*:?\s*)?\d(?:[\d ]{2,12}\d))"
    ),
    # a number plate after its label, groups of letters and digits apart ("licence plate KA 1234 BC")
    "plate_labelled": (
        r"\b[Pp]late(?:\s+(?:[Nn]o\.?|[Nn]umber))?\s*:?\s*"
        r"(?P<span>(?=[A-Z0-9 -]{0,6}\d)[A-Z0-9]{1,4}(?:[ -][A-Z0-9]{1,4}){1,3})\b"
    ),
    "card_number": r"\b\d{4}(?:[ -]?\d{4}){2,3}(?:[ -]?\d{1,3})?\b",
    "ipv4": r"\b(?:25[0-5]|2[0-4]\d|1?\d?\d)(?:\.(?:25[0-5]|2[0-4]\d|1?\d?\d)){3}\b",
    "ipv6": (
        rf"(?<![\w:])(?:(?:{HEX4}:){{7}}{HEX4}|(?:{HEX4}:){{1,6}}:(?:{HEX4}(?::{HEX4}){{0,5}})?"
        rf"|::{HEX4}(?::{HEX4}){{0,6}})(?![\w:])"
    ),
    # the shortest IPv6 address, "::" (all zeros), only where the text says it is an address ("local ipv6 ::")
    "ipv6_unspecified": r"(?i:\bip(?:v6)?(?:[ \t]+address)?[ \t]*:?[ \t]+)(?P<span>::)(?![\w:])",
    "uk_postcode": r"\b[A-Z]{1,2}\d[A-Z\d]?\s*\d[A-Z]{2}\b",
    # a US ZIP code after the state's two letters ("Washington, DC 20500", "CA 90210-1234")
    "us_zip": (
        r"\b(?:A[KLRZ]|C[AOT]|D[CE]|FL|GA|HI|I[ADLN]|K[SY]|LA|M[ADEINOST]|N[CDEHJMVY]|O[HKR]|PA|PR|RI|S[CD]|T[NX]|UT"
        r"|V[AT]|W[AIVY])[ \t]+(?P<span>\d{5}(?:-\d{4})?)(?![\w-])"
    ),
    # an outward code alone ("NW1") after a town, a street or "postcode"
    "uk_outward_code": (
        r"(?:\b(?:London|[Pp]ost ?[Cc]ode:?)\s+|"
        + STREET_WORDS
        + r",\s*(?:[A-Z][a-z]+,?\s+)?)(?P<span>[A-Z]{1,2}\d{1,2}[A-Z]?)\b"
    ),
    # an outward code after a town at the end of a field ("| Leeds LS6", "Leeds LS6\n" in a CV's header): a known
    # postcode area (:func:`_out_of_context`)
    "uk_outward_code_field": (
        r"(?m)(?:^|[,|•·])[ \t]*[A-Z][a-z]+(?:[ -][A-Z][a-z]+){0,2}[ \t]+(?P<span>(?P<area>[A-Z]{1,2})\d{1,2}[A-Z]?)"
        r"[ \t]*(?=$|[,|•·)])"
    ),
    "national_insurance": r"\b[A-Z]{2} ?\d{2} ?\d{2} ?\d{2}(?: ?[A-D])?\b",
    # vehicle plates: UK "AB12 CDE", RO "B 123 ABC", FR/IT "AB-123-CD", ES "1234 BCD", DE "M-AB 1234", NL "12-ABC-3"
    "plate_uk_ro": r"\b[A-Z]{1,2}[- ]?\d{2,3}[- ]?[A-Z]{3}\b",
    "plate_fr_it": r"\b[A-Z]{2}[- ]?\d{3}[- ]?[A-Z]{2}\b",
    "plate_es": r"\b\d{4}[- ]?[B-DF-HJ-NP-TV-Z]{3}\b",
    "plate_de": r"\b[A-ZÄÖÜ]{1,3}-[A-Z]{1,2} ?\d{1,4}[EH]?\b",
    "plate_nl": r"\b(?=[A-Z0-9-]*\d)(?=[A-Z0-9-]*[A-Z])[A-Z0-9]{1,3}-[A-Z0-9]{2,3}-[A-Z0-9]{1,3}\b",
    # house and flat numbers: "Flat 3", "Apartment 12B", "12 Baker Street" (the number)
    "flat_number": (
        r"\b(?:[Ff]lat|[Aa]partment|[Aa]pt\.?|[Uu]nit|[Ss]uite|[Hh]ouse|[Bb]lock|[Ff]loor|FLAT|APARTMENT|APT\.?|UNIT|"
        r"SUITE|HOUSE|BLOCK|FLOOR)\s+"
        r"(?P<span>\d+[A-Za-z]?)\b"
    ),
}
#: a UK town or county as an address writes it: capitalized words, with the small words of place names between them
#: ("Much Wenlock", "Newcastle upon Tyne", "Stratford-upon-Avon", "Weston-super-Mare", "Bishop's Stortford")
UK_TOWN = r"[A-Z][a-z'’]+(?:(?:[ \t]+|-)(?:upon|on|in|under|le|by|next|the|super|en|sub|cum|[A-Z][a-z'’]+)){0,3}"
#: addresses: a direct identifier (found by a CODE rule, always masked) labelled LOC as a whole, the house number
#: and the street ("12 Baker Street"), as TAB's annotators mark them
ADDRESS_PATTERNS = {
    # a US street's direction after the number: "1847 W. Maple Ave", "350 NE Oak Street"
    "house_number": (
        # and a numbered street ("221 E 21st St", "25 W 4th Street": the house number had stayed beside "E *** St")
        r"\b\d{1,4}[A-Za-z]?(?:-\d{1,4})?,?\s+(?:(?:[NSEW]|NE|NW|SE|SW)\.?\s+)?"
        r"(?:(?:[A-Z][\w'’-]+|\d{1,3}(?:st|nd|rd|th))\s+){1,3}"
        + f"(?:{STREET_WORDS}|{STREET_WORDS.upper()}"  # a statement in capitals: "12 LIPOWA STREET"
        # a chat's or a form's street type in lower case after the capitalized name ("ship it to 5521 Belmont ave":
        # the number and "ave" had stayed around "a city")
        + "|"
        + STREET_WORDS_LOWER
        # a US "Dr" (drive) ends the street ("1550 N Lake Shore Dr, Chicago"), never a doctor's title before a name
        + r"|(?:Dr|DR)(?!\.?[ \t]+[A-Z]))"
        + r"\b"
    ),
    # a post-office box ("P.O. Box 1234", "PO Box 77", "GPO Box 12"): its number had been read as a year
    "po_box": r"\b(?:G?P\.?[ \t]?O\.?|Post[ \t]+Office|POST[ \t]+OFFICE)[ \t]*(?:Box|BOX|box)[ \t]+\d{1,6}\b",
    # one-word street names ("10 Kingsway", "5 Broadway"; not "1995 Norway": a closed list, no suffix rule); "Court",
    # "Park", "Hill" and the like are no street words (court texts: "5 Supreme Court judges"), only after a flat
    "house_number_compound": (
        r"\b\d{1,4}[A-Za-z]?,?\s+(?:Kingsway|Queensway|Broadway|Parkway|Causeway|Northway|Southway|Eastway|Westway)\b"
    ),
    # after a flat number the next number and its capitalised words are the building and street, whatever the
    # street is called ("Flat 33, 10 Harbour View")
    "house_after_flat": (
        r"\b(?:[Ff]lat|[Aa]partment|[Aa]pt\.?|[Uu]nit|[Ss]uite)\s+\d+[A-Za-z]?,\s+"
        r"(?P<span>\d{1,4}[A-Za-z]?\s+(?:(?:[NSEW]|NE|NW|SE|SW)\.?\s+)?[A-Z][\w'’-]+(?:\s+[A-Z][\w'’-]+){0,3})"
    ),
    # continental addresses, the house number after the street (and the postcode and town after it, when written):
    # "ul. Długa 5, 00-238 Warszawa", "rue de Rivoli 25", "Via Roma 10", "calle Mayor 3, 28013 Madrid"
    "street_type_then_number": (
        rf"(?<![\w.])(?:{STREET_TYPES_BEFORE}|\b{STREET_TYPES_CAPITALIZED}\b)\s*{STREET_NAME_WORD}"
        rf"(?:\s+{STREET_NAME_WORD}){{0,4}},?\s+{HOUSE_NUMBER}\b{NOT_A_HOUSE}{POSTCODE_TOWN}"
    ),
    # "Hauptstraße 12", "Kungsgatan 4", "Keizersgracht 123, 1015 CJ Amsterdam"
    "street_compound_then_number": (
        rf"\b{STREET_COMPOUND}(?:\s+{STREET_NAME_WORD}){{0,2}},?\s+{HOUSE_NUMBER}\b{NOT_A_HOUSE}{POSTCODE_TOWN}"
    ),
    # "Váci utca 5", "Atatürk Caddesi 12", "Bağdat Cad. No: 4"
    "street_then_type_then_number": (
        rf"\b[{UPPER}][\w'’-]*(?:\s+[{UPPER}][\w'’-]*){{0,2}}\s+{STREET_TYPES_AFTER}(?:\s+[Nn]o\.?:?)?,?\s+"
        rf"{HOUSE_NUMBER}\b{POSTCODE_TOWN}"
    ),
    # the French and Belgian order, the number first: "25 rue de Rivoli", "12, avenue des Champs-Élysées"
    "number_then_street_type": (
        rf"\b{HOUSE_NUMBER},?\s+(?:[Rr]ue|[Aa]venue|[Bb]oulevard|[Bb]d|[Pp]lace|[Qq]uai|[Aa]llée|[Ii]mpasse|[Cc]hemin|"
        rf"[Rr]oute|[Cc]ours|[Ss]quare|{CELTIC_STREET_TYPES})[ \t]+{STREET_NAME_WORD}"
        rf"(?:[ \t]+{STREET_NAME_WORD}){{0,4}}{POSTCODE_TOWN}"
    ),
    # the town (and county) of a UK address, before its postcode, after a comma or at a line's start ("Flat 2, Mill
    # Lane, Much Wenlock, Shropshire TF13 6AA": a small town and its county had stayed beside the masked postcode)
    "uk_town_postcode": (
        rf"(?m)(?:(?<=,)|(?<=, )|^)[ \t]*(?P<span>{UK_TOWN}(?:,[ \t]*{UK_TOWN})?)(?:,?[ \t]+|,?[ \t]*\n[ \t]*)"
        r"(?=[A-Z]{1,2}\d[A-Z\d]?[ \t]*\d[A-Z]{2}\b)"
    ),
    # a street and its number before a Dutch postcode (four digits, two capitals) or a five-digit one and the town:
    # "Damrak 1, 1012 JS Amsterdam" (a street name with no street word in it had been kept whole)
    "street_number_postcode_town": (
        rf"\b[{UPPER}][\w'’.-]+(?:\s+[{UPPER}][\w'’.-]+){{0,2}}\s+{HOUSE_NUMBER},\s+"
        rf"(?:\d{{4}}\s?(?!AD\b|BC\b|CE\b)[A-Z]{{2}}|\d{{5}})\s+[{UPPER}][\w'’-]+(?:[ -][{UPPER}][\w'’-]+)?"
    ),
    # a Polish postcode and its town on a line of its own or after a comma ("Jan Kowalski, 00-238 Warszawa"): two
    # digits, a hyphen, three digits (not a range in a sentence: "scored 10-120 Points")
    "postcode_pl_town": rf"(?:(?<=, )|(?<=\n)|(?<=^))\d{{2}}-\d{{3}}\s+[{UPPER}][\w'’-]+",
    # a Japanese address in its own script: prefecture, city, ward or town and its block numbers, up to the number
    # ("東京都渋谷区神宮前1-2-3", "大阪市北区梅田3丁目1-1"; the 〒 postcode before it is a code of its own). A number
    # followed by a year, month or day ("北京市2008年") is a date, no address
    "jp_address": (
        "[\u3005\u3040-\u30ff\u3400-\u9fff]*(?:都|道|府|県|市|区|町|村)[\u3005\u3040-\u30ff\u3400-\u9fff]*"
        "[0-9０-９]{1,4}(?:(?:[-−‐－ー]|丁目|番地?|号)[0-9０-９]{1,4}){0,3}(?:丁目|番地?|号)?(?![0-9０-９年月日])"
    ),
    # a contact card's address (vCard's ADR and LABEL, an address book's "item1.ADR;type=HOME:"): the whole value,
    # whatever its country ("ADR;TYPE=HOME:;;Bygdøy allé 5;Oslo;;0257;Norway" had been kept whole)
    "vcard_address": r"(?im)^(?:item\d+\.)?(?:ADR|LABEL)(?:;[^:\n]*)?:[;\s]*(?P<span>[^;\s][^\n]*?)[;\s]*$",
}
#: a kinship word and the name after it, or in brackets after it (the rules ``kin_name`` and ``kin_name_field``:
#: "her brother Tunde", "NOK: daughter Tanya", "her partner (Aoife)"); not a title or a function word after it ("her
#: son Mr Smith", "my sister In 2005")
KIN_NAME = (
    r"(?:(?:elder|older|younger|little|big|late|eldest|"
    rf"youngest|twin|step|half)[ -]?)?(?:{KIN_WORDS}|stepson|stepdaughter|stepmother|stepfather)s?"
    r"(?:,?[ \t]+|[ \t]*\([ \t]*)"
    rf"(?!(?:{NAME_TITLES}|The|A|An|And|But|Or|In|On|At|Of|For|To|With|From|Who|Was|Is|Has|Had|He|She|It|They|"
    r"We|I|His|Her|Their)\b)"
    rf"(?P<span>[{UPPER}](?:\w|['’](?!s\b))*(?:-[{UPPER}]\w*)?(?:[ \t]+[{UPPER}](?:\w|['’](?!s\b))*)?)"
)
#: PERSON rules: a name after a title, a maiden name after "née"
#: (the words are trimmed by _titled_name: "Mr Igor Munteanu", "Mr igor munteanu", not "Mr Igor was")
PERSON_PATTERNS = {
    # the words are a lookahead, so that "Mr Crow and Mr Singh" yields both names (a match never eats the next title);
    # a middle initial between them ("Judge Lorna G. Schofield") is inside the name
    "titled_name": (
        rf"\b(?P<title>{NAME_TITLES})\.?(?={NAME_GAP}{INITIALS}"
        rf"(?P<words>{ANY_WORD}(?:(?:{NAME_GAP}[A-Z]\.)?{NAME_GAP}{ANY_WORD}){{0,2}}))"
    ),
    # a police or military rank before a surname, the rank included ("Detective Constable Wilson", "Sergeant Gamble")
    "ranked_name": rf"\b(?:(?:Detective|Chief|Police|Deputy)\s+)*{RANKS}\.?\s+{NAME_WORD}(?:[ \t]+{NAME_WORD})?\b",
    # a judge's surname before a judicial post-nominal ("Auld LJ", "Smith QC")
    "postnominal_name": r"\b" + NAME_WORD + r"\s+(?:LJ|LJJ|QC|KC)\b",
    "maiden_name": r"\b(?:née|nee|Née|NÉE)\s+(?P<span>" + NAME_WORD + r")",
    # a relative named after the kinship word ("her brother Tunde", "his son Khalid, 12", "my wife, Anna"): the
    # generic NER misses a given name it does not know; one or two capitalized words, no title or function word
    # after a possessive noun too, and the name in brackets ("Sinead's partner (Aoife) reports": a referral letter's
    # Irish given name that the NER did not know survived), and after "and" or "&" in a list of relatives ("Grace's
    # mother Ada and brother Emeka": the brother's Igbo name survived)
    "kin_name": r"(?:\b(?:[Hh]is|[Hh]er|[Tt]heir|[Mm]y|[Oo]ur|[Yy]our|\w+['’]s|and)|&)\s+" + KIN_NAME,
    # the same opening a form's field ("NOK: daughter Tanya", "(wife Helen)", a line "son Tom Ng")
    "kin_name_field": r"(?:[:(\n]|^)[ \t]*" + KIN_NAME,
    # a person designated by one letter in quotes or brackets ("sued by “K”", "allow [K] to"), not "A" or "I"
    "designated_letter": r"(?:(?<=[“\"‘])[B-HJ-Z](?=[”\"’])|(?<=\[)[B-HJ-Z](?=\]))",
}
#: DEM rules (demographic attributes, TAB): a nationality as a noun ("a United Kingdom national"),
#: an age ("fifteen years of age", "aged 42", "a 42-year-old")
NUMBER_WORD = (
    r"(?:\d{1,3}|(?:twenty|thirty|forty|fifty|sixty|seventy|eighty|ninety)(?:-[a-z]+)?|[a-z]+teen|ten|eleven|twelve)"
)
NUMBER_WORD_CAPITALS = (
    r"(?:\d{1,3}|(?:TWENTY|THIRTY|FORTY|FIFTY|SIXTY|SEVENTY|EIGHTY|NINETY)(?:-[A-Z]+)?|[A-Z]+TEEN|TEN|ELEVEN|TWELVE)"
)
DEM_PATTERNS = {
    # a country of several words before "national(s)" (one-word nationalities are in the gazetteer: "Polish national")
    "nationality": r"\b(?:United Kingdom|United States|[A-Z][a-z]+ [A-Z][a-z]+)\s+nationals?\b",
    "age": (
        rf"\b(?:aged\s+{NUMBER_WORD}(?:\s+years?)?|{NUMBER_WORD}\s+years?\s+(?:of\s+age|old)|{NUMBER_WORD}-year-old)\b"
        # the clinical short forms: "45 y/o", "45yo", "45 y.o.", "45 yrs old"
        rf"|\b{NUMBER_WORD}[ \t]?(?:y/o|y\.o\.|yo\b|yrs?\.?(?:[ \t]+old\b)?)"
    ),
    # a clinical note's age and sex ("Pt is a 58M with", "a 34 F presenting", "Age/sex: 71M"): after an article, a
    # patient or an age/sex label only (:func:`_out_of_context`), so that "58M in revenue" stays an amount
    "age_sex": r"(?<![\w$£€.,])\d{1,3}[ \t]?(?:y/?o[ \t]?)?[MF](?=[ \t,.;:)]|$)",
    # a post's age and sex in brackets after the person ("I (34F)", "my husband (36m)", "my sister (F29)", "me (29,
    # f)"): after "I", "me", a pronoun or a person word only (:func:`_out_of_context`): "Revenue (58M)" is money
    "age_sex_bracketed": (
        r"(?<=\()(?:\d{1,2}[ \t]?[MFmf]|[MFmf][ \t]?\d{1,2}|\d{1,2},[ \t]?[MFmf]|[MFmf],[ \t]?\d{1,2})(?=\))"
    ),
    # the same in a statement written in capitals ("AGED 34", "34 YEARS OLD")
    "age_capitals": (
        rf"\b(?=AGED|Aged|\d|[A-Z]{{3}})(?:(?:AGED|Aged)\s+{NUMBER_WORD_CAPITALS}(?:\s+YEARS?)?|{NUMBER_WORD_CAPITALS}\s+YEARS?\s+(?:OF\s+AGE|OLD)|"
        rf"{NUMBER_WORD_CAPITALS}-YEAR-OLD)\b"
    ),
}
#: LOC rules: the place where someone lives or was born ("lives in Kent": the generic NER reads it as a person)
LOC_PATTERNS = {
    # a town named after its river or another place, as one name (the NER cut "Newcastle upon Tyne" into "Newcastle"
    # and "Tyne", and the generalization wrote "a city upon ***"): "Kingston upon Thames", "Stoke-on-Trent",
    # "Stratford-upon-Avon", "Southend-on-Sea", "Frankfurt am Main", "Halle an der Saale", "Boulogne-sur-Mer"
    "place_upon": (
        rf"\b[{UPPER}][a-zà-ÿ]+(?:[ -]upon[ -]|-(?:on|under|in|le|sur|sous|en|by)-(?:the-|la-|le-|de-)?|"
        rf" am | an der | ob der )[{UPPER}][a-zà-ÿ]+\b"
    ),
    # a country's flag, two regional-indicator letters ("🇵🇹"): where someone is, was born or comes from
    "flag": "[\U0001f1e6-\U0001f1ff]{2}",
    "residence": (
        r"\b(?:lives?|lived|living|resides?|resided|residing|born)\s+in\s+(?P<span>"
        + NAME_WORD
        + r"(?:-[a-z]+-"
        + NAME_WORD
        + r")?)"
    ),
}
_ORDINAL_UNITS = "first|second|third|fourth|fifth|sixth|seventh|eighth|ninth"
#: a day of the month written as an ordinal word ("Fourteenth", "twenty-first", "Thirty First")
ORDINAL_DAY_WORD = (
    rf"(?:(?:twenty|thirty)[- ]?(?:{_ORDINAL_UNITS})|{_ORDINAL_UNITS}|tenth|eleventh|twelfth|thirteenth|fourteenth|"
    r"fifteenth|sixteenth|seventeenth|eighteenth|nineteenth|twentieth|thirtieth)"
)
#: a date's year after its month: four digits, or two after an apostrophe ("3rd of March '85", "May 3, '85": the
#: NER took the day and month and "'85", the year of birth, stayed)
YEAR_AFTER = r"(?:\d{4}\b|['‘’]\d{2}(?!\d))"
DATETIME_PATTERNS = {
    "day_month_year": rf"\b\d{{1,2}}(?:st|nd|rd|th)?{DATE_SEP}{MONTHS}(?:{DATE_SEP}{YEAR_AFTER}|\b)",
    # a day written as a word or "the ... day of", as certificates, deeds and court orders write it ("Fourteenth
    # November 2024" on a death certificate: the NER took "November 2024" and "Fourteenth" stayed; "this 14th day of
    # November, 2024"; "the twenty-first of June"). Without "of", only a capitalized ordinal ("second November" may
    # count elections)
    "day_word_month_year": (
        rf"(?:\b(?:(?i:the)[ \t]+)?(?:\d{{1,2}}(?:st|nd|rd|th)|(?i:{ORDINAL_DAY_WORD}))[ \t]+(?i:(?:day[ \t]+)?of)"
        rf"|\b(?=[A-Z])(?i:{ORDINAL_DAY_WORD})[ \t]+"
        rf")[ \t]*{MONTHS}(?:,?{DATE_SEP}{YEAR_AFTER}|\b)"
    ),
    # a range of days in one month, one date ("3-5 April 2024": "3-" had stayed before the date's replacement)
    "day_range_month_year": (
        rf"\b\d{{1,2}}(?:st|nd|rd|th)?[ \t]*[-–—][ \t]*\d{{1,2}}(?:st|nd|rd|th)?{DATE_SEP}{MONTHS}"
        rf"(?:{DATE_SEP}{YEAR_AFTER}|\b)"
    ),
    "month_day_year": rf"\b{MONTHS}(?:\s+|-(?=\d{{1,2}}\b))\d{{1,2}}(?:st|nd|rd|th)?(?:,?\s+{YEAR_AFTER}|\b)",
    "month_year": rf"\b{MONTHS}{DATE_SEP}{YEAR_AFTER}",
    # a date written as C's asctime, with the time between the day and the year: a commit's "Date:   Tue Mar 12
    # 14:02:11 2024 +0000", a log's "Tue Mar 12 14:02:11 2024" ("Tue Mar 12" had stayed, the year generalized)
    "asctime": (
        rf"\b(?:Mon|Tue|Wed|Thu|Fri|Sat|Sun),?[ \t]+{MONTHS}[ \t]+\d{{1,2}}[ \t]+\d{{1,2}}:\d{{2}}(?::\d{{2}})?"
        r"[ \t]+\d{4}(?:[ \t]+[+-]\d{4})?(?![\w:])"
    ),
    # ISO dates with their time of day when written together ("2024-05-02T10:14:22Z", a log's time stamp: the NER took
    # "2024-05" alone and the rest stayed)
    "numeric_date": (
        r"\b\d{1,2}[./-]\d{1,2}[./-](?:\d{4}|\d{2})\b"
        r"|\b\d{4}-\d{2}-\d{2}(?:T\d{2}:\d{2}(?::\d{2}(?:[.,]\d+)?)?(?:Z|[+-]\d{2}(?::?\d{2})?)?)?\b"
    ),
    # a date of the Hebrew or the Islamic calendar ("12 Adar 5784", "15 Sha'ban 1445 AH", "1 Ramadan 1445"): a bar
    # mitzvah's or a wedding's date (a user's notice had kept "12 Adar 5784")
    "day_month_year_other_calendar": (
        rf"\b\d{{1,2}}(?:st|nd|rd|th)?\s+(?:of\s+)?{OTHER_CALENDAR_MONTHS}\s+\d{{4}}(?:\s*(?:AH|A\.H\.|AM|A\.M\.))?\b"
    ),
    # a date written in the language of a form or a letter a user brings, day first, with its year ("né le 9 juillet
    # 1985", "9 de julio de 1985", "9. Juli 1985", "9 luglio 1985", "9 de julho de 1985", "9 juli 1985"): one DATETIME
    "day_month_year_other_language": (
        rf"(?i:\b\d{{1,2}}(?:er|\.|º)?\s+(?:de\s+)?{OTHER_LANGUAGE_MONTHS}\s+(?:de\s+)?(?:1[6-9]|20)\d{{2}}\b)"
    ),
    # a period as one span, so that it is generalized as a whole ("2010–present", "1999–2004", "2003–04", "from 1999
    # to 2004", "between 1965 and 1967"): longer than the years inside it, it wins over them
    "year_range": (
        r"(?<!\bAct )(?<!\bActs )\b(?:[Ff]rom\s+)?(?:1[6-9]|20)\d{2}(?:\s*[-–—]\s*|\s+(?:to|until|till|through)\s+)"
        r"(?:(?:1[6-9]|20)\d{2}\b|\d{2}\b(?![-–/.]\d)|(?:the\s+)?present\b|now\b|today\b)"
        r"|\b[Bb]etween\s+(?:1[6-9]|20)\d{2}\s+and\s+(?:1[6-9]|20)\d{2}\b"
    ),
    # not the year of a statute ("the Employment Act 1996", "the 1996 Act"): it dates the law, not a person
    "year": r"(?<!\bAct )(?<!\bActs )\b(?:1[6-9]|20)\d{2}s?\b(?! Acts?\b)",
    "clock_time": r"\b\d{1,2}(?:[.:]\d{2})\s*(?:a\.m\.|p\.m\.|am|pm|hours|h)?(?!\w)|\b\d{1,2}\s*(?:a\.m\.|p\.m\.)",
}
QUANTITY_PATTERNS = {
    "money_code_first": rf"\b{CURRENCY_CODES}\s?(?:{NUMBER})(?:\s(?:million|billion))?",
    "money_amount_first": (
        rf"(?<![\d.,])(?:{NUMBER})(?:\s(?:million|billion))?\s?(?:{CURRENCY_CODES}|{CURRENCY_WORDS})\b"
    ),
    "money_iso_code": r"\b[A-Z]{3}\s?\d{1,3}(?:[,.]\d{3})+(?:[.,]\d+)?",
    "money_symbol": rf"[$€£¥]\s?(?:{NUMBER})(?:\s(?:million|billion))?",
    "percent": rf"(?<![\d.,])(?:{NUMBER})\s?(?:%|per cent|percent)",
}
#: MISC rules: a hashtag's words (after the "#"), a quasi-identifier whose risk is scored as any other's: a rare tag
#: ("#lisbonart", a place and a trade glued together) is masked, a common one ("#love", "#tbt") may stay
#: ORG rules: a company named with its legal form ("Brightline Ltd", "Acme Widgets Inc.", "Müller GmbH"), which the
#: generic NER misses in a subject line or a case name ("Okafor v Brightline Ltd")
ORG_PATTERNS = {
    "company_legal_form": (
        r"\b(?!(?:The|A|An|This|That|These|Those|Our|Their|His|Her|My|Your|Its|Any|Each|Every|No)\b)"
        rf"[{UPPER}][\w&'’-]*(?:[ \t]+(?:&[ \t]+)?[{UPPER}][\w&'’-]*){{0,3}}[ \t]+"
        r"(?:Ltd\.?|Limited|LLC|L\.L\.C\.|LLP|Inc\.?|Incorporated|plc|PLC|GmbH|AG|S\.A\.|SARL|S\.r\.l\.|B\.V\.|N\.V\.|"
        r"Pty(?:[ \t]+Ltd\.?)?|Corp\.?|Corporation)(?![\w])"
    ),
}
MISC_PATTERNS = {
    "hashtag": r"(?<![\w#&/])#(?P<span>(?=\w*[^\W\d_])\w{2,60})\b",
}
#: every rule as ``(label, name, pattern)``, CODE (and address) first
RULES: List[Tuple[str, str, str]] = [
    (label, name, pattern)
    for label, patterns in (
        ("CODE", CODE_PATTERNS),
        ("LOC", ADDRESS_PATTERNS),
        ("PERSON", PERSON_PATTERNS),
        ("DEM", DEM_PATTERNS),
        ("LOC", LOC_PATTERNS),
        ("DATETIME", DATETIME_PATTERNS),
        ("QUANTITY", QUANTITY_PATTERNS),
        ("ORG", ORG_PATTERNS),
        ("MISC", MISC_PATTERNS),
    )
    for name, pattern in patterns.items()
]


#: names of the CODE rules: a span found by one of them is a direct identifier, whatever its label (with the
#: identifier finders of :mod:`textanon.detect.identifiers`: checksummed numbers, phones, domains...)
CODE_RULE_NAMES = frozenset(CODE_PATTERNS) | frozenset(ADDRESS_PATTERNS) | IDENTIFIER_RULE_NAMES


def compile_rules(rules=RULES) -> List[Tuple[str, str, Pattern]]:
    """Compile ``(label, name, pattern)`` triples; invalid patterns raise ``ValueError`` naming the rule."""
    compiled = []
    for label, name, pattern in rules:
        try:
            compiled.append((label, name, re.compile(pattern)))
        except re.error as err:
            raise ValueError(f"invalid rule pattern {name!r}: {err}") from err
    return compiled


def find_rule_matches(text: str, compiled) -> Iterator[Tuple[int, int, str, str]]:
    """Yield ``(start, end, label, rule_name)`` for every match of every rule (linear in text size).

    The rules read the normalized view of ``text`` (:func:`textanon.detect.normalize.normalized`: NFKC, invisible
    characters removed, end-of-line hyphenation joined, look-alike letters folded); the offsets yielded are the
    original text's, covering every original character of the match (a zero-width space inside an e-mail
    address included)."""
    view = normalized(text)
    text = view.text
    for label, name, regex in compiled:
        needs = RULE_NEEDS.get(name)
        if needs is not None and not any(word in text for word in needs):
            continue  # a few substring tests instead of a pattern tried at every word (the word is rare)
        for m in regex.finditer(text):
            start, end = m.span("span") if "span" in regex.groupindex else m.span()
            if name == "titled_name":
                start, end = _titled_name(text, m)
            if end <= start or _legal_reference(text, name, m, start, end) or _out_of_context(text, name, m):
                continue
            yield (*view.to_original(start, end), label, name)


#: rules tried only in a text that holds one of these strings (each match holds one)
RULE_NEEDS = {
    "police_number": ("PC", "DC", "DS", "PS", "SC", "Sgt", "Insp"),
    "us_docket": tuple(f"-{t}-" for k in DOCKET_TYPES for t in (k, k.upper())),
    "company_legal_form": (
        "Ltd",
        "Limited",
        "LLC",
        "L.L.C.",
        "LLP",
        "Inc",
        "plc",
        "PLC",
        "GmbH",
        "AG",
        "S.A.",
        "SARL",
        "S.r.l.",
        "B.V.",
        "N.V.",
        "Pty",
        "Corp",
    ),
    "po_box": ("Box", "BOX", "box"),
    "email_spelled_out": ("dot", "DOT"),
    "reddit_user": ("u/",),
    "plate_labelled": ("late",),
    "document_series": ("eries", "ERIES", "er.", "eria", "ERIA", "erie", "ERIE", "ерия", "ЕРИЯ"),
}
#: what must come right before a match of these rules (read in the characters before it, :func:`_out_of_context`)
_AGE_SEX_BEFORE = re.compile(
    r"\b(?:[Ii]s|[Ww]as|[Aa]n?|[Pp]t\.?|[Pp]atient|[Aa]ge/[Ss]ex:?|[Aa]ge/[Gg]ender:?)[ \t]+\Z"
)
#: who a bracketed age and sex is about, right before the bracket: "I", "me", a pronoun, a relative or partner (not
#: any capitalized word: "Revenue (58M)")
_AGE_SEX_PERSON_BEFORE = re.compile(
    r"(?:\b(?:I|[Mm]e|[Hh]e|[Ss]he|[Hh]im|[Hh]er|[Mm]y|[Hh]usband|[Ww]ife|[Pp]artner|[Bb]oyfriend|[Gg]irlfriend|"
    r"[Bb][Ff]|[Gg][Ff]|SO|[Ff]ianc[ée]e?|[Ee]x|[Ss]on|[Dd]aughter|[Bb]rother|[Ss]ister|[Mm]um|[Mm]om|[Dd]ad|"
    r"[Mm]other|[Ff]ather|[Ff]riend|[Bb]oss|[Cc]oworker|[Cc]olleague|[Rr]oommate|[Ff]latmate|[Nn]eighbou?r|"
    r"MIL|FIL|SIL|BIL|[Ss]tep(?:mum|mom|dad|son|daughter)))[ \t]*\(\Z"
)
_DOCUMENT_BEFORE = re.compile(
    r"\b(?:[Pp]assport|PASSPORT|[Ii]dentity [Cc]ard|ID(?: [Cc]ard)?|[Cc]ertificate|[Ll]icen[cs]e|[Pp]ermit|[Vv]isa|"
    r"[Dd]ocument|CI|BI)\b[^.\n]{0,40}\Z"
)


def _out_of_context(text: str, name: str, m) -> bool:
    """A match whose rule needs words before it that are not there: an age and sex after an article, a patient or an
    age/sex label; an English "series" after a document's word (a law report's "Series A no. 94" is no passport's)."""
    if name == "age_sex":
        return _AGE_SEX_BEFORE.search(text, max(0, m.start() - 16), m.start()) is None
    if name == "age_sex_bracketed":
        return _AGE_SEX_PERSON_BEFORE.search(text, max(0, m.start() - 30), m.start()) is None
    if name == "uk_outward_code_field":
        return m.group("area") not in UK_POSTCODE_AREAS
    if name == "document_series" and m.group("keyword").lower() in ("series", "ser."):
        return _DOCUMENT_BEFORE.search(text, max(0, m.start() - 60), m.start()) is None
    return False


def _legal_reference(text: str, name: str, m, start: int, end: int) -> bool:
    """A CODE match that is a reference into a legal text or a case report, not an identifier: "Law no. 123"
    (:data:`LEGAL_TEXT_WORDS`), an EU act "83/189/EEC", "X v. Y (no. 2)", a Reports volume "1997-I"."""
    if name in ("application_number", "slash_reference") and EU_LEGAL_ACT.match(text, start):
        return True
    if name == "number_after_no":
        return (
            _after_legal_text(text, m.start())
            or bool(CASE_TITLE_NUMBER.match(text, max(0, m.start() - 1)))
            or bool(REPORTS_VOLUME.search(text[max(0, m.start() - 14) : m.start()]))
            or bool(REPORTS_SERIES.search(text[max(0, m.start() - 12) : m.start()]))
        )
    return name == "id_number" and bool(REPORTS_VOLUME.fullmatch(text, start, end))


def _titled_name(text: str, m) -> Tuple[int, int]:
    """``(start, end)`` of a titled name: the title and the name words (:func:`_titled_name_end`), office words
    included ("Lord Justice Nourse", "Mr Justice Collins"); ``(0, 0)`` when no name follows the office words
    ("Lord Chief Justice", "Lord Chancellor's Department")."""
    title = m.group("title").lower()
    words = list(re.finditer(ANY_WORD, m.group("words")))
    offices = 0
    while offices < len(words) and re.sub("['’]s$", "", words[offices].group().lower()) in OFFICE_WORDS:
        offices += 1
    if offices:
        rest = words[offices:]
        possessive = words[offices - 1].group().endswith(("'s", "’s"))  # "Lord Chancellor's Department": an office
        if possessive or not rest or not rest[0].group()[0].isupper():
            return 0, 0
        end = _titled_name_end(text, m, rest, personal=False)
        return (m.start(), end) if end is not None else (0, 0)
    end = _titled_name_end(text, m, words, personal=title in PERSONAL_TITLES)
    return (m.start(), end) if end is not None else (0, 0)


def _titled_name_end(text: str, m, words, personal: bool = True) -> Optional[int]:
    """End of the name after a title: capitalized words ("Mr Will Power"), or, if the first is in lower
    case and the title is a personal one (:data:`PERSONAL_TITLES`), at most two lower-case words that are not
    function words (a spaCy stop word that is not also a name, :data:`textanon.detect.target.NAME_LIKE_WORDS`):
    "Mr igor munteanu was" -> "Mr igor munteanu", "Mr hope summers" stays whole; None if no word qualifies.
    A possessive "'s" is left out ("Mr Redfearn's complaint")."""

    def is_function_word(word: str) -> bool:
        return fold(word) in STOP_WORDS and fold(word) not in NAME_LIKE_WORDS

    end, kept = None, 0
    if not words:
        return None
    capitalized = words[0].group()[0].isupper()
    if not capitalized and not personal:
        return None
    for n, w in enumerate(words):
        word = w.group()
        if capitalized and not word[0].isupper():
            break
        if n and ("\n" in m.group("words")[words[n - 1].end() : w.start()] or is_function_word(word)):
            break  # the next line's first word ("Judge Rostant\nThe claimant"), a function word ("Mr Hope Of Leeds")
        if not capitalized and (word[0].isupper() or is_function_word(word) or kept == 2):
            break
        end, kept = m.start("words") + w.end(), kept + 1
        if word.endswith(("'s", "’s")) and len(word) > 2:
            end -= 2
            break
    return end


def _after_legal_text(text: str, start: int) -> bool:
    """ "Law no. 123": the word before "no." names a legal text (:data:`LEGAL_TEXT_WORDS`)."""
    before = re.findall(r"[^\W\d_]+", text[max(0, start - 40) : start])
    return bool(before) and before[-1].lower() in LEGAL_TEXT_WORDS
