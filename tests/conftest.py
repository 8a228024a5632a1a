"""Shared fixtures for the site's tests (engine tests under tests/engine need no database).

Services: ``postgres`` and ``browser`` markers/fixtures skip when PostgreSQL / Chromium are
missing, but fail when ``REQUIRE_SERVICES=1`` (set by ``.ci/run``), so CI cannot go green by
skipping the parts that matter.
"""
