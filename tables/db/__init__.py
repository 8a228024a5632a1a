"""The database as the live path uses it: the hot statements written once
(``statements``) and the threads that run reads and writes for the event loop (``threads``)."""
