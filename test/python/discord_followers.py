"""discord.py (Debian's python3-discord) following an announcement channel and publishing, as its
users write it: `news.follow(destination=general)` (a channel follower webhook), `channel.webhooks()`,
`message.publish()` (the copy in the destination with `flags.is_crossposted` and a reference to
the original), a second `publish()` refused. Prints one JSON object for the test."""
import asyncio
import json
import sys

import discord

base, token, news_id, general_id = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
discord.http.Route.BASE = base


async def main():
    result = {}
    client = discord.Client(intents=discord.Intents.none())
    await client.login(token)
    news = await client.fetch_channel(news_id)
    general = await client.fetch_channel(general_id)
    result["is_news"] = news.is_news()
    follower = await news.follow(destination=general, reason="from discord.py")
    result["follower"] = [str(follower.id), follower.type.value, str(follower.channel_id)]
    result["webhook_types"] = sorted(w.type.value for w in await general.webhooks())
    message = await news.send("py release notes")
    await message.publish()
    published = await news.fetch_message(message.id)
    result["published_flags"] = [published.flags.crossposted, published.flags.value]
    copies = [m async for m in general.history(limit=20) if m.reference and m.reference.message_id == message.id]
    result["copies"] = [
        [m.content, m.flags.is_crossposted, str(m.reference.channel_id), str(m.webhook_id)] for m in copies
    ]
    try:
        await message.publish()
        result["again"] = None
    except discord.HTTPException as error:
        result["again"] = [error.status, error.code]
    await client.close()
    print(json.dumps(result))


asyncio.run(main())
