"""discord.py (Debian's python3-discord) starts threads and sends a DM as a bot's command handler
does: `channel.create_thread()` (public and private), `message.create_thread()`, `user.send()`.
Prints one JSON object for the test."""
import asyncio
import json
import sys

import discord

base, token, channel_id, user_id = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
discord.http.Route.BASE = base


def refusal(error):
    return [error.status, error.code]


async def main():
    client = discord.Client(intents=discord.Intents.none())
    await client.login(token)
    channel = await client.fetch_channel(channel_id)
    result = {}
    public = await channel.create_thread(name="py-public", type=discord.ChannelType.public_thread)
    result["public"] = [str(public.id), public.type.value, public.name, str(public.parent_id)]
    private = await channel.create_thread(name="py-private", auto_archive_duration=60)
    result["private"] = [str(private.id), private.type.value, private.auto_archive_duration]
    sent = await channel.send("start a thread here, discord.py")
    from_message = await sent.create_thread(name="py-from-message")
    result["from_message"] = [str(from_message.id), str(sent.id), from_message.type.value]
    try:
        await sent.create_thread(name="again")
        result["again"] = None
    except discord.HTTPException as error:
        result["again"] = refusal(error)
    user = await client.fetch_user(user_id)
    dm_message = await user.send("a reminder from discord.py")
    second = await user.send("and another one")
    result["dm"] = [str(dm_message.channel.id), str(second.channel.id), dm_message.content]
    await client.close()
    print(json.dumps(result))


asyncio.run(main())
