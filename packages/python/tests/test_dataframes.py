"""The DataFrame helpers with real pandas (Debian's python3-pandas; skipped without it, except in CI): a
DataFrame as the rows of a table and as the categories and series of a chart, through the Presentation builder,
into examples/report.pptx ("Table 1" on its first slide, "Chart 5" on its second: docs/payload-tables.md,
docs/payload-charts.md), read back from the deck."""

from __future__ import annotations

import datetime
import importlib
import os
from typing import Any

import pytest

from conftest import REPORT, Keep
from deckforge import Deckforge, Presentation, chart_data, table_rows
from support.pptx import chart_series, slide_texts, table_cells

# Under CI a missing pandas fails the suite; elsewhere the file is reported skipped, saying why.
if os.environ.get("CI") != "true":
    pytest.importorskip("pandas", reason="pandas is not installed (Debian: python3-pandas)")
pd: Any = importlib.import_module("pandas")


def test_a_dataframe_as_a_table_and_as_a_chart(client: Deckforge, keep: Keep) -> None:
    sales = pd.DataFrame(
        {"Q1": [1200, 980], "Q2": [1350.5, float("nan")], "Q3": [1100, 1010], "Q4": [1410, 1050]},
        index=pd.Index(["North", "South"], name="Region"),
    )
    assert table_rows(sales, index=True) == [
        ["Region", "Q1", "Q2", "Q3", "Q4"],
        ["North", 1200, 1350.5, 1100, 1410],
        ["South", 980, "", 1010, 1050],
    ]
    revenue = pd.DataFrame({"North": [12.5, 14.0, None], "South": [8, 9, 11]}, index=["Q1", "Q2", "Q3"])
    assert chart_data(revenue) == {
        "categories": ["Q1", "Q2", "Q3"],
        "series": [{"name": "North", "values": [12.5, 14.0, None]}, {"name": "South", "values": [8, 9, 11]}],
    }

    report = Presentation("report.pptx", result_file_name="Sales")
    report.slide(0).text("Title 1", "Sales by region").table("Table 1", sales, index=True)
    report.slide(1).chart("Chart 5", revenue)
    deck = keep(client.generate(REPORT, report), [REPORT])

    assert deck.file_name == "Sales.pptx" and deck.slide_count == 2
    assert "Sales by region" in slide_texts(deck)[0]
    assert table_cells(deck, 0, "Table 1") == [
        ["Region", "Q1", "Q2", "Q3", "Q4"],
        ["North", "1200", "1350.5", "1100", "1410"],
        ["South", "980", "", "1010", "1050"],
    ]
    categories, series = chart_series(deck, 1, "Chart 5")
    assert categories == ["Q1", "Q2", "Q3"]
    assert series == {"North": ["12.5", "14", None], "South": ["8", "9", "11"]}


def test_dates_numpy_numbers_and_a_categories_column() -> None:
    orders = pd.DataFrame(
        {
            "month": pd.to_datetime(["2026-01-31", "2026-02-28"]),
            "orders": pd.array([120, None], dtype="Int64"),
            "returns": [3.5, float("inf")],
        }
    )
    assert chart_data(orders, categories="month") == {
        "categories": ["2026-01-31", "2026-02-28"],
        "series": [{"name": "orders", "values": [120, None]}, {"name": "returns", "values": [3.5, None]}],
    }
    stamped = pd.DataFrame({"at": [pd.Timestamp("2026-03-31 14:00"), pd.NaT], "ok": [True, False]})
    assert table_rows(stamped) == [["at", "ok"], ["2026-03-31T14:00:00", "True"], ["", "False"]]
    assert table_rows(pd.DataFrame({"d": [datetime.date(2026, 1, 2)]}), header=False) == [["2026-01-02"]]
    with pytest.raises(KeyError, match="no column 'when'"):
        chart_data(orders, categories="when")
    with pytest.raises(TypeError, match="must be a number"):
        chart_data(pd.DataFrame({"label": ["a"]}, index=["x"]))
