#!/usr/bin/env bash
# Install Battlemap the four ways people install a Python app and run it each time:
#   bash packaging/check_installs.sh SOURCE_DIR WHEEL [LAYOUT...]
# LAYOUT: editable (pip install -e), regular (pip install DIR), wheel (pip install WHEEL),
# pipx (pipx install DIR); all four by default. SOURCE_DIR is a copy of the checkout (an
# in-tree build leaves build/ and *.egg-info behind). Each layout gets a fresh venv (each
# compiles the search, core/spatial/_search.c) and runs, from an empty folder: --version,
# where the compiled search was built, a seeded headless resolve, a render and the
# autosave's check of the demo that the installation bundles, then packaging/smoke_check.py
# (opens the demo window offscreen).
# .ci/run calls this; too slow for the unit tests (one venv with PySide6 per layout).
set -euo pipefail
export QT_QPA_PLATFORM=offscreen
export PIP_DISABLE_PIP_VERSION_CHECK=1

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
source_dir="$(cd "$1" && pwd)"
wheel="$(realpath "$2")"
shift 2
if (($#)); then layouts=("$@"); else layouts=(editable regular wheel pipx); fi
host_python="$(command -v python3)"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

# A fresh installation of Battlemap in LAYOUT, its environment at $work/LAYOUT.
install() {
    local layout="$1" venv="$work/$1"
    case "$layout" in
        editable) "$host_python" -m venv "$venv" && "$venv/bin/pip" install -q -e "$source_dir" ;;
        regular) "$host_python" -m venv "$venv" && "$venv/bin/pip" install -q "$source_dir" ;;
        wheel) "$host_python" -m venv "$venv" && "$venv/bin/pip" install -q "$wheel" ;;
        pipx)
            "$host_python" -m venv "$work/pipx-tool" && "$work/pipx-tool/bin/pip" install -q pipx
            PIPX_HOME="$work/pipx-home" PIPX_BIN_DIR="$work/pipx-bin" \
                "$work/pipx-tool/bin/pipx" install --python "$host_python" "$source_dir" >/dev/null
            ln -s "$work/pipx-home/venvs/battlemap" "$venv" ;;
        *) echo "unknown layout: $layout" >&2; return 2 ;;
    esac >&2
}

check() {
    local layout="$1" bin="$work/$1/bin" run="$work/$1-run"
    mkdir "$run"
    cd "$run"
    export HOME="$run"  # the window's settings and recovery folder go here
    local demo
    demo="$("$bin/python" -c 'from desktop.system.resources import DEMO; print(DEMO)')"
    "$bin/battlemap" --version
    # the compiled search (core/spatial/_search.c), built by this installation
    "$bin/python" -c 'import core.spatial._search as s; print("compiled search:", s.__file__)'
    "$bin/battlemap" resolve shove "$demo" --attacker Ogre --target Mira --seed 1 >resolve.txt
    grep -m1 "^Ogre shoves Mira" resolve.txt
    "$bin/battlemap" render "$demo" --out "$run/demo.png" --size 800x500
    # the check the window's autosave runs in a process of its own (desktop.document.load_check)
    "$bin/python" -P -m desktop check - --name "the autosave" --json <"$demo" >check.json
    grep -q '"opens": true' check.json
    local assets_under="$source_dir"
    [[ "$layout" == editable ]] || assets_under="$("$bin/python" -c \
        'import sysconfig; print(sysconfig.get_paths()["purelib"])')"
    "$bin/python" "$here/smoke_check.py" "$layout" "$run" "$assets_under"
}

for layout in "${layouts[@]}"; do
    start=$SECONDS
    install "$layout"
    (check "$layout")
    echo "$layout: ok ($((SECONDS - start)) s)"
done
