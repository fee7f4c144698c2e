"""Error hierarchy.

Library code raises these; the command line turns them into a one-line message and exit
status 2, once, at the edge (`posting.cli`). Anything else escaping is a bug.
"""

from __future__ import annotations

__all__ = ["CRSError", "InputError", "PostingError", "RulesError"]


class PostingError(Exception):
    """Base class of every error a user can fix by changing the input or the options."""


class InputError(PostingError, ValueError):
    """An input file or column cannot be used as given."""


class CRSError(InputError):
    """A layer has no coordinate reference system, or one that cannot be used."""


class RulesError(PostingError, ValueError):
    """A rule profile cannot be found or does not follow the schema."""
