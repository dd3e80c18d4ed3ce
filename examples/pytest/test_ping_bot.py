"""The discord.py bot answers /ping; a snapshot restored before each test keeps the tests apart."""


def test_bot_answers_ping(slashd):
    messages = slashd.invoke("alice", "general", "ping")
    assert [m["content"] for m in messages] == ["pong"]


def test_a_test_leaves_messages(slashd):
    slashd.invoke("bob", "general", "ping")
    assert any(m["content"] == "pong" for m in slashd.messages("general"))


def test_the_next_test_does_not_see_them(slashd):
    assert not any(m["content"] == "pong" for m in slashd.messages("general"))
