"""Plain-text reports of the melee manoeuvres, every roll and modifier one per line, summary
first: the log expands them and the CLI prints them."""

from __future__ import annotations

from core.model.breakdown import Breakdown
from core.model.grid import Cell
from core.rules.charge import ChargeResult
from core.rules.evade import EvadeResult
from core.rules.force_back import ForceBackResult
from core.rules.grapple import GrappleResult
from core.rules.overrun import OverrunResult
from core.rules.report import hazard_lines


def _line(label: str, breakdown: Breakdown) -> str:
    return f"  {label}: {breakdown.describe()}"


def format_grapple(result: GrappleResult) -> str:
    lines = [result.summary(), "", f"  Roll: {result.attack_roll.describe()}",
             f"  Roll: {result.defence_roll.describe()}",
             _line("Attacker (d20 + wrestling FR)", result.attack),
             _line("Defender (d20 + wrestling FR + figure)", result.defence),
             f"  Result: {result.band.value}"]
    throw = result.throw
    if throw is not None:
        lines += [f"  Roll: {throw.throw_roll.describe()}",
                  _line("Throw after armour", throw.throw_damage)]
        if throw.slam_roll is not None and throw.slam_damage is not None:
            lines += [f"  Roll: {throw.slam_roll.describe()}",
                      _line(f"Slam into the {throw.stopped_by} after armour",
                            throw.slam_damage)]
        if throw.hazard is not None:
            lines += hazard_lines(throw.hazard)
        lines += [f"  Roll: {throw.stun.roll.describe()}", f"  {throw.stun.describe()}",
                  f"  Lands at ({throw.final_cell.x},{throw.final_cell.y}); damage taken: "
                  f"{throw.total_damage}"]
    if result.lock_roll is not None:
        lines.append(f"  Roll: {result.lock_roll.describe()}")
    return "\n".join(lines)


def _cells(path: tuple[Cell, ...]) -> str:
    return " → ".join(f"({c.x},{c.y})" for c in path)


def format_force_back(result: ForceBackResult) -> str:
    lines = [result.summary(), "", f"  Roll: {result.roll.describe()}",
             _line("Attack (d20 + HR)", result.attack),
             _line("Target (10 + defender HR)", result.target),
             f"  Margin: {result.margin:+d}"]
    if result.ac_penalty is not None:
        lines.append(f"  {result.failure_level}: AC {result.ac_penalty.value:+d} until "
                     f"{result.attacker}'s next action (round {result.ac_penalty.until_round})")
        return "\n".join(lines)
    lines += [f"  {result.distance_ft} ft {result.direction}; path: {_cells(result.path)}",
              f"  Stopped: {result.stop_reason.value}"
              + (f" ({result.stopped_by})" if result.stopped_by not in ("",
                                                                    result.stop_reason.value)
                 else "") + ("; no slam" if result.stopped_by else "")]
    if result.hazard is not None:
        lines += hazard_lines(result.hazard)
    if result.attacker_cell is not None:
        lines.append(f"  {result.attacker} follows: {_cells(result.attacker_path)}")
    return "\n".join(lines)


def format_charge(result: ChargeResult) -> str:
    lines = [result.summary(), "", f"  Straight run: {result.run_ft:g} ft",
             f"  Roll: {result.hit_roll.describe()}",
             _line("To hit (d20 + FR + speed)", result.to_hit),
             _line("Target AC", result.target_ac)]
    for roll in (result.charger_roll, result.resister_roll):
        if roll is not None:
            lines.append(f"  Roll: {roll.describe()}")
    if result.charger is not None and result.resister is not None:
        difference = result.charger.value - result.resister.value
        lines += [_line(f"{result.attacker} (d20 + FR + CON + size + speed)", result.charger),
                  _line(f"{result.defender} (d20 + FR + CON + size)", result.resister),
                  f"  Difference: {difference:+d}"]
        if result.stun is not None:
            lines.append(f"  Equal: both {result.stun.describe()}" if not difference else
                         f"  Stun table ({result.stun.level}, no KO): "
                         f"{result.stun.describe()}")
    return "\n".join(lines)


def format_overrun(result: OverrunResult) -> str:
    if result.swarmed:
        return "\n".join([result.summary(), "", f"  {result.mover}'s path: "
                          f"{_cells(result.path)} ({result.moved_ft:g} ft); no roll"])
    return "\n".join([
        result.summary(), "", f"  Straight run: {result.run_ft:g} ft",
        f"  Roll: {result.roll.describe()}",
        _line(f"{result.defender} stays standing (d20 + STR + FR)", result.stand),
        _line("Momentum", result.target),
        f"  {result.mover}'s path: {_cells(result.path)} ({result.moved_ft:g} ft)"])


def format_evade(result: EvadeResult) -> str:
    lines = [result.summary(), "", f"  Path asked for: {_cells(result.planned)}"]
    for rolled in result.rolls:
        check = rolled.check
        lines += [f"  Roll: {rolled.roll.describe()}",
                  _line(f"Evade {check.enemy} leaving ({check.cell.x},{check.cell.y}), "
                        f"target {check.target}", rolled.total)
                  + (" — evaded" if rolled.passed else " — fails")]
    if result.hit is not None:
        if result.hit.damage_roll is not None:
            lines += [f"  Roll: {result.hit.damage_roll.describe()}",
                      _line("Damage", result.hit.raw)]
        lines.append(_line(f"{result.hit.enemy}'s automatic hit ({result.hit.weapon}) "
                           "after armour", result.hit.damage))
    lines.append(f"  Walked: {_cells(result.path)} ({result.moved_ft:g} ft)")
    return "\n".join(lines)
