"""discord.py (Debian's python3-discord) reads the world from slashd and sends messages, as a bot
handling an interaction does: fetch_guild, fetch_channels, fetch_roles, fetch_member, fetch_user,
fetch_channel, send, history, fetch_message, edit, delete. Prints one JSON object for the test."""
import asyncio
import json
import sys

import discord

base, token, guild_id, channel_id, user_id = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4]), int(sys.argv[5])
discord.http.Route.BASE = base


async def main():
    client = discord.Client(intents=discord.Intents.none())
    result = {}
    await client.login(token)
    guild = await client.fetch_guild(guild_id)
    result["guild"] = [guild.name, guild.approximate_member_count]
    channels = await guild.fetch_channels()
    result["channels"] = sorted(c.name for c in channels)
    roles = await guild.fetch_roles()
    result["roles"] = sorted([r.name, r.position] for r in roles)
    member = await guild.fetch_member(user_id)
    result["member"] = [member.name, member.nick, sorted(str(r.id) for r in member.roles)]
    user = await client.fetch_user(user_id)
    result["user"] = user.name
    channel = await client.fetch_channel(channel_id)
    result["channel"] = [channel.name, str(channel.category_id)]
    sent = await channel.send("from discord.py", embed=discord.Embed(title="An embed"))
    result["sent"] = [sent.content, str(sent.author.id), sent.embeds[0].title]
    history = [m async for m in channel.history(limit=5)]
    result["history"] = [m.content for m in history]
    fetched = await channel.fetch_message(sent.id)
    result["fetched"] = fetched.content
    edited = await sent.edit(content="edited by discord.py")
    result["edited"] = [edited.content, edited.edited_at is not None]
    await sent.delete()
    result["after_delete"] = [m.content async for m in channel.history(limit=5)]
    await client.close()
    print(json.dumps(result))


asyncio.run(main())
