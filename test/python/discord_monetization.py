"""discord.py (Debian's python3-discord, unmodified) with a premium bot's endpoints: SKUs,
entitlements (test ones made, listed, read, consumed, deleted), a command gated on the
entitlements its interaction carries, application role-connection metadata records, and
application emojis (made, listed, renamed, used in a message and a reaction, deleted).

Debian's discord.py is 2.2.2, older than its wrappers of these endpoints (`client.entitlements()`,
`client.fetch_skus()`, `client.create_application_emoji()` and `Interaction.entitlements` came in
later versions), so the bot calls them as users of that version do: through the library's own
HTTP client, `client.http.request(Route(...))` (its rate limits, its authentication, its errors as
`discord.HTTPException`), and reads an interaction's `entitlements` from its gateway payload
(`on_socket_raw_receive`, with `enable_debug_events`), where `Interaction` in 2.2.2 does not keep them.

Prints one JSON object per line (its "event" says which); reads one step a line from standard
input (`grant`, `consume`, `delete`, `metadata`, `emojis <image path>`), until "quit"."""
import asyncio
import json
import sys

import discord
import yarl
from discord import app_commands
from discord.http import Route

from bot_process import emit, read_commands, run

api, gateway, token, guild_id, channel_id, user_id, premium_sku, coins_sku = sys.argv[1:9]
guild_id, channel_id, user_id = int(guild_id), int(channel_id), int(user_id)
discord.http.Route.BASE = api
discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(gateway)


def refusal(error):
    return [error.status, error.code]


class Bot(discord.Client):
    def __init__(self):
        super().__init__(intents=discord.Intents.default(), enable_debug_events=True)
        self.tree = app_commands.CommandTree(self)
        # What each interaction's payload carried, by its id (2.2.2's Interaction drops `entitlements`).
        self.carried = {}
        self.made = {}

        @self.tree.command(name="premium", description="For premium users")
        async def premium(interaction: discord.Interaction):
            entitlements = self.carried.pop(interaction.id, [])
            owned = [e["sku_id"] for e in entitlements if not e.get("deleted") and not e.get("consumed")]
            content = "premium: welcome" if premium_sku in owned else "premium only"
            await interaction.response.send_message(content)
            emit("answered", interaction_id=str(interaction.id), content=content, carried=entitlements)

        @self.tree.error
        async def on_tree_error(interaction: discord.Interaction, error: Exception):
            emit("error", interaction_id=str(interaction.id), error=repr(error))

    async def on_socket_raw_receive(self, message):
        # The payload as received (its text): dispatched before the interaction it carries is handled.
        payload = json.loads(message)
        if payload.get("t") == "INTERACTION_CREATE":
            self.carried[int(payload["d"]["id"])] = payload["d"].get("entitlements", [])

    def app_route(self, method, path, **parameters):
        return Route(method, "/applications/{application_id}" + path, application_id=self.application_id, **parameters)

    async def setup_hook(self):
        guild = discord.Object(id=guild_id)
        self.tree.copy_global_to(guild=guild)
        await self.tree.sync(guild=guild)
        asyncio.get_running_loop().create_task(self.serve_stdin())

    async def on_ready(self):
        skus = await self.http.request(self.app_route("GET", "/skus"))
        emit("ready", application_id=str(self.application_id), skus=[[s["id"], s["type"], s["name"]] for s in skus])

    async def serve_stdin(self):
        queue = asyncio.Queue()
        reader = asyncio.get_running_loop().create_task(read_commands(queue.put_nowait))
        while True:
            getter = asyncio.get_running_loop().create_task(queue.get())
            done, _ = await asyncio.wait({getter, reader}, return_when=asyncio.FIRST_COMPLETED)
            if getter not in done:
                getter.cancel()
                break
            line = getter.result()
            step, *args = line.split(" ")
            try:
                emit(step, **(await getattr(self, "step_" + step)(*args)))
            except Exception as error:  # reported to the test, which fails with it
                emit("step_failed", step=step, error=repr(error))
        await self.close()

    async def step_grant(self):
        made = {}
        for name, sku in (("premium", premium_sku), ("coins", coins_sku)):
            body = {"sku_id": int(sku), "owner_id": user_id, "owner_type": 2}
            made[name] = await self.http.request(self.app_route("POST", "/entitlements"), json=body)
        self.made = {name: entitlement["id"] for name, entitlement in made.items()}
        try:
            await self.http.request(
                self.app_route("POST", "/entitlements"), json={"sku_id": 1400000000000000999, "owner_id": user_id, "owner_type": 2}
            )
            unknown_sku = None
        except discord.HTTPException as error:
            unknown_sku = refusal(error)
        listed = await self.http.request(self.app_route("GET", "/entitlements"), params={"user_id": user_id})
        return {
            "made": {name: [e["sku_id"], e["user_id"], e["type"], e["consumed"]] for name, e in made.items()},
            "unknown_sku": unknown_sku,
            "listed": sorted(e["id"] for e in listed),
            "ids": self.made,
        }

    async def step_consume(self):
        coins = self.made["coins"]
        path = "/entitlements/{entitlement_id}"
        await self.http.request(self.app_route("POST", path + "/consume", entitlement_id=coins))
        read = await self.http.request(self.app_route("GET", path, entitlement_id=coins))
        try:
            await self.http.request(self.app_route("POST", path + "/consume", entitlement_id=self.made["premium"]))
            durable = None
        except discord.HTTPException as error:
            durable = refusal(error)
        return {"consumed": read["consumed"], "durable": durable}

    async def step_delete(self):
        premium = self.made["premium"]
        path = "/entitlements/{entitlement_id}"
        await self.http.request(self.app_route("DELETE", path, entitlement_id=premium))
        try:
            await self.http.request(self.app_route("DELETE", path, entitlement_id=premium))
            again = None
        except discord.HTTPException as error:
            again = refusal(error)
        listed = await self.http.request(self.app_route("GET", "/entitlements"), params={"user_id": user_id})
        everything = await self.http.request(
            self.app_route("GET", "/entitlements"), params={"user_id": user_id, "exclude_deleted": "false"}
        )
        return {"again": again, "listed": sorted(e["id"] for e in listed), "with_deleted": len(everything)}

    async def step_metadata(self):
        route = lambda method: self.app_route(method, "/role-connections/metadata")
        records = [
            {"type": 2, "key": "level", "name": "Level", "description": "Level at least"},
            {"type": 7, "key": "verified", "name": "Verified", "description": "Is verified"},
        ]
        try:
            await self.http.request(route("PUT"), json=[{"type": 2, "key": "Bad Key", "name": "", "description": "d"}])
            bad = None
        except discord.HTTPException as error:
            bad = refusal(error)
        before = await self.http.request(route("GET"))
        put = await self.http.request(route("PUT"), json=records)
        fetched = await self.http.request(route("GET"))
        return {
            "bad": bad,
            "before": before,
            "put": [[r["key"], r["type"]] for r in put],
            "fetched": [[r["key"], r["type"], r["name"]] for r in fetched],
        }

    async def step_emojis(self, image_path):
        with open(image_path, "rb") as image_file:
            image = discord.utils._bytes_to_base64_data(image_file.read())
        made = await self.http.request(self.app_route("POST", "/emojis"), json={"name": "py_mascot", "image": image})
        try:
            await self.http.request(self.app_route("POST", "/emojis"), json={"name": "py_mascot", "image": image})
            taken = None
        except discord.HTTPException as error:
            taken = refusal(error)
        emoji = discord.PartialEmoji(name=made["name"], id=int(made["id"]), animated=made["animated"])
        channel = self.get_channel(channel_id)
        message = await channel.send(f"from discord.py {emoji}")
        await message.add_reaction(emoji)
        path = "/emojis/{emoji_id}"
        renamed = await self.http.request(
            self.app_route("PATCH", path, emoji_id=made["id"]), json={"name": "py_mascot2"}
        )
        listed = await self.http.request(self.app_route("GET", "/emojis"))
        await self.http.request(self.app_route("DELETE", path, emoji_id=made["id"]))
        try:
            await self.http.request(self.app_route("GET", path, emoji_id=made["id"]))
            gone = None
        except discord.HTTPException as error:
            gone = refusal(error)
        return {
            "made": [made["id"], made["name"], made["animated"], made["user"]["id"]],
            "taken": taken,
            "message": str(message.id),
            "content": message.content,
            "renamed": renamed["name"],
            "listed": [e["name"] for e in listed["items"]],
            "gone": gone,
        }


run(Bot, token)
