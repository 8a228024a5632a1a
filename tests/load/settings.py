"""Settings for the load tests and the load benchmark: the site's, with fast bots.

Bots think for ``LOAD_BOT_DELAY`` seconds ("min,max", default ``0.02,0.08``) instead of a
human-like second or two, so that a test plays many hands in little time. Everything else
(database, Redis, pause between hands) comes from the environment as usual.
"""

from pokersite.env import env_numbers
from pokersite.settings import *  # noqa: F401,F403

POKER_BOT_DELAY = env_numbers(
    "LOAD_BOT_DELAY",
    (0.02, 0.08),
    parse=float,
    valid=lambda delay: delay[0] <= delay[1],
    expected="two numbers of seconds, min,max, like 0.02,0.08",
)
