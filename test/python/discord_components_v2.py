"""discord.py (Debian's python3-discord 2.2.2, which predates LayoutView) sends a Components V2
message through its own HTTP client, as a bot on an older discord.py does: the raw payload with
flags 32768 and a file the media gallery names by attachment://, sent as discord.py's own
multipart body; then an edit that keeps the flag, an edit that drops it, and a message with content
and the flag (both refused). Prints one JSON object for the test."""
import asyncio
import io
import json
import sys

import discord
from discord.http import Route

base, token, channel_id, image_path = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4]
discord.http.Route.BASE = base

IS_COMPONENTS_V2 = 1 << 15

CARD = [
    {
        "type": 17,
        "accent_color": 0x3776AB,
        "components": [
            {"type": 10, "content": "## Sent by discord.py\nThrough its own HTTP client."},
            {
                "type": 9,
                "components": [{"type": 10, "content": "A section"}],
                "accessory": {"type": 2, "style": 1, "label": "Press", "custom_id": "py-press"},
            },
            {"type": 12, "items": [{"media": {"url": "attachment://snake.png"}, "description": "a snake"}]},
            {"type": 14, "divider": True, "spacing": 1},
        ],
    }
]


def refusal(error):
    return [error.status, error.code, error.text]


async def main():
    client = discord.Client(intents=discord.Intents.none())
    await client.login(token)
    http = client.http
    messages = Route("POST", "/channels/{channel_id}/messages", channel_id=channel_id)
    with open(image_path, "rb") as handle:
        image = discord.File(io.BytesIO(handle.read()), filename="snake.png")
    payload = {"flags": IS_COMPONENTS_V2, "components": CARD, "attachments": [{"id": 0, "filename": "snake.png"}]}
    form = [
        {"name": "payload_json", "value": json.dumps(payload)},
        {"name": "files[0]", "value": image.fp, "filename": image.filename, "content_type": "application/octet-stream"},
    ]
    sent = await http.request(messages, form=form, files=[image])
    result = {"sent": sent}

    one = Route("PATCH", "/channels/{channel_id}/messages/{message_id}", channel_id=channel_id, message_id=sent["id"])
    edited = await http.request(one, json={"components": [{"type": 10, "content": "edited by discord.py"}]})
    result["edited"] = [edited["flags"], edited["components"][0]["content"]]
    try:
        await http.request(one, json={"flags": 0, "content": "back to plain"})
        result["dropped"] = None
    except discord.HTTPException as error:
        result["dropped"] = refusal(error)
    try:
        await http.request(messages, json={"flags": IS_COMPONENTS_V2, "content": "legacy", "components": CARD[:1]})
        result["legacy"] = None
    except discord.HTTPException as error:
        result["legacy"] = refusal(error)
    await client.close()
    print(json.dumps(result))


asyncio.run(main())
