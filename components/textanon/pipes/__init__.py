"""The spaCy pipeline components of textanon, one module each (registered by :mod:`textanon.pipes.factories`):
detect (``textanon_entity_recognizer``, ``textanon_ents_to_spans``, ``textanon_allow_deny``), link
(``textanon_entity_linker``), score risk (``textanon_lm_risk``, ``textanon_search_risk``), decide
(``textanon_generalizer``, ``textanon_optimizer``) and the LLM detector (``textanon_llm_anonymizer``). The machinery
they run lives below them: :mod:`textanon.detect`, :mod:`textanon.risk`, :mod:`textanon.decide`, :mod:`textanon.llm`."""
