"""Plain-text reports of resolutions and odds: the CLI prints them, the log expands them."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from core.model.breakdown import Breakdown
from core.model.encounter import Encounter
from core.rules.attack import AttackResult
from core.rules.odds import ShoveOdds
from core.rules.shove import HazardOutcome, ShoveResult, SuccessLevel


def _line(label: str, breakdown: Breakdown) -> str:
    return f"  {label}: {breakdown.describe()}"


def format_shove(result: ShoveResult) -> str:
    """Every roll and modifier of a shove, one per line, summary first."""
    lines = [result.summary(), "", f"  Roll: {result.attack_roll.describe()}",
             _line("Attack (d20 + FR)", result.attack), _line("Target FD", result.target_fd),
             f"  Margin: {result.margin:+d} → {result.level.value}"
             + (" (Forceful Defense: defender's FR exceeds attacker's, capped at a standard "
                "success)" if result.forceful_defense else "")]
    if result.level is SuccessLevel.FAIL:
        return "\n".join(lines)
    steps = ", ".join(f"{t.name} +{t.value}" for t in result.die_steps) or "no steps"
    lines.append(f"  Shove die: {result.shove_die} ({steps})")
    if result.shove_roll:
        lines.append(f"  Roll: {result.shove_roll.describe()}")
    lines += [_line("Distance (ft)", result.distance),
              f"  Direction: {result.direction}; path: "
              + " → ".join(f"({c.x},{c.y})" for c in result.path),
              f"  Stopped: {result.stop_reason.value}"
              + (f" ({result.stopped_by})"
                 if result.stopped_by and result.stopped_by != result.stop_reason.value else "")
              + (f", {result.unused_ft:g} ft unused" if result.unused_ft else "")]
    for roll in result.slam_rolls:
        lines.append(f"  Slam: {roll.describe()}")
    for damage in result.slam_damage:
        lines.append(f"  Slam after AV {result.defender_av}: {damage.describe()}")
    if result.hazard:
        lines += hazard_lines(result.hazard)
    if result.prone:
        lines.append("  Prone (Double Success)")
    lines.append(f"  Final cell: ({result.final_cell.x},{result.final_cell.y}); "
                 f"damage taken: {result.total_damage}")
    return "\n".join(lines)


def hazard_lines(hazard: HazardOutcome) -> list[str]:
    """The Pit-Stop save and, when it failed, the hazard's rolls and damage."""
    lines = [f"  Pit-Stop save vs Death Ray {hazard.pit_stop_target}: "
             f"{hazard.pit_stop.describe()} → "
             + ("catches the edge" if hazard.saved else f"falls into {hazard.name}")]
    lines += [f"  {roll.describe()}" for roll in
              (hazard.damage_roll, hazard.own_save_roll, hazard.fall_roll) if roll]
    if not hazard.saved:
        lines.append(_line("Hazard damage", hazard.damage))
    return lines


def _pct(p: Fraction) -> str:
    return f"{float(p) * 100:.1f}%"


def format_odds(odds: ShoveOdds) -> str:
    lines = [f"{odds.attacker} shoves {odds.defender} {odds.direction}: d20 "
             f"{odds.attack_bonus:+d} vs FD {odds.target_fd}; Shove Resist {odds.shove_resist}; "
             f"Death Ray save {odds.death_ray_save}",
             "  " + ", ".join(f"{level.value} {_pct(p)}" for level, p in odds.levels.items())]
    if odds.forceful_defense_caps:
        lines.append(f"  Forceful Defense caps a double: {_pct(odds.forceful_defense_caps)}")
    lines.append(f"  Slam into a wall: {_pct(odds.slam)}; Prone: {_pct(odds.prone)}; "
                 f"expected damage {float(odds.expected_damage):.2f}")
    lines += [f"  Approximate: {note}" for note in odds.approximations]
    for name, p in odds.hazards_entered.items():
        lines.append(f"  Into {name}: {_pct(p)}")
    lines.append("  Landing cells:")
    for cell, p in sorted(odds.landing.items(), key=lambda item: -item[1]):
        lines.append(f"    ({cell.x},{cell.y}) {_pct(p)}")
    return "\n".join(lines)


def format_attack(result: AttackResult) -> str:
    """Every roll and modifier of an attack, one per line, summary first; with the injury
    options the location, the critical or fumble, the hero point, the wound points and a
    head hit's stun check (its failure level, conditions and their durations)."""
    lines = [result.summary(), "", f"  Roll: {result.roll.describe()}",
             _line("To hit (d20 + HR)", result.to_hit),
             _line(f"Target {result.against}", result.target_ac)]
    if result.hero is not None:
        lines.append(f"  Hero point spent: {result.hero.label}")
    if result.critical:
        lines.append("  Critical roll: maximum damage")
    if result.location is not None:
        where = result.location
        lines.append(f"  Roll: {where.roll.describe()}" if where.roll else
                     f"  Aimed at the {where.name.lower()}")
        lines.append(f"  Hit location: {where.name}"
                     + (" (critical location)" if where.critical else ""))
    if result.damage_roll is not None:
        lines.append(f"  Roll: {result.damage_roll.describe()}")
    if result.raw_damage is not None and result.damage is not None:
        lines += [_line("Damage", result.raw_damage),
                  _line("Damage after armour", result.damage)]
    if result.wounds:
        lines.append(f"  Wound points: {result.wounds}; off HP: "
                     f"{result.stamina_taken}")
    if result.stun is not None:
        lines += [f"  Roll: {result.stun.roll.describe()}", f"  {result.stun.describe()}"]
    if result.fumble is not None:
        lines += [f"  Roll: {roll.describe()}" for roll in
                  (result.fumble.roll, *(result.fumble.event.rolls if result.fumble.event
                                         else ()))]
        lines.append(f"  {result.fumble.describe()}")
    return "\n".join(lines)


def injury_totals(result: AttackResult) -> dict[str, Any]:
    """The injury options' headline figures for ``--json``."""
    stun = result.stun
    fumble = result.fumble
    return {
        "critical": result.critical, "hero_point": result.hero.value if result.hero else None,
        "location": result.location.name if result.location else None,
        "wounds": result.wounds, "stamina_damage": result.stamina_taken,
        "stun": None if stun is None else {
            "total": stun.total.value, "target": stun.target.value, "level": stun.level,
            "conditions": [c.value for c, _ in stun.effect.rounds],
            "rounds": [n for _, n in stun.effect.rounds]},
        "fumble": None if fumble is None else {
            "save": fumble.roll.total, "level": fumble.level, "saved": fumble.saved,
            "event": fumble.event.event.number if fumble.event else None},
    }


def log_markdown(encounter: Encounter) -> str:
    """The combat log as Markdown: one section per entry, its rolls as a code block."""
    lines = [f"# Combat log — {encounter.name}", ""]
    for number, entry in enumerate(encounter.log, 1):
        round_text = f" (round {entry.round})" if entry.round is not None else ""
        lines += [f"## {number}. {entry.summary}{round_text}", ""]
        if entry.text:
            lines += ["```", entry.text, "```", ""]
    if not encounter.log:
        lines.append("Nothing has been resolved yet.")
    return "\n".join(lines) + "\n"
