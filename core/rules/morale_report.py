"""Plain-text and JSON reports of morale: a check as the log shows it, and where each side
stands (``battlemap morale FILE``): scores, chances, the triggers to offer and where the
creatures would run."""

from __future__ import annotations

from typing import Any

from core.model.combatant import Side
from core.model.encounter import Encounter, Token
from core.model.grid import Cell
from core.model.morale import MoraleTrigger
from core.rules.morale import (
    MoraleCheck,
    checkers,
    morale_score,
    pass_chance,
    pending_triggers,
    retreat_budget_ft,
    retreat_plans,
)
from core.spatial.retreat import Retreat


def walk(cells: tuple[Cell, ...]) -> str:
    return " → ".join(f"({c.x},{c.y})" for c in cells)


def format_morale(check: MoraleCheck) -> str:
    """Every roll, score and result of a check, one per line, summary first."""
    lines = [check.summary(), ""]
    if check.triggers:
        lines.append("  Triggers: " + "; ".join(t.describe() for t in check.triggers))
    rolls = list(dict.fromkeys(c.roll.describe() for c in check.creatures))
    lines += [f"  Roll: {roll}" for roll in rolls]
    for creature in check.creatures:
        lines.append(f"  {creature.describe()}")
        lines.append(f"    score: {creature.score.describe()}")
        if len(creature.path) > 1:
            lines.append(f"    runs {creature.cost_ft:g} ft (of {check.budget_ft:g}): "
                         f"{walk(creature.path)}")
        if creature.dropped:
            lines.append(f"    drops: {', '.join(creature.dropped)}")
    return "\n".join(lines)


def standing(encounter: Encounter) -> dict[str, Any]:
    """Each side's creatures that check morale (score, its terms, the chance to hold, where
    it would run), the triggers to offer now and those already answered."""
    sides: dict[str, Any] = {}
    for side in Side:
        members = checkers(encounter, side)
        plans = retreat_plans(encounter, side) if members else {}
        sides[side.value] = [_creature(encounter, token, plans[token.id]) for token in members]
    return {"sides": sides, "retreat_budget_ft": retreat_budget_ft(encounter),
            "pending": [_trigger(t) for t in pending_triggers(encounter)],
            "answered": [_trigger(t) for t in encounter.timeline.morale_answered]}


def _creature(encounter: Encounter, token: Token, plan: Retreat) -> dict[str, Any]:
    score = morale_score(encounter, token)
    return {"token": token.id, "name": token.name, "score": score.value,
            "terms": score.describe(),
            "holds": float(pass_chance(score.value, encounter.profile.morale_dice)),
            "retreat": {"path": [list(c) for c in plan.cells], "cost_ft": plan.cost_ft,
                        "escapes": plan.escapes}}


def _trigger(trigger: MoraleTrigger) -> dict[str, Any]:
    return {"key": trigger.key, "side": trigger.side.value, "what": trigger.describe()}


def format_standing(report: dict[str, Any]) -> str:
    """:func:`standing` as text."""
    lines = []
    for side, creatures in report["sides"].items():
        lines.append(f"{side.capitalize()}:" + ("" if creatures
                                                else " no morale checks (player characters)"))
        lines += [f"  {c['name']}: {c['terms']} — holds {c['holds'] * 100:.0f}%; would run "
                  f"{c['retreat']['cost_ft']:g} ft"
                  + ("" if c["retreat"]["escapes"] else " (cornered)") for c in creatures]
    lines.append("Offer now: " + ("; ".join(f"{t['what']} [{t['key']}]"
                                            for t in report["pending"]) or "nothing"))
    if report["answered"]:
        lines.append("Answered: " + "; ".join(t["what"] for t in report["answered"]))
    return "\n".join(lines)
