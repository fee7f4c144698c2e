"""posting: is this land legally posted against trespass?

Measures parcel boundaries and surveyed markers (signs, paint marks) against a jurisdiction's
posting statute, in true feet, and says per parcel whether it is posted and where it falls short.

>>> import posting
>>> "florida" in posting.available()
True
"""

from posting.engine import check
from posting.errors import CRSError, InputError, PostingError, RulesError
from posting.io import read_markers, read_parcels
from posting.planning import Plan, plan
from posting.report import Report
from posting.rules import Profile, available, load_rules
from posting.settings import Settings

__all__ = [
    "CRSError",
    "InputError",
    "Plan",
    "PostingError",
    "Profile",
    "Report",
    "RulesError",
    "Settings",
    "available",
    "check",
    "load_rules",
    "plan",
    "read_markers",
    "read_parcels",
]
