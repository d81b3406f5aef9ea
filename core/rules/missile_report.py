"""Plain-text reports of cover, missiles and their odds: the CLI prints them, the log expands
them."""

from __future__ import annotations

from fractions import Fraction

from core.model.encounter import Encounter
from core.rules.cover import CoverReport
from core.rules.missile import MissileResult, RangeReport
from core.rules.missile_odds import MissileOdds
from core.rules.report import format_attack


def format_cover(encounter: Encounter, report: CoverReport) -> str:
    """The cover figure, its bonus and what casts it, one blocker per line."""
    attacker, target = encounter.token(report.attacker_id), encounter.token(report.target_id)
    lines = [f"{target.name}'s cover from {attacker.name}: {report.describe()}",
             f"  Visible: {report.visible_percent:.1f}% of its footprint (from the centre of "
             f"({report.origin[0] - 0.5:g},{report.origin[1] - 0.5:g}))"]
    lines += [f"  {b.label}: {b.percent:.1f}%" for b in report.blockers]
    if report.concealing:
        cells = ", ".join(f"({c.x},{c.y})" for c in report.concealing)
        lines.append(f"  Undergrowth at {cells}: +{report.concealment}% (concealment)")
    return "\n".join(lines)


def _shot_lines(ranged: RangeReport, cover: CoverReport) -> list[str]:
    lines = [f"  Range: {ranged.describe()}", f"  Cover: {cover.describe()}"]
    if ranged.flight_segments:
        lines.append(f"  Flight: {ranged.flight_segments} segment(s)")
    return lines


def format_missile(result: MissileResult) -> str:
    """Every roll and modifier of a missile, one per line, summary first."""
    attack = result.attack
    lines = [result.summary(), "", *_shot_lines(result.range, result.cover),
             *format_attack(attack).splitlines()[2:]]  # its rolls, without its summary
    if result.friend_hit is not None:
        hit = result.friend_hit
        lines += [f"  Missed by {-result.margin}, within the firing-into-melee bonus "
                  f"{result.cover.friend_bonus}: hits {hit.name}",
                  f"  Roll: {hit.roll.describe()}",
                  f"  {hit.name}'s damage after AV vs missiles: {hit.damage.describe()}"
                  + (f" ({hit.wounds} wound points)" if hit.wounds else "")]
    if result.scatter is not None and result.landing is not None:
        landing = result.landing
        where = (f"({landing.cell.x},{landing.cell.y})" if landing.cell else "off the map")
        lobbed = "lobbed: 4 ft beyond the target, then " if landing.lobbed else ""
        lines += [f"  Roll: {result.scatter.describe()}",
                  f"  Miss: {lobbed}{landing.distance_ft:g} ft towards {landing.clock} "
                  f"o'clock → {where}" + (" (stopped by a wall)" if landing.wall else "")]
    if result.fire_cell is not None:
        lines.append(f"  Burning oil at ({result.fire_cell.x},{result.fire_cell.y})")
    return "\n".join(lines)


def _pct(p: Fraction) -> str:
    return f"{float(p) * 100:.1f}%"


def format_missile_odds(odds: MissileOdds) -> str:
    setup = odds.setup
    lines = [f"{setup.weapon.name}: d20 {setup.bonus.value:+d} vs {setup.defence.value}",
             *_shot_lines(setup.range, setup.cover),
             f"  Hit {_pct(odds.hit)}; miss {_pct(odds.miss)}"
             + (f"; hits {setup.cover.friend_name} {_pct(odds.friend_hit)}"
                if setup.cover.friend_id else ""),
             f"  Misses stopped by a wall: {_pct(odds.against_wall)}; off the map: "
             f"{_pct(odds.off_map)}"]
    if odds.critical or odds.fumble:
        lines.append(f"  Critical hit {_pct(odds.critical)}; fumble {_pct(odds.fumble)}")
    if odds.landing:
        lines.append("  Where a miss lands:")
        for cell, p in sorted(odds.landing.items(), key=lambda item: -item[1])[:12]:
            lines.append(f"    ({cell.x},{cell.y}) {_pct(p)}")
    return "\n".join(lines)
