"""discord.py (Debian's python3-discord) against slashd: login, tree.sync global and per guild,
fetch_commands, and an invalid command. Prints one JSON object for the TypeScript test to check."""
import asyncio
import json
import sys

import discord
from discord import app_commands

base, token, guild_id = sys.argv[1], sys.argv[2], int(sys.argv[3])
discord.http.Route.BASE = base


async def main():
    client = discord.Client(intents=discord.Intents.none())
    tree = app_commands.CommandTree(client)

    @tree.command(name="weather", description="Shows the weather")
    @app_commands.describe(city="Which city")
    async def weather(interaction: discord.Interaction, city: str):
        pass

    @tree.command(name="settings", description="Server settings")
    @app_commands.default_permissions(manage_guild=True)
    async def settings(interaction: discord.Interaction):
        pass

    tags = app_commands.Group(name="tags", description="Tag commands")

    @tags.command(name="add", description="Adds a tag")
    async def add(interaction: discord.Interaction, name: str):
        pass

    @tags.command(name="remove", description="Removes a tag")
    async def remove(interaction: discord.Interaction, name: str):
        pass

    tree.add_command(tags)

    @tree.context_menu(name="Profile")
    async def profile(interaction: discord.Interaction, user: discord.User):
        pass

    @tree.context_menu(name="Quote message")
    async def quote(interaction: discord.Interaction, message: discord.Message):
        pass

    result = {}
    await client.login(token)
    result["user_id"] = str(client.user.id)
    result["application_id"] = str(client.application_id)
    synced = await tree.sync()
    result["synced_global"] = sorted([c.name, int(c.type.value)] for c in synced)
    guild = discord.Object(id=guild_id)
    tree.copy_global_to(guild=guild)
    synced_guild = await tree.sync(guild=guild)
    result["synced_guild"] = sorted([c.name, int(c.type.value)] for c in synced_guild)
    fetched = await tree.fetch_commands()
    result["fetched_global"] = sorted(c.name for c in fetched)
    result["settings_permissions"] = next(
        (c.default_member_permissions.value for c in fetched if c.name == "settings" and c.default_member_permissions), None
    )
    result["tags_subcommands"] = next(sorted(o.name for o in c.options) for c in fetched if c.name == "tags")
    result["fetched_guild"] = sorted(c.name for c in await tree.fetch_commands(guild=guild))
    try:
        await client.http.upsert_global_command(client.application_id, {"name": "Bad Name", "description": "x", "type": 1})
        result["invalid"] = None
    except discord.HTTPException as error:
        result["invalid"] = {"status": error.status, "code": error.code}
    await client.close()
    print(json.dumps(result))


asyncio.run(main())
