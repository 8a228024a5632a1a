"""The database as the live path uses it: the hot statements written once and how they are
sent (``statements``), whole rows as model instances through them (``rows``), the naive
date-times a database without time zones returns made aware (``datetimes``), and the threads
that run reads and writes for the event loop (``threads``)."""
