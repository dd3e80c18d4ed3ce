"""Starts the discord.py bot under test (ping_bot.py) from its environment, as `slashd test --bot`
and CI start a bot: SLASHD_API_URL (`https://discord.com/api/v10` in production), SLASHD_BOT_TOKEN,
and SLASHD_GUILD_ID (the guild its commands are synced to; default the example world's)."""
import json
import os
import urllib.request

import discord
import yarl

from ping_bot import PingBot

api = os.environ["SLASHD_API_URL"]
discord.http.Route.BASE = api
with urllib.request.urlopen(f"{api}/gateway") as response:
    discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(json.load(response)["url"])
PingBot(guild_id=int(os.environ.get("SLASHD_GUILD_ID", "1345183757107200001"))).run(os.environ["SLASHD_BOT_TOKEN"], log_handler=None)
