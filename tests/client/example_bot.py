"""The docs' example bot (docs/playing/bots.md shows this file: ``poker bot 3 --policy
mybot:decide``), kept working here."""


def decide(state):
    legal = state["legal"]
    me = next(seat for seat in state["seats"] if seat["is_you"])
    pair = len({card[0] for card in me["cards"] if card}) == 1
    if pair and "raise" in legal["actions"]:
        return ("raise", min(legal["min_raise_to"] * 2, legal["max_raise_to"]))
    if "check" in legal["actions"]:
        return "check"
    return "call" if legal["call"] <= state["table"]["big_blind"] * 3 else "fold"
