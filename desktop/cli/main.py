"""The ``battlemap`` command. Headless subcommands import no Qt; the GUI is imported lazily.

    battlemap [FILE]                      open the map window (the demo encounter if no FILE)
    battlemap resolve ACTION FILE ...     shove, attack, missile, initiative, critical, surprise,
                                          move, force-back, charge, overrun, group-overrun,
                                          evade, grapple, morale, wake, concentrate,
                                          perceive
                                          [--dice 14,3 | --seed N] [--json]
                                          [--apply --out NEW.json]
    battlemap odds shove FILE --attacker A --target B [--direction D] [--json]
    battlemap odds missile FILE --attacker A --target B [--weapon W] [--json]
    battlemap cover FILE --from A --to B [--json]
    battlemap check FILE|- [--name NAME] [--json]   does it open? (every check the app makes)
    battlemap morale FILE [--json]              morale scores, triggers to offer, retreats
    battlemap render FILE --out map.png [--size 1600x1000] [--view gm|player]
    battlemap import FILE --out encounter.json   (Universal VTT: .dd2vtt, .uvtt, .df2vtt)
    battlemap export FILE.json OUT.dd2vtt        (the map as a Universal VTT file)
    battlemap install-desktop-entry [--remove]   (Linux: menu entry, icon, file types)
    battlemap serve FILE [--host H] [--port P]   the player view in the players' browsers
                                          [--enemy-hp hidden|state|exact] [--out SAVED.json]
    battlemap --version
"""

from __future__ import annotations

import argparse
import gc
import json
import os
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

from desktop.cli.errors import USAGE_ERROR, CliError, one_line
from desktop.system.pydantic_plugins import turn_off_plugins
from desktop.system.resources import DEMO, app_version

if TYPE_CHECKING:
    from collections.abc import Callable, Sequence


STDIN = 0  # the descriptor, which is there even where sys.stdin is None (closed)
# numpy's OpenBLAS starts a thread per core when imported, and they spin for a while: on
# 2 cores the demo's start took 120-150 ms more CPU with them (0.55-0.58 s vs 0.40-0.51 s,
# interleaved), taken from the GUI thread's own core on a busy machine. Nothing here hands
# BLAS anything big enough to split (every matrix product is of a few columns).
BLAS_THREADS = "1"


class _Version(argparse.Action):
    """``--version``: the version is looked up only when asked for."""

    def __init__(self, option_strings: Sequence[str], dest: str, **_: Any) -> None:
        super().__init__(option_strings, dest, nargs=0,
                         help="show program's version number and exit")

    def __call__(self, parser: argparse.ArgumentParser, namespace: argparse.Namespace,
                 values: object, option_string: str | None = None) -> None:
        print(f"{parser.prog} {app_version()}")
        parser.exit()


def _details(name: str) -> Callable[[argparse.ArgumentParser], None]:
    """The arguments of ``resolve`` or ``odds`` (they need the rules engine imported)."""

    def add(parser: argparse.ArgumentParser) -> None:
        from desktop.cli import run

        {"resolve": run.add_resolve, "odds": run.add_odds}[name](parser)

    return add


def _add_cover(cover: argparse.ArgumentParser) -> None:
    cover.add_argument("file", type=Path, help="encounter file (.json)")
    cover.add_argument("--from", dest="attacker", required=True, metavar="NAME",
                       help="the attacker's name or token id")
    cover.add_argument("--to", dest="target", required=True, metavar="NAME",
                       help="the target's name or token id")
    cover.add_argument("--json", action="store_true", help="print JSON instead of text")


def _add_morale(morale: argparse.ArgumentParser) -> None:
    morale.add_argument("file", type=Path, help="encounter file (.json)")
    morale.add_argument("--json", action="store_true", help="print JSON instead of text")


def _add_check(check: argparse.ArgumentParser) -> None:
    check.add_argument("file", help="encounter file (.json), or - to read standard input")
    check.add_argument("--name", help="what messages call it (default: the file's name, or "
                                      "'standard input')")
    check.add_argument("--json", action="store_true", help="print JSON instead of text")


def _add_render(render: argparse.ArgumentParser) -> None:
    render.add_argument("file", type=Path)
    render.add_argument("--out", type=Path, required=True)
    render.add_argument("--size", default="1600x1000", help="WIDTHxHEIGHT in pixels")
    render.add_argument("--view", choices=("gm", "player"), default="gm",
                        help="gm: everything (default); player: what the players see (fog "
                             "of war, no GM-only tokens or hazards)")


def _add_import(imp: argparse.ArgumentParser) -> None:
    imp.add_argument("file", type=Path)
    imp.add_argument("--out", type=Path, required=True, help="encounter file to write (.json)")


def _add_serve(serve: argparse.ArgumentParser) -> None:
    serve.add_argument("file", type=Path)
    serve.add_argument("--host", default="127.0.0.1",
                       help="the interface to serve on (only it): this machine's LAN "
                            "address for the players' devices (default 127.0.0.1)")
    serve.add_argument("--port", type=int, default=0, help="default: a free port")
    serve.add_argument("--enemy-hp", choices=("hidden", "state", "exact"), default="hidden",
                       help="what the pages show of the enemies' hit points")
    serve.add_argument("--out", type=Path,
                       help="on Ctrl+C, save the encounter with the players' moves here")


def _add_export(export: argparse.ArgumentParser) -> None:
    export.add_argument("file", type=Path, help="encounter file (.json)")
    export.add_argument("out", type=Path, help="Universal VTT file to write (.dd2vtt)")


def _add_install(entry: argparse.ArgumentParser) -> None:
    entry.add_argument("--remove", action="store_true", help="remove what it installed")


#: Each subcommand's help and the function adding its arguments.
SUBCOMMANDS: dict[str, tuple[str, Callable[[argparse.ArgumentParser], None]]] = {
    "resolve": ("resolve an action and print every roll", _details("resolve")),
    "odds": ("exact odds of an action before rolling", _details("odds")),
    "cover": ("a target's cover from an attacker, measured on the map", _add_cover),
    "morale": ("each side's morale: scores, the triggers to offer now, where the creatures "
               "would run", _add_morale),
    "check": ("check that an encounter file opens (every check the app makes when it "
              "opens or saves one), or say why not", _add_check),
    "render": ("draw an encounter's map to a PNG (offscreen)", _add_render),
    "import": ("import a Universal VTT map (.dd2vtt, .uvtt, .df2vtt)", _add_import),
    "serve": ("share an encounter's player view with the players' browsers, no window: "
              "they join by the address printed, claim party tokens and move them",
              _add_serve),
    "export": ("export an encounter's map as a Universal VTT file (.dd2vtt): walls, doors, "
               "windows, lights and the map image", _add_export),
    "install-desktop-entry": ("Linux: add Battlemap to this user's application menu and "
                              "file types (encounters, Universal VTT maps)", _add_install),
}
COMMANDS = tuple(SUBCOMMANDS)


def build_parser(command: str | None = None) -> argparse.ArgumentParser:
    """The command line; only ``command``'s own arguments are added (the rest need only
    their help line), so ``battlemap --help`` imports no rules engine."""
    parser = argparse.ArgumentParser(
        prog="battlemap",
        description="Battle map for tabletop GMs that resolves forced movement on the grid.",
        epilog="'battlemap [FILE]' opens FILE (or the bundled demo) in the map window.")
    parser.add_argument("--version", action=_Version)
    sub = parser.add_subparsers(dest="command")
    for name, (text, add_arguments) in SUBCOMMANDS.items():
        subparser = sub.add_parser(name, help=text)
        if name == command:
            add_arguments(subparser)
    return parser


def check(file: str, name: str | None) -> dict[str, object]:
    """``check``: whether ``file`` (``-``: standard input) opens, and its size or the
    problem, as the loader words it."""
    from core.io.fileio import EncounterFileError, encounter_from_json
    from core.io.files import FileReadError, read_regular_file, read_stream
    from core.model.limits import MAX_FILE_BYTES

    stdin = file == "-"
    name = name or ("standard input" if stdin else Path(file).name)
    try:
        raw = (read_stream(STDIN, name, MAX_FILE_BYTES) if stdin
               else read_regular_file(file, MAX_FILE_BYTES))
        encounter = encounter_from_json(raw, name)
    except (FileReadError, EncounterFileError) as error:
        return {"file": name, "opens": False, "problem": str(error), "version": app_version()}
    return {"file": name, "opens": True, "width": encounter.map.width,
            "height": encounter.map.height, "tokens": len(encounter.tokens),
            "walls": len(encounter.map.walls), "version": app_version()}


def _run_check(args: argparse.Namespace) -> int:
    report = check(args.file, args.name)
    if args.json:
        print(json.dumps(report))
    elif report["opens"]:
        print(f"{report['file']} opens: {report['width']}×{report['height']} squares, "
              f"{report['tokens']} tokens, {report['walls']} wall segments")
    else:
        print(f"battlemap: {one_line(report['problem'])}", file=sys.stderr)
    return 0 if report["opens"] else USAGE_ERROR


def _run_serve(args: argparse.Namespace) -> int:
    """``serve``: no GM at the keyboard to say yes, so claims and moves need no OK."""
    from core.io.fileio import EncounterFileError
    from core.io.files import FileReadError
    from desktop.share.headless import serve
    from desktop.share.table import ShareSettings

    if not 0 <= args.port <= 65535:
        raise CliError(f"--port {args.port} is not a port (0-65535)")
    settings = ShareSettings(moves="apply", claims="open", enemy_hp=args.enemy_hp)
    try:
        return serve(args.file, args.host, args.port, settings, args.out)
    except (FileReadError, EncounterFileError) as error:
        raise CliError(str(error)) from None
    except OSError as error:
        raise CliError(f"cannot serve on {args.host}:{args.port}: {error.strerror or error}"
                       ) from None


def main(argv: Sequence[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    os.environ.setdefault("OPENBLAS_NUM_THREADS", BLAS_THREADS)  # read when numpy loads
    turn_off_plugins(os.environ)
    if not argv or (argv[0] not in COMMANDS and not argv[0].startswith("-")):
        from desktop.cli.preflight import window_problem

        problem = window_problem(argv, COMMANDS, os.environ, sys.platform)
        if problem:  # before Qt, which would abort on it naming neither file nor command
            print(f"battlemap: {one_line(problem)}", file=sys.stderr)
            return USAGE_ERROR
        # Until the first frame the cyclic collector only walks what the imports and the
        # window make, all of it kept for good: 172 collections, 44-58 ms of a 0.65 s
        # start (without them the first frame came 30 ms sooner, interleaved pairs).
        # desktop.document.collector turns it back on with the first full collection.
        gc.disable()
        from desktop.app import run_app  # Qt only from here on

        return run_app(Path(argv[0]) if argv else DEMO)
    args = build_parser(argv[0]).parse_args(argv)
    try:
        if args.command in ("resolve", "odds", "cover", "morale", "import"):
            from desktop.cli.run import run_headless, run_import

            print(run_import(args) if args.command == "import" else run_headless(args))
            return 0
        if args.command == "check":
            return _run_check(args)
        if args.command == "render":
            from desktop.cli.render import render_command  # Qt only from here on

            return render_command(args.file, args.out, args.size, args.view)
        if args.command == "serve":
            return _run_serve(args)
        if args.command == "export":
            from desktop.cli.export import export_command

            print(export_command(args.file, args.out))
            return 0
        if args.command == "install-desktop-entry":
            from desktop.cli.install import install_command

            return install_command(args.remove)
    except CliError as error:
        print(f"battlemap: {one_line(error)}", file=sys.stderr)
        return USAGE_ERROR
    build_parser().print_help()
    return USAGE_ERROR
