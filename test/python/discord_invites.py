"""discord.py (Debian's python3-discord) invites and edits a guild as a bot's command handler does:
`channel.create_invite`, `guild.invites()`, `client.fetch_invite`, `invite.delete()` and
`guild.edit(name=...)`. Prints one JSON object for the test."""
import asyncio
import json
import sys

import discord

base, token, guild_id, channel_id = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
discord.http.Route.BASE = base


async def main():
    client = discord.Client(intents=discord.Intents.none())
    await client.login(token)
    guild = await client.fetch_guild(guild_id)
    channel = await client.fetch_channel(channel_id)
    invite = await channel.create_invite(max_age=3600, max_uses=3, unique=True, reason="discord.py")
    listed = await guild.invites()
    fetched = await client.fetch_invite(invite.code)
    result = {
        "created": [invite.code, invite.max_age, invite.max_uses, invite.uses, str(invite.channel.id)],
        "listed": sorted([i.code, i.uses] for i in listed),
        "fetched": [fetched.code, str(fetched.guild.id), fetched.approximate_member_count],
    }
    await invite.delete(reason="done")
    result["after_delete"] = sorted(i.code for i in await guild.invites())
    edited = await guild.edit(name="Edited by discord.py", reason="rename")
    result["edited"] = edited.name
    result["fetched_name"] = (await client.fetch_guild(guild_id)).name
    try:
        await guild.edit(name="x")
        result["short_name"] = "accepted"
    except discord.HTTPException as error:
        result["short_name"] = [error.status, error.code]
    await client.close()
    print(json.dumps(result))


asyncio.run(main())
