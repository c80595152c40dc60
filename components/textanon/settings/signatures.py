"""Settings declared once, in a constructor: config defaults and factory signatures are read from it.

spaCy and confection validate a config block against the signature of the function it names, and a spaCy
factory takes its defaults from ``default_config``. A component's (or model's) constructor already declares
every setting with its type and default; instead of writing them again in the factory and in
``default_config``, the factory takes ``**settings`` and :func:`settings_from` gives it the constructor's
parameters as its signature, and :func:`defaults` reads the config defaults from the same place.
:func:`register_component` does both for a component whose settings are its constructor's:

    make_search_risk = register_component("textanon_search_risk", SearchRisk, assigns=[...], requires=[...])

A factory that does more than build the component keeps its own body and takes the signature with
:func:`settings_from` (``make_optimizer``).
"""

import inspect
from typing import Any, Callable, Dict, List, Optional, Sequence, TypeVar

from spacy.language import Language

F = TypeVar("F", bound=Callable[..., Any])


def _parameters(source: Callable) -> List[inspect.Parameter]:
    """The parameters of ``source`` (a class: its constructor, without ``self``)."""
    return list(inspect.signature(source).parameters.values())


def config_value(value: Any) -> Any:
    """A default as a config value: a tuple becomes a list (the config has lists, not tuples)."""
    return list(value) if isinstance(value, tuple) else value


def defaults(source: Callable, names: Sequence[str]) -> Dict[str, Any]:
    """The defaults of the parameters ``names`` of ``source`` (a class: its constructor), as config values, in the
    order of ``names``. A name without a default raises ``KeyError`` (every setting in a config needs one)."""
    params = {p.name: p for p in _parameters(source)}
    missing = [n for n in names if n not in params or params[n].default is inspect.Parameter.empty]
    if missing:
        raise KeyError(f"{getattr(source, '__name__', source)} has no default for {missing}")
    return {name: config_value(params[name].default) for name in names}


def settings_from(
    source: Callable, names: Optional[Sequence[str]] = None, drop: Sequence[str] = ()
) -> Callable[[F], F]:
    """Decorator: ``func(..., **settings)`` takes the settings of ``source`` (a class: its constructor). The
    signature that spaCy and confection read becomes ``func``'s named parameters followed by ``source``'s
    parameters ``names`` (all when None, less ``drop`` and those ``func`` names itself), with their types and
    defaults; ``func`` itself is unchanged. A setting added to the constructor is in the config at once."""

    def decorate(func: F) -> F:
        signature = inspect.signature(func)
        own = [p for p in signature.parameters.values() if p.kind is not inspect.Parameter.VAR_KEYWORD]
        if len(own) == len(signature.parameters):
            raise TypeError(f"{func.__name__} must take **settings to take the settings of {source!r}")
        taken = {p.name for p in own} | set(drop)
        params = {p.name: p for p in _parameters(source)}
        chosen = list(params) if names is None else list(names)
        unknown = [n for n in chosen if n not in params]
        if unknown:
            raise TypeError(f"{source!r} has no parameters {unknown}")
        extra = [params[n] for n in chosen if n not in taken]
        func.__signature__ = signature.replace(parameters=own + extra)  # type: ignore[attr-defined]
        return func

    return decorate


def register_component(factory: str, cls: type, **meta: Any) -> Callable[..., Any]:
    """Register the component class ``cls`` as the spaCy factory ``factory`` and return the factory function, named
    ``make_`` + the factory's name without its ``textanon_`` prefix (``make_search_risk``: the entry point's).

    ``cls`` takes ``name`` (and ``nlp`` if its constructor names it) and its settings, and names them in ``SETTINGS``
    (:class:`~textanon.settings.serialization.SettingsRecord`): the config's defaults are its constructor's defaults of
    ``SETTINGS``, the factory's signature ``nlp``, ``name`` and the constructor's parameters (a parameter without a
    default, such as the search risk's ``index``, must be in the config). ``meta``: the other arguments of
    :meth:`spacy.language.Language.factory` (``assigns``, ``requires``, ...)."""

    takes_nlp = "nlp" in inspect.signature(cls).parameters

    def make(nlp: Language, name: str, **settings: Any) -> Any:
        return cls(nlp=nlp, name=name, **settings) if takes_nlp else cls(name=name, **settings)

    make.__name__ = make.__qualname__ = "make_" + factory.removeprefix("textanon_")
    make.__module__ = cls.__module__
    make.__doc__ = f"The ``{factory}`` factory: a :class:`{cls.__name__}` with the settings of the config."
    make.__annotations__["return"] = cls
    return Language.factory(factory, default_config=defaults(cls, cls.SETTINGS), func=settings_from(cls)(make), **meta)
