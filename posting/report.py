"""The Report: everything a check found, as plain data (tables and metadata).

Nothing here measures or renders. The engine fills the tables (:mod:`posting.assemble`); the
renderers (:mod:`posting.render`: JSON, GeoJSON, CSV, the summary, the map; the evidence
record) read them, each through the one record per parcel of :mod:`posting.records`, and the
plan (:mod:`posting.planning`) reads them with the parcels' geometry. A Report pickles: it holds
no open file, thread or lock.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

import pandas as pd
from pyproj import CRS

from posting.errors import python_name
from posting.prepare import ParcelGeometry
from posting.records import SCHEMA
from posting.rules.loader import Profile
from posting.settings import Settings
from posting.verdict import STATUSES

__all__ = ["SCHEMA", "Report"]


def _state_name(slug: str) -> str:
    """``south-carolina`` -> ``South Carolina`` (as :mod:`posting.states` names it)."""
    from posting.states import states_table

    t = states_table()
    return str(t.loc[t["slug"] == slug, "name"].iat[0])


@dataclass(eq=False)
class Report:
    """Everything a check found, in tables.

    Attributes
    ----------
    profiles, settings
        Every rule profile given (alternative ways to post) and the settings applied.
    geometry
        Where the parcels are, as measured (:class:`~posting.prepare.ParcelGeometry`: each
        parcel's geometry in its working CRS, its rings): what renderers draw from.
    inputs
        The input files: ``parcels`` (``path``, ``features``, ``crs``, ``id_field``) and
        ``signs`` (a list of ``path``, ``features``, ``crs``).
    parcels
        One row per input parcel, in input order: ``id``, ``row``, ``owner``, ``status``,
        ``rules`` (the profile it is judged by), ``signs`` (markers assigned, any kind),
        ``markers_counted`` (markers of the kinds its profile counts), ``rings``,
        ``perimeter_ft``, ``area_acres``, ``max_gap_ft``, ``corners``, ``repaired``,
        ``invalid_reason``, ``duplicate_id``, ``working_crs``, and the columns the land layers
        and the kinds of rule add.
    findings
        One row per (parcel, rule, level): see :mod:`posting.verdict`; with ``profile`` and
        ``basis`` (``statute``, ``statute (unverified)`` or ``guidance``).
    gaps
        Every gap of every ring: ``parcel``, ``ring``, ``part``, ``hole``, ``start_ft``,
        ``length_ft``, ``straight_ft``, ``limit_ft``, ``forest``, ``measured_ft``, ``status``
        (``ok``, ``over``, ``uncertain``, ``unmarked``), ``start_marker``, ``end_marker``;
        reported gaps (not ``ok``) also carry their end points (``start_lon`` ... ``end_lat``);
        :func:`posting.draw.gap_lines` draws them.
    corners
        Every corner: ``parcel``, ``ring``, ``position_ft``, ``x_ft``, ``y_ft``, ``lon``,
        ``lat``, ``turn_deg``, ``nearest_ft``, ``status`` (``ok``, ``missing``, ``uncertain``,
        ``not required``), ``marker_shared`` (True where the markers near the corner serve
        other corners of the parcel, each marker one corner, and so leave it without one of
        its own: :func:`posting.kinds.points.own_markers`).
    access
        Every access point (a road, driveway or trail crossing a boundary; a gate): ``parcel``,
        ``ring``, ``position_ft``, ``lon``, ``lat``, ``type``, ``nearest_ft``, ``status``.
    markers
        One row per input marker: ``source``, ``row``, ``lon``, ``lat``, ``kind``, ``parcel``
        (index or -1), ``parcel_id``, ``ring``, ``part``, ``hole``, ``assigned_by``,
        ``distance_ft``, ``position_ft``, ``x_ft``, ``y_ft`` (in its parcel's working CRS),
        ``doubtful`` (within the stated accuracy of a line shared with another owner's parcel,
        or inside another's parcel too where they overlap, nothing settling which it posts:
        :mod:`posting.ambiguity`), ``reason`` (why an
        unassigned marker is not assigned);
        :func:`posting.records.why_text` says, for every marker, where it went and why.
    marker_attributes
        The markers' own columns as read (text, letter height, date ...), aligned with
        ``markers``.
    alternatives, all_findings
        Each parcel's status under every profile given, and every profile's findings. The
        ``parcels``, ``findings``, ``gaps``, ``corners`` and ``access`` tables hold, for each
        parcel, the profile it is judged by: the first that gives it its best status.
    water, easements, fence_gaps
        Stretches of boundary formed by water, inside easements (with the ``holder``), and not
        fenced (under the profile each parcel is judged by): ``parcel``, ``length_ft``,
        ``geometry`` (WGS 84); the water's also ``ring`` and ``start_ft`` (where it starts
        along its ring, running forward ``length_ft``: the plan reads it). None when the layer
        was not given.
    tables, record_columns
        Tables that other kinds of rule add (by name), and the columns of ``parcels`` that
        kinds add to each parcel's record.
    states
        With the rules ``auto``: each state the parcels lie in and the profiles applied there
        (``parcels`` then has each parcel's ``state``); None when profiles were named.
    record_keys
        Optional keys every record carries even where this report's own rows would leave them
        out (``owner``, ``access``, ``unfenced``): set on a partition of a larger run
        (:mod:`posting.distributed`), so that its records read as the whole run's.
    signs_beyond
        Markers a gap ends at that are not in ``markers`` (as ``markers``' rows): a partition
        of a larger run keeps only its own parcels' markers, but a gap of its parcel may end at
        a marker of a parcel in its halo, counted for both within the stated accuracy. A gap's
        ``start_marker`` or ``end_marker`` of ``len(markers) + i`` is its row ``i``. Empty in
        one run.
    not_checked
        Rules not checked for any parcel, with the reason (and the profile).
    warnings
        Problems with the input that did not stop the check.
    parcels_crs
        The parcel layer's own CRS, as read or given (``--crs``): a point file for a surveyor
        (:mod:`posting.stakeout`) is written in it by default. None where not known.
    generated
        When the check ran (ISO 8601, UTC).
    ground
        Per parcel, how much longer on the ground its lengths may be than as measured (the
        land's elevation not given: :class:`posting.elevation.GroundBand`); None when the
        figures are the ground's. The plan spaces its markers by it.
    gated
        Per rule that the profile a parcel is judged by applies only on some land (a ``[when]``
        sub-table's name: ``access``, ``spacing``, ``profile`` ...), per parcel: 1.0 where it
        applies, 0.0 where not (Arkansas' points of entry on forest land), NaN where the data
        cannot tell (no land cover); 1.0 under a profile that does not gate it. In memory only
        (no output writes it): the plan reads it, since a bare lot has no finding of the rule.
    """

    RENDER_TARGET = "report"

    profiles: list[Profile]
    settings: Settings
    geometry: ParcelGeometry
    parcels: pd.DataFrame
    findings: pd.DataFrame
    gaps: pd.DataFrame
    corners: pd.DataFrame
    markers: pd.DataFrame
    inputs: dict[str, Any] = field(default_factory=dict)
    marker_attributes: pd.DataFrame = field(default_factory=pd.DataFrame)
    not_checked: list[dict[str, str]] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)
    generated: str = ""
    access: pd.DataFrame = field(default_factory=pd.DataFrame)
    alternatives: pd.DataFrame = field(default_factory=pd.DataFrame)
    all_findings: pd.DataFrame = field(default_factory=pd.DataFrame)
    water: pd.DataFrame | None = None
    easements: pd.DataFrame | None = None
    fence_gaps: pd.DataFrame = field(default_factory=pd.DataFrame)
    tables: dict[str, pd.DataFrame] = field(default_factory=dict)
    record_columns: tuple[str, ...] = ()
    states: dict[str, list[str]] | None = None
    record_keys: frozenset[str] = frozenset()
    signs_beyond: pd.DataFrame = field(default_factory=pd.DataFrame)
    parcels_crs: CRS | None = None
    ground: Any = None
    gated: dict[str, Any] = field(default_factory=dict)

    @property
    def profile(self) -> Profile:
        """The first profile given."""
        return self.profiles[0]

    # -- summary ---------------------------------------------------------------------------
    @property
    def crs(self) -> str:
        """The working CRS (several, separated by ``; ``, when the data spans UTM zones)."""
        return "; ".join(c.label for c in self.geometry.crss) or "none (no usable geometry)"

    @property
    def rules_name(self) -> str:
        """The profile's name, or the alternatives joined by "or"; with parcels in several
        states, each state's (``virginia in Virginia; washington in Washington``)."""
        if self.states and len(self.states) > 1:
            return "; ".join(
                f"{' or '.join(names)} in {_state_name(s)}" for s, names in self.states.items()
            )
        return " or ".join(p.name for p in self.profiles)

    @property
    def exit_code(self) -> int:
        """0 when every parcel is compliant or exempt, else 1."""
        ok = self.parcels["status"].isin(["compliant", "exempt"])
        return 0 if bool(ok.all()) else 1

    def status_counts(self) -> dict[str, int]:
        """Parcels per status (every status, zeros included)."""
        counts = self.parcels["status"].value_counts()
        return {s: int(counts.get(s, 0)) for s in STATUSES}

    def summary(self) -> dict[str, Any]:
        """Counts per status and of markers read, assigned and unassigned."""
        assigned = int((self.markers["parcel"] >= 0).sum())
        out = {
            "parcels": len(self.parcels),
            "status": self.status_counts(),
            "markers_read": len(self.markers),
            "markers_assigned": assigned,
            "markers_unassigned": len(self.markers) - assigned,
        }
        if len(self.profiles) > 1:
            met = self.parcels.loc[self.parcels["status"].eq("compliant"), "rules"]
            out["compliant_by"] = {p.name: int((met == p.name).sum()) for p in self.profiles}
        return out

    def worst(self, k: int = 5) -> pd.DataFrame:
        """The ``k`` parcels that fail worst: largest gap (or unposted boundary) first, with
        their largest gap's verdict and limit (``max_gap_verdict``, ``max_gap_limit_ft``:
        :func:`posting.records.max_gap_verdicts`)."""
        p = self.parcels
        if "max_gap_verdict" not in p:  # (the partitions' worst parcels have them)
            from posting.records import max_gap_verdicts

            verdict, limit = max_gap_verdicts(p["max_gap_ft"], self.gaps)
            p = p.assign(max_gap_verdict=verdict, max_gap_limit_ft=limit)
        bad = p[p["status"].isin(["noncompliant", "unposted", "uncertain"])]
        key = bad["max_gap_ft"].fillna(bad["perimeter_ft"])
        return bad.assign(_k=key).sort_values("_k", ascending=False, kind="stable").head(k)

    # -- conveniences: the renderers of posting.render ---------------------------------------
    def to_dict(self, name: Callable[[str], str] = python_name) -> dict[str, Any]:
        """The JSON report as a dict (:func:`posting.records.as_dict`)."""
        from posting.records import as_dict

        return as_dict(self, name)

    def to_json(self) -> str:
        """The JSON report as text."""
        from posting.render import render

        return b"".join(render(self, "json")).decode()

    def to_geojson(self) -> str:
        """The GeoJSON of parcels, markers, gaps, corners and access points."""
        from posting.render import render

        return b"".join(render(self, "geojson")).decode()

    def to_csv(self) -> str:
        """One CSV row per parcel."""
        from posting.render import render

        return render(self, "csv")

    def summary_lines(self, k: int = 5, name: Callable[[str], str] = python_name) -> list[str]:
        """A short human summary for stderr."""
        from posting.render.summary import summary_lines

        return summary_lines(self, k, name)

    def iter_json(self) -> Iterator[bytes | memoryview]:
        """The JSON report as UTF-8, in pieces (for writing a large one as it is made)."""
        from posting.render import render

        yield from render(self, "json")
