"""The core actions as ``battlemap resolve NAME`` subcommands: each entry says how its
arguments become a :class:`core.actions.base.Action`. No rules here, and no Qt."""

from __future__ import annotations

import argparse
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from core.actions.attack import AttackAction
from core.actions.charge import ChargeAction
from core.actions.critical import CriticalEventAction
from core.actions.declare import DeclareAction
from core.actions.dice import DiceRollAction
from core.actions.evade import EvadeAction
from core.actions.force_back import ForceBackAction
from core.actions.grapple import GrappleAction
from core.actions.group_overrun import GroupOverrunAction
from core.actions.initiative import InitiativeAction, JoinRoundAction, NextRoundAction
from core.actions.missile import MissileAction
from core.actions.morale import MoraleAction, PassMoraleAction
from core.actions.move import MoveAction
from core.actions.overrun import OverrunAction
from core.actions.popup import PopUpAction, WaitAction
from core.actions.recover import RecoverAction
from core.actions.shove import ShoveAction
from core.actions.sleep import WakeAction
from core.actions.spoiling import ConcentrateAction, PerceptionAction
from core.actions.surprise import SurpriseAction
from core.model.combatant import Side
from core.model.grid import Cell, Direction
from core.model.injury import HeroUse
from core.model.morale import MoraleTrigger
from core.model.weapons import DamageType, Grip
from core.rules.attack import AttackOptions, DamageKind
from core.rules.missile import MissileRequest
from core.rules.morale import MoraleRequest
from core.rules.popup import PopUpRequest
from core.rules.shove import ShoveRequest
from desktop.cli import melee

if TYPE_CHECKING:
    from collections.abc import Callable

    from core.actions.base import Action

Parser = argparse.ArgumentParser


@dataclass(frozen=True)
class CliAction:
    """One ``resolve`` subcommand: its help, its arguments, and the action they make."""

    kind: type[Action[Any]]
    help: str
    add_arguments: Callable[[Parser], None]
    build: Callable[[argparse.Namespace], Action[Any]]


def add_pair(parser: Parser) -> None:
    parser.add_argument("--attacker", required=True, help="attacker's name or token id")
    parser.add_argument("--target", required=True, help="target's name or token id")


def add_shove(parser: Parser) -> None:
    add_pair(parser)
    parser.add_argument("--direction", type=str.upper, choices=[d.value for d in Direction],
                        help="push direction (default: straight away from the attacker)")
    parser.add_argument("--modifier", type=int, default=0, help="situational modifier to FR")


def shove_request(args: argparse.Namespace) -> ShoveRequest:
    return ShoveRequest(attacker=args.attacker, defender=args.target,
                        direction=Direction(args.direction) if args.direction else None,
                        modifier=args.modifier)


def _add_attack(parser: Parser) -> None:
    add_pair(parser)
    parser.add_argument("--weapon", help="a melee weapon of the encounter's table (its dice, "
                                         "STR and damage type; instead of --damage)")
    parser.add_argument("--damage", default="d6", help="weapon damage dice (default d6)")
    parser.add_argument("--damage-type", choices=[t.value for t in DamageType],
                        help="the typed damage's type (a bludgeon's head hit may stun)")
    parser.add_argument("--grip", choices=[g.value for g in Grip],
                        help="how the weapon is held (default: its usual grip)")
    parser.add_argument("--modifier", type=int, default=0, help="situational modifier to hit")
    parser.add_argument("--damage-bonus", type=int, default=0, help="added to the damage roll")
    parser.add_argument("--magic", action="store_true", help="magic damage: ignores AV")
    parser.add_argument("--free", action="store_true",
                        help="a free attack a rule grants (surprise, a failed evade): not "
                             "the attacker's action this round")
    parser.add_argument("--surprise", action="store_true",
                        help="the attacker's next surprise free attack on the target, as "
                             "the surprise check scheduled it (002 Surprise: +2 to hit, +1 "
                             "damage per failure level left; free)")
    add_injury(parser)


def add_injury(parser: Parser) -> None:
    """The injury options an attack or a missile may declare."""
    parser.add_argument("--aim", metavar="LOCATION",
                        help="aim at a hit location, e.g. Head (needs hit_location on)")
    parser.add_argument("--hero", choices=[h.value for h in HeroUse],
                        help="spend a hero point (needs hero_points on)")


def _attack(args: argparse.Namespace) -> Action[Any]:
    kind = DamageKind(magic=args.magic,
                      damage_type=DamageType(args.damage_type) if args.damage_type else None)
    options = AttackOptions(weapon=args.weapon, damage=args.damage, modifier=args.modifier,
                            damage_bonus=args.damage_bonus, kind=kind, aim=args.aim,
                            hero=HeroUse(args.hero) if args.hero else None,
                            grip=Grip(args.grip) if args.grip else None, free=args.free,
                            surprise=args.surprise)
    return AttackAction(args.attacker, args.target, options)


def add_missile(parser: Parser) -> None:
    add_pair(parser)
    parser.add_argument("--weapon", help="a missile weapon of the encounter's table (default: "
                                         "the attacker's first)")
    parser.add_argument("--cover", type=int, metavar="PERCENT",
                        help="the GM's cover figure instead of the map's (0-100)")
    parser.add_argument("--modifier", type=int, default=0, help="situational modifier to hit")
    add_injury(parser)
    parser.add_argument("--pop-up", type=melee.cell, metavar="X,Y",
                        help="pop up from cover at this cell (where the shooter stands or "
                             "one step away), spot (d20 >= 9, rolled first) and shoot from there")


def missile_request(args: argparse.Namespace) -> MissileRequest:
    return MissileRequest(attacker=args.attacker, target=args.target, weapon=args.weapon,
                          cover_override=args.cover, modifier=args.modifier, aim=args.aim,
                          hero=HeroUse(args.hero) if args.hero else None)


def _missile(args: argparse.Namespace) -> Action[Any]:
    request = missile_request(args)
    if args.pop_up is not None:
        return PopUpAction(PopUpRequest(shot=request, spot=args.pop_up))
    return MissileAction(request)


def _add_wait(parser: Parser) -> None:
    parser.add_argument("--token", required=True, help="the waiting creature's name or id")
    parser.add_argument("--spot", type=melee.cell, required=True, metavar="X,Y",
                        help="the cell where it waits for a foe to pop up")


def _add_declare(parser: Parser) -> None:
    parser.add_argument("--token", required=True, help="the creature's name or token id")
    what = parser.add_mutually_exclusive_group()
    what.add_argument("--attacks", type=int, default=1, metavar="N",
                      help="attacks this round (002 Multiple Attacks: -3 to each and to its "
                           "defence per extra attack; default 1)")
    what.add_argument("--defend", action="store_true",
                      help="stand to defend: no attack, +2 defence against melee (002 Not "
                           "attacking)")


def _add_watch(parser: Parser) -> None:
    parser.add_argument("--token", required=True, help="the watching creature's name or id")
    parser.add_argument("--target", required=True,
                        help="the creature whose long action (spell, prayer) it watches")


def _add_critical(parser: Parser) -> None:
    parser.add_argument("--party", required=True, help="the party character's name or id")
    parser.add_argument("--foe", required=True, help="the opposition creature's name or id")
    parser.add_argument("--decline", action="store_true",
                        help="roll and log the event, but do not apply its effect")


def _add_initiative(parser: Parser) -> None:
    parser.add_argument("--decline", type=int, action="append", default=[], metavar="N",
                        help="roll and log the N-th critical event (1 = the first), but do "
                             "not apply its effect; repeat for more")


def _add_recover(parser: Parser) -> None:
    parser.add_argument("--token", required=True, help="the creature's name or token id")
    parser.add_argument("--item", help="the weapon (or shield) to take back (default: the "
                                       "first out of hand)")


def _add_surprise(parser: Parser) -> None:
    parser.add_argument("--alertness", default="Expecting something",
                        help="the party's state of alert (002: Expecting something, Guard "
                             "duty, Normal travel, Totally unexpected)")
    parser.add_argument("--stealth", type=int, default=0, help="the ambushers' stealth bonus")
    parser.add_argument("--moved", type=float, default=0, metavar="FT",
                        help="feet the ambushers move to strike (each 5 ft delays the first "
                             "free attack a segment)")
    parser.add_argument("--ambusher", type=_ambusher, action="append", default=[],
                        metavar="SURPRISED=AMBUSHER",
                        help="who makes a surprised character's free attacks (default: the "
                             "nearest opposition creature); repeat for each")


def _ambusher(text: str) -> tuple[str, str]:
    surprised, _, ambusher = text.partition("=")
    if not surprised.strip() or not ambusher.strip():
        raise argparse.ArgumentTypeError(f"--ambusher wants SURPRISED=AMBUSHER, got {text!r}")
    return surprised.strip(), ambusher.strip()


def _move_pair(text: str) -> tuple[str, Cell]:
    name, _, where = text.rpartition("=")
    try:
        x, y = (int(part) for part in where.split(","))
    except ValueError:
        raise argparse.ArgumentTypeError(f"--move wants NAME=X,Y, got {text!r}") from None
    if not name:
        raise argparse.ArgumentTypeError(f"--move wants NAME=X,Y, got {text!r}")
    return name, Cell(x, y)


def _add_move(parser: Parser) -> None:
    parser.add_argument("--move", type=_move_pair, action="append", required=True,
                        metavar="NAME=X,Y", help="a token and its new top-left cell; repeat "
                                                 "for a group that moves at once")
    parser.add_argument("--free", action="store_true",
                        help="GM placement: anywhere free, no path needed")
    parser.add_argument("--budget", type=float, default=None, metavar="FT",
                        help="movement budget in feet")


def _add_dice(parser: Parser) -> None:
    parser.add_argument("expression", help="dice to roll, e.g. 2d6+3")
    parser.add_argument("--purpose", default="", help="what the roll is for (in the log)")


def _trigger(key: str) -> MoraleTrigger:
    try:
        return MoraleTrigger.from_key(key)
    except ValueError as error:
        raise argparse.ArgumentTypeError(str(error)) from None


def _add_morale(parser: Parser) -> None:
    parser.add_argument("--side", choices=[s.value for s in Side], default="opposition",
                        help="the side that checks (default: opposition)")
    parser.add_argument("--trigger", type=_trigger, action="append", metavar="KEY",
                        help="a trigger the check answers, as 'battlemap morale FILE' lists "
                             "it; repeat for more (default: every one pending for the side)")
    parser.add_argument("--pass", dest="pass_over", action="store_true",
                        help="no check: pass the triggers over (they are not offered again)")


def _morale(args: argparse.Namespace) -> Action[Any]:
    side, triggers = Side(args.side), tuple(args.trigger) if args.trigger else None
    if args.pass_over:
        return PassMoraleAction(side, triggers)
    return MoraleAction(MoraleRequest(side=side, triggers=triggers))


RESOLVE: dict[str, CliAction] = {
    "shove": CliAction(ShoveAction, "resolve a shove", add_shove,
                       lambda args: ShoveAction(shove_request(args))),
    "attack": CliAction(AttackAction, "resolve a melee attack", _add_attack, _attack),
    "missile": CliAction(MissileAction, "throw or fire a missile (range, cover, scatter; "
                         "--pop-up: a pop-up shot from cover)", add_missile, _missile),
    "wait": CliAction(WaitAction, "wait this round for a foe to pop up at a spot",
                      _add_wait, lambda args: WaitAction(args.token, args.spot)),
    "initiative": CliAction(InitiativeAction, "roll the round's initiative and critical events",
                            _add_initiative,
                            lambda args: InitiativeAction(frozenset(args.decline))),
    "join-round": CliAction(JoinRoundAction, "roll initiative for creatures added after the "
                            "round's roll", lambda parser: None, lambda args: JoinRoundAction()),
    "next-round": CliAction(NextRoundAction, "end the round: locks hurt, timers tick, stun "
                            "conditions step down, the risen stand", lambda parser: None,
                            lambda args: NextRoundAction()),
    "declare": CliAction(DeclareAction, "declare multiple attacks or standing to defend for "
                         "this round", _add_declare,
                         lambda args: DeclareAction(args.token, args.attacks, args.defend)),
    "critical": CliAction(CriticalEventAction, "roll a critical event for a tied pair",
                          _add_critical, lambda args: CriticalEventAction(
                              args.party, args.foe, args.decline)),
    "recover": CliAction(RecoverAction, "take back a weapon or shield a critical event took "
                         "out of hand (the creature's action)", _add_recover,
                         lambda args: RecoverAction(args.token, args.item)),
    "surprise": CliAction(SurpriseAction, "roll the party's Spot saves against an ambush and "
                          "schedule the free attacks on the round",
                          _add_surprise,
                          lambda args: SurpriseAction(args.alertness, args.stealth,
                                                      args.moved, tuple(args.ambusher))),
    "concentrate": CliAction(ConcentrateAction, "concentrate on a creature, waiting for it "
                             "to start something: a hit during its long action spoils it",
                             _add_watch,
                             lambda args: ConcentrateAction(args.token, args.target)),
    "perceive": CliAction(PerceptionAction, "a perception roll to notice a creature's long "
                          "action, a point easier each segment it has lasted", _add_watch,
                          lambda args: PerceptionAction(args.token, args.target)),
    "dice": CliAction(DiceRollAction, "roll any dice expression and log it", _add_dice,
                      lambda args: DiceRollAction(args.expression, args.purpose)),
    "move": CliAction(MoveAction, "move tokens along legal paths (or place them: --free)",
                      _add_move, lambda args: MoveAction(dict(args.move), args.free,
                                                         args.budget)),
    "force-back": CliAction(ForceBackAction, "force a foe back (d20 + HR vs 10 + its HR)",
                            melee.add_force_back, melee.force_back),
    "charge": CliAction(ChargeAction, "charge into a foe after a run to knock it down",
                        melee.add_charge, melee.charge),
    "overrun": CliAction(OverrunAction, "run through a foe (it may stay standing)",
                         melee.add_overrun, melee.overrun),
    "group-overrun": CliAction(GroupOverrunAction, "run through a foe together: the mass of "
                               "half the group counts; a knee-high pack swarms past a braced "
                               "foe", melee.add_group_overrun, melee.group_overrun),
    "evade": CliAction(EvadeAction, "move one token past its enemies, a check for each",
                       melee.add_evade, melee.evade),
    "grapple": CliAction(GrappleAction, "grapple: hold, throw, takedown, lock, improve a "
                         "lock, escape", melee.add_grapple, melee.grapple),
    "morale": CliAction(MoraleAction, "a side's morale check (2d10 ≤ score); the broken run, "
                        "drop their weapons, surrender or go berserk", _add_morale, _morale),
    "wake": CliAction(WakeAction, "wake a sleeping creature: its waking, rising and defending "
                      "rounds", lambda parser: parser.add_argument(
                          "--target", required=True, help="the sleeper's name or token id"),
                      lambda args: WakeAction(args.target)),
}
