"""A webhook URL is checked strictly when it is registered: an https URL in RFC 3986's
characters, with a well-formed host and port, no user, no spaces, no control characters, no
fragment (docs/social.md, "Notifications"). What the host resolves to is the address table's
part (test_address_table.py)."""
from __future__ import annotations

from collections.abc import AsyncIterator

import pytest

from services.notifications.webhook_urls import check_webhook_url
from shared.errors import Unprocessable
from tests.utils.http import Table, running_client, started_table

REFUSED = {
    "https://[::1": "host",  # a malformed IPv6 literal
    "https://[::1/hook": "host",
    "https://[fe80::1%25eth0]/hook": "host",  # a zone
    "https://[1.2.3.4]/hook": "host",
    "https://exa mple.com/hook": "space",
    "https://example.com/a b": "space",
    " https://example.com/hook": "space",
    "https://example.com/hook ": "space",
    "https://example.com/hook\t": "space",
    "https://example.com/\x01hook": "character",
    "https://example.com/\x7f": "character",
    "https://exa\u00a0mple.com/": "character",
    "https://exämple.com/hook": "character",  # an IDN host is written in its xn-- form
    "https://example.com/hoo\\k": "character",
    "https://example.com/%zz": "percent",
    "https://example.com/%4": "percent",
    "https://a..b/hook": "host",
    "https://-bad.example/hook": "host",
    "https://bad-.example/hook": "host",
    "https://under_score.example/hook": "host",
    "https://" + "a" * 64 + ".example/hook": "host",
    "https://" + ".".join(["abcdefgh"] * 30) + "/hook": "host",
    "https://xn--/hook": "host",
    "https://xn--a.example/hook": "host",
    "https://.example/hook": "host",
    "https://example.com:0/hook": "port",
    "https://example.com:65536/hook": "port",
    "https://example.com:99999999/hook": "port",
    "https://example.com:8o/hook": "port",
    "https://example.com:/hook": "port",
    "https://user@example.com/hook": "user",
    "https://user:pw@example.com/hook": "user",
    "https://example.com/hook#part": "fragment",
    "http://example.com/hook": "https",
    "ftp://example.com/hook": "https",
    "https:///hook": "host",
    "https:example.com/hook": "host",
    "//example.com/hook": "https",
}
ACCEPTED = [
    "https://discord.com/api/webhooks/1234567890/AbC-dEf_gHi",
    "https://hooks.example.com:8443/path/to?x=1&y=%20z",
    "https://1.1.1.1/hook",
    "https://[2606:4700::6810:84e5]:443/hook",
    "https://xn--bcher-kva.example/hook",
    "https://EXAMPLE.com/Hook",
    "https://example.com",
]


@pytest.mark.parametrize("url", list(REFUSED), ids=[f"{i:02d}" for i in range(len(REFUSED))])
def test_malformed_webhook_urls_are_refused_with_the_reason(url: str) -> None:
    with pytest.raises(Unprocessable) as refused:
        check_webhook_url(url, allow_private=False)
    assert refused.value.code == "invalid_webhook" and refused.value.where == "body.url"
    assert REFUSED[url] in refused.value.message, refused.value.message


@pytest.mark.parametrize("url", ACCEPTED)
def test_well_formed_webhook_urls_pass_the_form_check(url: str) -> None:
    assert check_webhook_url(url, allow_private=False) == url


def test_plain_http_only_where_private_hosts_are_allowed() -> None:
    assert check_webhook_url("http://receiver:8080/hook", allow_private=True) == "http://receiver:8080/hook"
    with pytest.raises(Unprocessable):
        check_webhook_url("http://receiver:8080/hook a", allow_private=True)


@pytest.fixture
async def table(sqlite_url: str) -> AsyncIterator[Table]:
    async with running_client(sqlite_url) as client:
        yield await started_table(client)


async def test_the_api_refuses_them_and_stores_nothing(table: Table) -> None:
    client = table.client
    path = f"/games/{table.game_id}/webhook"
    for url in ("https://[::1", "https://[::1/x", "https://example.com/a b", "https://a..b/x", "https://xn--/x",
                "https://example.com:99999/x"):
        response = await client.put(path, headers=table.player("FRANCE"), json={"url": url})
        assert response.status_code == 422, (url, response.text)
        assert response.json()["error"]["code"] == "invalid_webhook", url
    current = await client.get(path, headers=table.player("FRANCE"))
    assert current.json() == {"url": None}
