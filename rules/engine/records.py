"""A quicker ``__init__`` for the frozen dataclasses the engine makes by the thousand.

A frozen dataclass's generated ``__init__`` sets every field through
``object.__setattr__`` (its own ``__setattr__`` refuses), one call per field; combat
events, dice rolls, attack options and the Alien AI's plans are made so often that those
calls add up. :func:`quick_init` gives such a class an ``__init__`` that writes the same
values into the instance's ``__dict__`` directly: the same signature, defaults and default
factories, so every instance has exactly the attributes the generated one would give it
(``tests/engine/test_fast_paths.py`` compares them).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import MISSING, fields, is_dataclass
from typing import Any, TypeVar

T = TypeVar("T")

#: Stands for "no value given" where a field has a default factory (as in dataclasses).
_NO_VALUE: Any = object()
#: The ``__init__`` each class had from dataclasses, by class (the tests compare them).
GENERATED_INITS: dict[type, Callable[..., None]] = {}
#: The prefix of every name the generated ``__init__`` uses besides the fields'.
_OWN = "_quick_init_"


def quick_init(cls: type[T]) -> type[T]:
    """Give the frozen dataclass ``cls`` an ``__init__`` filling ``__dict__`` directly.

    Only plain classes are accepted: every field set by ``__init__`` (none keyword-only),
    no ``__post_init__`` and no slots; anything else raises TypeError."""
    params = getattr(cls, "__dataclass_params__", None)
    if not is_dataclass(cls) or params is None or not params.frozen:
        raise TypeError(f"{cls.__name__} is not a frozen dataclass")
    if hasattr(cls, "__post_init__") or hasattr(cls, "__slots__"):
        raise TypeError(f"{cls.__name__} has __post_init__ or slots")
    names: dict[str, Any] = {f"{_OWN}none": _NO_VALUE}
    args = []
    lines = []
    for f in fields(cls):
        if not f.init or f.kw_only or f.name.startswith(_OWN) or f.name == "self":
            raise TypeError(f"{cls.__name__}.{f.name} is not a plain __init__ field")
        store = f"    {_OWN}dict[{f.name!r}] = "
        if f.default is not MISSING:
            names[f"{_OWN}default_{f.name}"] = f.default
            args.append(f"{f.name}={_OWN}default_{f.name}")
            lines.append(store + f.name)
        elif f.default_factory is not MISSING:
            names[f"{_OWN}factory_{f.name}"] = f.default_factory
            args.append(f"{f.name}={_OWN}none")
            lines.append(
                store + f"{_OWN}factory_{f.name}() if {f.name} is {_OWN}none else {f.name}"
            )
        else:
            args.append(f.name)
            lines.append(store + f.name)
    source = "\n".join(
        [f"def __init__(self, {', '.join(args)}):", f"    {_OWN}dict = self.__dict__", *lines]
    )
    exec(source, names)  # noqa: S102 - the source is built above from field names only
    init = names["__init__"]
    init.__qualname__ = f"{cls.__qualname__}.__init__"
    init.__module__ = cls.__module__
    GENERATED_INITS[cls] = cls.__init__
    setattr(cls, "__init__", init)  # noqa: B010 - mypy refuses assigning to a method
    return cls
