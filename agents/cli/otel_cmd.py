"""`agent runs otel ID`: export a run (finished or not) as an OpenTelemetry trace after the fact."""

from __future__ import annotations

from typing import Annotated, Optional

import typer

from sandboxes.errors import UserError

from agents.cli.groups import runs_app
from agents.cli.output import Output, with_output
from agents.cli.runs_cmd import RootOption, RunIdArgument
from agents.runtime.run import Run

EndpointOption = Annotated[Optional[str], typer.Option(
    "--endpoint", help="OTLP/HTTP receiver (http://host:4318). Default: the standard OTEL_EXPORTER_OTLP_* variables.")]


@runs_app.command("otel")
@with_output
def export_otel(run_id: RunIdArgument, root: RootOption = None, endpoint: EndpointOption = None, *,
                output: Output) -> None:
    """Send a run's events as one OpenTelemetry trace: a span per run segment, graph node, model and tool call."""
    from agents.runtime.otel import configured, export_run, traces_url

    if not configured(endpoint):
        raise UserError("no OTLP receiver: pass --endpoint http://host:4318 or set OTEL_EXPORTER_OTLP_ENDPOINT "
                        "(and not OTEL_SDK_DISABLED=true or OTEL_TRACES_EXPORTER=none)")
    run = Run.open(run_id, root)
    spans = export_run(run, endpoint)
    where = traces_url(endpoint) if endpoint else "the OTEL_EXPORTER_OTLP_* endpoint"
    output.document({"run": run.id, "spans": spans, "endpoint": where},
                    lambda console: console.print(f"run {run.id}: {spans} spans sent to {where}"))
