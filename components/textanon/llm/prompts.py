"""Prompt designs: Jinja templates in ``templates/`` rendered into role-marked chat prompts.

A rendered prompt is one string (spacy-llm passes prompts around as strings) in which lines
``<<<system>>>``, ``<<<user>>>`` and ``<<<assistant>>>`` start the messages of a chat.
:func:`split_messages` turns it into OpenAI-style messages for chat models; :func:`to_plain_text`
drops the markers for plain-completion models (the task does this when ``chat_markers = false``).
This module imports neither spacy_llm nor torch.
"""

import re
from pathlib import Path
from typing import Dict, List, Optional

import jinja2  # spacy's own dependency

TEMPLATE_DIR = Path(__file__).parent / "templates"

#: design name -> one-line description (order = the order of the paper's comparison, best first)
DESIGNS: Dict[str, str] = {
    "attributes_one_shot": (
        "every span defining an attribute of the person, all occurrences, one worked example (the paper's best)"
    ),
    "tokens_zero_shot": "every token connected to the person, zero-shot, short answers",
    "tab_categories_zero_shot": (
        "mentions of the 8 TAB categories (PERSON, CODE, LOC, ORG, DEM, DATETIME, QUANTITY, MISC)"
    ),
    "deidentification_one_shot": (
        "NER-like PII only (names, companies, origin/residence, addresses, social links): weak baseline"
    ),
}
DEFAULT_DESIGN = "attributes_one_shot"

ROLES = ("system", "user", "assistant")
_MARKER_RE = re.compile(r"^<<<(system|user|assistant)>>>[ \t]*$", re.MULTILINE)
_MARKER_TEXT_RE = re.compile(r"<<<(system|user|assistant)>>>")


def prompt_names() -> List[str]:
    """Names of the prompt designs shipped with textanon (templates/NAME.jinja)."""
    shipped = {p.stem for p in TEMPLATE_DIR.glob("*.jinja")}
    return [name for name in DESIGNS if name in shipped] + sorted(shipped - set(DESIGNS))


def template_path(design: str) -> Path:
    """Path of a design's template: a shipped design name or a path to a ``.jinja`` file."""
    path = TEMPLATE_DIR / f"{design}.jinja"
    if path.exists():
        return path
    candidate = Path(design)
    if candidate.suffix == ".jinja" and candidate.exists():
        return candidate
    raise ValueError(
        f"unknown prompt design {design!r}; shipped designs: {', '.join(prompt_names())} "
        "(or give the path of a .jinja file)"
    )


def load_template(design: str) -> str:
    """Source text of a design's template."""
    return template_path(design).read_text(encoding="utf8")


def sanitize(text: str) -> str:
    """Neutralize role markers inside document text so a document cannot inject chat turns."""
    return _MARKER_TEXT_RE.sub(lambda m: f"<<{m.group(1)}>>", text)


class PromptRenderer:
    """Compiled Jinja template; ``render(text, target)`` returns a role-marked prompt string."""

    def __init__(self, template_source: str):
        self.source = template_source
        env = jinja2.Environment(undefined=jinja2.ChainableUndefined, keep_trailing_newline=False, autoescape=False)
        self._template = env.from_string(template_source)

    def render(self, text: str, target: Optional[str] = None) -> str:
        """The prompt for ``text`` (and the protected person ``target``), role markers in both neutralized."""
        return self._template.render(text=sanitize(text), target=sanitize(target) if target else None).strip()


def split_messages(prompt: str) -> List[Dict[str, str]]:
    """Chat messages (``[{"role", "content"}]``) of a role-marked prompt; no markers = one user message."""
    matches = list(_MARKER_RE.finditer(prompt))
    if not matches:
        return [{"role": "user", "content": prompt.strip()}]
    messages = []
    lead = prompt[: matches[0].start()].strip()
    if lead:
        messages.append({"role": "user", "content": lead})
    for i, match in enumerate(matches):
        end = matches[i + 1].start() if i + 1 < len(matches) else len(prompt)
        content = prompt[match.end() : end].strip()
        if content:
            messages.append({"role": match.group(1), "content": content})
    return messages


def to_plain_text(prompt: str) -> str:
    """The prompt without role markers (system text first, then the user text)."""
    return "\n\n".join(m["content"] for m in split_messages(prompt))
