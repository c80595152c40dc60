"""Parsing LLM replies into a list of strings, tolerant of what real (and small) models produce.

Handles: code fences, prose before/after/between lists, single-quoted (Python-style) lists, trailing
commas, nested objects/lists, duplicates, empty lists, unquoted items, and truncated lists.

* **Several lists** in one reply (``Names: [...] Places: [...]``) are all used: the strings are the
  union of every list/object of the reply, in order.
* **Objects.** A member whose value holds a span contributes that value (``{"name": "Ada Quint"}`` ->
  ``Ada Quint``), never its key; values of label-like keys (``"label": "PERSON"``) are categories, not
  spans. A member whose value holds no span — a category label such as ``"PERSON"``/``"location"``,
  ``null``, a boolean, an empty string, an object of labels — contributes its **key**:
  ``{"John Smith": "PERSON"}`` is read as ``["John Smith"]``, never as ``["PERSON"]``.
* **Truncation.** A reply whose last list/object is not closed (cut by ``max_new_tokens``) keeps its
  complete items but is marked ``complete = False``; the task treats it as incomplete (fallback +
  warning), never as the model's full answer. Models that know why they stopped return an
  :class:`LLMReply` whose ``finish_reason`` the task reads as well.

A reply without any recoverable list is a *failure* (``ParseResult.ok == False``): the caller applies
its fallback policy and counts it; parsing never raises.
"""

import ast
import json
import math
import re
from dataclasses import dataclass, field
from typing import Any, Iterable, List, Optional, Tuple

_TRAILING_COMMA_RE = re.compile(r",\s*([\]}])")
_DQ_STRING_RE = re.compile(r'"((?:[^"\\\n]|\\.)*)"')
_SQ_STRING_RE = re.compile(r"(?<!\w)'((?:[^'\\\n]|\\.)*)'(?!\w)")
_BARE_SPLIT_RE = re.compile(r"[,;\n]")
_COLON_RE = re.compile(r"\s*:\s*")
#: keys whose string values name a category, not a span of the text
LABEL_KEYS = frozenset({"label", "labels", "type", "entity_type", "category", "kind", "tag", "class"})
#: category names models use as object values ({"John Smith": "PERSON"}); compared case-insensitively
LABEL_VALUES = frozenset(
    """
person per pers people name names location loc locations place gpe org orgs organization organisation company
norp fac facility event product work_of_art law language date dates time datetime percent money quantity
ordinal cardinal code id identifier dem demographic demographics misc miscellaneous pii entity other
address email phone url age nationality occupation profession job
""".split()
)
#: finish reasons (OpenAI ``finish_reason``, Anthropic ``stop_reason``, textanon's local model) meaning
#: the model did not finish its answer
TRUNCATED_FINISH_REASONS = frozenset({"length", "max_tokens", "time", "loop", "content_filter"})


class LLMReply(str):
    """A model's reply text with the reason generation stopped (``finish_reason``: ``stop``, ``length``,
    ``time``, ``loop``, … or None when unknown). Behaves as the plain string everywhere else."""

    finish_reason: Optional[str]

    def __new__(cls, text: str, finish_reason: Optional[str] = None) -> "LLMReply":
        obj = super().__new__(cls, text)
        obj.finish_reason = finish_reason
        return obj

    def __reduce__(self):
        return (LLMReply, (str(self), self.finish_reason))


def reply_truncated(reply: Any) -> bool:
    """True if the model reported that it stopped before finishing (token/time limit, loop, filter)."""
    reason = getattr(reply, "finish_reason", None)
    return isinstance(reason, str) and reason.casefold() in TRUNCATED_FINISH_REASONS


@dataclass
class ParseResult:
    strings: List[str] = field(default_factory=list)
    ok: bool = True
    #: how the (first) list was obtained: json, repaired, python, quoted, bare, truncated, empty, or the
    #: failure reason (no_reply, empty_reply, unparseable, truncated_empty, error)
    how: str = "json"
    #: False when the reply ends inside an unclosed list/object (cut at the token limit)
    complete: bool = True


def parse_reply(reply: Optional[str]) -> ParseResult:
    """Strings listed in an LLM reply (union of all its lists, deduplicated, order kept); never raises."""
    try:
        return _parse(reply)
    except Exception:  # noqa: BLE001 - a hostile reply must never crash the pipeline
        return ParseResult([], ok=False, how="error")


def _parse(reply: Optional[str]) -> ParseResult:
    if reply is None:
        return ParseResult([], ok=False, how="no_reply")
    text = str(reply).strip()
    if not text:
        return ParseResult([], ok=False, how="empty_reply")
    strings: List[str] = []
    hows: List[str] = []
    complete, pos = True, 0
    while True:
        start = _first_structure(text, pos)
        if start is None:
            break
        body = text[start:]
        end = _structure_end(body)
        if end is None:  # unterminated structure: a reply cut by the token limit; keep the complete items
            complete = False
            found = _quoted_strings(body) or _bare_items(body, complete=False)
            if found is not None:
                strings.extend(found)
                hows.append("truncated")
            break
        found, how = _parse_structure(body[: end + 1])
        if found is not None:
            strings.extend(found)
            hows.append(how)
        pos = start + end + 1
    if not hows:
        if complete:  # no list at all: quoted strings in prose ('The spans are "Ada" and "Leeds".')
            found = _quoted_strings(text)
            if found:
                return ParseResult(_dedup(found), ok=True, how="quoted")
            return ParseResult([], ok=False, how="unparseable")
        return ParseResult([], ok=False, how="truncated_empty", complete=False)
    strings = _dedup(strings)
    how = hows[0] if strings else "empty"
    return ParseResult(strings, ok=True, how=how, complete=complete)


def _parse_structure(chunk: str) -> Tuple[Optional[List[str]], str]:
    """Strings of one closed list/object (None if nothing can be recovered from it)."""
    for how, loader in (("json", json.loads), ("repaired", _json_repaired), ("python", ast.literal_eval)):
        try:
            value = loader(chunk)
        except (ValueError, SyntaxError, TypeError, MemoryError, RecursionError):
            continue
        if isinstance(value, (list, tuple, dict, set)):
            return _strings_in(value), how
    found = _quoted_strings(chunk)
    if found:
        return found, "quoted"
    found = _bare_items(chunk, complete=True)
    return (found, "bare") if found is not None else (None, "unparseable")


def _json_repaired(text: str) -> Any:
    return json.loads(_TRAILING_COMMA_RE.sub(r"\1", text))


def _first_structure(text: str, pos: int = 0) -> Optional[int]:
    positions = [p for p in (text.find("[", pos), text.find("{", pos)) if p >= 0]
    return min(positions) if positions else None


def _structure_end(text: str) -> Optional[int]:
    """Index of the bracket closing the structure opened at ``text[0]`` (string-aware), else None."""
    depth, quote, escaped = 0, None, False
    for i, ch in enumerate(text):
        if quote:
            if escaped:
                escaped = False
            elif ch == "\\":
                escaped = True
            elif ch == quote:
                quote = None
            elif ch == "\n" and quote == "'":
                quote = None  # an apostrophe in prose, not a Python string
            continue
        if ch == '"' or (ch == "'" and (i == 0 or not text[i - 1].isalnum())):
            quote = ch
        elif ch in "[{":
            depth += 1
        elif ch in "]}":
            depth -= 1
            if depth == 0:
                return i
    return None


def reply_is_complete(text: str) -> bool:
    """True once a reply contains a complete top-level JSON list/object (used to stop generation)."""
    start = _first_structure(text)
    return start is not None and _structure_end(text[start:]) is not None


def _bare_items(text: str, complete: bool) -> Optional[List[str]]:
    """Unquoted list items, e.g. ``[Jolie, June 4, 1975]`` or a cut ``[2014, 2016, 20`` (small models):
    the text inside the outer brackets split at commas/semicolons/newlines; the last piece of an
    unterminated list is dropped (it may be cut). Only for ``[...]`` lists, not objects."""
    if not text.startswith("["):
        return None
    inner = text[1:-1] if complete else text[1:]
    pieces = _BARE_SPLIT_RE.split(inner)
    if not complete:
        pieces = pieces[:-1]
    items = [p.strip().strip("[]{}\"'` ").strip() for p in pieces]
    items = [p for p in items if any(ch.isalnum() for ch in p)]
    return items or None


def reply_is_looping(text: str, repeats: int = 4) -> bool:
    """True if the last ``repeats`` complete quoted items of a (partial) reply all repeat earlier items:
    a greedy model cycling through the same strings (used to stop generation early)."""
    if repeats <= 0:
        return False
    items = [convert(m.group(1)) for convert, m in _unkeyed(text)]
    if not items:  # unquoted items ("[2014, 2016, 2016, ..."): complete pieces between separators
        start = text.find("[")
        items = _BARE_SPLIT_RE.split(text[start + 1 :])[:-1] if start >= 0 else []
    items = [" ".join(s.split()).casefold() for s in items]
    if len(items) <= repeats:
        return False
    seen = set(items[:-repeats])
    for i in range(len(items) - repeats, len(items)):
        if items[i] not in seen and items[i] not in items[len(items) - repeats : i]:
            return False
    return True


def _unkeyed(text: str):
    """(convert, match) of the quoted strings of ``text`` that are not object keys."""
    for regex, convert in ((_DQ_STRING_RE, _unescape), (_SQ_STRING_RE, lambda s: s)):
        found = [(convert, m) for m in regex.finditer(text) if not _COLON_RE.match(text, m.end())]
        if found:
            return found
    return []


def _quoted_strings(text: str) -> Optional[List[str]]:
    """Quoted strings of a (possibly broken) list/object, read member by member like :func:`_strings_in`:
    ``"key": "value"`` gives the value, or the key when the value is a category label (or the key is
    label-like: nothing); a key whose value is not a string (a number, a nested object, a cut value)
    gives nothing."""
    for regex, convert in ((_DQ_STRING_RE, _unescape), (_SQ_STRING_RE, lambda s: s)):
        matches = list(regex.finditer(text))
        if not matches:
            continue
        out: List[str] = []
        i = 0
        while i < len(matches):
            m = matches[i]
            colon = _COLON_RE.match(text, m.end())
            if colon is None:
                out.append(convert(m.group(1)))
                i += 1
                continue
            key = convert(m.group(1))
            nxt = matches[i + 1] if i + 1 < len(matches) and matches[i + 1].start() == colon.end() else None
            if nxt is not None:
                value = convert(nxt.group(1))
                if key.strip().casefold() not in LABEL_KEYS:
                    out.append(key if is_label(value) or not value.strip() else value)
                i += 2
                continue
            i += 1
        out = [s for s in out if s.strip()]
        return out or None
    return None


def _unescape(s: str) -> str:
    try:
        return json.loads(f'"{s}"')
    except ValueError:
        return s


def is_label(value: Any) -> bool:
    """True for a category name such as ``PERSON``, ``loc`` or ``Location`` (not a span of the text)."""
    return isinstance(value, str) and value.strip().casefold().replace(" ", "_") in LABEL_VALUES


def _strings_in(value: Any) -> List[str]:
    """Span strings (and numbers) of a parsed list/object, per the object rules of the module docstring."""
    out: List[str] = []
    stack = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, str):
            out.append(item)
        elif isinstance(item, bool) or item is None:
            continue
        elif isinstance(item, (int, float)):
            if math.isfinite(item):
                out.append(str(item))
        elif isinstance(item, dict):
            members: List[Any] = []
            for key, val in item.items():
                if str(key).strip().casefold() in LABEL_KEYS:
                    continue
                if is_label(val) or not _strings_in(val):
                    members.append(str(key))
                else:
                    members.append(val)
            stack.extend(reversed(members))
        elif isinstance(item, (list, tuple, set)):
            stack.extend(reversed(list(item)))
    return out


def _dedup(strings: Iterable[str]) -> List[str]:
    seen, out = set(), []
    for s in strings:
        s = " ".join(str(s).split())
        key = s.casefold()
        if s and key not in seen:
            seen.add(key)
            out.append(s)
    return out
