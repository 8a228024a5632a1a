"""The loop's clock reads every table's version each second (``table_rows.table_versions``):
compiled statements, a few tables at a time, that read what the ORM reads."""

import pytest

from tables.db.rows import IDS_AT_ONCE
from tables.models import Table
from tables.selectors import table_rows
from tables.services import table_save

pytestmark = pytest.mark.django_db


def test_versions_of_more_tables_than_one_statement_reads():
    tables = [table_save(table=Table(name=f"T{n}")) for n in range(IDS_AT_ONCE + 5)]
    Table.objects.filter(pk=tables[-1].pk).update(version=41)
    Table.objects.filter(pk=tables[0].pk).update(version=7)
    ids = [table.pk for table in tables]
    gone = max(ids) + 1000  # no such table: not in the answer

    versions = table_rows.table_versions([*ids, gone])

    assert versions == dict(Table.objects.values_list("pk", "version"))
    assert versions[tables[-1].pk] == 41 and versions[tables[0].pk] == 7
    assert gone not in versions
    # asked again (the statements compiled by then), with another count of tables
    assert table_rows.table_versions(ids[:3]) == {pk: versions[pk] for pk in ids[:3]}
    assert table_rows.table_versions([]) == {}
