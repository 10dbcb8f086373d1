"""A small builder of the ``jsonData`` document (docs/payload.md), for code that fills slides from data::

    deck = Presentation("report.pptx", result_file_name="Sales")
    report = deck.slide(0)
    report.text("Title 1", "Sales by region")
    report.table("Table 1", frame)       # a DataFrame, or rows
    report.chart("Chart 5", frame)       # a DataFrame, or {"categories": ..., "series": ...}

Every method returns what it was called on, and ``to_dict()`` gives the document; ``generate`` and ``submit``
take the builder itself. Anything the builder has no method for goes in ``shape(name, **fields)``."""

from __future__ import annotations

from typing import Any, Dict, List, Mapping, Optional, Sequence, Union

from .dataframes import DataFrameLike, chart_data, table_rows

TableContent = Union[DataFrameLike, Sequence[Sequence[Any]]]
ChartContent = Union[DataFrameLike, Mapping[str, Any]]


class Slide:
    """One output slide: a template slide (``slide_index``) and what to put in its shapes."""

    def __init__(self, entry: Dict[str, Any]) -> None:
        self._entry = entry

    def shape(self, name: str, **fields: Any) -> Slide:
        """A shape entry as docs/payload.md writes it: ``shape("Logo", content="logo.png", fit="contain")``."""
        self._entry.setdefault("shapes", []).append({"name": name, **fields})
        return self

    def text(self, name: str, content: Union[str, Sequence[Any]], **fields: Any) -> Slide:
        """A text shape: a string (one line per paragraph of the template's shape), or runs."""
        return self.shape(name, content=content, **fields)

    def table(
        self, name: str, rows: TableContent, *, header: bool = True, index: bool = False, **fields: Any
    ) -> Slide:
        """A table from a DataFrame (its column names as the first row with ``header``) or from rows of cells."""
        content: List[List[Any]]
        if isinstance(rows, DataFrameLike):
            content = [list(row) for row in table_rows(rows, header=header, index=index)]
        else:
            content = [list(row) for row in rows]
        return self.shape(name, content=content, **fields)

    def chart(self, name: str, data: ChartContent, *, categories: Optional[str] = None, **fields: Any) -> Slide:
        """A chart from a DataFrame (the index, or column ``categories``, as categories; each other column a
        series) or from a ``content`` mapping as docs/payload-charts.md writes it."""
        content = chart_data(data, categories=categories) if isinstance(data, DataFrameLike) else dict(data)
        return self.shape(name, content=content, **fields)

    def notes(self, text: str) -> Slide:
        self._entry["notes"] = text
        return self

    def to_dict(self) -> Dict[str, Any]:
        return self._entry


class Presentation:
    """The ``presentation`` object of a payload, built slide by slide."""

    def __init__(self, template: Optional[str] = None, *, result_file_name: Optional[str] = None, **fields: Any):
        self._document: Dict[str, Any] = {**fields, "slides": []}
        if template is not None:
            self._document["template"] = template
        if result_file_name is not None:
            self._document["resultFileName"] = result_file_name

    def slide(self, slide_index: int, **fields: Any) -> Slide:
        """Adds an output slide modelled on the template's slide ``slide_index`` (zero-based)."""
        entry: Dict[str, Any] = {"slide_index": slide_index, **fields}
        self._document["slides"].append(entry)
        return Slide(entry)

    def tag(self, key: str, value: str) -> Presentation:
        """A deck-wide ``{{key}}`` replacement."""
        self._document.setdefault("tags", []).append({"key": key, "value": value})
        return self

    def to_dict(self) -> Dict[str, Any]:
        return {"presentation": self._document}
