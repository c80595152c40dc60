"""LLM prompt anonymizer (spacy-llm): task ``textanon.Anonymize.v1``, models ``textanon.SmolLM2Chat.v1``,
``textanon.LocalChatModel.v1``, ``textanon.OpenAICompatible.v1`` and the ``textanon_llm_anonymizer``
factory. Importing this package imports spacy-llm (not torch: models load lazily)."""

from textanon.llm.prompts import DESIGNS, prompt_names

__all__ = ["DESIGNS", "prompt_names"]
