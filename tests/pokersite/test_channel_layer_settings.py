"""The Redis channel layer's connections wait longer than its blocking reads.

channels-redis receives with BZPOPMIN for up to ``brpop_timeout`` (5 s); redis-py 8 stops a
read after ``socket_timeout``, 5 s by default. With the two equal, a busy server process lost
the race now and then and its idle sockets died with "Timeout reading from ..." (the CI
failure of the database-outage test).
"""

import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

PROBE = """
import json, django
django.setup()
from channels.layers import get_channel_layer
layer = get_channel_layer()
connection = layer.create_pool(0).make_connection()  # not connected: nothing is sent
print(json.dumps({"backend": type(layer).__name__, "brpop_timeout": layer.brpop_timeout,
                  "socket_timeout": connection.socket_timeout}))
"""


def test_redis_reads_outlast_the_layers_blocking_pops():
    # Nothing needs to listen there: a pool and a connection object do not connect.
    env = {**os.environ, "REDIS_URL": "redis://127.0.0.1:6399/0",
           "DJANGO_SETTINGS_MODULE": "pokersite.settings"}
    done = subprocess.run([sys.executable, "-c", PROBE], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    probe = json.loads(done.stdout.strip().splitlines()[-1])
    assert probe["backend"] == "RedisChannelLayer"
    assert probe["socket_timeout"] is not None, "a dead connection must still be noticed"
    assert probe["socket_timeout"] >= 2 * probe["brpop_timeout"], probe
