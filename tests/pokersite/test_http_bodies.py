"""A malformed multipart body sent to a real daphne reaches the site and gets the API's JSON
400 (issue 32 item 11): Twisted under daphne answered it with an empty 400 and no headers
before the site saw it (``pokersite.http_bodies``)."""

from __future__ import annotations

import json
import urllib.error
import urllib.request

import pytest

from tests.browser.conftest import running_server


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    with running_server(tmp_path_factory, POKER_CROUPIER="0", DEBUG="0") as running:
        yield running


def post(url: str, content_type: str, body: bytes) -> tuple[int, dict[str, str], bytes]:
    request = urllib.request.Request(
        url, data=body, method="POST", headers={"Content-Type": content_type}
    )
    try:
        with urllib.request.urlopen(request, timeout=10) as response:
            return response.status, dict(response.headers), response.read()
    except urllib.error.HTTPError as error:
        return error.code, dict(error.headers), error.read()


@pytest.mark.parametrize(
    "content_type, body",
    [
        ("multipart/form-data", b"--x--"),  # no boundary
        ("multipart/form-data; boundary=", b"--\r\n--"),
        ("multipart/form-data", b"--x\r\nContent-Disposition: form-data; name=a\r\n\r\n1\r\n--x--"),
    ],
)
@pytest.mark.parametrize("path", ["/api/auth/token/", "/api/tables/"])
def test_a_malformed_multipart_body_gets_the_apis_json_400(server, path, content_type, body):
    status, headers, text = post(server.url + path, content_type, body)
    assert status == 400
    assert headers.get("Content-Type", "").startswith("application/json"), headers
    assert json.loads(text)["code"] == "parse_error"


def test_a_well_formed_multipart_body_still_reaches_the_view(server):
    body = (
        b'--x\r\nContent-Disposition: form-data; name="username"\r\n\r\nnobody\r\n'
        b'--x\r\nContent-Disposition: form-data; name="password"\r\n\r\nwrong-pw-1\r\n--x--\r\n'
    )
    status, _, text = post(server.url + "/api/auth/token/", "multipart/form-data; boundary=x", body)
    assert (status, json.loads(text)["code"]) == (401, "authentication_failed")
