"""The documented REST API (``/api/``), as the client uses it; every failure a ``ClientError``
with one line (the server's ``detail`` and ``code`` when it gave them). Every text it returns
is safe to print (``safe.printable``)."""

from __future__ import annotations

from typing import Any

import requests

from pokerclient.config import ClientError
from pokerclient.safe import printable, printable_data, printable_lines

TIMEOUT = 15


class Api:
    def __init__(self, server: str, token: str | None = None) -> None:
        self.server = server.rstrip("/")
        self.session = requests.Session()
        self.session.headers["Accept"] = "application/json"
        if token:
            self.session.headers["Authorization"] = f"Token {token}"

    def _call(self, method: str, path: str, **kwargs: Any) -> requests.Response:
        url = f"{self.server}/api/{path.lstrip('/')}"
        try:
            response = self.session.request(method, url, timeout=TIMEOUT, **kwargs)
        except requests.RequestException as error:
            raise ClientError(f"cannot reach {self.server}: {type(error).__name__}") from None
        if response.status_code >= 400:
            raise ClientError(_error_line(response))
        return response

    def get(self, path: str, **params: Any) -> Any:
        return printable_data(self._call("GET", path, params=params or None).json())

    def text(self, path: str) -> str:
        return printable_lines(self._call("GET", path, headers={"Accept": "*/*"}).text)

    def post(self, path: str, body: dict[str, Any]) -> Any:
        return printable_data(self._call("POST", path, json=body).json())

    def token(self, username: str, password: str) -> str:
        token: str = self.post("auth/token/", {"username": username, "password": password})["token"]
        return token

    def every(self, path: str, limit: int = 1000, **params: Any) -> list[Any]:
        """A paginated list's rows (up to ``limit``)."""
        rows: list[Any] = []
        page = 1
        while len(rows) < limit:
            body = self.get(path, page=page, **params)
            if isinstance(body, list):
                return body[:limit]
            rows += body.get("results", [])
            if not body.get("next"):
                break
            page += 1
        return rows[:limit]


def _error_line(response: requests.Response) -> str:
    """The API's error (``{"code", "message"}``) as one line."""
    try:
        body = response.json()
    except ValueError:
        body = None
    if not isinstance(body, dict) or not (body.get("message") or body.get("detail")):
        return printable(f"the server answered {response.status_code} {response.reason}")
    message = " ".join(str(body.get("message") or body.get("detail")).split())
    line = f"{message} ({body['code']})" if body.get("code") else message
    return printable(line)
