"""Every read of the site: services write, selectors read (and import no service).

Modules:

- ``hands``: a hand's stored decisions, its engine state rebuilt from them, its secret deck
  and seed, the hand running at a table;
- ``snapshot``: one table at one version, read once for every viewer of it (``Snapshot``);
- ``access``: who may see a table (private games) and who may run it (its host, staff);
- ``lobby``: the open tables; ``players``: a viewer's player, bankroll and ledger;
  ``chips``: where every chip is (statistics and hand histories: ``tables.stats``).
"""
