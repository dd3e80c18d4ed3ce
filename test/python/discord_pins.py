"""discord.py (Debian's python3-discord) pins and unpins as a bot's command handler does: send,
`message.pin()`, `channel.pins()`, `message.unpin()` (discord.py uses v10's older /pins paths).
Prints one JSON object for the test."""
import asyncio
import json
import sys

import discord

base, token, channel_id = sys.argv[1], sys.argv[2], int(sys.argv[3])
discord.http.Route.BASE = base


async def main():
    client = discord.Client(intents=discord.Intents.none())
    await client.login(token)
    channel = await client.fetch_channel(channel_id)
    sent = await channel.send("pin me, discord.py")
    await sent.pin(reason="worth keeping")
    pinned = await channel.pins()
    result = {"pinned": [[str(m.id), m.content, m.pinned] for m in pinned], "sent": str(sent.id)}
    await sent.unpin()
    result["after_unpin"] = [str(m.id) for m in await channel.pins()]
    await client.close()
    print(json.dumps(result))


asyncio.run(main())
