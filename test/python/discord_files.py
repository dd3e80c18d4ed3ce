"""discord.py (Debian's python3-discord) sends files over slashd, unmodified: only Route.BASE and
DiscordWebSocket.DEFAULT_GATEWAY point at slashd. Its app_commands answer with
interaction.response.send_message(file=...), defer + interaction.followup.send(file=...), and
channel.send(file=...); `pyread` reads a user's file with Attachment.read() and sends it back;
`too_big` sends a file past v10's upload limit and reports the error.

Prints one JSON object per line (an "event" field says which) for the TypeScript test; the bytes it
sends are a pattern the test rebuilds (`pattern(size)`). Stops when its standard input closes."""
import asyncio
import io
import sys

import discord
import yarl
from discord import app_commands

from bot_process import emit, read_commands, run

api, gateway, token, guild_id, too_big_size = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4]), int(sys.argv[5])
discord.http.Route.BASE = api
discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(gateway)



def pattern(size):
    """The bytes the test expects back: i * 7 mod 251 at position i."""
    return bytes((i * 7) % 251 for i in range(size))


class Bot(discord.Client):
    def __init__(self):
        super().__init__(intents=discord.Intents.default())
        self.tree = app_commands.CommandTree(self)

        @self.tree.command(name="pyfile", description="Answers with a file")
        async def pyfile(interaction: discord.Interaction):
            await interaction.response.send_message(
                "a file from discord.py", file=discord.File(io.BytesIO(pattern(70_000)), filename="py data.bin")
            )
            emit("answered", interaction_id=str(interaction.id))

        @self.tree.command(name="pyfollow", description="Follows up with a file")
        async def pyfollow(interaction: discord.Interaction):
            await interaction.response.defer(thinking=True)
            await interaction.followup.send(
                "follow-up file", file=discord.File(io.BytesIO(pattern(300_000)), filename="follow.bin", description="alt text")
            )
            emit("answered", interaction_id=str(interaction.id))

        @self.tree.command(name="pysend", description="Posts a file in the channel")
        async def pysend(interaction: discord.Interaction):
            channel = interaction.channel
            sent = await channel.send("posted by discord.py", file=discord.File(io.BytesIO(pattern(1000)), filename="posted.bin"))
            await interaction.response.send_message("done")
            attachment = sent.attachments[0]
            emit(
                "answered",
                interaction_id=str(interaction.id),
                message_id=str(sent.id),
                attachment=[attachment.filename, attachment.size, attachment.url],
            )

        @self.tree.command(name="pyread", description="Reads a user's file and sends it back")
        async def pyread(interaction: discord.Interaction, file: discord.Attachment):
            # As cogs write it: Attachment.read() downloads the URL with no token (get_from_cdn).
            data = await file.read()
            await interaction.response.send_message(
                f"read {len(data)}", file=discord.File(io.BytesIO(data), filename="again-" + file.filename)
            )
            emit("answered", interaction_id=str(interaction.id), read=len(data))

        @self.tree.command(name="pytoobig", description="Sends a file past the limit")
        async def pytoobig(interaction: discord.Interaction):
            await interaction.response.defer()
            try:
                await interaction.followup.send(file=discord.File(io.BytesIO(bytes(too_big_size)), filename="big.bin"))
                emit("answered", interaction_id=str(interaction.id), refused=None)
            except discord.HTTPException as error:
                emit("answered", interaction_id=str(interaction.id), refused=[error.status, error.code])

        @self.tree.error
        async def on_tree_error(interaction: discord.Interaction, error: Exception):
            emit("error", interaction_id=str(interaction.id), error=repr(error))

    async def setup_hook(self):
        guild = discord.Object(id=guild_id)
        self.tree.copy_global_to(guild=guild)
        synced = await self.tree.sync(guild=guild)
        emit("synced", commands=sorted(c.name for c in synced))
        asyncio.get_running_loop().create_task(self.quit_on_stdin())

    async def on_ready(self):
        emit("ready", user_id=str(self.user.id))

    async def quit_on_stdin(self):
        await read_commands()
        await self.close()


run(Bot, token)
