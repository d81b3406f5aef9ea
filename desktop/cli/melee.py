"""The arguments of the melee manoeuvres on the command line (``battlemap resolve
force-back|charge|overrun|group-overrun|evade|grapple``) and the actions they make; the
entries are in :data:`desktop.cli.actions.RESOLVE`. No rules here, and no Qt."""

from __future__ import annotations

import argparse

from core.actions.charge import ChargeAction
from core.actions.evade import EvadeAction
from core.actions.force_back import ForceBackAction
from core.actions.grapple import GrappleAction
from core.actions.group_overrun import GroupOverrunAction
from core.actions.overrun import OverrunAction
from core.model.grid import Cell, Direction
from core.rules.charge import ChargeRequest
from core.rules.evade import EvadeRequest
from core.rules.force_back import ForceBackRequest
from core.rules.grapple import GrappleAttempt, GrappleRequest
from core.rules.group_overrun import GroupOverrunRequest
from core.rules.overrun import OverrunRequest

Parser = argparse.ArgumentParser
DIRECTIONS = [d.value for d in Direction]


def cell(text: str) -> Cell:
    """An ``X,Y`` argument."""
    try:
        x, y = (int(part) for part in text.split(","))
    except ValueError:
        raise argparse.ArgumentTypeError(f"wants X,Y (a cell), got {text!r}") from None
    return Cell(x, y)


def _pair(parser: Parser, who: str = "--attacker") -> None:
    parser.add_argument(who, required=True, help=f"{who[2:]}'s name or token id")
    parser.add_argument("--target", required=True, help="target's name or token id")


def _direction(parser: Parser, name: str, help_text: str) -> None:
    parser.add_argument(name, type=str.upper, choices=DIRECTIONS, help=help_text)


def add_force_back(parser: Parser) -> None:
    _pair(parser)
    _direction(parser, "--direction", "the way back (default: straight away from the attacker)")
    parser.add_argument("--follow", action="store_true",
                        help="the attacker steps into the space left")
    parser.add_argument("--modifier", type=int, default=0, help="situational modifier")


def force_back(args: argparse.Namespace) -> ForceBackAction:
    return ForceBackAction(ForceBackRequest(
        attacker=args.attacker, defender=args.target, follow=args.follow,
        direction=Direction(args.direction) if args.direction else None,
        modifier=args.modifier))


def add_charge(parser: Parser) -> None:
    _pair(parser)
    parser.add_argument("--run", type=float, default=None, metavar="FT",
                        help="the straight run before contact (default: the movement recorded "
                             "this round)")
    parser.add_argument("--modifier", type=int, default=0, help="situational modifier to hit")


def charge(args: argparse.Namespace) -> ChargeAction:
    return ChargeAction(ChargeRequest(attacker=args.attacker, defender=args.target,
                                      run_ft=args.run, modifier=args.modifier))


def add_overrun(parser: Parser) -> None:
    _pair(parser, "--mover")
    parser.add_argument("--approach", type=cell, metavar="X,Y",
                        help="move there first (a legal path) to come into contact")
    _direction(parser, "--direction", "the way through (default: straight through)")


def overrun(args: argparse.Namespace) -> OverrunAction:
    return OverrunAction(OverrunRequest(
        mover=args.mover, defender=args.target, approach=args.approach,
        direction=Direction(args.direction) if args.direction else None))


def add_group_overrun(parser: Parser) -> None:
    parser.add_argument("--mover", action="append", required=True,
                        help="a mover's name or token id; repeat for each of the group (two "
                             "or more: each engaged with the target or lined up behind "
                             "another mover)")
    parser.add_argument("--target", required=True, help="target's name or token id")
    _direction(parser, "--direction", "the way through (default: each straight through)")


def group_overrun(args: argparse.Namespace) -> GroupOverrunAction:
    return GroupOverrunAction(GroupOverrunRequest(
        movers=tuple(args.mover), defender=args.target,
        direction=Direction(args.direction) if args.direction else None))


def add_evade(parser: Parser) -> None:
    parser.add_argument("--mover", required=True, help="the moving token's name or id")
    parser.add_argument("--to", type=cell, required=True, metavar="X,Y",
                        help="its new top-left cell")
    parser.add_argument("--budget", type=float, default=None, metavar="FT",
                        help="movement budget in feet")


def evade(args: argparse.Namespace) -> EvadeAction:
    return EvadeAction(EvadeRequest(mover=args.mover, goal=args.to, budget_ft=args.budget))


def add_grapple(parser: Parser) -> None:
    _pair(parser)
    parser.add_argument("--attempt", choices=[a.value for a in GrappleAttempt],
                        default=GrappleAttempt.HOLD.value, help="the attack type (002)")
    _direction(parser, "--throw-direction", "where a throw sends the target (a direction "
                                            "from it)")
    parser.add_argument("--holder-changing", action="store_true",
                        help="escape: the holder is changing its hold (figure +2, not +4)")
    parser.add_argument("--modifier", type=int, default=0, help="situational modifier")


def grapple(args: argparse.Namespace) -> GrappleAction:
    return GrappleAction(GrappleRequest(
        attacker=args.attacker, defender=args.target, attempt=GrappleAttempt(args.attempt),
        throw_direction=Direction(args.throw_direction) if args.throw_direction else None,
        holder_changing=args.holder_changing, modifier=args.modifier))
