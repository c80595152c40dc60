"""Parsing LLM replies into a list of strings, tolerant of what real (and small) models produce.

Handles: code fences, prose before/after the list, single-quoted (Python-style) lists, trailing
commas, nested objects/lists (string and number values are taken, keys are not, nor the values of
label-like keys such as ``"label": "PERSON"``), duplicates,
empty lists, and truncated lists (a reply cut by ``max_new_tokens``: the complete items are kept).
A reply without any recoverable list is a *failure* (``ParseResult.ok == False``): the caller
applies its fallback policy and counts it; parsing never raises.
"""
import ast
import json
import re
from dataclasses import dataclass, field
from typing import Any, Iterable, List, Optional

_FENCE_RE = re.compile(r"```[ \t]*[A-Za-z0-9_-]*[ \t]*\n?(.*?)(?:```|$)", re.DOTALL)
_TRAILING_COMMA_RE = re.compile(r",\s*([\]}])")
_DQ_STRING_RE = re.compile(r'"((?:[^"\\\n]|\\.)*)"')
_SQ_STRING_RE = re.compile(r"'((?:[^'\\\n]|\\.)*)'")
_BARE_SPLIT_RE = re.compile(r"[,;\n]")
#: keys whose string values name a category, not a span of the text
LABEL_KEYS = frozenset({"label", "labels", "type", "entity_type", "category", "kind", "tag", "class"})


@dataclass
class ParseResult:
    strings: List[str] = field(default_factory=list)
    ok: bool = True
    #: how the list was obtained: json, repaired, python, truncated, quoted, empty, or failure reason
    how: str = "json"


def parse_reply(reply: Optional[str]) -> ParseResult:
    """Strings listed in an LLM reply (deduplicated, order kept); never raises."""
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
    candidates = [m.group(1) for m in _FENCE_RE.finditer(text)] + [text]
    for candidate in candidates:
        result = _parse_candidate(candidate)
        if result is not None:
            return result
    return ParseResult([], ok=False, how="unparseable")


def _parse_candidate(text: str) -> Optional[ParseResult]:
    start = _first_structure(text)
    if start is None:
        return _quoted_strings(text, how="quoted")
    body = text[start:]
    end = _structure_end(body)
    if end is not None:
        chunk = body[: end + 1]
        for how, loader in (("json", json.loads), ("repaired", _json_repaired), ("python", ast.literal_eval)):
            try:
                value = loader(chunk)
            except (ValueError, SyntaxError, TypeError, MemoryError, RecursionError):
                continue
            return ParseResult(_dedup(_strings_in(value)), ok=True, how=how if _strings_in(value) else "empty")
        return _quoted_strings(chunk, how="quoted") or _bare_items(chunk, complete=True)
    # unterminated structure: a reply cut by the token limit; keep the complete items
    return _quoted_strings(body, how="truncated") or _bare_items(body, complete=False)


def _json_repaired(text: str) -> Any:
    return json.loads(_TRAILING_COMMA_RE.sub(r"\1", text))


def _first_structure(text: str) -> Optional[int]:
    positions = [p for p in (text.find("["), text.find("{")) if p >= 0]
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


def _bare_items(text: str, complete: bool) -> Optional[ParseResult]:
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
    return ParseResult(_dedup(items), ok=True, how="bare") if items else None


def reply_is_looping(text: str, repeats: int = 4) -> bool:
    """True if the last ``repeats`` complete quoted items of a (partial) reply all repeat earlier items:
    a greedy model cycling through the same strings (used to stop generation early)."""
    if repeats <= 0:
        return False
    items = _unkeyed(_DQ_STRING_RE, text, lambda s: s)
    if not items:  # unquoted items ("[2014, 2016, 2016, ..."): complete pieces between separators
        start = text.find("[")
        items = _BARE_SPLIT_RE.split(text[start + 1:])[:-1] if start >= 0 else []
    items = [" ".join(s.split()).casefold() for s in items]
    if len(items) <= repeats:
        return False
    seen = set(items[:-repeats])
    for i in range(len(items) - repeats, len(items)):
        if items[i] not in seen and items[i] not in items[len(items) - repeats:i]:
            return False
    return True


def _quoted_strings(text: str, how: str) -> Optional[ParseResult]:
    found = _unkeyed(_DQ_STRING_RE, text, _unescape)
    if not found:
        found = _unkeyed(_SQ_STRING_RE, text, lambda s: s)
    found = [s for s in found if s.strip()]
    if not found:
        if how == "truncated" and text.strip() in ("[", "{"):
            return ParseResult([], ok=False, how="truncated_empty")
        return None
    return ParseResult(_dedup(found), ok=True, how=how)


def _unkeyed(regex, text: str, convert) -> List[str]:
    """Quoted strings of ``text`` that are not object keys (not followed by a colon)."""
    return [convert(m.group(1)) for m in regex.finditer(text) if not text[m.end():m.end() + 10].lstrip().startswith(":")]


def _unescape(s: str) -> str:
    try:
        return json.loads(f'"{s}"')
    except ValueError:
        return s


def _strings_in(value: Any) -> List[str]:
    """String (and number) leaves of a parsed value; dict keys are ignored."""
    out: List[str] = []
    stack = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, str):
            out.append(item)
        elif isinstance(item, bool) or item is None:
            continue
        elif isinstance(item, (int, float)):
            out.append(str(item))
        elif isinstance(item, dict):
            values = [v for k, v in item.items() if not (isinstance(v, str) and str(k).casefold() in LABEL_KEYS)]
            stack.extend(reversed(values))
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
