"""A refused multipart upload, then a JSON request, over one kept-alive connection: first with
aiohttp's own client (one connection in its pool; its trace tells whether the second request
reused it), then as discord.py does it (a message with a file, then one without). Prints one JSON
object for the test."""
import asyncio
import io
import json
import sys

import aiohttp
import discord

base, token, app_id, channel_id = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])
discord.http.Route.BASE = base
AUTH = {"Authorization": f"Bot {token}"}
ANSWER_LIMIT = aiohttp.ClientTimeout(total=20)


def upload(size):
    form = aiohttp.FormData()
    form.add_field("payload_json", json.dumps({"name": "upload", "description": "x"}), content_type="application/json")
    form.add_field("files[0]", io.BytesIO(b"x" * size), filename="big.bin", content_type="application/octet-stream")
    return form


def connection_trace(events):
    """aiohttp's trace of its pool: which requests opened a connection, which reused one."""
    trace = aiohttp.TraceConfig()

    async def created(_session, _context, _params):
        events.append("new")

    async def reused(_session, _context, _params):
        events.append("reused")

    trace.on_connection_create_end.append(created)
    trace.on_connection_reuseconn.append(reused)
    return trace


async def refused_then_json(path, size, name):
    """The multipart POST to `path`, then a JSON command create on the pool's one connection."""
    events = []
    connector = aiohttp.TCPConnector(limit=1)
    async with aiohttp.ClientSession(
        connector=connector, timeout=ANSWER_LIMIT, trace_configs=[connection_trace(events)]
    ) as session:
        try:
            async with session.post(f"{base}{path}", data=upload(size), headers=AUTH) as first:
                first_answer = [first.status, (await first.json()).get("code")]
                first_connection = first.headers.get("Connection", "").lower()
        except aiohttp.ClientOSError:
            # The server answered and closed while aiohttp was still writing the body: aiohttp may
            # report the closed socket before it reads the answer. Either way the connection is gone.
            first_answer, first_connection = "closed while sending", "close"
        body = {"name": name, "description": "after a refused upload"}
        try:
            async with session.post(f"{base}/applications/{app_id}/commands", json=body, headers=AUTH) as second:
                second_body = await second.json()
                second_status = second.status
        except Exception as error:  # a poisoned connection: no answer, or not this one
            return {"first": first_answer, "second": repr(error)}
        return {
            "first": first_answer,
            "first_connection": first_connection,
            "second": [second_status, second_body.get("name")],
            "connections": events,
        }


async def discord_py_file_then_text():
    client = discord.Client(intents=discord.Intents.none())
    await client.login(token)
    channel = await client.fetch_channel(channel_id)
    result = {}
    try:
        await channel.send("with a file", file=discord.File(io.BytesIO(b"y" * 200_000), filename="big.bin"))
        result["file"] = "sent"
    except discord.HTTPException as error:
        result["file"] = [error.status, error.code]
    try:
        sent = await asyncio.wait_for(channel.send("plain text after the file"), timeout=20)
        result["text"] = sent.content
    except Exception as error:  # a poisoned connection: no answer, or not this one
        result["text"] = repr(error)
    await client.close()
    return result


async def main():
    commands = f"/applications/{app_id}/commands"
    callback = "/interactions/1/not-a-token/callback"
    print(json.dumps({
        # Within the route's body limit (4 MiB): the body is read to its end, the connection kept.
        "commands_256k": await refused_then_json(commands, 256 * 1024, "after-commands"),
        # Past the route's limit (256 KiB): the connection closes after the answer.
        "callback_256k": await refused_then_json(callback, 256 * 1024, "after-callback"),
        "callback_small": await refused_then_json(callback, 1024, "after-small"),
        "discord_py": await discord_py_file_then_text(),
    }))


asyncio.run(main())
