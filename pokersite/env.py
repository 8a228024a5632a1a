"""Reading the environment for ``pokersite.settings``: each value checked, a malformed one
refused at start-up with ``ImproperlyConfigured`` naming the variable."""

from __future__ import annotations

import ipaddress
import math
import os
import re
from collections.abc import Callable
from typing import NoReturn

from django.core.exceptions import ImproperlyConfigured

_TRUE, _FALSE = {"1", "true", "yes", "on"}, {"0", "false", "no", "off"}
_WHOLE = re.compile(r"-?[0-9]+")  # ASCII digits only: int() also takes "٣" and "1_000"
_DECIMAL = re.compile(r"-?(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)")


def refuse(name: str, value: str, expected: str) -> NoReturn:
    raise ImproperlyConfigured(f"{name} must be {expected}, not {value!r}")


def env_bool(name: str, default: bool) -> bool:
    """A boolean from the environment: 1/true/yes/on or 0/false/no/off (any case); unset or
    empty gives ``default``; anything else is refused."""
    value = os.environ.get(name)
    if value is None or value.strip() == "":
        return default
    word = value.strip().lower()
    if word not in _TRUE | _FALSE:
        refuse(name, value, "one of 1/true/yes/on or 0/false/no/off")
    return word in _TRUE


def _number(text: str, parse: type) -> int | float | None:
    """``text`` as ``parse`` (int or float), or None when it is not one written plainly."""
    text = text.strip()
    if parse is int:
        return int(text) if _WHOLE.fullmatch(text) else None
    number = float(text) if _DECIMAL.fullmatch(text) else None
    return number if number is not None and math.isfinite(number) else None


def env_int(name: str, default: int, *, minimum: int = 0) -> int:
    """A whole number of at least ``minimum`` from the environment; unset or empty:
    ``default``."""
    return int(env_numbers(name, (default,), parse=int, minimum=minimum)[0])


def env_float(name: str, default: float, *, minimum: float = 0.0) -> float:
    """A number of at least ``minimum`` from the environment; unset or empty: ``default``."""
    return float(env_numbers(name, (default,), parse=float, minimum=minimum)[0])


def env_numbers(
    name: str,
    default: tuple[float, ...],
    *,
    parse: type = int,
    minimum: float = 0,
    valid: Callable[[tuple[float, ...]], bool] = lambda numbers: True,
    expected: str = "",
) -> tuple[float, ...]:
    """As many comma-separated numbers as ``default`` has (``int`` or ``float``), each at
    least ``minimum`` and together ``valid``; unset or empty: ``default``."""
    value = os.environ.get(name)
    if value is None or value.strip() == "":
        return default
    parsed = tuple(_number(part, parse) for part in value.split(","))
    numbers = tuple(number for number in parsed if number is not None)
    if (
        len(parsed) != len(default)
        or len(numbers) != len(parsed)
        or min(numbers) < minimum
        or not valid(numbers)
    ):
        kind = "whole number" if parse is int else "number"
        what = (
            f"a {kind} of at least {minimum}"
            if len(default) == 1
            else f"{len(default)} comma-separated {kind}s of at least {minimum}"
        )
        refuse(name, value, expected or what)
    return numbers


def env_list(name: str, default: list[str]) -> list[str]:
    """Read a comma-separated list from the environment: unset gives ``default``, set but
    empty gives ``[]``."""
    value = os.environ.get(name)
    if value is None:
        return default
    return [item.strip() for item in value.split(",") if item.strip()]


def env_networks(
    name: str, default: list[str]
) -> list[ipaddress.IPv4Network | ipaddress.IPv6Network]:
    """Comma-separated addresses or CIDR networks from the environment; unset: ``default``."""
    networks = []
    for item in env_list(name, default):
        try:
            networks.append(ipaddress.ip_network(item, strict=False))
        except ValueError:
            refuse(name, item, "addresses or CIDR networks, comma-separated, like 10.0.0.0/8")
    return networks


def vapid_public_key(private_key: str) -> str:
    """The VAPID application server key browsers subscribe with (base64url, uncompressed P-256
    point) of ``private_key`` (base64url of the 32-byte P-256 private number, as
    ``npx web-push generate-vapid-keys`` prints it); ``ImproperlyConfigured`` if it is none."""
    import base64

    from cryptography.hazmat.primitives.asymmetric import ec
    from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat

    try:
        raw = base64.urlsafe_b64decode(private_key + "=" * (-len(private_key) % 4))
        if len(raw) != 32:
            raise ValueError("not 32 bytes")
        key = ec.derive_private_key(int.from_bytes(raw, "big"), ec.SECP256R1())
    except ValueError:
        refuse("POKER_VAPID_PRIVATE_KEY", "(hidden)", "a base64url P-256 private key (32 bytes)")
    point = key.public_key().public_bytes(Encoding.X962, PublicFormat.UncompressedPoint)
    return base64.urlsafe_b64encode(point).rstrip(b"=").decode()
