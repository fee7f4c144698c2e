"""Tables of findings with plain text columns.

pandas 3 stores a column of Python strings as an Arrow-backed ``str`` column unless told
otherwise: every string is copied into Arrow when the table is made, and back out when the
report reads it (``tolist``, ``to_numpy``). For a county's 100,000 parcels and their findings
that round trip cost about 0.3 s of the whole run. The report only reads these columns back as
Python objects, so they are kept as ``object`` columns from the start.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd

__all__ = ["text"]


def text(values: Any) -> pd.Series:
    """``values`` as an ``object`` column (no conversion to pandas' ``str`` dtype).

    Examples
    --------
    >>> s = text(["a", None, "b"])
    >>> s.dtype, s.tolist()
    (dtype('O'), ['a', None, 'b'])
    """
    return pd.Series(np.asarray(values, dtype=object), dtype=object, copy=False)
