"""The verdict: findings decide each parcel's status; land posted otherwise settles it."""

from __future__ import annotations

import numpy as np

from posting.verdict import RANK, STATUSES, decide, findings_frame, settle


def _findings(rows):
    parcel, level, message = zip(*rows, strict=True) if rows else ((), (), ())
    return findings_frame(
        list(parcel), "spacing", list(level), "1(a)", list(message), 1.0, 2.0, "ft", 1
    )


def test_a_violation_outweighs_an_uncertainty_and_no_marker_means_unposted():
    f = _findings(
        [(0, "uncertain", "a"), (0, "violation", "b"), (1, "uncertain", "c"), (3, "note", "d")]
    )
    invalid = np.array([None, None, None, None, "no geometry"], dtype=object)
    status = decide(invalid, np.array([5, 5, 0, 5, 0]), f)
    assert status.tolist() == ["noncompliant", "uncertain", "unposted", "compliant", "invalid"]


def test_settled_land_is_compliant_or_exempt_and_its_findings_become_notes():
    f = _findings([(0, "violation", "gap"), (1, "violation", "gap"), (2, "uncertain", "near")])
    status = np.array(["noncompliant", "noncompliant", "uncertain", "compliant"], dtype=object)
    posted_by = np.array(["fence", None, None, None], dtype=object)
    exemption = np.array([None, "a house on 1 acre", None, None], dtype=object)
    settle(f, status, posted_by, exemption)
    assert status.tolist() == ["compliant", "exempt", "uncertain", "compliant"]
    assert posted_by.tolist() == ["fence", None, None, "signs"]
    assert f["level"].tolist() == ["note", "note", "uncertain"]
    assert f["message"].tolist()[:2] == [
        "(not needed: posted by fence) gap",
        "(not needed: exempt) gap",
    ]


def test_every_status_has_a_rank():
    assert sorted(RANK) == sorted(STATUSES)
    assert min(RANK, key=RANK.get) == "exempt" and max(RANK, key=RANK.get) == "invalid"
