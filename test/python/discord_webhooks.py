"""discord.py (Debian's python3-discord) with webhooks as its users write them: a bot's
`channel.create_webhook(name=, avatar=)`, `channel.webhooks()` and `guild.webhooks()`; then, with
no bot at all, `Webhook.partial(id, token, session=...)` and `Webhook.from_url(...)` sending with
`wait=True` (a file and an embed), editing and deleting the message, and `webhook.delete()`.
`Webhook.from_url` only matches discord.com URLs: a discord.com URL carrying slashd's id and token
is taken (requests go to `Route.BASE`), slashd's own URL is refused with ValueError.
Prints one JSON object for the test."""
import asyncio
import io
import json
import sys

import aiohttp
import discord

base, token, channel_id, avatar_path = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4]
discord.http.Route.BASE = base


def refusal(error):
    return [error.status, error.code]


async def main():
    result = {}
    client = discord.Client(intents=discord.Intents.none())
    await client.login(token)
    channel = await client.fetch_channel(channel_id)
    with open(avatar_path, "rb") as avatar_file:
        avatar = avatar_file.read()
    try:
        await channel.create_webhook(name="Clyde's helper")
        result["bad_name"] = None
    except discord.HTTPException as error:
        result["bad_name"] = refusal(error)
    hook = await channel.create_webhook(name="py-hook", avatar=avatar, reason="from discord.py")
    result["created"] = [str(hook.id), hook.name, hook.type.value, str(hook.channel_id), hook.token is not None]
    result["avatar_key"] = hook.avatar.key if hook.avatar else None
    result["channel_webhooks"] = [str(w.id) for w in await channel.webhooks()]
    result["guild_webhooks"] = [str(w.id) for w in await channel.guild.webhooks()]
    await client.close()

    async with aiohttp.ClientSession() as session:
        partial = discord.Webhook.partial(hook.id, hook.token, session=session)
        sent = await partial.send(
            "deploy done",
            wait=True,
            username="py-release",
            embed=discord.Embed(title="v2.0.0"),
            file=discord.File(io.BytesIO(b"ok\n"), filename="result.txt"),
        )
        result["sent"] = [
            str(sent.id),
            str(sent.webhook_id),
            sent.author.name,
            sent.author.bot,
            sent.content,
            sent.embeds[0].title,
            sent.attachments[0].filename,
        ]
        edited = await sent.edit(content="deploy done (edited)")
        result["edited"] = [edited.content, edited.edited_at is not None]
        fetched = await partial.fetch_message(sent.id)
        result["fetched"] = fetched.content
        result["no_wait"] = await partial.send("fire and forget")

        discord_url = f"https://discord.com/api/webhooks/{hook.id}/{hook.token}"
        from_url = discord.Webhook.from_url(discord_url, session=session)
        via_url = await from_url.send("through from_url", wait=True)
        result["from_url"] = [str(via_url.webhook_id), via_url.content]
        try:
            discord.Webhook.from_url(f"{base}/webhooks/{hook.id}/{hook.token}", session=session)
            result["slashd_url"] = "accepted"
        except ValueError:
            result["slashd_url"] = "ValueError"

        await sent.delete()
        try:
            await partial.fetch_message(sent.id)
            result["deleted"] = None
        except discord.HTTPException as error:
            result["deleted"] = refusal(error)

        await partial.delete()
        try:
            await partial.send("gone?", wait=True)
            result["after_delete"] = None
        except discord.HTTPException as error:
            result["after_delete"] = refusal(error)
    print(json.dumps(result))


asyncio.run(main())
