"""The ``battlemap`` command. Headless subcommands import no Qt; the GUI is imported lazily.

    battlemap [FILE]                         open the map window (the demo encounter if no FILE)
    battlemap resolve shove FILE --attacker A --target B [--direction D]
                            [--dice 14,3 | --seed N] [--json]
    battlemap odds shove FILE --attacker A --target B [--direction D] [--json]
    battlemap render FILE --out map.png [--size 1600x1000]
    battlemap import FILE --out encounter.json   (Universal VTT: .dd2vtt, .uvtt, .df2vtt)
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from importlib.resources import files
from pathlib import Path

from core.io.fileio import EncounterFileError, load_encounter, save_encounter
from core.io.uvtt import UvttImportError, import_uvtt_file
from core.model.dice import DiceError, DiceExhaustedError, DiceSource, ScriptedDice, SeededDice
from core.model.encounter import Encounter, UnknownTokenError
from core.model.grid import Direction
from core.rules.odds import shove_odds
from core.rules.report import format_odds, format_shove
from core.rules.shove import IllegalShoveError, ShoveRequest, resolve_shove

DEMO = Path(str(files("assets") / "demo_encounter.json"))
USAGE_ERROR = 2


class CliError(Exception):
    """Bad input on the command line: printed as one line, exit status 2."""


def _dice_list(text: str) -> list[int]:
    try:
        return [int(part) for part in text.replace(" ", "").split(",") if part]
    except ValueError:
        raise argparse.ArgumentTypeError(f"--dice wants whole numbers separated by commas, "
                                         f"got {text!r}") from None


def _shove_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("file", type=Path, help="encounter file (.json)")
    parser.add_argument("--attacker", required=True, help="attacker's name or token id")
    parser.add_argument("--target", required=True, help="defender's name or token id")
    parser.add_argument("--direction", type=str.upper, choices=[d.value for d in Direction],
                        help="push direction (default: straight away from the attacker)")
    parser.add_argument("--modifier", type=int, default=0, help="situational modifier to FR")
    parser.add_argument("--json", action="store_true", help="print JSON instead of text")


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="battlemap",
        description="Battle map for tabletop GMs that resolves forced movement on the grid.",
        epilog="'battlemap [FILE]' opens FILE (or the bundled demo) in the map window.")
    sub = parser.add_subparsers(dest="command")
    resolve = sub.add_parser("resolve", help="resolve an action and print every roll")
    resolve_sub = resolve.add_subparsers(dest="action", required=True)
    shove = resolve_sub.add_parser("shove", help="resolve a shove")
    _shove_arguments(shove)
    dice = shove.add_mutually_exclusive_group()
    dice.add_argument("--dice", type=_dice_list,
                      help="die values in the order asked: attack d20, shove die, "
                           "Pit-Stop d20, hazard dice, slam dice (e.g. 14,3,9)")
    dice.add_argument("--seed", type=int, help="seed for rolled dice (default 1)")
    odds = sub.add_parser("odds", help="exact odds of an action before rolling")
    odds_sub = odds.add_subparsers(dest="action", required=True)
    _shove_arguments(odds_sub.add_parser("shove", help="odds of a shove"))
    render = sub.add_parser("render", help="draw an encounter's map to a PNG (offscreen)")
    render.add_argument("file", type=Path)
    render.add_argument("--out", type=Path, required=True)
    render.add_argument("--size", default="1600x1000", help="WIDTHxHEIGHT in pixels")
    imp = sub.add_parser("import", help="import a Universal VTT map (.dd2vtt, .uvtt, .df2vtt)")
    imp.add_argument("file", type=Path)
    imp.add_argument("--out", type=Path, required=True, help="encounter file to write (.json)")
    return parser


def _load(path: Path) -> Encounter:
    try:
        return load_encounter(path)
    except EncounterFileError as error:
        raise CliError(str(error)) from None


def _request(args: argparse.Namespace) -> ShoveRequest:
    return ShoveRequest(attacker=args.attacker, defender=args.target,
                        direction=Direction(args.direction) if args.direction else None,
                        modifier=args.modifier)


def run_resolve(args: argparse.Namespace) -> str:
    encounter = _load(args.file)
    source: DiceSource = (ScriptedDice(args.dice) if args.dice is not None
                          else SeededDice(1 if args.seed is None else args.seed))
    try:
        result = resolve_shove(encounter, _request(args), source)
    except DiceExhaustedError as error:
        raise CliError(f"--dice ran out: {error}") from None
    if isinstance(source, ScriptedDice) and source.remaining:
        raise CliError(f"--dice has {len(source.remaining)} value(s) more than the shove "
                       f"needs: {', '.join(map(str, source.remaining))}")
    return result.model_dump_json(indent=2) if args.json else format_shove(result)


def run_odds(args: argparse.Namespace) -> str:
    odds = shove_odds(_load(args.file), _request(args))
    return json.dumps(odds.to_json(), indent=2) if args.json else format_odds(odds)


def run_headless(args: argparse.Namespace) -> str:
    try:
        if args.command == "resolve":
            return run_resolve(args)
        return run_odds(args)
    except (IllegalShoveError, UnknownTokenError, DiceError) as error:
        raise CliError(str(error)) from None


def run_import(args: argparse.Namespace) -> str:
    """Import a Universal VTT file and save it as an encounter; the counts and warnings."""
    try:
        result = import_uvtt_file(args.file)
    except UvttImportError as error:
        raise CliError(str(error)) from None
    try:
        save_encounter(result.encounter, args.out)
    except OSError as error:
        raise CliError(f"cannot write {args.out}: {error.strerror or error}") from None
    m = result.encounter.map
    lines = [f"imported {args.file.name}: {m.width}×{m.height} squares, {result.walls} wall "
             f"segments, {result.objects} object segments, {result.doors} doors, "
             f"{result.windows} windows, {result.lights} lights, "
             f"background {m.background.format if m.background else 'none'} → {args.out}"]
    return "\n".join(lines + [f"warning: {w}" for w in result.warnings])


COMMANDS = ("resolve", "odds", "render", "import")


def main(argv: Sequence[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    if not argv or (argv[0] not in COMMANDS and not argv[0].startswith("-")):
        from desktop.app import run_app  # Qt only from here on

        return run_app(Path(argv[0]) if argv else DEMO)
    args = build_parser().parse_args(argv)
    try:
        if args.command in ("resolve", "odds"):
            print(run_headless(args))
            return 0
        if args.command == "import":
            print(run_import(args))
            return 0
        if args.command == "render":
            from desktop.render import render_command  # Qt only from here on

            return render_command(args.file, args.out, args.size)
    except CliError as error:
        print(f"battlemap: {error}", file=sys.stderr)
        return USAGE_ERROR
    build_parser().print_help()
    return USAGE_ERROR
