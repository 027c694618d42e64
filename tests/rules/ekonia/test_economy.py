"""Income over several turns, to the gold piece (rules 1-4, 9-13, 80-86)."""
from __future__ import annotations

from shared.rules.variants.ekonia import EkoniaVariant
from tests.utils.ekonia_board import fresh_state, small_board

VARIANT = EkoniaVariant(small_board())


def play(state, orders, seed=1):
    return VARIANT.resolve(state, orders, settings={}, seed=seed)


def test_four_turns_of_the_income_formula():
    # next gold = start - (costs + gold given) + (BTI - upkeep) + trade + sea lanes + received (+ refunds)
    state = fresh_state()
    # T01 ALPHA: 2 infantry (20) + steal records (25) = 45 spent
    #   BTI alpha 25 + a-field 10 = 35; upkeep 2 infantry + trireme held from the start = 12
    #   its trireme sits on the sea-west lane: 35 x 15% = 5.25 -> 5
    #   50 - 45 + 35 - 12 + 5 = 33
    # T01 BETA: 1 infantry (10); takes neutral mid-two (a city, 15) with strength 3
    #   BTI 25 + 10 + 15 + 15 = 65; upkeep 8 (the new infantry pays nothing yet)
    #   50 - 10 + 65 - 8 = 97
    out = play(state, {
        "ALPHA": ["BUY 2 INFANTRY AT alpha", "SPY RECORDS BETA"],
        "BETA": ["BUY 1 INFANTRY AT beta", "MOVE 2 INFANTRY beta -> mid-two",
                 "MOVE 1 INFANTRY b-field -> mid-two"]})
    assert out.state["territories"]["mid-two"]["owner"] == "BETA"
    assert out.state["sea_lanes"]["sea-west"]["controller"] == "ALPHA"
    alpha, beta = out.details["ledgers"]["ALPHA"], out.details["ledgers"]["BETA"]
    assert (alpha["costs"], alpha["bti"], alpha["upkeep"], alpha["sea_lane_income"]) == (45, 35, 12, 5)
    assert out.state["powers"]["ALPHA"]["gold"] == 33
    assert (beta["bti"], beta["upkeep"]) == (65, 8)
    assert out.state["powers"]["BETA"]["gold"] == 97
    # T02 ALPHA: three infantry take mid-one (BTI 45); one disbanded (5 back next turn);
    #   10 gold given to BETA. upkeep 3 infantry + trireme = 16; lane 45 x 15% = 6.75 -> 6
    #   33 - 10 + 45 - 16 + 6 + 5 = 63
    # T02 BETA: upkeep now 12; receives 10: 97 + 65 - 12 + 10 = 160
    out = play(out.state, {"ALPHA": ["MOVE 3 INFANTRY alpha -> mid-one", "DISBAND 1 INFANTRY AT a-field",
                                     "GIVE 10 TO BETA"]})
    alpha = out.details["ledgers"]["ALPHA"]
    assert (alpha["given"], alpha["bti"], alpha["upkeep"], alpha["sea_lane_income"], alpha["refund"]) == \
        (10, 45, 16, 6, 5)
    assert out.state["powers"]["ALPHA"]["gold"] == 63
    assert out.details["ledgers"]["BETA"]["received"] == 10
    assert out.state["powers"]["BETA"]["gold"] == 160
    # T03: mid-one (ALPHA) borders mid-two (BETA); both order trade, which pays this very turn
    #   ALPHA: 63 + 45 - 16 + 6 + 65 x 25% (16) = 114;  BETA: 160 + 65 - 12 + 45 x 25% (11) = 224
    out = play(out.state, {"ALPHA": ["TRADE WITH BETA"], "BETA": ["TRADE WITH ALPHA"]})
    assert out.orders["ALPHA"][0]["result"] == "ok"
    assert out.state["trade"] == [["ALPHA", "BETA"]]
    assert out.details["ledgers"]["ALPHA"]["trade"] == {"BETA": 16}
    assert (out.state["powers"]["ALPHA"]["gold"], out.state["powers"]["BETA"]["gold"]) == (114, 224)
    # T04: no orders; trade goes on by itself
    out = play(out.state, {})
    assert (out.state["powers"]["ALPHA"]["gold"], out.state["powers"]["BETA"]["gold"]) == (165, 288)


def test_refunds_are_not_spendable_in_the_turn_of_disbanding():
    state = fresh_state()
    state["powers"]["ALPHA"]["gold"] = 5
    out = play(state, {"ALPHA": ["DISBAND 1 INFANTRY AT a-field", "BUY 1 INFANTRY AT alpha"]})
    assert out.orders["ALPHA"][1] == {"order": "BUY 1 INFANTRY AT alpha", "result": "failed",
                                      "reason": "cannot afford: costs 10 gold, 5 left"}


def test_gold_given_is_spendable_by_the_receiver_at_once():
    state = fresh_state()
    out = play(state, {"BETA": ["GIVE 30 TO ALPHA"],
                       "ALPHA": ["EXPECT 30 FROM BETA", "BUY 8 INFANTRY AT alpha"]})
    assert out.orders["ALPHA"] == [
        {"order": "EXPECT 30 FROM BETA", "result": "ok", "reason": "30 gold came from BETA"},
        {"order": "BUY 8 INFANTRY AT alpha", "result": "ok", "reason": ""}]
    # an expected gift that does not come leaves the order unpaid
    out = play(state, {"ALPHA": ["EXPECT 30 FROM BETA", "BUY 8 INFANTRY AT alpha"]})
    assert out.orders["ALPHA"][0]["reason"] == "BETA gave 0 of the 30 gold expected"
    assert out.orders["ALPHA"][1]["result"] == "failed"


def test_trade_needs_both_proposals_and_a_border_or_two_lanes():
    state = fresh_state()
    # no border and no lanes: the same answer whether BETA proposed or not (its order is secret)
    for beta in ([], ["TRADE WITH ALPHA"]):
        out = play(state, {"ALPHA": ["TRADE WITH BETA"], "BETA": beta})
        assert out.orders["ALPHA"][0] == {
            "order": "TRADE WITH BETA", "result": "failed",
            "reason": "ALPHA and BETA neither border each other nor both hold a sea lane under their flag"}
        assert out.state["trade"] == []
    # a BETA trireme takes the sea-east lane this turn: both now hold lanes, trade starts at once
    state["units"]["BETA-9"] = {"id": "BETA-9", "type": "TRIREME", "owner": "BETA", "location": "sea-east",
                                "stored": False, "privateer": False, "built": 0, "aboard": None,
                                "hidden_until": None}
    out = play(state, {"ALPHA": ["TRADE WITH BETA"], "BETA": ["TRADE WITH ALPHA"]})
    assert out.state["trade"] == [["ALPHA", "BETA"]]
    # where they may trade, a proposal alone makes no agreement, which everyone sees
    alone = play(state, {"ALPHA": ["TRADE WITH BETA"]})
    assert alone.orders["ALPHA"][0]["reason"] == "BETA did not propose trade this turn"
    assert alone.state["trade"] == []
    # war ends the agreement
    out = play(out.state, {"BETA": ["WAR ON ALPHA"]})
    assert out.state["trade"] == [] and out.state["wars"] == [["ALPHA", "BETA"]]


def test_privateer_lanes_pay_income_but_allow_no_trade():
    state = fresh_state()
    out = play(state, {"ALPHA": ["PRIVATEER 1 TRIREME AT sea-west"]})
    lane = out.state["sea_lanes"]["sea-west"]
    assert lane == {"controller": "ALPHA", "privateer": True}
    assert out.details["ledgers"]["ALPHA"]["sea_lane_income"] == 5
    assert out.state["powers"]["ALPHA"]["gold"] == 50 - 5 + 35 - 12 + 5
