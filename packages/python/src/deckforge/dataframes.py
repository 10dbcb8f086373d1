"""pandas DataFrames as a table's rows and a chart's data (docs/payload-tables.md, docs/payload-charts.md).

Nothing here imports pandas: a DataFrame is read through ``columns``, ``index`` and ``itertuples``, and a
missing value is told by pandas' own ``isna`` when pandas is loaded (it is, if a DataFrame was passed)."""

from __future__ import annotations

import datetime
import math
import sys
from typing import Any, Dict, Iterable, Iterator, List, Optional, Protocol, Sequence, Union, runtime_checkable

Cell = Union[str, int, float, None]


@runtime_checkable
class DataFrameLike(Protocol):
    """What the helpers read of a ``pandas.DataFrame``."""

    @property
    def columns(self) -> Iterable[Any]: ...

    @property
    def index(self) -> Iterable[Any]: ...

    def itertuples(self, index: bool = ..., name: Optional[str] = ...) -> Iterable[Sequence[Any]]: ...


def _missing(value: Any) -> bool:
    if value is None:
        return True
    if isinstance(value, float):
        return math.isnan(value)
    pandas = sys.modules.get("pandas")
    if pandas is not None:
        try:
            return bool(pandas.isna(value))
        except (TypeError, ValueError):  # a list-like cell: not one missing value
            return False
    return False


def _plain(value: Any) -> Any:
    """A numpy scalar as the Python number it holds; anything else as it is."""
    if type(value).__module__ == "numpy" and hasattr(value, "item"):
        return value.item()
    return value


def _date_text(value: Any) -> Optional[str]:
    """Dates as the engine reads them: ``YYYY-MM-DD``, with ``THH:MM:SS`` when there is a time of day."""
    if isinstance(value, datetime.datetime):  # pandas' Timestamp is one
        if (value.hour, value.minute, value.second, value.microsecond) == (0, 0, 0, 0):
            return value.strftime("%Y-%m-%d")
        return value.strftime("%Y-%m-%dT%H:%M:%S")
    if isinstance(value, datetime.date):
        return value.isoformat()
    return None


def cell(value: Any, missing: Cell = "") -> Cell:
    """One value as a table cell or a chart's category: a number stays a number (bool and infinities become
    text, JSON has no place for them), a date becomes ``YYYY-MM-DD``, a missing value becomes ``missing``."""
    value = _plain(value)
    if _missing(value):
        return missing
    if isinstance(value, bool):
        return str(value)
    if isinstance(value, int):
        return value
    if isinstance(value, float):
        return value if math.isfinite(value) else str(value)
    date = _date_text(value)
    return date if date is not None else str(value)


def _number(value: Any) -> Optional[float]:
    value = _plain(value)
    if _missing(value):
        return None
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise TypeError(f"a chart value must be a number, got {value!r} ({type(value).__name__})")
    if isinstance(value, float) and not math.isfinite(value):
        return None
    return value


def _rows(frame: DataFrameLike, index: bool) -> Iterator[Sequence[Any]]:
    return iter(frame.itertuples(index=index, name=None))


def table_rows(frame: DataFrameLike, *, header: bool = True, index: bool = False) -> List[List[Cell]]:
    """The rows of a table's ``content``: the column names first (``header``), then one row per DataFrame row,
    the index as the first column with ``index=True``. A missing value empties its cell (``""``)."""
    rows: List[List[Cell]] = []
    if header:
        names = [str(name) for name in frame.columns]
        if index:
            index_name = getattr(frame.index, "name", None)
            names.insert(0, "" if index_name is None else str(index_name))
        rows.append(list(names))
    rows.extend([cell(value) for value in row] for row in _rows(frame, index))
    return rows


def chart_data(frame: DataFrameLike, *, categories: Optional[str] = None) -> Dict[str, Any]:
    """A chart's ``content``: the index (or the column ``categories``) as its categories, every other column as
    a series of that name. A missing value is a gap (``None``)."""
    columns = list(frame.columns)
    if categories is not None and categories not in columns:
        raise KeyError(f"chart_data: no column {categories!r} (the columns: {columns!r})")
    rows = [list(row) for row in _rows(frame, True)]
    names: List[Cell] = [cell(row[0]) for row in rows]
    values = [row[1:] for row in rows]
    series_columns = list(range(len(columns)))
    if categories is not None:
        at = columns.index(categories)
        names = [cell(row[at]) for row in values]
        series_columns.remove(at)
    return {
        "categories": names,
        "series": [
            {"name": str(columns[c]), "values": [_number(row[c]) for row in values]} for c in series_columns
        ],
    }
