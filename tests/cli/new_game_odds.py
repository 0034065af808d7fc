#!/usr/bin/env python3
"""docs/new-game.md's odds, counted independently: every face of every die, by hand-written rules
(not the guide's Lua). One rifle shot of a trooper (BS 3+) at a guardsman (T3, Sv 5+): rifle S4,
AP 1, damage D3 (a d6 read 1-2 -> 1, 3-4 -> 2, 5-6 -> 3). An unmodified 1 fails the hit and the
wound; S4 against T3 wounds on 3+; the save is 5 + 1 = 6+. With rerolls, a hit roll of 1 is
rolled once more. Prints "damage=K FRACTION" per outcome.
Usage: new_game_odds.py [--rerolls]
"""
import itertools
import sys
from fractions import Fraction

rerolls = "--rerolls" in sys.argv[1:]
faces = range(1, 7)
odds = {k: Fraction(0) for k in range(4)}
# Five dice at most (hit, re-roll, wound, save, D3); unused dice just multiply out.
for hit, again, wound, save, d3 in itertools.product(faces, repeat=5):
    p = Fraction(1, 6 ** 5)
    roll = again if (rerolls and hit == 1) else hit
    if roll == 1 or roll < 3:
        odds[0] += p
    elif wound == 1 or wound < 3:
        odds[0] += p
    elif save >= 6:
        odds[0] += p
    else:
        odds[(d3 + 1) // 2] += p
assert sum(odds.values()) == 1
for k in range(4):
    print(f"damage={k} {odds[k]}")
