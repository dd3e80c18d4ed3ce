"""discord.py (Debian's python3-discord) shows that it is typing while it works, as a command handler
does: `async with channel.typing():` around a send. Prints one JSON object for the test."""
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
    async with channel.typing():
        sent = await channel.send("typed by discord.py")
    result = {"sent": sent.content}
    read_only = await client.fetch_channel(int(sys.argv[4]))
    try:
        async with read_only.typing():
            pass
        result["refused"] = None
    except discord.HTTPException as error:
        result["refused"] = [error.status, error.code]
    await client.close()
    print(json.dumps(result))


asyncio.run(main())
