"""The discord.py bot under test: /ping answers pong. Nothing here knows about slashd; the
fixtures point discord.py's REST base and gateway at it."""
import threading

import discord
from discord import app_commands


class PingBot(discord.Client):
    def __init__(self, guild_id):
        super().__init__(intents=discord.Intents.default())
        self.guild_id = guild_id
        self.synced = threading.Event()
        self.tree = app_commands.CommandTree(self)

        @self.tree.command(name="ping", description="Answers pong")
        async def ping(interaction: discord.Interaction):
            await interaction.response.send_message("pong")

    async def setup_hook(self):
        guild = discord.Object(id=self.guild_id)
        self.tree.copy_global_to(guild=guild)
        await self.tree.sync(guild=guild)

    async def on_ready(self):
        self.synced.set()
