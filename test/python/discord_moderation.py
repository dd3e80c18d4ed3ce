"""discord.py (Debian's python3-discord) moderates as a bot's command handler does:
`member.timeout(...)`, `member.kick(reason=...)`, `guild.ban(user, reason=...)`, then reads the
audit log (`guild.audit_logs()`). Prints one JSON object for the test."""
import asyncio
import datetime
import json
import sys

import discord

base, token, guild_id = sys.argv[1], sys.argv[2], int(sys.argv[3])
timed_out_id, kicked_id = int(sys.argv[4]), int(sys.argv[5])
discord.http.Route.BASE = base


async def main():
    client = discord.Client(intents=discord.Intents.none())
    await client.login(token)
    guild = await client.fetch_guild(guild_id)
    result = {}

    member = await guild.fetch_member(timed_out_id)
    await member.timeout(datetime.timedelta(hours=1), reason="py: cooling off")
    result["timed_out"] = (await guild.fetch_member(timed_out_id)).is_timed_out()

    kicked = await guild.fetch_member(kicked_id)
    await kicked.kick(reason="py: kicked")
    try:
        await guild.fetch_member(kicked_id)
        result["kicked_gone"] = False
    except discord.NotFound as error:
        result["kicked_gone"] = error.code == 10007

    await guild.ban(discord.Object(id=timed_out_id), reason="py: banned")
    result["entries"] = [
        [entry.action.name, str(entry.target.id), entry.reason, str(entry.user.id)]
        async for entry in guild.audit_logs(limit=10)
    ]
    result["bans"] = [
        str(entry.target.id) async for entry in guild.audit_logs(action=discord.AuditLogAction.ban)
    ]
    try:
        await (await guild.fetch_member(client.user.id)).kick()
        result["self_kick"] = "allowed"
    except discord.Forbidden as error:
        result["self_kick"] = error.code
    await client.close()
    print(json.dumps(result))


asyncio.run(main())
