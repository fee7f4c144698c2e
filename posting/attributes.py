"""Marker attribute columns: canonical names, their aliases, and marker kinds.

Column names are matched case-insensitively. A blank cell means *not recorded*: the rule that
needs it is reported as not checked for that marker, never as a violation.

======================  ===========================================  ==============================
canonical column        aliases                                      meaning
======================  ===========================================  ==============================
``kind``                ``marker_kind``, ``marker``                  ``sign`` (default), ``paint``
                                                                     (a painted stripe or patch),
                                                                     ``post`` (a painted post top)
``color``               ``colour``, ``paint_color``, ``paint_colour``  paint colour
``letter_height_in``    ``letter_height``, ``letters_in``,           height of the letters, inches
                        ``letter_in``
``text``                ``sign_text``, ``wording``, ``legend``       the words on the sign
``name_on_sign``        ``sign_name``, ``owner_on_sign``,            the name shown (``none`` or
                        ``name_shown``                               ``-``: no name)
``address_on_sign``     ``sign_address``, ``address``                the address shown
``phone_on_sign``       ``sign_phone``, ``phone``                    the phone number shown
``width_in``            ``width``, ``mark_width_in``                 sign or mark width, inches
``length_in``           ``length``, ``mark_length_in``,              sign height, or length of a
                        ``height_in``                                mark or painted top, inches
``height_ft``           ``bottom_ft``, ``height_above_ground_ft``    bottom of a mark or cap above
                                                                     the ground, feet
``facing_deg``          ``facing``, ``azimuth_deg``, ``azimuth``,    direction the sign faces,
                        ``bearing``                                  degrees clockwise from north
``surveyed``            ``survey_date``, ``date``, ``time``          date the marker was surveyed
``label``               ``name``, ``sign_id``, ``marker_id``,        what the surveyor called the
                        ``waypoint``, ``point``, ``point_id``        marker (a GPX waypoint's name,
                                                                     a survey's point number)
``support``             ``mounted_on``, ``stands_on``                what a mark is on (``tree``,
                                                                     ``post``, ``stone`` ...)
``signed``              ``signature``, ``signed_by``                 the signature on a sign
``sign_year``           ``year``, ``dated``, ``year_on_sign``        the year a sign shows
``centre_ft``           ``center_ft``, ``centre_height_ft``,         height of a mark's centre
                        ``center_height_ft``                         above the ground, feet
======================  ===========================================  ==============================

A measure's column names its unit (``_in`` inches, ``_ft`` feet, ``_deg`` degrees); a value
may still say its own (``3 in``, ``3"``, ``5 cm``, ``4' 6"``, ``45°``): :func:`measured` reads it
in the column's unit.

A Shapefile keeps at most 10 characters of a column name (``letter_height_in`` is saved as
``letter_hei``): the first 10 characters of each name above are accepted too (``letter_hei``,
``name_on_si``, ``address_on``, ``phone_on_s``, ``survey_dat`` ...), after the full names, and
:func:`shortened_columns` says which were read that way (the reader notes it).
"""

from __future__ import annotations

import re

import numpy as np
import pandas as pd

__all__ = [
    "COLUMNS",
    "SHAPEFILE_NAME_LENGTH",
    "column_key",
    "description_kinds",
    "description_tally",
    "find_column",
    "first_recorded",
    "kind_text",
    "kinds_tally",
    "marker_kinds",
    "measured",
    "select",
    "shortened_columns",
    "type_kinds",
    "type_tally",
    "unnamed_markers_note",
]

COLUMNS: dict[str, tuple[str, ...]] = {
    "kind": ("kind", "marker_kind", "marker"),
    "color": ("color", "colour", "paint_color", "paint_colour"),
    "letter_height_in": ("letter_height_in", "letter_height", "letters_in", "letter_in"),
    "text": ("text", "sign_text", "wording", "legend"),
    "name_on_sign": ("name_on_sign", "sign_name", "owner_on_sign", "name_shown"),
    "address_on_sign": ("address_on_sign", "sign_address", "address"),
    "phone_on_sign": ("phone_on_sign", "sign_phone", "phone"),
    "width_in": ("width_in", "width", "mark_width_in"),
    "length_in": ("length_in", "length", "mark_length_in", "height_in"),
    "height_ft": ("height_ft", "bottom_ft", "height_above_ground_ft"),
    "facing_deg": ("facing_deg", "facing", "azimuth_deg", "azimuth", "bearing"),
    "surveyed": ("surveyed", "survey_date", "date", "time"),
    "label": ("name", "sign_id", "marker_id", "label", "waypoint", "point", "point_id"),
    "support": ("support", "mounted_on", "stands_on"),
    "signed": ("signed", "signature", "signed_by"),
    "sign_year": ("sign_year", "year", "dated", "year_on_sign"),
    "centre_ft": ("centre_ft", "center_ft", "centre_height_ft", "center_height_ft"),
}
"""Canonical marker columns and the aliases accepted for them, in order of preference.

``name`` is deliberately not an alias of ``name_on_sign``: GPX waypoints carry their label in
``name``; nor is ``type`` an alias of ``kind``, for the same reason, unless every value of it
is ``sign``, ``paint`` or ``post`` (as in a plan's GPX).
"""

SHAPEFILE_NAME_LENGTH = 10
"""A Shapefile (dBase) column name keeps at most this many characters."""


def _shortened() -> dict[str, str]:
    out: dict[str, str] = {}
    full = {a for names in COLUMNS.values() for a in names}
    for canonical, names in COLUMNS.items():
        for alias in names:
            cut = alias[:SHAPEFILE_NAME_LENGTH]
            if cut != alias and cut not in full:
                if out.setdefault(cut, canonical) != canonical:  # pragma: no cover - none now
                    raise AssertionError(f"{cut!r} would be short for two columns")
    return out


SHORTENED: dict[str, str] = _shortened()
"""Each Shapefile-shortened name (``letter_hei``) and the canonical column it stands for."""
COLUMNS = {
    canonical: (*names, *sorted({c for c, k in SHORTENED.items() if k == canonical}))
    for canonical, names in COLUMNS.items()
}


_HEADER_UNITS = {
    "in": "in",
    "in.": "in",
    "inch": "in",
    "inches": "in",
    '"': "in",
    "ft": "ft",
    "ft.": "ft",
    "foot": "ft",
    "feet": "ft",
    "'": "ft",
    "deg": "deg",
    "degree": "deg",
    "degrees": "deg",
    "°": "deg",
}
"""Units a spreadsheet's header gives in brackets (``Letter Height (in)``), as the column
names' suffixes spell them."""

_HEADER_UNIT = re.compile(r"^(?P<name>.*?)\s*[(\[]\s*(?P<unit>[^()\[\]]*?)\s*[)\]]$")


def column_key(name: object) -> str:
    """A column's name as the marker columns are matched: lower case, words joined by ``_``
    (a spreadsheet's header ``Sign Text``, ``Survey-Date``), a unit in brackets as the suffix
    the column names carry (``Letter Height (in)``: ``letter_height_in``; ``Facing (°)``:
    ``facing_deg``).

    Examples
    --------
    >>> [column_key(c) for c in ["Sign Text", " Letter Height (inches) ", "Facing [°]", "kind"]]
    ['sign_text', 'letter_height_in', 'facing_deg', 'kind']
    >>> column_key("Name (owner)")  # not a unit: left as written
    'name_(owner)'
    """
    text = str(name).strip().lower()
    m = _HEADER_UNIT.match(text)
    if m and m["unit"] in _HEADER_UNITS:
        text = f"{m['name']} {_HEADER_UNITS[m['unit']]}"
    return re.sub(r"[\s\-./]+", "_", text).strip("_")


def _by_key(columns: pd.Index | list[str]) -> dict[str, object]:
    """Each :func:`column_key` of ``columns`` and the column it is; where two columns have
    one key (``Sign Text`` and ``sign_text``), the one whose name is the key, else the
    first."""
    out: dict[str, object] = {}
    for c in columns:
        out.setdefault(column_key(c), c)
    out.update({str(c).lower(): c for c in columns if str(c).lower() == column_key(c)})
    return out


def find_column(columns: pd.Index | list[str], canonical: str) -> str | None:
    """The column holding ``canonical`` (or its first alias present), if any: names matched
    by :func:`column_key` (case, blanks between words and a unit in brackets aside).

    Examples
    --------
    >>> find_column(["Lon", "Lat", "Colour"], "color")
    'Colour'
    >>> find_column(["Latitude", "Longitude", "Letter Height (in)"], "letter_height_in")
    'Letter Height (in)'
    """
    lower = _by_key(columns)
    for alias in COLUMNS[canonical]:
        if alias in lower:
            return lower[alias]
    return None


def first_recorded(attributes: pd.DataFrame, canonical: str) -> np.ndarray:
    """Per row, the first non-blank value among the columns that can hold ``canonical`` (in
    order of preference), as stripped text; None where none has one. Marker files read
    together share columns: a GPX's ``name`` is blank on a CSV's rows, whose ``sign_id`` holds
    it.

    Examples
    --------
    >>> first_recorded(pd.DataFrame({"name": [None, "W1"], "sign_id": ["G1", None]}),
    ...                "label").tolist()
    ['G1', 'W1']
    """
    out = np.full(len(attributes), None, dtype=object)
    lower = _by_key(attributes.columns)
    for alias in reversed(COLUMNS[canonical]):  # the preferred last, so that it wins
        if alias in lower:
            v = pd.Series(attributes[lower[alias]], dtype="string").str.strip()
            ok = (v.notna() & (v != "")).to_numpy()
            out[ok] = v[ok].to_numpy(dtype=object)
    return out


def type_tally(attributes: pd.DataFrame, group: np.ndarray, n: int) -> tuple[np.ndarray, ...]:
    """For each of ``n`` groups of rows (``group``: each row's, 0 to ``n - 1``; a marker's
    file), whether its ``type`` column holds a value, and whether some value is not a marker
    kind: all False without a ``type`` column. A group's ``type`` gives its kinds where it holds
    a value and all are kinds (:func:`type_kinds`); the tallies of a file's pieces add up (by
    ``|``) to the whole file's.

    Examples
    --------
    >>> a = pd.DataFrame({"type": ["paint", " Post", None, "Flag, Blue", ""]})
    >>> [t.tolist() for t in type_tally(a, np.array([0, 0, 1, 2, 2]), 3)]
    [[True, False, True], [False, False, True]]
    """
    col = _by_key(attributes.columns).get("type")
    if col is None:
        return np.zeros(n, dtype=bool), np.zeros(n, dtype=bool)
    codes, uniques = pd.factorize(attributes[col])  # a few distinct values in a million rows
    text = pd.Series(uniques, dtype="string").str.strip().str.casefold().fillna("")
    valued = np.append((text != "").to_numpy(dtype=bool), False)[codes]  # -1: missing
    other = valued & ~np.append(text.isin(_KIND_WORDS).to_numpy(dtype=bool), True)[codes]
    group = np.asarray(group, dtype=np.int64)
    return (
        np.bincount(group[valued], minlength=n)[:n] > 0,
        np.bincount(group[other], minlength=n)[:n] > 0,
    )


def type_kinds(
    valued: np.ndarray,
    other: np.ndarray,
    described: np.ndarray | None = None,
    foreign: np.ndarray | None = None,
) -> np.ndarray:
    """Which groups read their kinds from their own columns, from :func:`type_tally` (and
    :func:`description_tally`: :func:`kinds_tally` gives all four): those whose ``type`` holds
    a value and every value is a marker kind (a GPX of ``posting plan``'s), and those without
    a ``type`` value whose descriptions are all a plan's point file's (``PAINT NEW CORNER 7``,
    :func:`posting.stakeout.pnezd_descriptions`). Any other ``type`` column (a GPX's symbols, a
    survey's point types) or description (a survey's own codes) is not read so.

    Examples
    --------
    >>> type_kinds(*kinds_tally(pd.DataFrame({"description": ["PAINT NEW CORNER 7", "IRF"]}),
    ...                         np.array([0, 1]), 2)).tolist()
    [True, False]
    """
    valued = np.asarray(valued, dtype=bool)
    typed = valued & ~np.asarray(other, dtype=bool)
    if described is None or foreign is None:
        return typed
    by_description = np.asarray(described, dtype=bool) & ~np.asarray(foreign, dtype=bool)
    return typed | (~valued & by_description)


STAKEOUT_DESCRIPTION = r"^\s*(sign|paint|post|other)\s+(?:new|existing)(?:\s|$)"
"""A description of ``posting plan --format pnezd``'s (``SIGN NEW CORNER 12-345``, ``PAINT
EXISTING 7``): a marker kind, then ``NEW`` or ``EXISTING`` (case aside); the kind is the first
word."""


def _description_column(columns: pd.Index | list[str]) -> str | None:
    """The column that describes each point (:data:`DESCRIPTIONS`, or ``D`` of a ``P,N,E,Z,D``
    file), as named in ``columns``; None without one."""
    lower = {str(c).strip().lower(): c for c in columns}
    col = next((lower[c] for c in DESCRIPTIONS if c in lower), None)
    if col is None and {"n", "e", "d"} <= lower.keys():  # P,N,E,Z,D: D describes the point
        col = lower["d"]
    return col


def _descriptions(attributes: pd.DataFrame) -> pd.Series | None:
    """Each row's description: the first non-blank of the description columns present (files
    read together share their columns: a job's ``description``, another's ``code``)."""
    lower = {str(c).strip().lower(): c for c in attributes.columns}
    names = [lower[c] for c in DESCRIPTIONS if c in lower]
    if not names and {"n", "e", "d"} <= lower.keys():
        names = [lower["d"]]
    if not names:
        return None
    out = pd.Series(attributes[names[0]], dtype="string").str.strip()
    for name in names[1:]:
        blank = (out.isna() | (out == "")).to_numpy(dtype=bool)
        if blank.any():
            out = out.where(~blank, pd.Series(attributes[name], dtype="string").str.strip())
    return out


def description_kinds(attributes: pd.DataFrame) -> pd.Series | None:
    """Each row's kind as a plan's point file describes it (the first word of ``SIGN NEW
    CORNER 12-345``, lower case), NaN where the description is not one; None without a
    description column.

    Examples
    --------
    >>> description_kinds(pd.DataFrame({"D": ["PAINT NEW INTERVAL 7", "IRF 5/8", None],
    ...                                 "N": 0, "E": 0})).tolist()
    ['paint', nan, nan]
    """
    text = _descriptions(attributes)
    if text is None:
        return None
    codes, uniques = pd.factorize(text)  # (one per parcel and role at most)
    word = pd.Series(uniques, dtype="string").str.casefold().str.extract(STAKEOUT_DESCRIPTION)[0]
    word = word.astype(object).where(word.notna(), np.nan).to_numpy(dtype=object)
    return pd.Series(np.append(word, np.nan)[codes], index=attributes.index, dtype=object)


def description_tally(
    attributes: pd.DataFrame, group: np.ndarray, n: int
) -> tuple[np.ndarray, np.ndarray]:
    """For each of ``n`` groups of rows (as :func:`type_tally`), whether its description column
    holds a value, and whether some value is not a plan's point file's
    (:data:`STAKEOUT_DESCRIPTION`): all False without one. The tallies of a file's pieces add
    up (by ``|``) to the whole file's.

    Examples
    --------
    >>> a = pd.DataFrame({"description": ["SIGN NEW CORNER 7", "IRF", None, ""]})
    >>> [t.tolist() for t in description_tally(a, np.array([0, 1, 1, 2]), 3)]
    [[True, True, False], [False, True, False]]
    """
    text = _descriptions(attributes)
    if text is None:
        return np.zeros(n, dtype=bool), np.zeros(n, dtype=bool)
    valued = (text.notna() & (text != "")).to_numpy(dtype=bool)
    ours = description_kinds(attributes).notna().to_numpy(dtype=bool)
    group = np.asarray(group, dtype=np.int64)
    return (
        np.bincount(group[valued], minlength=n)[:n] > 0,
        np.bincount(group[valued & ~ours], minlength=n)[:n] > 0,
    )


def kinds_tally(attributes: pd.DataFrame, group: np.ndarray, n: int) -> tuple[np.ndarray, ...]:
    """:func:`type_tally` and :func:`description_tally` of each group, the four arrays that
    :func:`type_kinds` judges (or-ed over a file's pieces, the whole file's)."""
    return (*type_tally(attributes, group, n), *description_tally(attributes, group, n))


_KIND_WORDS = ("sign", "paint", "post")
"""What a ``type`` column that gives the kinds holds."""


NOT_SELECTED = "not selected"
"""The kind :func:`select` gives the rows a marker filter (``--signs-where``) leaves out: read
as ``other`` by :func:`marker_kinds` (no word of a marker kind in it)."""

DESCRIPTIONS = (
    "description",
    "desc",
    "descriptor",
    "code",
    "point_code",
    "feature_code",
    "field_code",
    "raw_code",
)
"""Columns in which a surveyor's point file describes each point (``SIGN``, ``IRF``, ``FENCE
COR``): not a marker kind, since a survey's codes are the firm's own; a file with one and no
kind column is read with a note (:func:`description_note`)."""


def select(attributes: pd.DataFrame, selected: np.ndarray) -> pd.DataFrame:
    """``attributes`` with the rows not ``selected`` of kind :data:`NOT_SELECTED` (counted for
    no rule, still assigned to their parcel and listed); the kind column is added where the
    file has none (blank on the selected rows: their ``type``'s kind, else a sign).

    Examples
    --------
    >>> a = pd.DataFrame({"description": ["SIGN", "IRF", "sign"]})
    >>> marker_kinds(select(a, np.array([True, False, True]))).tolist()
    ['sign', 'other', 'sign']
    """
    out = attributes.copy()
    col = find_column(out.columns, "kind")
    if col is None:  # the kept rows' blank: their type's kind, or a sign (kind_text)
        col = "kind"
        out[col] = None
    out[col] = out[col].astype(object)
    out.loc[~np.asarray(selected, dtype=bool), col] = NOT_SELECTED
    return out


def description_note(
    columns: pd.Index | list[str], path: str, described: bool = False
) -> str | None:
    """The note for a marker file whose points are described (:data:`DESCRIPTIONS`) but have no
    kind (nor a ``type``): every row counts as a sign, monuments and fence corners too. From
    the columns alone, so that every slice of a file says the same; ``described``: the whole
    file's descriptions are a plan's point file's (:func:`type_kinds`), whose kinds are read
    from them, and the note says that instead.

    Examples
    --------
    >>> description_note(["point", "northing", "easting", "description"], "job.csv")[:60]
    "job.csv: has a 'description' column and no kind column: ever"
    >>> description_note(["point", "kind", "description"], "job.csv") is None
    True
    >>> description_note(["P", "N", "E", "Z", "D"], "shots.csv")[:40]  # a total station's
    "shots.csv: has a 'D' column and no kind "
    """
    if find_column(columns, "kind") is not None:
        return None
    lower = {str(c).strip().lower() for c in columns}
    col = _description_column(columns)
    if col is None or "type" in lower:  # (a type column may hold the kinds)
        return None
    col = str(col)
    if described:
        return (
            f"{path}: its {col!r} column holds a plan's point file's descriptions (SIGN NEW "
            f"CORNER ..., PAINT NEW ...): each row's kind is its description's first word"
        )
    return (
        f"{path}: has a {col!r} column and no kind column: every row counts as a sign; "
        f"if some rows are not markers (monuments, fence corners), choose the markers with "
        f'--signs-where "{col}=SIGN" (the codes your survey uses for them)'
    )


MARKER_WORDS = re.compile(
    r"sign|trespass|posted|posting|paint|purple|blaze|marker|placard|poster|\bnts?\b",
    re.IGNORECASE,
)
"""Words by which a waypoint's name or description says it is a marker (``Sign 12``, ``No
Trespassing``, ``NT 4``, ``purple blaze``): :func:`unnamed_markers_note`."""

_PLACEMARK_TEXT = ("desc", "description", "cmt", "comment", "notes")
"""The columns in which a GPX waypoint (``desc``, ``cmt``) or a KML placemark
(``description``) describes itself, besides its name."""


def unnamed_markers_note(
    attributes: pd.DataFrame, usable: np.ndarray, path: str, noun: str = "waypoints"
) -> str | None:
    """The note for a file of waypoints or placemarks without a kind column whose names and
    descriptions show that some are markers and others may not be: each counts as a sign
    (:func:`marker_kinds`), a gate or a tree stand on the line too. None where no kind is
    missing (a kind column, or a ``type`` of kinds), where no name or description says
    *sign* (a GPS's ``001``, ``002``: nothing tells them apart), or where every one does.

    ``usable``: the rows that are points (the others are listed as unusable already).

    Examples
    --------
    >>> a = pd.DataFrame({"name": ["Sign 1", "Sign 2", "Gate", "007"],
    ...                   "desc": [None, None, "north gate", "No Trespassing"]})
    >>> unnamed_markers_note(a, np.ones(4, dtype=bool), "farm.gpx")[:71]
    'farm.gpx: has no kind column, so each of its 4 waypoints counts as a si'
    >>> unnamed_markers_note(a.iloc[[0, 1, 3]], np.ones(3, dtype=bool), "farm.gpx") is None
    True
    """
    if find_column(attributes.columns, "kind") is not None or not len(attributes):
        return None
    n = len(attributes)
    if type_kinds(*type_tally(attributes, np.zeros(n, dtype=np.int64), 1))[0]:
        return None  # (a plan's GPX: its type gives the kinds)
    usable = np.asarray(usable, dtype=bool)
    names = pd.Series(first_recorded(attributes, "label"), dtype="string")
    lower = {str(c).strip().lower(): c for c in attributes.columns}
    text = names.fillna("")
    for c in _PLACEMARK_TEXT:
        if c in lower:
            more = pd.Series(attributes[lower[c]].to_numpy(), dtype="string").fillna("")
            text = text + " " + more
    codes, uniques = pd.factorize(text)  # (a few distinct texts in many rows)
    said = pd.Series(uniques, dtype="string").str.contains(MARKER_WORDS).to_numpy(dtype=bool)
    marked = said[codes]
    others = np.flatnonzero(usable & ~marked)
    if not (usable & marked).any() or not len(others):
        return None
    shown = [repr(names[i]) if pd.notna(names[i]) else f"row {i}" for i in others[:3]]
    if len(others) > 3:
        shown.append(f"{len(others) - 3:,} more")
    firsts = names[usable & marked].str.strip().str.split(n=1).str[0].str.casefold()
    first = firsts.iloc[0] if firsts.notna().all() and firsts.nunique() == 1 else None
    if first is not None and not re.fullmatch(r"[\w-]+", str(first)):
        first = None
    if first is not None and names[others].str.strip().str.casefold().str.startswith(first).any():
        first = None  # (the pattern would choose them too)
    how = (
        f'--signs-where "name={first.capitalize()}*"'
        if first is not None
        else '--signs-where on their names ("name=Sign*")'
    )
    return (
        f"{path}: has no kind column, so each of its {int(usable.sum()):,} {noun} counts as a "
        f"sign; {len(others):,} of them {'is' if len(others) == 1 else 'are'} not named or "
        f"described as a marker where the others are ({', '.join(shown)}): if they are not "
        f"markers (a gate, a stand, a vehicle), take them out of the file, add a kind column "
        f"(sign, paint, post; anything else counts for no rule), or choose the markers with {how}"
    )


def shortened_columns(columns: pd.Index | list[str]) -> dict[str, str]:
    """The columns read under a Shapefile-shortened name: each one's name and the canonical
    column it is read as (only where no full name of that column is present).

    Examples
    --------
    >>> shortened_columns(["lon", "lat", "letter_hei", "Name_On_Si", "text"])
    {'letter_hei': 'letter_height_in', 'Name_On_Si': 'name_on_sign'}
    """
    out = {}
    for canonical in COLUMNS:
        col = find_column(columns, canonical)
        if col is not None and str(col).lower() in SHORTENED:
            out[str(col)] = canonical
    return out


def kind_text(attributes: pd.DataFrame, typed: np.ndarray | None = None) -> pd.Series | None:
    """Each row's kind as recorded: the first non-blank of its kind columns (``kind``,
    ``marker_kind``, ``marker``, in that order), else its ``type`` where its file's ``type``
    column holds nothing but kinds (a GPX of ``posting plan``'s), else its description's first
    word where its file's descriptions are all a plan's point file's (``PAINT NEW CORNER 7``:
    :func:`type_kinds`); None without any such column.

    Marker files read together share their columns: a CSV's ``kind`` is blank on a GPX's rows,
    whose ``type`` holds theirs, and a file's ``marker_kind`` is blank on another's with
    ``kind``. ``typed`` says, row by row, whether the row's file reads its ``type`` as kinds
    (:func:`type_kinds`, of the whole file); without it the rows are judged as one file.

    Examples
    --------
    >>> a = pd.DataFrame({"kind": ["sign", None, None], "type": [None, "paint", None],
    ...                   "marker_kind": [None, None, "post"]})
    >>> kind_text(a).tolist()
    ['sign', 'paint', 'post']
    >>> b = pd.DataFrame({"type": ["paint", "monument"]})  # two files: a plan's, a survey's
    >>> kind_text(b) is None, kind_text(b, np.array([True, False])).tolist()
    (True, ['paint', nan])
    """
    lower = _by_key(attributes.columns)
    cols: list = [attributes[lower[a]] for a in COLUMNS["kind"] if a in lower]
    described = _description_column(attributes.columns)
    if "type" in lower or described is not None:
        if typed is None:  # the rows as one file's
            one = type_kinds(*kinds_tally(attributes, np.zeros(len(attributes), dtype=int), 1))
            typed = np.repeat(one, len(attributes))
        typed = np.asarray(typed, dtype=bool)
        if typed.any() and "type" in lower:
            cols.append(attributes[lower["type"]].where(typed))
        if typed.any() and described is not None:  # a plan's point file: SIGN NEW CORNER 7
            cols.append(description_kinds(attributes).where(typed))
    if not cols:
        return None
    out = cols[0]
    for col in cols[1:]:  # (only where files with different columns were read together)
        text = pd.Series(out, dtype="string").str.strip()
        out = out.where((text.notna() & (text != "")).to_numpy(), col)
    return out


def marker_kinds(attributes: pd.DataFrame, typed: np.ndarray | None = None) -> np.ndarray:
    """The kind of each marker: ``sign``, ``paint``, ``post``, or ``other``.

    Without a kind column every marker is a sign. Values are read loosely: anything mentioning
    paint, a mark or a stripe is ``paint``; a post (``painted post top``) is ``post``; a sign
    (``no trespassing sign``) or a blank is ``sign``; anything else is ``other`` and counts for no
    rule (it is still assigned to its parcel and listed). The kind of a row is read from the
    first of its columns that records one (:func:`kind_text`, which says what ``typed`` is).

    Examples
    --------
    >>> kinds = pd.DataFrame({"Kind": ["Sign", "purple paint", "post top", None, "flag"]})
    >>> marker_kinds(kinds).tolist()
    ['sign', 'paint', 'post', 'sign', 'other']
    """
    n = len(attributes)
    recorded = kind_text(attributes, typed)
    if recorded is None:
        return np.full(n, "sign", dtype=object)
    codes, uniques = pd.factorize(recorded)  # a few distinct values in a million rows
    text = pd.Series(uniques, dtype="string").str.strip().str.casefold().fillna("")
    kinds = np.full(len(text), "other", dtype=object)
    kinds[text.str.contains(r"paint|mark|stripe|blaze", regex=True).to_numpy(dtype=bool)] = "paint"
    kinds[text.str.contains("post", regex=False).to_numpy(dtype=bool)] = "post"  # painted post top
    kinds[text.str.contains(r"sign|placard|poster", regex=True).to_numpy(dtype=bool)] = "sign"
    kinds[(text == "").to_numpy(dtype=bool)] = "sign"
    return np.append(kinds, "sign")[codes]  # code -1 (blank): a sign


_LENGTH_IN = {
    "in": 1.0,
    "inch": 1.0,
    "inches": 1.0,
    '"': 1.0,
    "''": 1.0,
    "ft": 12.0,
    "foot": 12.0,
    "feet": 12.0,
    "'": 12.0,
    "cm": 1 / 2.54,
    "mm": 1 / 25.4,
    "m": 100 / 2.54,
}
"""Inches per unit of length (the inch is 2.54 cm exactly)."""
_ANGLE_DEG = {"deg": 1.0, "degree": 1.0, "degrees": 1.0, "\u00b0": 1.0}
_UNITS = "|".join(sorted(map(re.escape, [*_LENGTH_IN, *_ANGLE_DEG]), key=len, reverse=True))
_MEASURE = re.compile(
    rf"^\s*(?P<a>[+-]?(?:\d+\.?\d*|\.\d+))\s*(?P<ua>{_UNITS})\.?"
    rf"(?:\s*(?P<b>\d+\.?\d*|\.\d+)\s*(?P<ub>{_UNITS})\.?)?\s*$"
)
_PER_UNIT = {"in": _LENGTH_IN, "ft": {k: v / 12.0 for k, v in _LENGTH_IN.items()}}
_PER_UNIT["deg"] = _ANGLE_DEG
_POINTS = ("n", "nne", "ne", "ene", "e", "ese", "se", "sse")
_POINTS += ("s", "ssw", "sw", "wsw", "w", "wnw", "nw", "nnw")
_WORDS = {"north": "n", "east": "e", "south": "s", "west": "w"}
_COMPASS = {p: 22.5 * i for i, p in enumerate(_POINTS)}
_COMPASS.update({w: _COMPASS[p] for w, p in _WORDS.items()})
_COMPASS.update(
    {
        a + b: _COMPASS[_WORDS[a][0] + _WORDS[b][0]]
        for a in ("north", "south")
        for b in ("east", "west")
    }
)
_BEARING = re.compile(
    r"^\s*(?P<q1>[ns])?\s*(?P<d>\d+(?:\.\d+)?)\s*(?:\u00b0|deg(?:rees?)?)?\s*"
    r"(?:(?P<m>\d+(?:\.\d+)?)\s*['\u2032]\s*)?(?:(?P<s>\d+(?:\.\d+)?)\s*(?:\"|''|\u2033)\s*)?"
    r"(?P<q2>[ew])?\s*$"
)


def _degrees(text: pd.Series) -> tuple[np.ndarray, np.ndarray]:
    """Where ``text`` (case-folded) is an angle a surveyor writes: a compass point (``NE``,
    ``south``), a quadrant bearing (``N 45 E``, ``S30°15'W``) or degrees, minutes and seconds
    (``45° 30'``); and its azimuth in degrees clockwise from north (NaN where it reads as one
    but is none: minutes of 60, a quadrant angle over 90, one quadrant letter alone)."""
    words = text.str.replace(r"[\s.-]", "", regex=True)
    point = words.map(_COMPASS, na_action="ignore").astype(float).to_numpy()
    parts = text.str.extract(_BEARING)
    found = parts["d"].notna().to_numpy(dtype=bool) | np.isfinite(point)
    d = pd.to_numeric(parts["d"], errors="coerce").to_numpy(dtype=float, na_value=np.nan)
    m = pd.to_numeric(parts["m"], errors="coerce").fillna(0).to_numpy(dtype=float)
    sec = pd.to_numeric(parts["s"], errors="coerce").fillna(0).to_numpy(dtype=float)
    angle = d + m / 60 + sec / 3600
    angle[(m >= 60) | (sec >= 60)] = np.nan
    q1, q2 = parts["q1"].fillna("").to_numpy(dtype=str), parts["q2"].fillna("").to_numpy(dtype=str)
    quadrant = (q1 != "") & (q2 != "")
    angle[(q1 != "") != (q2 != "")] = np.nan  # N 45 alone: no bearing
    angle[quadrant & (angle > 90)] = np.nan
    turn = np.select(
        [q1 + q2 == "ne", q1 + q2 == "se", q1 + q2 == "sw", q1 + q2 == "nw"],
        [angle, 180 - angle, 180 + angle, 360 - angle],
        angle,
    )
    return found, np.where(np.isfinite(point), point, turn)


def measured(values: pd.Series, canonical: str) -> pd.Series:
    r"""A measure's values (column ``canonical``, whose name ends with its unit: ``_in``,
    ``_ft`` or ``_deg``) in that unit: a number as it is, and text that gives its own unit
    (``3 in``, ``3"``, ``5 cm``, ``0.25 ft``, ``4' 6"``, ``4 ft 6 in``; an angle as
    :func:`_degrees` reads it) converted; the
    rest as given (a later check reads it as a number or not at all). Another kind of unit (an
    angle in inches) is no measure: NaN. Columns of other names are returned as they are.

    Examples
    --------
    >>> v = pd.Series(["3", '3"', "3 in.", "5 cm", "1 ft", "4' 6\"", "three", None, "45°"])
    >>> [round(x, 3) if isinstance(x, float) else x for x in measured(v, "letter_height_in")]
    ['3', 3.0, 3.0, 1.969, 12.0, 54.0, 'three', nan, nan]
    >>> measured(pd.Series(["4 ft 6 in", "30 in", 4.5]), "height_ft").tolist()
    [4.5, 2.5, 4.5]

    An angle may be a compass point, a quadrant bearing or degrees and minutes:

    >>> measured(pd.Series(["NE", "South", "N 45 E", "S30°30'W", "45° 30'", "N 95 E", "N 45"]),
    ...          "facing_deg").tolist()
    [45.0, 180.0, 45.0, 210.5, 45.5, nan, nan]
    """
    unit = canonical.rsplit("_", 1)[-1]
    per = _PER_UNIT.get(unit)
    textual = pd.api.types.is_object_dtype(values.dtype) or pd.api.types.is_string_dtype(
        values.dtype
    )
    if per is None or not len(values) or not textual:
        return values
    text = values.astype("string").str.casefold()
    if unit == "deg":
        found, value = _degrees(text)
        if not found.any():
            return values
        out = values.astype(object).copy()
        out[found] = value[found]
        return out
    parts = text.str.extract(_MEASURE)
    found = parts["a"].notna().to_numpy(dtype=bool)
    if not found.any():
        return values
    p = parts[found]
    factor_a = p["ua"].map(per).astype(float)
    factor_b = p["ub"].map(per).astype(float)
    second = p["b"].notna()
    value = p["a"].astype(float) * factor_a
    value[second] += p["b"][second].astype(float) * factor_b[second]
    # a second part smaller in unit than the first (4 ft 6 in), else no measure (6 in 4 ft)
    value[second & ~(factor_b < factor_a)] = np.nan
    out = values.astype(object).copy()
    out[found] = value.to_numpy(dtype=float)
    return out
