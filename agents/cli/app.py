"""Entry point of the `agent` CLI: loads every command module and turns user errors into one line."""

from __future__ import annotations

import importlib
import os
import signal
import sys
import threading

from sandboxes.errors import UserError

from agents.cli.groups import app
from agents.cli.output import CommandInterrupted
from agents.runtime.models.base import ModelReplyError

INTERRUPTED = 130

# Each module attaches its commands to the groups in agents.cli.groups when imported.
COMMAND_MODULES = [
    "agents.cli.bench_drc",
    "agents.cli.run_splittester",
    "agents.cli.bench_kernels",
    "agents.cli.bench_npu",
    "agents.cli.bench_numerics",
    "agents.cli.bench_methods",
    "agents.cli.bench_reprl",
    "agents.cli.bench_epsvec",
    "agents.cli.sandbox_cmd",
    "agents.cli.run_pathwise",
    "agents.cli.bench_ahd",
    "agents.cli.run_demo",
    "agents.cli.runs_cmd",
    "agents.cli.doctor_cmd",
    "agents.cli.run_evokernel",
    "agents.cli.bench_evokernel",
    "agents.cli.memory_cmd",
    "agents.cli.bench_repo",
    "agents.cli.run_rpg",
    "agents.cli.bench_rpg",
    "agents.cli.chat_cmd",
    "agents.cli.run_compress",
    "agents.cli.bench_spmv",
    "agents.cli.bench_macko",
    "agents.cli.bench_lowrank",
    "agents.cli.bench_quant",
    "agents.cli.bench_qmemory",
    "agents.cli.bench_verifier",
    "agents.cli.otel_cmd",
    "agents.cli.mcp_cmd",
    "agents.cli.bench_resolve",
    "agents.cli.run_repair",
    "agents.cli.ui_cmd",
    "agents.cli.bench_executor",
    "agents.cli.bench_ui",
]


def _load_commands(debug: bool = False) -> None:
    """Import every command module; one that fails to import is reported and the others still work."""
    for name in COMMAND_MODULES:
        try:
            importlib.import_module(name)
        except Exception as error:
            if debug:
                raise
            print(f"warning: commands of {name} are unavailable ({type(error).__name__}: {error})", file=sys.stderr)


def main(argv: list[str] | None = None) -> None:
    """Run the CLI; a UserError prints one line and exits 2 unless --debug is given; Ctrl-C exits 130."""
    argv = list(sys.argv[1:] if argv is None else argv)
    debug = "--debug" in argv
    if debug:
        argv.remove("--debug")
        os.environ["AGENT_DEBUG"] = "1"
    os.environ.setdefault("LITELLM_LOCAL_MODEL_COST_MAP", "True")
    if threading.current_thread() is threading.main_thread():  # only there can a handler be set
        signal.signal(signal.SIGTERM, _terminated)
    try:
        _load_commands(debug)
        code = app(args=argv, standalone_mode=False)
    except (UserError, ModelReplyError) as error:
        if debug:
            raise
        print(f"error: {_one_line(error)}", file=sys.stderr)
        sys.exit(2)
    except (KeyboardInterrupt, CommandInterrupted) as interrupt:
        _interrupted(getattr(interrupt, "run_id", None))
    except SystemExit:
        raise
    except Exception as error:  # click usage errors arrive here in non-standalone mode
        _handle_click_error(error, debug)
    else:
        if code == INTERRUPTED:  # typer turns a KeyboardInterrupt it sees into this exit code
            _interrupted(None)
        if isinstance(code, int) and code:
            sys.exit(code)


def _terminated(signum: int, frame: object) -> None:
    """SIGTERM (what Slurm, ``docker stop`` and systemd send) ends a run as Ctrl-C does: saved, marked interrupted,
    with the command that resumes it (it left the run marked running and printed nothing)."""
    raise KeyboardInterrupt


def _interrupted(run_id: str | None) -> None:
    """One line for Ctrl-C (naming the command that continues the run, when it can be resumed) and exit 130."""
    if run_id and _resumable(run_id):
        print(f"interrupted: run {run_id} is saved; continue it with: agent runs resume {run_id}", file=sys.stderr)
    elif run_id:
        print(f"interrupted: run {run_id} is marked interrupted; a benchmark does not resume, run it again",
              file=sys.stderr)
    else:
        print("interrupted", file=sys.stderr)
    sys.exit(INTERRUPTED)


def _resumable(run_id: str) -> bool:
    """Whether ``agent runs resume`` can continue the run (its agent is registered)."""
    from agents.runtime.registry import registered_agents
    from agents.runtime.run import Run

    try:
        return Run.open(run_id).agent in registered_agents()
    except UserError:
        return False


def _one_line(error: Exception) -> str:
    return _one_line_text(str(error)) or type(error).__name__


def _one_line_text(text: str) -> str:
    return " ".join(text.split())


def _handle_click_error(error: Exception, debug: bool) -> None:
    """Usage errors (click's, or the copy typer vendors) become one line and exit 2."""
    kind = type(error).__name__
    if kind == "Exit":
        sys.exit(getattr(error, "exit_code", 0))
    if kind == "Abort":
        _interrupted(None)
    if hasattr(error, "format_message") and not debug:
        message = _one_line_text(error.format_message())
        if message:  # an empty message follows the help text shown for a bare group
            print(f"error: {message}", file=sys.stderr)
        sys.exit(2)
    raise error


if __name__ == "__main__":
    main()
