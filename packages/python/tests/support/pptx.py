"""A deck read back as a user checks it: its slides in order, their text, a table's cells, a chart's cached
data (what PowerPoint draws; ECMA-376 §21.2.2, the chart's c:cat and c:val caches)."""

from __future__ import annotations

import io
import posixpath
import zipfile
from typing import Dict, List, Optional, Tuple
from xml.etree import ElementTree

NS = {
    "p": "http://schemas.openxmlformats.org/presentationml/2006/main",
    "a": "http://schemas.openxmlformats.org/drawingml/2006/main",
    "r": "http://schemas.openxmlformats.org/officeDocument/2006/relationships",
    "c": "http://schemas.openxmlformats.org/drawingml/2006/chart",
    "rel": "http://schemas.openxmlformats.org/package/2006/relationships",
}
R_ID = f"{{{NS['r']}}}id"


def _xml(package: zipfile.ZipFile, name: str) -> ElementTree.Element:
    return ElementTree.fromstring(package.read(name))


def _rels(package: zipfile.ZipFile, part: str) -> Dict[str, str]:
    folder, name = posixpath.split(part)
    rels = _xml(package, f"{folder}/_rels/{name}.rels")
    return {
        rel.attrib["Id"]: posixpath.normpath(posixpath.join(folder, rel.attrib["Target"]))
        for rel in rels.findall("rel:Relationship", NS)
    }


def slide_parts(deck: bytes) -> List[str]:
    with zipfile.ZipFile(io.BytesIO(deck)) as package:
        presentation = _xml(package, "ppt/presentation.xml")
        targets = _rels(package, "ppt/presentation.xml")
        return [targets[slide.attrib[R_ID]] for slide in presentation.findall("p:sldIdLst/p:sldId", NS)]


def _texts(element: ElementTree.Element) -> str:
    return "\n".join(
        "".join(t.text or "" for t in paragraph.iter(f"{{{NS['a']}}}t")) for paragraph in element.iter(f"{{{NS['a']}}}p")
    )


def slide_texts(deck: bytes) -> List[str]:
    """Each slide's text, paragraphs joined by line feeds."""
    with zipfile.ZipFile(io.BytesIO(deck)) as package:
        return [_texts(_xml(package, part)) for part in slide_parts(deck)]


def _frame(package: zipfile.ZipFile, part: str, name: str) -> ElementTree.Element:
    for frame in _xml(package, part).iter(f"{{{NS['p']}}}graphicFrame"):
        props = frame.find("p:nvGraphicFramePr/p:cNvPr", NS)
        if props is not None and props.attrib.get("name") == name:
            return frame
    raise AssertionError(f"no graphic frame named {name!r} on {part}")


def table_cells(deck: bytes, slide: int, name: str) -> List[List[str]]:
    """The text of every cell of table ``name`` on slide ``slide`` (zero-based), row by row."""
    with zipfile.ZipFile(io.BytesIO(deck)) as package:
        frame = _frame(package, slide_parts(deck)[slide], name)
        return [
            [_texts(cell) for cell in row.findall("a:tc", NS)]
            for row in frame.iter(f"{{{NS['a']}}}tr")
        ]


def _points(element: Optional[ElementTree.Element]) -> List[Tuple[int, str]]:
    if element is None:
        return []
    return [(int(pt.attrib["idx"]), pt.findtext("c:v", "", NS)) for pt in element.iter(f"{{{NS['c']}}}pt")]


def chart_series(deck: bytes, slide: int, name: str) -> Tuple[List[str], Dict[str, List[Optional[str]]]]:
    """The categories and each series' cached values of chart ``name`` (None for a gap: a point not cached)."""
    with zipfile.ZipFile(io.BytesIO(deck)) as package:
        part = slide_parts(deck)[slide]
        frame = _frame(package, part, name)
        chart_ref = next(frame.iter(f"{{{NS['c']}}}chart"))
        chart = _xml(package, _rels(package, part)[chart_ref.attrib[R_ID]])
        categories: List[str] = []
        series: Dict[str, List[Optional[str]]] = {}
        for ser in chart.iter(f"{{{NS['c']}}}ser"):
            title = "".join(v.text or "" for v in ser.findall("c:tx//c:v", NS))
            cats = _points(ser.find("c:cat", NS))
            values = dict(_points(ser.find("c:val", NS)))
            count = ser.find("c:val//c:ptCount", NS)
            total = int(count.attrib["val"]) if count is not None else len(values)
            categories = [text for _, text in sorted(cats)]
            series[title] = [values.get(i) for i in range(total)]
        return categories, series


def media_parts(deck: bytes) -> List[str]:
    with zipfile.ZipFile(io.BytesIO(deck)) as package:
        return sorted(name for name in package.namelist() if name.startswith("ppt/media/"))
