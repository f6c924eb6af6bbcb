"""The statuses are one list for C++ and Python: schema/statuses.json. This holds model.STATUS_TABLE and the
status enums of the results schema to it; tests/unit/test_statuses.cpp holds the C++ enum and the console."""

import json
from pathlib import Path

from vmmcheck_report import model

SCHEMA_DIR = Path(__file__).resolve().parents[2] / "schema"
SHARED = json.loads((SCHEMA_DIR / "statuses.json").read_text())["statuses"]
ALL = [s["name"] for s in SHARED]
BASE = [s["name"] for s in SHARED if s["base"]]


def test_the_status_table_is_the_shared_list():
    assert len(model.STATUS_TABLE) == len(SHARED)
    table = {s.name: (s.kind, s.base) for s in model.STATUS_TABLE}
    assert table == {s["name"]: (s["class"], s["base"]) for s in SHARED}


def test_the_results_schema_is_the_shared_list():
    schema = json.loads((SCHEMA_DIR / "results.schema.json").read_text())
    record = schema["properties"]["results"]["items"]["properties"]
    assert record["status"]["enum"] == ALL
    # what vmmcheck itself judged: before a baseline rewrote it, and its controls'
    assert record["original_status"]["enum"] == BASE
    assert record["power"]["properties"]["status"]["enum"] == BASE
    assert record["power"]["properties"]["tried"]["items"]["properties"]["status"]["enum"] == BASE
    # vmmcheck's own statuses, each always counted (Warning came later: runs stored before it lack that total)
    assert set(schema["properties"]["totals"]["required"]) <= set(BASE)
