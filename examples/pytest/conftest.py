"""pytest fixtures for testing a discord.py bot against slashd (docs/testing.md).

`slashd` starts `slashd serve --db :memory: --world world.json` once per session (or uses the
server named by SLASHD_URL and SLASHD_ADMIN_TOKEN), `bot` runs the discord.py bot under test in a
thread once its commands are synced, and `fresh` restores the snapshot taken after that before
every test, so no test sees what another left behind."""
import asyncio
import json
import os
import secrets
import socket
import subprocess
import threading
import time
import urllib.error
import urllib.request
from pathlib import Path

import discord
import pytest
import yarl

from ping_bot import PingBot

HERE = Path(__file__).parent
WAIT_S = 30


def request(url, method="GET", auth=None, body=None):
    """One JSON request: (status, body)."""
    data = None if body is None else json.dumps(body).encode()
    headers = {"content-type": "application/json"} if data is not None else {}
    if auth:
        headers["authorization"] = auth
    req = urllib.request.Request(url, data=data, method=method, headers=headers)
    try:
        with urllib.request.urlopen(req, timeout=WAIT_S) as response:
            text = response.read().decode()
            return response.status, json.loads(text) if text else None
    except urllib.error.HTTPError as error:
        text = error.read().decode()
        return error.code, json.loads(text) if text else None


def until(condition, what):
    """Polls `condition` until it returns something truthy, within WAIT_S."""
    deadline = time.monotonic() + WAIT_S
    while time.monotonic() < deadline:
        value = condition()
        if value:
            return value
        time.sleep(0.02)
    raise AssertionError(f"no {what} within {WAIT_S} s")


class Slashd:
    def __init__(self, url, admin_token):
        self.url = url.rstrip("/")
        self.api = f"{self.url}/api/v10"
        self.admin = f"Bearer {admin_token}"
        self.world = request(f"{self.url}/admin/world", auth=self.admin)[1]

    def user(self, name):
        return next(u for u in self.world["users"] if u["username"] == name)

    def channel(self, name):
        return next((g, c) for g in self.world["guilds"] for c in g["channels"] if c["name"] == name)

    def snapshot(self):
        status, body = request(f"{self.url}/admin/snapshots", "POST", self.admin)
        assert status == 201, body
        return body["id"]

    def restore(self, snapshot_id):
        status, body = request(f"{self.url}/admin/snapshots/{snapshot_id}/restore", "POST", self.admin)
        assert status == 204, body

    def messages(self, channel_name, as_user="alice"):
        _, channel = self.channel(channel_name)
        status, body = request(f"{self.api}/channels/{channel['id']}/messages?limit=100", auth=self.user(as_user)["token"])
        assert status == 200, body
        return list(reversed(body))

    def invoke(self, user_name, channel_name, command_name):
        """`user_name` runs /command_name in the channel; returns the messages it produced."""
        token = self.user(user_name)["token"]
        guild, channel = self.channel(channel_name)
        status, index = request(f"{self.api}/channels/{channel['id']}/application-command-index", auth=token)
        assert status == 200, index
        command = next(c for c in index["application_commands"] if c["name"] == command_name)
        data = {"id": command["id"], "name": command["name"], "type": 1, "version": command["version"]}
        body = {"type": 2, "application_id": command["application_id"], "guild_id": guild["id"], "channel_id": channel["id"], "data": data}
        status, accepted = request(f"{self.api}/interactions", "POST", token, body)
        assert status == 200, accepted
        state = until(
            lambda: (lambda s: s if s["state"] in ("responded", "failed") else None)(
                request(f"{self.api}/interactions/{accepted['id']}", auth=token)[1]
            ),
            "answer",
        )
        assert state["state"] == "responded", state
        return [m for m in self.messages(channel_name, user_name) if (m.get("interaction_metadata") or {}).get("id") == accepted["id"]]


def free_port():
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


@pytest.fixture(scope="session")
def slashd():
    if os.environ.get("SLASHD_URL"):
        yield Slashd(os.environ["SLASHD_URL"], os.environ["SLASHD_ADMIN_TOKEN"])
        return
    port, token = free_port(), secrets.token_hex(24)
    command = os.environ.get("SLASHD_COMMAND", "npx slashd").split()
    server = subprocess.Popen(
        [*command, "serve", "--db", ":memory:", "--port", str(port), "--world", str(HERE / "world.json"), f"--admin-token={token}", "--log-level", "silent"],
        stdout=subprocess.DEVNULL,
    )
    try:
        url = f"http://127.0.0.1:{port}"

        def ready():
            try:
                return request(f"{url}/readyz")[0] == 200
            except OSError:
                return False

        until(ready, "slashd answering /readyz")
        yield Slashd(url, token)
    finally:
        server.terminate()
        server.wait(timeout=WAIT_S)


@pytest.fixture(scope="session")
def bot(slashd):
    """The bot under test, connected through slashd's gateway, its commands synced."""
    discord.http.Route.BASE = slashd.api
    discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(request(f"{slashd.api}/gateway")[1]["url"])
    guild, _ = slashd.channel("general")
    client = PingBot(guild_id=int(guild["id"]))
    loop = asyncio.new_event_loop()
    thread = threading.Thread(target=loop.run_forever, daemon=True)
    thread.start()
    running = asyncio.run_coroutine_threadsafe(client.start(slashd.world["applications"][0]["bot_token"]), loop)
    until(lambda: client.synced.is_set() or running.done(), "bot ready with its commands synced")
    assert client.synced.is_set(), running.exception()
    yield client
    asyncio.run_coroutine_threadsafe(client.close(), loop).result(timeout=WAIT_S)
    loop.call_soon_threadsafe(loop.stop)
    thread.join(timeout=WAIT_S)


@pytest.fixture(scope="session")
def base(slashd, bot):
    """The state once the bot is up: restored before each test."""
    return slashd.snapshot()


@pytest.fixture(autouse=True)
def fresh(slashd, base):
    slashd.restore(base)
    yield
