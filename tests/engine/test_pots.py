from engine.pots import Pot, build_pots, split_pot, uncalled


def test_side_pots_are_built_from_contributions():
    assert build_pots([100, 40, 100, 10], [True, True, True, False]) == [
        Pot(130, (0, 1, 2)),
        Pot(120, (0, 2)),
    ]


def test_big_blind_ante_dead_money_goes_to_the_main_pot():
    assert build_pots([50, 30, 50], [True, True, True], dead=5) == [
        Pot(95, (0, 1, 2)),
        Pot(40, (0, 2)),
    ]


def test_uncalled_part_of_the_largest_bet_is_returned():
    assert uncalled([0, 300, 120]) == (1, 180)
    assert uncalled([50, 50]) is None


def test_odd_chips_go_one_at_a_time_from_the_left_of_the_button():
    assert split_pot(5, [0, 2], button=2, seats=3) == [3, 2]
    assert split_pot(11, [1, 2, 3], button=2, seats=4) == [4, 3, 4]  # order 3, 0, 1, 2
