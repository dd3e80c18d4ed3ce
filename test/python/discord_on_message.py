"""discord.py (Debian's python3-discord) as a prefix-command bot, unmodified: only Route.BASE and
DiscordWebSocket.DEFAULT_GATEWAY point at slashd. With the message_content intent, its on_message
answers "!ping" with message.reply; it reports what it saw of bulk deletes
(on_raw_bulk_message_delete). Prints one JSON object per line for the TypeScript test; stops when
its standard input closes or reads "quit"."""
import asyncio
import sys
import traceback

import discord
import yarl

from bot_process import emit, read_commands, run

api, gateway, token = sys.argv[1], sys.argv[2], sys.argv[3]
discord.http.Route.BASE = api
discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(gateway)



class Bot(discord.Client):
    def __init__(self):
        intents = discord.Intents.default()
        intents.message_content = True
        super().__init__(intents=intents)

    async def setup_hook(self):
        asyncio.get_running_loop().create_task(self.quit_on_stdin())

    async def on_ready(self):
        emit("ready", user_id=str(self.user.id))

    async def on_error(self, event, *args, **kwargs):
        emit("error", where=event, error=traceback.format_exc())

    async def on_message(self, message):
        emit("message", id=str(message.id), content=message.content)
        if message.author.bot or message.content != "!ping":
            return
        sent = await message.reply(f"pong for {message.author.name}")
        emit("replied", to=str(message.id), reply=str(sent.id), reference=str(sent.reference.message_id))

    async def on_raw_bulk_message_delete(self, payload):
        emit("bulk_deleted", ids=sorted(str(i) for i in payload.message_ids), channel_id=str(payload.channel_id))

    async def quit_on_stdin(self):
        await read_commands()
        await self.close()


run(Bot, token)
