"""discord.py (Debian's python3-discord) manages roles and channels as a bot's command handler
does: `guild.create_role`, `guild.create_text_channel(overwrites=...)`, `channel.set_permissions`
(a member denied, then a role's overwrite), and reads them back. Prints one JSON object for the test."""
import asyncio
import json
import sys

import discord

base, token, guild_id, member_id, bot_role_id = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4]), int(sys.argv[5])
discord.http.Route.BASE = base


def overwrites_of(channel):
    return sorted(
        [str(target.id), [str(o.pair()[0].value), str(o.pair()[1].value)]] for target, o in channel.overwrites.items()
    )


async def main():
    client = discord.Client(intents=discord.Intents.none())
    await client.login(token)
    guild = await client.fetch_guild(guild_id)
    role = await guild.create_role(
        name="Triage",
        permissions=discord.Permissions(view_channel=True),
        colour=discord.Colour(0x2ECC71),
        mentionable=True,
        reason="ticket triage",
    )
    channel = await guild.create_text_channel(
        "triage",
        topic="tickets",
        overwrites={
            guild.default_role: discord.PermissionOverwrite(view_channel=False),
            role: discord.PermissionOverwrite(view_channel=True, send_messages=True),
            # The bot keeps its own way in: without it, it could no longer manage the channel.
            guild.get_role(bot_role_id): discord.PermissionOverwrite(view_channel=True),
        },
    )
    result = {
        "role": [str(role.id), role.name, role.colour.value, role.mentionable, role.position],
        "channel": [str(channel.id), channel.name, channel.topic],
        "created_overwrites": overwrites_of(channel),
    }
    member = await guild.fetch_member(member_id)
    await channel.set_permissions(member, view_channel=True, send_messages=False, reason="read only")
    await channel.set_permissions(role, overwrite=None)
    fetched = await client.fetch_channel(channel.id)
    result["edited_overwrites"] = overwrites_of(fetched)
    try:
        await guild.create_role(name="Boss", permissions=discord.Permissions(administrator=True))
        result["refused"] = None
    except discord.Forbidden as error:
        result["refused"] = [error.status, error.code]
    await client.close()
    print(json.dumps(result))


asyncio.run(main())
