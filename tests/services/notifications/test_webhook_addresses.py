"""Webhooks reach public hosts only: the host is resolved and every address must be global, at
registration and again at every delivery attempt, and delivery connects to the address it
checked. Only local resolution here: numeric hosts and localhost through the real getaddrinfo,
and made-up names through a stand-in for getaddrinfo passed as the resolver."""
from __future__ import annotations

import socket
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import RedirectResponse, Response
from starlette.routing import Route

from services.notifications import outbox
from services.notifications.addresses import AddressRefused
from services.notifications.delivery import attempt, step
from services.notifications.pinned import webhook_client
from services.notifications.webhook_urls import accept_webhook_url
from shared.errors import Unprocessable
from shared.store import utc_now
from tests.utils.http import started_table
from tests.utils.oauth_provider import serve_in_thread
from tests.utils.webhook_receiver import Receiver

PUBLIC = "162.159.128.233"  # one of Discord's addresses, never connected to here


def resolver_of(names: dict[str, list[str]] | dict[str, list[list[str]]], calls: list[str] | None = None):
    """A stand-in for socket.getaddrinfo that knows only ``names`` (each call answers with the
    next list of a name's answers when given several, the last one from then on)."""
    answers = {name: list(addresses) if isinstance(addresses[0], list) else [addresses]
               for name, addresses in names.items()}

    def getaddrinfo(host: str, port: int, family: int = 0, type: int = 0, *rest: Any) -> list[tuple]:
        if calls is not None:
            calls.append(host)
        if host not in answers:
            raise socket.gaierror(socket.EAI_NONAME, "Name or service not known")
        queue = answers[host]
        current = queue.pop(0) if len(queue) > 1 else queue[0]
        return [(socket.AF_INET6 if ":" in address else socket.AF_INET, socket.SOCK_STREAM, 6, "", (address, port))
                for address in current]

    return getaddrinfo


async def refused(url: str, resolver: Any = socket.getaddrinfo) -> str:
    try:
        await accept_webhook_url(url, False, resolver)
    except Unprocessable as error:
        assert error.code == "invalid_webhook"
        return str(error)
    raise AssertionError(f"{url} was accepted")


@pytest.mark.parametrize("url", [
    "https://127.1/x", "https://2130706433/x", "https://0x7f000001/x", "https://127.0.0.1/x",
    "https://[::1]/x", "https://[::ffff:127.0.0.1]/x", "https://10.0.0.1/x", "https://192.168.1.1:8443/x",
    "https://169.254.169.254/latest/meta-data/", "https://100.64.0.1/x", "https://0.0.0.0/x",
    "https://localhost/x", "https://LOCALHOST:8443/x",
])
async def test_addresses_of_this_machine_or_its_networks_are_refused(url: str) -> None:
    assert "public host" in await refused(url)  # the real getaddrinfo: these resolve locally


async def test_a_public_address_is_accepted() -> None:
    assert await accept_webhook_url("https://1.1.1.1/hook", False) == "https://1.1.1.1/hook"


async def test_names_are_judged_by_every_address_they_resolve_to() -> None:
    resolver = resolver_of({"discord.com": [PUBLIC, "2606:4700::6810:84e5"], "postgres": ["10.0.0.5"],
                            "mixed.example": [PUBLIC, "127.0.0.1"], "v6.example": ["fd00::1"]})
    url = "https://discord.com/api/webhooks/1/abc"
    assert await accept_webhook_url(url, False, resolver) == url
    assert "10.0.0.5" in await refused("https://postgres/x", resolver)  # an internal DNS name
    assert "127.0.0.1" in await refused("https://mixed.example/x", resolver)  # one private address is enough
    assert "fd00::1" in await refused("https://v6.example/x", resolver)
    assert "cannot be resolved" in await refused("https://nowhere.example/x", resolver)
    # the setting for tests and closed networks lets private addresses (and http) through
    assert await accept_webhook_url("http://postgres:8080/x", True, resolver) == "http://postgres:8080/x"


async def test_the_api_refuses_what_resolves_to_a_private_address(social) -> None:
    app, client = social
    table = await started_table(client)
    app.state.settings = app.state.settings.model_copy(update={"webhook_allow_private_hosts": False})
    for url in ("https://127.1/x", "https://2130706433/x", "https://localhost/x", "https://[::1]/x"):
        response = await client.put(f"/games/{table.game_id}/webhook", headers=table.player("FRANCE"),
                                    json={"url": url})
        assert response.status_code == 422 and response.json()["error"]["code"] == "invalid_webhook", url
    assert (await client.get(f"/games/{table.game_id}/webhook", headers=table.player("FRANCE"))).json() == {"url": None}
    accepted = await client.put(f"/games/{table.game_id}/webhook", headers=table.player("FRANCE"),
                                json={"url": "https://1.1.1.1/hook"})
    assert accepted.status_code == 200


class HostRecorder:
    """A webhook on 127.0.0.1 that records the Host header of each POST; ``/moved`` redirects."""

    def __init__(self) -> None:
        self.hosts: list[str] = []

    async def hook(self, request: Request) -> Response:
        self.hosts.append(request.headers["host"])
        return Response(status_code=204)

    def app(self) -> Starlette:
        return Starlette(routes=[Route("/hook", self.hook, methods=["POST"]),
                                 Route("/moved", lambda request: RedirectResponse("/hook", 307), methods=["POST"])])


@pytest.fixture(scope="module")
def recorder() -> Iterator[tuple[HostRecorder, int]]:
    recorder = HostRecorder()
    with serve_in_thread(recorder.app()) as url:
        yield recorder, int(url.rsplit(":", 1)[1])


async def test_delivery_connects_to_the_address_it_checked_and_keeps_the_name(recorder) -> None:
    receiver, port = recorder
    calls: list[str] = []
    resolver = resolver_of({"hooks.entente.test": ["127.0.0.1"]}, calls)  # a name the system cannot resolve
    url = f"http://hooks.entente.test:{port}/hook"
    async with webhook_client(True, resolver) as client:
        for _ in range(2):
            assert (await client.post(url, json={"content": "hi"})).status_code == 204
        moved = await client.post(f"http://hooks.entente.test:{port}/moved", json={})
    assert moved.status_code == 307  # redirects are not followed
    assert receiver.hosts[-2:] == [f"hooks.entente.test:{port}"] * 2  # the Host header is the name
    assert calls == ["hooks.entente.test"] * 3  # resolved and checked again for every request


async def test_a_name_that_rebinds_to_a_private_address_is_refused_at_delivery(recorder) -> None:
    receiver, port = recorder
    before = len(receiver.hosts)
    resolver = resolver_of({"rebind.example": [[PUBLIC], ["127.0.0.1"]]})  # public first, then local
    url = f"https://rebind.example:{port}/hook"
    assert await accept_webhook_url(url, False, resolver) == url
    async with webhook_client(False, resolver) as client:
        with pytest.raises(AddressRefused):
            await client.post(url, json={})
        claimed = outbox.Claimed(1, url, {"content": "hi"}, 1)
        error, retry_after = await attempt(client, claimed, 1.0, id_key=b"k" * 32)
    assert error is not None and error.startswith("refused: rebind.example") and "127.0.0.1" in error
    assert retry_after is None and len(receiver.hosts) == before  # nothing reached the local webhook


async def test_the_worker_checks_again_before_every_attempt(social, receiver: Receiver, receiver_url: str) -> None:
    app, client = social
    store = app.state.store
    table = await started_table(client)
    name = f"checked-{table.game_id}"
    hooked = await client.put(f"/games/{table.game_id}/webhook", headers=table.player("ITALY"),
                              json={"url": f"{receiver_url}/ok/{name}"})  # allowed while private hosts are
    assert hooked.status_code == 200
    await client.post(f"/games/{table.game_id}/messages", headers=table.player("AUSTRIA"),
                      json={"to": ["ITALY"], "text": "Trieste?"})
    closed = app.state.settings.model_copy(update={"webhook_allow_private_hosts": False})
    report = await step(store, closed, utc_now())
    assert report.delivered == 0 and report.retrying == 1 and receiver.received[name] == []
    [row] = [r for r in await outbox.notifications(store, table.game_id) if r["kind"] == "message_received"]
    assert row["status"] == "pending" and row["last_error"].startswith("refused: 127.0.0.1")


async def test_https_delivery_to_a_pinned_address_verifies_the_name(tmp_path) -> None:
    """TLS is spoken with the URL's name (server name and certificate check), on the address
    that was checked: a certificate for hooks.entente.test only, served on 127.0.0.1."""
    import asyncio
    import shutil
    import ssl
    import subprocess

    if shutil.which("openssl") is None:
        pytest.skip("needs the openssl command to make a certificate")
    cert, key = tmp_path / "cert.pem", tmp_path / "key.pem"
    subprocess.run(["openssl", "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1",
                    "-nodes", "-keyout", str(key), "-out", str(cert), "-days", "1", "-subj", "/CN=hooks.entente.test",
                    "-addext", "subjectAltName=DNS:hooks.entente.test"], check=True, capture_output=True)
    server_context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
    server_context.load_cert_chain(cert, key)
    server_names: list[str | None] = []
    server_context.sni_callback = lambda connection, name, context: server_names.append(name)
    requests: list[bytes] = []

    async def answer(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        requests.append(await reader.readuntil(b"\r\n\r\n"))
        writer.write(b"HTTP/1.1 204 No Content\r\nConnection: close\r\n\r\n")
        await writer.drain()
        writer.close()

    server = await asyncio.start_server(answer, "127.0.0.1", 0, ssl=server_context)
    port = server.sockets[0].getsockname()[1]
    trusting = ssl.create_default_context(cafile=str(cert))
    resolver = resolver_of({"hooks.entente.test": ["127.0.0.1"], "other.entente.test": ["127.0.0.1"]})
    try:
        async with webhook_client(True, resolver, trusting) as client:
            response = await client.post(f"https://hooks.entente.test:{port}/hook", json={"content": "hi"})
            assert response.status_code == 204
            with pytest.raises(httpx.ConnectError, match="CERTIFICATE_VERIFY_FAILED"):
                # a name the certificate is not for
                await client.post(f"https://other.entente.test:{port}/hook", json={})
    finally:
        server.close()
        await server.wait_closed()
    assert server_names[0] == "hooks.entente.test"
    assert requests[0].startswith(b"POST /hook HTTP/1.1")
    assert f"host: hooks.entente.test:{port}".encode() in requests[0].lower()
