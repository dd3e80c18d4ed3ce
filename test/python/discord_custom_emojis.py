"""discord.py (Debian's python3-discord) reacts with a guild's custom emojis: `guild.fetch_emojis()`,
`message.add_reaction(emoji)` with a fetched Emoji and with `<a:name:id>` text, reads them back
(`fetch_message`), then `message.remove_reaction`. Prints one JSON object for the test."""
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
    emojis = await guild.fetch_emojis()
    blob = next(e for e in emojis if e.name == "blob")
    party = next(e for e in emojis if e.name == "party_parrot")
    channel = await client.fetch_channel(channel_id)
    sent = await channel.send("custom emojis, discord.py")
    await sent.add_reaction(blob)
    await sent.add_reaction(f"<a:party_parrot:{party.id}>")
    fetched = await channel.fetch_message(sent.id)
    reactions = [[str(r.emoji.id), r.emoji.name, r.emoji.animated, r.count, r.me] for r in fetched.reactions]
    await sent.remove_reaction(blob, client.user)
    after = await channel.fetch_message(sent.id)
    await client.close()
    print(json.dumps({
        "emojis": [[str(e.id), e.name, e.animated] for e in emojis],
        "reactions": reactions,
        "after_remove": [r.emoji.name for r in after.reactions],
    }))


asyncio.run(main())
