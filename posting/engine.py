"""The check, end to end: parcels, markers and context in, a :class:`~posting.report.Report` out.

    prepare -> assign -> measure -> evaluate (per rule profile) -> assemble

Preparing the parcels and assigning the markers do not depend on the rules, so they are done
once (:mod:`posting.prepare`, :mod:`posting.assign`), and so is everything else the rules read
(:mod:`posting.measure`); which profiles may judge which parcels is chosen beside the
assignment (:mod:`posting.jurisdiction`: ``auto`` takes each parcel's state's); each rule profile
(an alternative way to post) is then evaluated once on the same measurements
(:mod:`posting.evaluate`), and each parcel takes the best status any profile that applies to it
gives it (:mod:`posting.assemble`).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

import numpy as np

from posting import parallel
from posting.ambiguity import (
    ON_LINE_FT,
    bounds,
    combine,
    doubtful_markers,
    shared_by_one_owner,
    with_doubtful,
)
from posting.assemble import assemble
from posting.assign import assign_near
from posting.crs import datum_warnings
from posting.elevation import frame_band, ground_band
from posting.errors import InputError
from posting.evaluate import evaluate
from posting.io import MarkerLayer, ParcelLayer
from posting.job import Job, merge_key_of, read_context, read_markers_of, read_parcels_of
from posting.jurisdiction import (
    Applied,
    RulesSpec,
    choose,
    parcel_state_table,
    rules_spec,
    state_of,
)
from posting.measure import Context, measure
from posting.parallel import background, soon
from posting.prepare import PreparedParcels, add_corners, prepare_parcels
from posting.report import Report
from posting.rules.loader import Profile
from posting.sanity import check_inputs
from posting.settings import Settings
from posting.states import boundaries

if TYPE_CHECKING:
    from posting.prefetch import Prefetch

__all__ = ["Context", "check", "profiles_of", "run"]


def profiles_of(rules: str | Profile | Sequence[str | Profile]) -> list[Profile]:
    """Rule profiles from names, paths or loaded profiles (``auto`` chooses none here: see
    :mod:`posting.jurisdiction`)."""
    return rules_spec(rules).named


def check(
    parcels: ParcelLayer | PreparedParcels,
    markers: MarkerLayer | None = None,
    rules: str | Profile | Sequence[str | Profile] = "florida",
    *,
    settings: Settings | None = None,
    context: Context | None = None,
    threads: int | None = None,
    applied: Applied | None = None,
    explain: bool = True,
    own: np.ndarray | None = None,
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
        them: alternative ways to post (a parcel complies if it meets any one). ``"auto"``
        judges each parcel by its state's default profiles (:mod:`posting.jurisdiction`).
    settings
        Tolerances and survey accuracy.
    context
        Access points, land cover, public property, the date of the check.
    threads
        How many threads the check may use (None: every core; 1 where it is one of several
        workers on a machine).
    applied
        Which of ``rules``' profiles judge which parcel, already chosen for a larger layer that
        ``parcels`` are part of (a partition's: :class:`posting.jurisdiction.Choice`); None
        chooses here (:func:`posting.jurisdiction.choose`).
    explain
        Say why each unassigned marker is unassigned (:func:`posting.assign.assign_markers`);
        False where a larger check explains them (a partition's: its unassigned markers may be
        its neighbours').
    own
        Given where the parcels are part of a larger check, which sums the counts of each
        profile's notes (a partition's): per parcel, True for those whose figures the notes
        count (the partition's own, not its halo's: :attr:`posting.measure.Measurements.own`).
        A land-cover note is then kept with its counts though none of these gaps' land cover
        is unknown (:func:`posting.assemble.landcover_counted`).
    """
    with parallel.threads(threads):
        return _check(
            parcels,
            markers,
            rules_spec(rules),
            settings,
            context,
            applied=applied,
            explain=explain,
            own=own,
        )


def _check(
    parcels,
    markers,
    spec: RulesSpec,
    settings,
    context,
    cornering=None,
    applied=None,
    explain: bool = True,
    own: np.ndarray | None = None,
) -> Report:
    """The stages, in order; the corners (``cornering``, when they are already being found) and
    each parcel's profiles (unless ``applied`` gives them) are found beside the assignment,
    which needs neither, and each profile's measurements beside each other
    (:func:`posting.evaluate`)."""
    settings = settings or Settings()
    context = context or Context()
    markers = markers if markers is not None else MarkerLayer.empty()
    if isinstance(parcels, PreparedParcels):
        prep = parcels
        if prep.settings != settings:
            raise InputError("the parcels were prepared with other settings than the check's")
    else:
        prep = prepare_parcels(parcels, settings, corners=False)
    # in a thread of its own: queued behind the corners, the choice held up the measurement
    choosing = parallel.aside(choose, spec, prep) if applied is None else None
    if cornering is None:
        cornering = background(add_corners, prep)
    # (the lines within the reach of the doubt, told by the assignment: no search again)
    reach = min(max(settings.accuracy_ft, ON_LINE_FT), settings.tolerance_ft)
    asg, lines = assign_near(
        prep, markers, tolerance_ft=settings.tolerance_ft, explain=explain, near_ft=reach
    )
    # markers that GPS error could put across a shared line (or that stand on it)
    asg, doubt = doubtful_markers(
        prep, markers, asg, settings.accuracy_ft, settings.tolerance_ft, lines
    )
    try:
        if choosing is not None:
            applied = choosing.result()
    except BaseException:
        cornering.exception()  # let the corners finish; the choice's error is the one shown
        raise
    prep = cornering.result()
    profiles = applied.profiles
    facing = any(p.facing is not None for p in profiles)
    m = measure(prep, asg, markers, settings, context, facing=facing)
    m.own = own
    if settings.elevation_ft is None:  # at sea level: each parcel's land between its states'
        touched = applied.touched
        if touched is None:
            touched = parcel_state_table(prep)["states"].to_numpy(object)
        m.ground = ground_band(prep, touched)
    else:  # one factor per parcel: the working frame's own scale divided out
        m.ground = frame_band(prep, settings.elevation_ft)
    if doubt is not None and len(doubt):
        one_owner = shared_by_one_owner(prep, asg, doubt)
        if one_owner.any():  # it posts the owner's shared line: it counts for both parcels
            m = with_doubtful(m, doubt.take(one_owner))
            doubt = doubt.take(~one_owner)
    results = [evaluate(p, m, beside=background) for p in profiles]
    if doubt is not None and len(doubt):
        m.doubtful = np.isin(np.arange(len(markers)), doubt.marker)
        # the bounds of the parcels the doubtful markers concern, judged alone: the others'
        # are their verdicts
        near, worst, best = bounds(m, doubt)
        results = [
            combine(r, evaluate(p, worst), evaluate(p, best), doubt, m, near)
            for p, r in zip(profiles, results, strict=True)
        ]
    return assemble(m, profiles, results, applied, partial=own is not None)


def run(job: Job, *, prefetch: Prefetch | None = None, threads: int | None = None) -> Report:
    """Read what ``job`` names and check it.

    The markers are read while the parcels are read and prepared: both spend most of their
    time in pyarrow, GEOS and PROJ, which release the GIL, so the cores share the work.
    ``prefetch`` holds GeoParquet files already being read (:class:`posting.prefetch.Prefetch`).
    """
    with parallel.threads(threads):
        spec = rules_spec(job.rules)
        if spec.auto or any(state_of(p) for p in spec.named):
            soon(boundaries)  # read while the parcels are
        reading = parallel.aside(read_markers_of, job, prefetch)
        try:
            parcels = read_parcels_of(job, prefetch)
            context = read_context(job.context, parcels, job.crs)
            key = merge_key_of(job, parcels)
            prepared = prepare_parcels(parcels, job.settings, merge_key=key, corners=False)
        except BaseException:
            reading.exception()  # let the reading finish; the parcels' error is the one shown
            raise
        # the corners are found while the markers are still being read, then assigned
        cornering = background(add_corners, prepared)
        markers = reading.result()
        # x and y swapped in a marker file (refused), one owner's adjoining parcels (a note,
        # found beside the check)
        notes = check_inputs(
            prepared,
            markers,
            same_owner=bool(job.owner_field) and not job.merge_owner,
            owner_field=job.owner_field,
            option=lambda name: f"{{option:{name}}}",
        )
        report = _check(prepared, markers, spec, job.settings, context, cornering)
        layer = prepared.layer
        held = np.bincount(markers.file_index, minlength=len(markers.files)) > 0
        files = [f for f, h in zip(markers.files, held.tolist(), strict=True) if h]
        datums = datum_warnings((layer.source, layer.crs), files, prepared.bounds_lonlat)
        report.warnings[:0] = [*notes.result(), *datums]
        return report
