"""The multi-host harness (issue 55): the production set-up across hosts, proven in Linux
network namespaces on one machine (``make hosts-test``, as root). See ``__main__``."""
