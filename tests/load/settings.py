"""Settings for the load tests and the load benchmark: the site's, with fast bots.

Bots think for ``LOAD_BOT_DELAY`` seconds ("min,max", default ``0.02,0.08``) instead of a
human-like second or two, so that a test plays many hands in little time. Everything else
(database, Redis, pause between hands) comes from the environment as usual.
"""

import os

from pokersite.settings import *  # noqa: F401,F403

POKER_BOT_DELAY = tuple(
    float(x) for x in os.environ.get("LOAD_BOT_DELAY", "0.02,0.08").split(",")
)
