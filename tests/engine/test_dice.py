import pytest

from rules.engine.dice import (
    DiceError,
    DieKind,
    ScriptedDice,
    SeededDice,
    parse_dice_list,
    seed_commitment,
)


def test_same_seed_same_sequence():
    a, b = SeededDice(seed=7), SeededDice(seed=7)
    assert a.roll(DieKind.D6, 50) == b.roll(DieKind.D6, 50)


def test_seeded_sequence_is_fixed_across_versions():
    # The generator is documented (SHA-256 counter mode), so this exact sequence is a contract.
    assert SeededDice(seed=42).roll(DieKind.D6, 10) == (1, 2, 4, 5, 4, 3, 4, 1, 4, 6)


@pytest.mark.parametrize("kind", list(DieKind))
def test_seeded_faces_are_legal(kind):
    from rules.engine.dice import FACES

    values = SeededDice(seed=1).roll(kind, 300)
    assert set(values) <= set(FACES[kind])
    assert set(values) == set(FACES[kind])


def test_commitment_is_sha256_of_seed_text():
    import hashlib

    assert seed_commitment(12345) == hashlib.sha256(b"12345").hexdigest()
    assert SeededDice(seed=12345).commitment == seed_commitment(12345)


def test_rolls_are_logged_with_purpose_and_source():
    dice = ScriptedDice(values=[3, 6, 5])
    dice.roll(DieKind.D6, 3, purpose="roll-off Blood Angels", subject="p1")
    (roll,) = dice.log
    assert roll.values == (3, 6, 5)
    assert roll.source == "scripted"
    assert roll.as_dict()["purpose"] == "roll-off Blood Angels"


def test_scripted_too_few_dice_names_the_missing_die():
    dice = ScriptedDice(values=[4])
    dice.d6("initiative")
    with pytest.raises(DiceError, match="die 2 for initiative"):
        dice.d6("initiative")


@pytest.mark.parametrize("kind,bad", [(DieKind.D6, 7), (DieKind.D6, 0), (DieKind.RED, 4)])
def test_scripted_value_out_of_range(kind, bad):
    with pytest.raises(DiceError, match="cannot show"):
        ScriptedDice(values=[bad]).roll(kind)


def test_parse_dice_list():
    assert parse_dice_list("3, 6,5") == [3, 6, 5]
    with pytest.raises(DiceError, match="not a whole number"):
        parse_dice_list("3,x")
