"""Settings declared once, in a constructor: config defaults and factory signatures are read from it.

spaCy and confection validate a config block against the signature of the function it names, and a spaCy
factory takes its defaults from ``default_config``. A component's (or model's) constructor already declares
every setting with its type and default; instead of writing them again in the factory and in
``default_config``, the factory takes ``**settings`` and :func:`settings_from` gives it the constructor's
parameters as its signature, and :func:`defaults` reads the config defaults from the same place. Every pipeline
component is registered so, in :mod:`textanon.pipes.factories`:

    @Language.factory("textanon_x", default_config=defaults(X, X.SETTINGS), assigns=[...], requires=[...])
    @settings_from(X)
    def make_x(nlp: Language, name: str, **settings: Any) -> X:
        return X(name=name, **settings)
"""

import copy
import inspect
from typing import Any, Callable, Dict, List, Optional, Sequence, TypeVar

F = TypeVar("F", bound=Callable[..., Any])


def _parameters(source: Callable) -> List[inspect.Parameter]:
    """The parameters of ``source`` (a class: its constructor, without ``self``)."""
    return list(inspect.signature(source).parameters.values())


def config_value(value: Any) -> Any:
    """A default as a config value: a tuple becomes a list (the config has lists, not tuples), a list or a dict is
    copied (a default shared with the constructor is never changed through the config)."""
    if isinstance(value, tuple):
        return list(value)
    return copy.deepcopy(value) if isinstance(value, (list, dict)) else value


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
