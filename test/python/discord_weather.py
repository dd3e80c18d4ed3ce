"""discord.py (Debian's python3-discord) answering as the console recorder's discord.js bot does
(test/console-recorder.test.ts), so a session recorded against one replays against the other:
/weather city days (a message with an embed and a Refresh button that updates it), /feedback (a
modal, answered), /secret (an ephemeral answer).

Prints one JSON object per line ("event" says which). Reads its standard input: "sky WORD"
changes the weather word of the replies (answered with a "sky" line); "quit" or the end stops it."""
import asyncio
import sys

import discord
import yarl
from discord import app_commands

from bot_process import emit, read_commands, run

api, gateway, token, guild_id = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])
discord.http.Route.BASE = api
discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(gateway)

state = {"sky": "sunny"}


def set_sky(line):
    if line.startswith("sky "):
        state["sky"] = line[4:]
        emit("sky", sky=state["sky"])



class Refresh(discord.ui.View):
    def __init__(self, city, days):
        super().__init__(timeout=None)
        button = discord.ui.Button(label="Refresh", custom_id=f"refresh:{city}:{days}", style=discord.ButtonStyle.primary)

        async def refreshed(interaction: discord.Interaction):
            text = f"**{city}**: refreshed, still {state['sky']} for {days} days"
            await interaction.response.edit_message(content=text, view=None)

        button.callback = refreshed
        self.add_item(button)


class Feedback(discord.ui.Modal, title="Feedback"):
    comment = discord.ui.TextInput(label="Your comment", custom_id="comment", style=discord.TextStyle.paragraph)

    async def on_submit(self, interaction: discord.Interaction):
        await interaction.response.send_message(f"Thanks for your feedback: {self.comment.value}")


class Bot(discord.Client):
    def __init__(self):
        super().__init__(intents=discord.Intents.default())
        self.tree = app_commands.CommandTree(self)

        @self.tree.command(name="weather", description="The weather of a city")
        @app_commands.describe(city="Which city", days="How many days")
        async def weather(interaction: discord.Interaction, city: str, days: app_commands.Range[int, 1, 7]):
            embed = discord.Embed(title=f"Forecast for {city}")
            embed.add_field(name="Asked by", value=interaction.user.mention)
            await interaction.response.send_message(
                f"**{city}**: {state['sky']} for {days} days", embed=embed, view=Refresh(city, days)
            )

        @self.tree.command(name="feedback", description="Tell the app what you think")
        async def feedback(interaction: discord.Interaction):
            await interaction.response.send_modal(Feedback(custom_id="feedback-modal"))

        @self.tree.command(name="secret", description="Answers only you")
        async def secret(interaction: discord.Interaction):
            await interaction.response.send_message("a secret for you only", ephemeral=True)

        @self.tree.error
        async def on_tree_error(interaction: discord.Interaction, error: Exception):
            emit("error", interaction_id=str(interaction.id), error=repr(error))

    async def setup_hook(self):
        guild = discord.Object(id=guild_id)
        self.tree.copy_global_to(guild=guild)
        await self.tree.sync(guild=guild)
        asyncio.get_running_loop().create_task(self.read_stdin())

    async def on_ready(self):
        emit("ready")

    async def read_stdin(self):
        await read_commands(set_sky)
        await self.close()


run(Bot, token)
