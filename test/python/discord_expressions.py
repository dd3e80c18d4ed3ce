"""discord.py (Debian's python3-discord) with guild emojis and stickers as its users write them:
`guild.create_custom_emoji(name=, image=, roles=)` (a bad name refused with 50035),
`guild.fetch_emojis()`, `emoji.edit(name=)`, `emoji.delete()`; `guild.create_sticker(name=,
description=, emoji=, file=)`, `guild.fetch_stickers()`, `channel.send(stickers=[...])`,
`sticker.edit(name=)`, `sticker.delete()`; `client.fetch_premium_sticker_packs()`. It runs over
slashd's gateway (discord.py's Emoji and Sticker objects need the guild it caches), and records
the `on_guild_emojis_update` and `on_guild_stickers_update` it is told. Prints one JSON object."""
import asyncio
import json
import sys

import discord
import yarl

base, gateway, token, guild_id, channel_id, role_id, image_path = (
    sys.argv[1],
    sys.argv[2],
    sys.argv[3],
    int(sys.argv[4]),
    int(sys.argv[5]),
    int(sys.argv[6]),
    sys.argv[7],
)
discord.http.Route.BASE = base
discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(gateway)


def refusal(error):
    return [error.status, error.code]


intents = discord.Intents.none()
intents.guilds = True
intents.emojis_and_stickers = True
client = discord.Client(intents=intents)
told = {"emojis": [], "stickers": []}


@client.event
async def on_guild_emojis_update(guild, before, after):
    told["emojis"].append(sorted(e.name for e in after))


@client.event
async def on_guild_stickers_update(guild, before, after):
    told["stickers"].append(sorted(s.name for s in after))


@client.event
async def on_ready():
    try:
        result = await work()
        # The last change's dispatch may trail its answer: wait for it, not for a time.
        while not told["stickers"] or told["stickers"][-1] != []:
            await asyncio.sleep(0.01)
        result["told"] = told
        print(json.dumps(result))
    finally:
        await client.close()


async def work():
    result = {}
    guild = client.get_guild(guild_id)
    channel = guild.get_channel(channel_id)
    with open(image_path, "rb") as image_file:
        image = image_file.read()

    try:
        await guild.create_custom_emoji(name="bad name", image=image)
        result["bad_name"] = None
    except discord.HTTPException as error:
        result["bad_name"] = refusal(error)
    role = discord.Object(id=role_id)
    emoji = await guild.create_custom_emoji(name="py_mascot", image=image, roles=[role], reason="from discord.py")
    result["emoji"] = [str(emoji.id), emoji.name, emoji.animated, [str(r) for r in emoji._roles]]
    result["emoji_user"] = str(emoji.user.id) if emoji.user else None
    result["fetched_emojis"] = [e.name for e in await guild.fetch_emojis()]
    edited = await emoji.edit(name="py_mascot2")
    result["emoji_edited"] = edited.name
    await emoji.delete()
    try:
        await guild.fetch_emoji(emoji.id)
        result["emoji_gone"] = None
    except discord.HTTPException as error:
        result["emoji_gone"] = refusal(error)

    sticker = await guild.create_sticker(
        name="py-wumpus",
        description="from discord.py",
        emoji="wave",
        file=discord.File(image_path, filename="wumpus.png"),
    )
    result["sticker"] = [str(sticker.id), sticker.name, sticker.emoji, sticker.description, sticker.format.value]
    result["fetched_stickers"] = [s.name for s in await guild.fetch_stickers()]
    packs = await client.fetch_premium_sticker_packs()
    standard = packs[0].stickers[0]
    result["packs"] = [packs[0].name, standard.name]
    sent = await channel.send(stickers=[sticker, standard])
    result["sent_stickers"] = [str(s.id) for s in sent.stickers]
    renamed = await sticker.edit(name="py-wumpus-2")
    result["sticker_edited"] = renamed.name
    await sticker.delete()
    result["after_delete"] = [s.name for s in await guild.fetch_stickers()]
    return result


client.run(token, log_handler=None)
