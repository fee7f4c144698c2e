"""The check, end to end: parcels, markers and context in, a :class:`~posting.report.Report` out.

    prepare -> assign -> measure -> evaluate (per rule profile) -> assemble

Preparing the parcels and assigning the markers do not depend on the rules, so they are done
once (:mod:`posting.prepare`, :mod:`posting.assign`), and so is everything else the rules read
(:mod:`posting.measure`); each rule profile (an alternative way to post) is then evaluated on
the same measurements (:mod:`posting.evaluate`), and each parcel takes the best status any
profile gives it (:mod:`posting.assemble`).
"""

from __future__ import annotations

from collections.abc import Sequence

from posting.assemble import assemble
from posting.assign import assign_markers
from posting.errors import InputError, RulesError
from posting.evaluate import evaluate
from posting.io import MarkerLayer, ParcelLayer
from posting.measure import Context, measure
from posting.parallel import background, release_memory
from posting.prepare import PreparedParcels, prepare_parcels
from posting.report import Report
from posting.rules.loader import Profile, load_rules
from posting.settings import Settings

__all__ = ["Context", "check", "profiles_of"]


def profiles_of(rules: str | Profile | Sequence[str | Profile]) -> list[Profile]:
    """Rule profiles from names, paths or loaded profiles (Florida's when none is given)."""
    items = [rules] if isinstance(rules, str | Profile) else list(rules)
    if not items:
        items = ["florida"]
    profiles = [r if isinstance(r, Profile) else load_rules(r) for r in items]
    names = [p.name for p in profiles]
    if len(set(names)) != len(names):
        dup = next(n for n in names if names.count(n) > 1)
        raise RulesError(f"rule profile {dup!r} is given twice")
    return profiles


def check(
    parcels: ParcelLayer | PreparedParcels,
    markers: MarkerLayer | None = None,
    rules: str | Profile | Sequence[str | Profile] = "florida",
    *,
    settings: Settings | None = None,
    context: Context | None = None,
) -> Report:
    """Check parcels and their markers against one rule profile or several alternatives.

    Parameters
    ----------
    parcels
        From :func:`posting.io.read_parcels`, or already prepared with
        :func:`posting.prepare.prepare_parcels` (with the same settings).
    markers
        From :func:`posting.io.read_markers`; None means no markers (every parcel unposted).
    rules
        A profile name (``"florida"``), a path to a profile file, a loaded profile, or a list of
        them: alternative ways to post (a parcel complies if it meets any one).
    settings
        Tolerances and survey accuracy.
    context
        Access points, land cover, public property, the date of the check.
    """
    settings = settings or Settings()
    context = context or Context()
    profiles = profiles_of(rules)
    markers = markers if markers is not None else MarkerLayer.empty()
    if isinstance(parcels, PreparedParcels):
        prep = parcels
        if prep.settings != settings:
            raise InputError("the parcels were prepared with other settings than the check's")
    else:
        prep = prepare_parcels(parcels, settings)
    asg = assign_markers(prep, markers, tolerance_ft=settings.tolerance_ft)
    release_memory()  # the assignment's temporaries, which the next steps would not reuse
    facing = any(p.facing is not None for p in profiles)
    m = measure(prep, asg, markers, settings, context, facing=facing)
    results = [evaluate(p, m, beside=background) for p in profiles]
    return assemble(m, profiles, results)
