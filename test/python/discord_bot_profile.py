"""discord.py (Debian's python3-discord) as a bot edits itself: `client.user.edit(username=...,
avatar=bytes)`, a refused name (discord.HTTPException 50035), `avatar=None` to remove it, and the
user read back with `client.fetch_user`. Prints one JSON object for the test."""
import asyncio
import json
import sys

import discord

base, token, avatar_path = sys.argv[1], sys.argv[2], sys.argv[3]
discord.http.Route.BASE = base


async def main():
    result = {}
    client = discord.Client(intents=discord.Intents.none())
    await client.login(token)
    with open(avatar_path, "rb") as avatar_file:
        avatar = avatar_file.read()
    try:
        await client.user.edit(username="discord helper")
        result["bad_name"] = None
    except discord.HTTPException as error:
        result["bad_name"] = [error.status, error.code]
    edited = await client.user.edit(username="py-renamed", avatar=avatar)
    result["edited"] = [str(edited.id), edited.name, edited.bot, edited.avatar.key if edited.avatar else None]
    fetched = await client.fetch_user(client.user.id)
    result["fetched"] = [fetched.name, fetched.avatar.key if fetched.avatar else None]
    removed = await client.user.edit(avatar=None)
    result["removed"] = [removed.name, removed.avatar]
    await client.close()
    print(json.dumps(result))


asyncio.run(main())
