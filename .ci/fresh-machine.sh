#!/usr/bin/env bash
# Imitate a fresh machine that has only Python and pip, and run a command there (needs root, for unshare -m).
#
#   .ci/fresh-machine.sh WORKDIR VENV COMMAND...
#
# WORKDIR/agentkiln becomes a copy of this checkout (its tracked and unignored files, as a clone would have
# them), VENV a new virtual environment (e.g. WORKDIR/agentkiln/.venv, or one under /tmp) with that copy
# installed editable, and WORKDIR/home the home folder (so the kernel cache starts empty). COMMAND runs in the
# copy, with the venv first on PATH, in a private mount namespace where bubblewrap, Debian's klayout and nvcc are
# /dev/null, this checkout is hidden (nothing can be imported from it) and DOCKER_HOST names a socket that
# does not exist (unless FRESH_MACHINE_DOCKER=keep: a fresh machine with a Docker engine). The venv reuses this Python's installed packages (--system-site-packages) instead of
# downloading them again; the project itself is imported from the copy only.
set -euo pipefail
if [ $# -lt 3 ]; then
    echo "usage: $0 WORKDIR VENV COMMAND..." >&2
    exit 2
fi
source_dir=$(cd "$(dirname "$0")/.." && pwd)
workdir=$(mkdir -p "$1" && cd "$1" && pwd)
venv=$2
shift 2
case "$workdir/" in "$source_dir"/*)
    echo "fresh-machine: WORKDIR must lie outside $source_dir, which is hidden" >&2
    exit 2 ;;
esac
checkout=$workdir/agentkiln
mkdir -p "$checkout" "$workdir/home"
git -C "$source_dir" ls-files -co --exclude-standard -z \
    | (cd "$source_dir" && tar --null --ignore-failed-read -cf - -T - 2>/dev/null) | tar -xf - -C "$checkout"
python -m venv --system-site-packages --without-pip "$venv"
"$venv/bin/python" -m pip install -q --disable-pip-version-check --no-deps --no-build-isolation -e "$checkout" \
    2>&1 | grep -v "Running pip as the 'root' user" || true

# shellcheck disable=SC2016
exec unshare -m bash -c '
    set -euo pipefail
    source_dir=$1 checkout=$2 venv=$3 workdir=$4
    shift 4
    for tool in bwrap klayout nvcc; do
        path=$(command -v "$tool" || true)
        if [ -n "$path" ]; then mount --bind /dev/null "$(readlink -f "$path")"; fi
    done
    mount -t tmpfs -o size=1m,mode=0755 tmpfs "$source_dir"
    unset VIRTUAL_ENV PYTHONPATH AGENT_SANDBOX AGENT_KERNEL_CACHE
    export PATH="$venv/bin:$PATH" HOME="$workdir/home"
    if [ "${FRESH_MACHINE_DOCKER:-}" != keep ]; then export DOCKER_HOST=unix:///nonexistent/docker.sock; fi
    cd "$checkout"
    exec "$@"
' fresh-machine "$source_dir" "$checkout" "$venv" "$workdir" "$@"
