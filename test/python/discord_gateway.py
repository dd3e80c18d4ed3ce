"""discord.py (Debian's python3-discord) over slashd's gateway, unmodified: only Route.BASE and
DiscordWebSocket.DEFAULT_GATEWAY point at slashd. The bot syncs two app_commands in the guild,
connects (zlib-stream, as discord.py always asks), and answers: `ping` with
interaction.response.send_message, `slow` deferred and then with a follow-up.

Prints one JSON object per line (an "event" field says which) for the TypeScript test to read;
stops when its standard input closes or reads "quit". The only instrumentation observes: the URL
discord.py connects to, and whether the frames it receives are binary (zlib-stream) or text."""
import asyncio
import sys

import discord
import yarl
from discord import app_commands

from bot_process import emit, read_commands, run

api, gateway, token, guild_id = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])
discord.http.Route.BASE = api
discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(gateway)



frames = {"binary": 0, "text": 0}
_received = discord.gateway.DiscordWebSocket.received_message


async def observed_received_message(self, msg, /):
    frames["binary" if isinstance(msg, (bytes, bytearray)) else "text"] += 1
    return await _received(self, msg)


discord.gateway.DiscordWebSocket.received_message = observed_received_message


class Bot(discord.Client):
    def __init__(self):
        super().__init__(intents=discord.Intents.default())
        self.tree = app_commands.CommandTree(self)
        self.connected_url = None

        @self.tree.command(name="ping", description="Answers at once")
        async def ping(interaction: discord.Interaction):
            await interaction.response.send_message(f"pong for {interaction.user.name} from discord.py")
            emit("answered", name="ping", interaction_id=str(interaction.id))

        @self.tree.command(name="slow", description="Answers later")
        @app_commands.describe(what="What to say")
        async def slow(interaction: discord.Interaction, what: str):
            await interaction.response.defer(thinking=True)
            await interaction.followup.send(f"later: {what}")
            emit("answered", name="slow", interaction_id=str(interaction.id))

        @self.tree.error
        async def on_tree_error(interaction: discord.Interaction, error: Exception):
            emit("error", interaction_id=str(interaction.id), error=repr(error))

    async def setup_hook(self):
        original_connect = self.http.ws_connect

        async def observed_connect(url, **kwargs):
            self.connected_url = url
            return await original_connect(url, **kwargs)

        self.http.ws_connect = observed_connect
        guild = discord.Object(id=guild_id)
        self.tree.copy_global_to(guild=guild)
        synced = await self.tree.sync(guild=guild)
        emit("synced", commands=sorted(c.name for c in synced))
        asyncio.get_running_loop().create_task(self.quit_on_stdin())

    async def on_ready(self):
        emit(
            "ready",
            user_id=str(self.user.id),
            application_id=str(self.application_id),
            guilds=sorted(str(g.id) for g in self.guilds),
            guild_names=sorted(g.name for g in self.guilds),
            url=self.connected_url,
            frames=dict(frames),
        )

    async def quit_on_stdin(self):
        await read_commands()
        emit("closing", frames=dict(frames))
        await self.close()


run(Bot, token)
