"""The live path (``tables.live``) and the database layer (``tables.db``) sit in no import
circle, counting imports inside functions too; ``tables.db`` imports nothing of the site."""

from tests.import_graph import circle_through, import_graph, package_modules

MODULES = package_modules("tables")
GRAPH = import_graph(MODULES)


def test_no_live_or_db_module_is_in_an_import_circle():
    circles = {
        name: circle_through(GRAPH, name)
        for name in MODULES
        if name.startswith(("tables.live", "tables.db"))
    }
    assert {name: chain for name, chain in circles.items() if chain} == {}


def test_the_database_layer_imports_nothing_of_the_site():
    assert {name: GRAPH[name] for name in MODULES if name.startswith("tables.db")} == {
        name: set() for name in MODULES if name.startswith("tables.db")
    }
