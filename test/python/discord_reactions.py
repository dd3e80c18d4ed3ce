"""discord.py (Debian's python3-discord) reacts as a bot's command handler does: send,
`message.add_reaction('👍')`, reads the reaction back (`fetch_message`, `reaction.users()`), then
`message.remove_reaction`. Prints one JSON object for the test."""
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
    sent = await channel.send("react to me, discord.py")
    await sent.add_reaction("👍")
    fetched = await channel.fetch_message(sent.id)
    reactions = [[str(r.emoji), r.count, r.me] for r in fetched.reactions]
    users = [str(u.id) async for u in fetched.reactions[0].users()] if fetched.reactions else []
    await sent.remove_reaction("👍", client.user)
    after = await channel.fetch_message(sent.id)
    await client.close()
    print(json.dumps({"reactions": reactions, "users": users, "after_remove": len(after.reactions)}))


asyncio.run(main())
