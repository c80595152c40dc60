"""textanon: risk-aware anonymization of English text as spaCy pipeline components."""
from .about import __version__
from .extensions import register_extensions
from .labels import TAB_LABELS

register_extensions()

__all__ = ["__version__", "TAB_LABELS", "register_extensions"]
