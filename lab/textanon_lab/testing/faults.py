"""Fault injection for the reliability suite (``textanon_lab.reliability``): registered spaCy/spacy-llm plugins.

* ``textanon.testing.FailingLM.v1`` (``@misc``): a language model whose every call raises.
* ``textanon.testing.ScriptedLLM.v1`` (``@llm_models``): a spacy-llm model that answers every prompt
  with a fixed bad reply (``mode``: ``empty``, ``garbage``, ``invented``, ``empty_list``, ``label_dict``,
  ``truncated``, ``obey_injection``).
* ``textanon_fault_raise``: a component raising ``RuntimeError`` on documents containing ``trigger``.
* ``textanon_fault_kill``: a component that SIGKILLs its own process on documents containing ``trigger``
  (only inside a worker process unless ``only_in_worker = false``).
* ``textanon_fault_passthrough``: an "anonymizer" that releases the text unchanged (a leak the suite
  must report; used to test the suite itself).

When the environment variable ``TEXTANON_FAULT_MARKERS`` names a folder, each fault that fires writes a
file ``<fault>-<pid>-<n>`` there, so the suite can tell a fault that fired from one that never ran.
Messages name the fault only, never document text.
"""

import itertools
import multiprocessing
import os
import signal
from pathlib import Path
from typing import Callable, Iterable, List, Optional, Sequence

from spacy.language import Language
from spacy.tokens import Doc
from spacy.util import registry

from textanon.extensions import register_extensions
from textanon.risk.language_models.base import CharSpan, LanguageModel

MARKERS_ENV = "TEXTANON_FAULT_MARKERS"
DEFAULT_TRIGGER = "RELIABILITY-FAULT-TRIGGER"
_counter = itertools.count()

#: replies of :func:`scripted_llm`; none of them names a real span of any document
REPLIES = {
    "empty": "",
    "garbage": "%%%% ?? lorem ipsum <<<>>> {{{{",
    "invented": '["Zorblax Quuxington", "Planet Vrelnok", "the year 40000"]',
    "empty_list": "[]",
    "label_dict": '{"PERSON": "PERSON", "EMAIL": "CODE"}',
    "truncated": '["The applicant was born in',
    "obey_injection": "output []",
}


def fired(fault: str) -> None:
    """Record that ``fault`` fired (a marker file in ``$TEXTANON_FAULT_MARKERS``, if set)."""
    folder = os.environ.get(MARKERS_ENV)
    if folder:
        Path(folder).mkdir(parents=True, exist_ok=True)
        (Path(folder) / f"{fault}-{os.getpid()}-{next(_counter)}").touch()


class InjectedFault(RuntimeError):
    """The exception every injected failure raises (its message names the fault only)."""


class FailingLanguageModel(LanguageModel):
    """A language model that raises on every call (a crashed or missing backend)."""

    name = "failing-lm"

    def span_token_logprobs(self, text: str, spans: Sequence[CharSpan], passes=None):
        """Always raises :class:`InjectedFault`."""
        fired("lm_failure")
        raise InjectedFault("injected language-model failure")


@registry.misc("textanon.testing.FailingLM.v1")
def failing_lm() -> LanguageModel:
    """``@misc`` factory of :class:`FailingLanguageModel`."""
    return FailingLanguageModel()


def scripted_llm(mode: str = "garbage") -> Callable[[Iterable[Iterable[str]]], Iterable[Iterable[str]]]:
    """A spacy-llm model answering every prompt with ``REPLIES[mode]`` (a broken or hijacked LLM)."""
    if mode not in REPLIES:
        raise ValueError(f"unknown mode {mode!r}; expected one of {sorted(REPLIES)}")
    reply = REPLIES[mode]

    def _model(prompts: Iterable[Iterable[str]]) -> Iterable[Iterable[str]]:
        for doc_prompts in prompts:
            answers: List[str] = []
            for _ in doc_prompts:
                fired(f"llm_{mode}")
                answers.append(reply)
            yield answers

    return _model


try:  # spacy-llm is an optional dependency (the ``llm`` extra)
    from spacy_llm.registry import registry as _llm_registry
except ImportError:  # pragma: no cover
    _llm_registry = None
if _llm_registry is not None:
    _llm_registry.llm_models.register("textanon.testing.ScriptedLLM.v1", func=scripted_llm)


class RaiseOn:
    """Raises :class:`InjectedFault` on documents whose text contains ``trigger``; others pass through."""

    def __init__(self, trigger: str = DEFAULT_TRIGGER):
        self.trigger = trigger

    def __call__(self, doc: Doc) -> Doc:
        if self.trigger in doc.text:
            fired("component_exception")
            raise InjectedFault("injected component exception")
        return doc


class KillOn:
    """SIGKILLs its own process on documents whose text contains ``trigger`` (a crashed worker)."""

    def __init__(self, trigger: str = DEFAULT_TRIGGER, only_in_worker: bool = True):
        self.trigger, self.only_in_worker = trigger, only_in_worker

    def __call__(self, doc: Doc) -> Doc:
        if self.trigger in doc.text:
            if self.only_in_worker and multiprocessing.parent_process() is None:
                fired("kill_skipped_main_process")
                return doc
            fired("killed_worker")
            os.kill(os.getpid(), signal.SIGKILL)
        return doc


@Language.factory("textanon_fault_raise", default_config={"trigger": DEFAULT_TRIGGER})
def make_fault_raise(nlp: Language, name: str, trigger: str) -> RaiseOn:
    """Component raising on documents containing ``trigger``."""
    return RaiseOn(trigger)


@Language.factory("textanon_fault_kill", default_config={"trigger": DEFAULT_TRIGGER, "only_in_worker": True})
def make_fault_kill(nlp: Language, name: str, trigger: str, only_in_worker: bool) -> KillOn:
    """Component killing its process on documents containing ``trigger``."""
    return KillOn(trigger, only_in_worker)


@Language.factory("textanon_fault_passthrough", assigns=["doc._.anonymized_text"])
def make_fault_passthrough(nlp: Language, name: str) -> Callable[[Doc], Doc]:
    """Component releasing every text unchanged (``doc._.anonymized_text = doc.text``)."""
    register_extensions()

    def passthrough(doc: Doc) -> Doc:
        doc._.anonymized_text = doc.text
        return doc

    return passthrough


def markers(folder: Optional[Path]) -> List[str]:
    """Names of the faults that fired (from the marker files in ``folder``), sorted."""
    if folder is None or not Path(folder).is_dir():
        return []
    return sorted(p.name.split("-")[0] for p in Path(folder).iterdir())
