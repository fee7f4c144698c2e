"""Error hierarchy.

Library code raises these; the command line turns them into a one-line message and exit
status 2, once, at the edge (`posting.cli`). Anything else escaping is a bug.

An error carries what it is about as fields (the file, the row, the column, the parameter of the
call that can mend it), so that each front end can word it in its own terms. A message never
names a command-line flag: where it tells the user which setting to give, it says ``{option}``,
which :meth:`PostingError.worded` fills with the parameter's name as that front end spells it
(``--crs`` on the command line; ``crs=`` when the library is called from Python, the default).
Another setting the message mentions is written ``{option:corner_tolerance_ft}``.

>>> e = InputError("the layer has no CRS; give it with {option}", path="a.csv", parameter="crs")
>>> str(e)
'a.csv: the layer has no CRS; give it with crs='
>>> e.worded(lambda name: "--" + name.replace("_", "-"))
'a.csv: the layer has no CRS; give it with --crs'
"""

from __future__ import annotations

import re
from collections.abc import Callable

__all__ = ["CRSError", "InputError", "PostingError", "RulesError", "python_name", "worded"]


_PLACEHOLDER = re.compile(r"\{option(?::([A-Za-z_][A-Za-z0-9_]*))?\}")


def python_name(parameter: str) -> str:
    """How a parameter is given from Python: ``crs=``."""
    return f"{parameter}="


def worded(
    text: str, name: Callable[[str], str] = python_name, parameter: str | None = None
) -> str:
    """``text`` with each ``{option:x}`` spelt ``name("x")`` (and ``{option}``,
    ``name(parameter)``): how the library words a setting in a report or a message, and each
    front end spells it.

    >>> worded("no fence layer ({option:fences})")
    'no fence layer (fences=)'
    >>> worded("no fence layer ({option:fences})", lambda n: "--" + n)
    'no fence layer (--fences)'
    """

    def spell(m: re.Match[str]) -> str:
        which = m[1] or parameter
        return name(which) if which else m[0]

    return _PLACEHOLDER.sub(spell, text)


class PostingError(Exception):
    """Base class of every error a user can fix by changing the input or the options.

    Parameters
    ----------
    message
        What is wrong and what to do. ``{option}`` stands for the setting that mends it
        (``parameter``); the message does not repeat the path.
    path
        The file the error is about, if any (the message is prefixed with it).
    row, column
        The input row (0-based, as the report counts) and column, where known.
    parameter
        The library parameter that mends it (``crs``, ``id_field``, ``setback_ft`` ...).
    """

    def __init__(
        self,
        message: str,
        *,
        path: str | None = None,
        row: int | None = None,
        column: str | None = None,
        parameter: str | None = None,
    ) -> None:
        super().__init__(message)
        self.message = message
        self.path = path
        self.row = row
        self.column = column
        self.parameter = parameter

    def worded(self, name: Callable[[str], str] = python_name) -> str:
        """The message, with ``{option}`` spelt ``name(parameter)`` (and ``{option:other}``
        ``name("other")``), the path first."""

        text = worded(self.message, name, self.parameter)
        return f"{self.path}: {text}" if self.path else text

    def __str__(self) -> str:
        return self.worded()

    def detached(self) -> PostingError:
        """The same error without the exceptions it was raised while handling (its cause and
        context) and without its traceback: what another process needs of it, and can load."""
        return _rebuild(type(self), self.message, self.path, self.row, self.column, self.parameter)

    def __reduce__(self):  # picklable with its fields (a worker's error reaches the caller)
        return (
            _rebuild,
            (type(self), self.message, self.path, self.row, self.column, self.parameter),
        )


def _rebuild(cls, message, path, row, column, parameter):
    return cls(message, path=path, row=row, column=column, parameter=parameter)


class InputError(PostingError, ValueError):
    """An input file or column cannot be used as given."""


class CRSError(InputError):
    """A layer has no coordinate reference system, or one that cannot be used."""


class RulesError(PostingError, ValueError):
    """A rule profile cannot be found or does not follow the schema."""
