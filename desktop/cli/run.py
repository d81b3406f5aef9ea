"""The headless subcommands of ``battlemap`` (resolve, odds, cover, morale, import): their
arguments and what they run. Imported only when one of them is named, so ``battlemap
--help`` and ``--version`` never load the rules engine."""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import TYPE_CHECKING, Any

from pydantic import RootModel

from core.actions.base import Outcome, plan
from core.actions.fog import record_party_view
from core.actions.history import History
from core.io.fileio import EncounterFileError, load_encounter
from core.io.uvtt import UvttImportError, import_uvtt_file
from core.model.dice import DiceExhaustedError, DiceSource, ScriptedDice, SeededDice
from core.rules.cover import cover_on_map
from core.rules.missile_odds import missile_odds
from core.rules.missile_report import format_cover, format_missile_odds
from core.rules.morale_report import format_standing, standing
from core.rules.odds import shove_odds
from core.rules.popup import PopUpRequest, pop_up_odds
from core.rules.report import format_odds
from desktop.cli.actions import (
    RESOLVE,
    CliAction,
    add_missile,
    add_shove,
    missile_request,
    shove_request,
)
from desktop.cli.errors import CliError

if TYPE_CHECKING:
    from core.model.encounter import Encounter


def save(encounter: Encounter, path: Path) -> None:
    """Write the encounter; every failure is one line (a :class:`CliError`)."""
    from core.io.fileio import EncounterSaveError, save_encounter

    try:
        save_encounter(encounter, path)
    except EncounterSaveError as error:
        raise CliError(f"not saved to {path}: {error}") from None
    except OSError as error:
        raise CliError(f"cannot write {path}: {error.strerror or error}") from None


def _dice_list(text: str) -> list[int]:
    try:
        return [int(part) for part in text.replace(" ", "").split(",") if part]
    except ValueError:
        raise argparse.ArgumentTypeError(f"--dice wants whole numbers separated by commas, "
                                         f"got {text!r}") from None


def _resolve_parser(sub: argparse._SubParsersAction[argparse.ArgumentParser], name: str,
                    entry: CliAction) -> None:
    parser = sub.add_parser(name, help=entry.help, description=(
        f"{entry.help.capitalize()}. Dice are consumed in this order: "
        f"{entry.kind.dice_order}."))
    parser.add_argument("file", type=Path, help="encounter file (.json)")
    entry.add_arguments(parser)
    dice = parser.add_mutually_exclusive_group()
    dice.add_argument("--dice", type=_dice_list, metavar="N,N,...",
                      help="the die values you rolled, in the order above (spare values "
                           "are reported, not used)")
    dice.add_argument("--seed", type=int, help="seed for rolled dice (default 1)")
    parser.add_argument("--json", action="store_true", help="print JSON instead of text")
    parser.add_argument("--apply", action="store_true",
                        help="apply the result and write the encounter to --out")
    parser.add_argument("--out", type=Path, help="where --apply writes the encounter")


def add_resolve(parser: argparse.ArgumentParser) -> None:
    """``battlemap resolve ACTION``: one subcommand per action."""
    actions = parser.add_subparsers(dest="action", required=True)
    for name, entry in RESOLVE.items():
        _resolve_parser(actions, name, entry)


def add_odds(parser: argparse.ArgumentParser) -> None:
    """``battlemap odds shove|missile``."""
    odds_sub = parser.add_subparsers(dest="action", required=True)
    odds_shove = odds_sub.add_parser("shove", help="odds of a shove")
    odds_shove.add_argument("file", type=Path, help="encounter file (.json)")
    add_shove(odds_shove)
    odds_shove.add_argument("--json", action="store_true", help="print JSON instead of text")
    odds_missile = odds_sub.add_parser("missile", help="odds of a missile: hit, friend hit, "
                                                       "where a miss lands")
    odds_missile.add_argument("file", type=Path, help="encounter file (.json)")
    add_missile(odds_missile)
    odds_missile.add_argument("--json", action="store_true", help="print JSON instead of text")


def _load(path: Path) -> Encounter:
    try:
        return load_encounter(path)
    except EncounterFileError as error:
        raise CliError(str(error)) from None


def run_resolve(args: argparse.Namespace) -> str:
    """Resolve the action on the file's encounter; with --apply, write the result."""
    if args.apply and args.out is None:
        raise CliError("--apply needs --out FILE (the encounter after the action)")
    encounter = _load(args.file)
    dice: DiceSource = (ScriptedDice(args.dice) if args.dice is not None
                        else SeededDice(1 if args.seed is None else args.seed))
    action = RESOLVE[args.action].build(args)
    try:
        outcome = plan(action, encounter, dice)
    except DiceExhaustedError as error:
        raise CliError(f"--dice ran out: {error}") from None
    spare = dice.remaining if isinstance(dice, ScriptedDice) else ()
    if args.apply:
        history = History(encounter)
        history.push(outcome.command)
        record_party_view(history)  # as the window does: what the party saw is explored
        save(encounter, args.out)
    if args.json:
        return json.dumps(_as_json(outcome, spare, args.out if args.apply else None),
                          indent=2)
    return _as_text(outcome, spare, args.out if args.apply else None)


def _as_json(outcome: Outcome[Any], spare: tuple[int, ...], written: Path | None
             ) -> dict[str, Any]:
    result = outcome.result
    return {
        "action": outcome.action.name, "summary": outcome.summary,
        "totals": outcome.action.totals(result),
        "result": _jsonable(result),
        "log": [entry.model_dump(mode="json") for entry in outcome.entries],
        "dice": {"used": [list(r.values) for r in outcome.rolls], "unused": list(spare)},
        "written": str(written) if written else None,
    }


def _jsonable(result: object) -> Any:
    """A result as JSON data: pydantic models, dataclasses (a round, a move plan) and
    tuples of them alike."""
    return RootModel[Any](result).model_dump(mode="json")


def _as_text(outcome: Outcome[Any], spare: tuple[int, ...], written: Path | None) -> str:
    lines = [outcome.text or outcome.summary]
    if spare:
        lines.append(f"\nUnused dice: {', '.join(map(str, spare))}")
    if written:
        lines.append(f"\nApplied; wrote {written}")
    return "\n".join(lines)


def run_odds(args: argparse.Namespace) -> str:
    if args.action == "missile":
        return _missile_odds(args)
    odds = shove_odds(_load(args.file), shove_request(args))
    return json.dumps(odds.to_json(), indent=2) if args.json else format_odds(odds)


def _missile_odds(args: argparse.Namespace) -> str:
    """A missile's odds; a pop-up's (``--pop-up``) with its Spot chance first."""
    encounter, request = _load(args.file), missile_request(args)
    if args.pop_up is None:
        odds = missile_odds(encounter, request)
        return json.dumps(odds.to_json(), indent=2) if args.json else format_missile_odds(odds)
    spotted, odds = pop_up_odds(encounter, PopUpRequest(shot=request, spot=args.pop_up))
    if args.json:
        return json.dumps({"spot": {"p": float(spotted), "exact": str(spotted)},
                           **odds.to_json()}, indent=2)
    return (f"Pop-up at ({args.pop_up.x},{args.pop_up.y}): Spot succeeds "
            f"{float(spotted) * 100:.1f}%; then\n{format_missile_odds(odds)}")


def run_cover(args: argparse.Namespace) -> str:
    encounter = _load(args.file)
    report = cover_on_map(encounter, args.attacker, args.target)
    if args.json:
        return json.dumps(report.model_dump(mode="json", exclude={"hidden"}), indent=2)
    return format_cover(encounter, report)


def run_headless(args: argparse.Namespace) -> str:
    """``resolve``, ``odds``, ``cover`` or ``morale``; every refusal (unknown name, illegal
    action, bad dice, a command the encounter refuses) becomes one line."""
    try:
        if args.command == "resolve":
            return run_resolve(args)
        if args.command == "cover":
            return run_cover(args)
        if args.command == "morale":
            report = standing(_load(args.file))
            return json.dumps(report, indent=2) if args.json else format_standing(report)
        return run_odds(args)
    except (ValueError, LookupError) as error:
        raise CliError(str(error.args[0]) if error.args else str(error)) from None


def run_import(args: argparse.Namespace) -> str:
    """Import a Universal VTT file and save it as an encounter; the counts and warnings."""
    try:
        result = import_uvtt_file(args.file)
    except UvttImportError as error:
        raise CliError(str(error)) from None
    save(result.encounter, args.out)
    m = result.encounter.map
    lines = [f"imported {args.file.name}: {m.width}×{m.height} squares, {result.walls} wall "
             f"segments, {result.objects} object segments, {result.doors} doors, "
             f"{result.windows} windows, {result.lights} lights, "
             f"background {m.background.format if m.background else 'none'} → {args.out}"]
    return "\n".join(lines + [f"warning: {w}" for w in result.warnings])
