"""The command line: the only module that prints. Parses options, maps errors to exit codes.

Exit codes (a contract, DESIGN.md): 0 a candidate passed every gate; 1 the search ended
without one; 2 bad input (config, flags, unknown run); 3 the host or the store could not
be reached; 130 interrupted (Ctrl-C, the Unix convention).
"""

from __future__ import annotations

import signal
import sys

if __name__ == "__main__":  # python -m autofix.cli: a quiet Ctrl-C while the imports below run
    from autofix.__main__ import _interrupted_while_starting

    signal.signal(signal.SIGINT, _interrupted_while_starting)

import json
import os
import tempfile
from collections.abc import Callable, Sequence
from dataclasses import replace
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any, NoReturn, TypeVar

import click
from rich.console import Console

from .errors import AutofixError, InputError
from .model import Attempt, AttemptState, Gate, Run, RunStatus, diff
from .view import escape

if TYPE_CHECKING:
    from .catalog import Catalog
    from .config import BaseConfig
    from .hosts.base import Host
    from .searching import SearchRequest
    from .store import Store

# Each command imports what it needs when it runs: `autofix --help`, a bad input's error
# and the review commands start without SQLAlchemy, Alembic, networkx or the catalogue.

EXIT_INTERRUPTED = 130
F = TypeVar("F", bound=Callable[..., Any])
DB_HELP = "The store: a SQLite file's path (runs.db) or a SQLAlchemy URL (default runs.db here, or AUTOFIX_DB)."
EXPORT_FORMATS = ("unit", "argv", "env", "yaml")  # autofix/export.py's FORMATS (a test keeps them equal)

# Piped output (scripts, CI logs) gets wide tables instead of rich's 80-column default.
err = Console(stderr=True, highlight=False, soft_wrap=True, width=None if sys.stderr.isatty() else 200)
out = Console(highlight=False, soft_wrap=True, width=None if sys.stdout.isatty() else 200)


def _fail(exc: AutofixError) -> None:
    err.print(f"[bold red]autofix:[/] {escape(str(exc))}")
    sys.exit(exc.exit_code)


def handles_errors(fn: F) -> F:
    """Turn autofix's own errors into one line on stderr and their exit code."""

    def wrapper(*args: Any, **kwargs: Any) -> Any:
        try:
            return fn(*args, **kwargs)
        except AutofixError as exc:
            _fail(exc)
        except KeyboardInterrupt:
            err.print("[yellow]autofix: interrupted[/]")
            sys.exit(EXIT_INTERRUPTED)

    wrapper.__name__ = fn.__name__
    wrapper.__doc__ = fn.__doc__
    return wrapper  # type: ignore[return-value]


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.option("--log-json", is_flag=True, help="Structured JSON logs on stderr.")
@click.option("-v", "--verbose", is_flag=True, help="Debug logs on stderr.")
@click.version_option(package_name="autofix")
def main(log_json: bool, verbose: bool) -> None:
    """autofix: find an SGLang launch config that passes every gate, and keep the record."""
    # Started quietly (autofix/__main__.py); from here Ctrl-C is each command's to handle.
    signal.signal(signal.SIGINT, signal.default_int_handler)
    click.get_current_context().obj = {"json_lines": log_json, "verbose": verbose}
    if log_json or verbose:
        _configure_logs()


def _configure_logs() -> None:
    """structlog set up as the group's options say. The search does it always (its warnings
    are logs); the review commands log nothing without -v, and skip the import."""
    from . import logs

    logs.configure(**(click.get_current_context().find_root().obj or {}))


# --- init ------------------------------------------------------------------------------------

MAX_IMPORT_BYTES = 1 << 20


@main.command()
@click.option("--from-unit", "unit_path", metavar="FILE", help="The systemd unit that runs the server ('-': stdin).")
@click.option("--from-cmd", "command_text", metavar="CMD", help="The server's command line ('-': read it from stdin).")
@click.option("--host", "host_opt", help="The host it runs on: [user@]address[:port], local or sim (default local).")
@click.option("--name", help="The base's name (default: the unit's, or the model's for a command).")
@click.option("-o", "--output", help="Write the base YAML to this file (atomically) instead of stdout.")
@click.option("--force", is_flag=True, help="Replace --output if it exists.")
@handles_errors
def init(
    unit_path: str | None,
    command_text: str | None,
    host_opt: str | None,
    name: str | None,
    output: str | None,
    force: bool,
) -> None:
    """Write a base config from what runs today: a systemd unit or a command line.

    \b
      autofix init --from-unit /etc/systemd/system/sglang-k26.service --host root@gpu1 -o k26.yaml
      autofix init --from-cmd "python -m sglang.launch_server --model-path Qwen/Qwen3-8B --tp 2"
      ssh gpu1 systemctl cat sglang-k26 | autofix init --from-unit - --name sglang-k26
    """
    if (unit_path is None) == (command_text is None):
        raise InputError("give what to import: --from-unit FILE or --from-cmd CMD (one of them)")
    if output and not force and Path(output).exists():
        raise InputError(f"{output}: exists; give --force to replace it")
    imported, _ = _import_base(unit_path, command_text, host_opt, name)
    if output:
        write_atomically(output, imported.yaml_text, mode=0o600 if imported.holds_secret else 0o644)
        err.print(f"wrote {escape(output)}: search it with autofix search --base {escape(output)}")
    else:
        click.echo(imported.yaml_text, nl=False)


def _import_base(
    unit_path: str | None, command_text: str | None, host: str | None, name: str | None
) -> tuple[Any, str]:
    """The imported base (checked as a base config) and the source it names; notes on stderr."""
    from .config import parse_base
    from .importing import from_command, from_unit

    if unit_path is not None:
        source = "<stdin>" if unit_path == "-" else unit_path
        text = _read_input(unit_path, "--from-unit")
        file_name = Path(unit_path).name if unit_path != "-" else (name or "")
        if not file_name:
            raise InputError("--from-unit -: give --name, the unit's name (stdin has no file name)")
        imported = from_unit(text, source=source, file_name=file_name, host=host or "local", name=name)
    else:
        assert command_text is not None
        source = "<stdin>" if command_text == "-" else "--from-cmd"
        text = _read_input("-", "--from-cmd") if command_text == "-" else command_text
        imported = from_command(text, source=source, host=host or "local", name=name)
    parse_base(imported.yaml_text, source=f"{source} (imported)")  # what is written is a valid base
    for note in imported.notes:
        err.print(f"[yellow]note:[/] {escape(note)}")
    return imported, source


def _read_input(path: str, option: str) -> str:
    try:
        if path == "-":
            data = sys.stdin.buffer.read(MAX_IMPORT_BYTES + 1)
        else:
            with open(path, "rb") as fh:
                data = fh.read(MAX_IMPORT_BYTES + 1)
    except OSError as exc:
        raise InputError(f"{option} {path}: cannot read: {exc.strerror}") from None
    if len(data) > MAX_IMPORT_BYTES:
        raise InputError(f"{option} {path}: more than 1 MB: not a unit file or a command line")
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        raise InputError(f"{option} {path}: not UTF-8 text") from None


# --- search ----------------------------------------------------------------------------------


@main.command()
@click.option(
    "--base",
    "base_paths",
    multiple=True,
    help="The base config YAML. Repeat it for several bases: each free host of --hosts takes the next one.",
)
@click.option("--from-unit", "unit_path", metavar="FILE", help="Import the base from a systemd unit (as init does).")
@click.option("--from-cmd", "command_text", metavar="CMD", help="Import the base from a command line ('-': stdin).")
@click.option("--host", "host_opt", help="sim | local | [user@]address[:port]; overrides the YAML's host.")
@click.option("--hosts", "hosts_opt", help="Several hosts (comma list): the frontier runs one candidate per host.")
@click.option(
    "--target",
    "target_opt",
    type=click.Choice(["sglang", "vllm", "sim"]),
    help="The engine (default: the base's target); sim: its look-alike.",
)
@click.option("--db", "db_url", help=DB_HELP)
@click.option("--gates", "gates_opt", help="Comma list out of preflight,start,ready,smoke,bench.")
@click.option("--max-attempts", type=click.IntRange(min=1), help="Budget: attempts (default from the YAML, 12).")
@click.option("--max-time", "max_time_opt", help="Budget: wall time, seconds or 2h / 90m.")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object with the outcome last on stdout.")
@click.option("--accept-new-host-key", is_flag=True, help="Record an SSH host key not yet in known_hosts.")
@click.option("--resume", "resume_run", type=int, help="Continue run RUN (a controller that died, or budget spent).")
@click.option(
    "--explore",
    type=click.IntRange(min=0),
    default=0,
    help="After the first pass, launch up to N speculative variants.",
)
@click.option(
    "--no-cache",
    is_flag=True,
    help="Run every candidate again, even one this host already judged under the same gates.",
)
@handles_errors
def search(
    base_paths: tuple[str, ...],
    unit_path: str | None,
    command_text: str | None,
    host_opt: str | None,
    hosts_opt: str | None,
    target_opt: str | None,
    db_url: str | None,
    gates_opt: str | None,
    max_attempts: int | None,
    max_time_opt: str | None,
    as_json: bool,
    accept_new_host_key: bool,
    resume_run: int | None,
    explore: int,
    no_cache: bool,
) -> None:
    """Search for a config that passes every gate, starting from --base (or --from-unit / --from-cmd)."""
    from .config import load_base, parse_base
    from .searching import SearchRequest

    given = sum((bool(base_paths), unit_path is not None, command_text is not None))
    if given != 1:
        raise InputError("give the base: --base FILE, --from-unit FILE or --from-cmd CMD (one of them)")
    imported = None
    if not base_paths:
        imported, source = _import_base(unit_path, command_text, host_opt, None)
        base_paths = (source,)
    _configure_logs()
    request = SearchRequest(
        bases=base_paths,
        host=host_opt,
        hosts=hosts_opt,
        target=target_opt,
        db=db_url,
        gates=gates_opt,
        max_attempts=max_attempts,
        max_time=max_time_opt,
        as_json=as_json,
        accept_new_host_key=accept_new_host_key,
        resume=resume_run,
        explore=explore,
        use_cache=not no_cache,
    )
    # Every base is read and checked before anything runs: nothing half-done on bad input.
    if imported is not None:
        configs = [parse_base(imported.yaml_text, source=base_paths[0])]
    else:
        configs = [load_base(path) for path in request.bases]
    if len(configs) > 1:
        _search_fleet(request, configs)
    _search_one(request, configs[0])


def _told(text: str) -> None:
    """A host's word while connecting (a retry), shown dim."""
    err.print(f"[dim]{escape(text)}[/]")


def _search_one(request: SearchRequest, config: BaseConfig) -> NoReturn:
    """One base: one search, over one host or the frontier of several."""
    from .catalog import load_catalog
    from .run import Runner, require_launch_paths
    from .searching import open_slots
    from .secrets import kept_out
    from .view import SearchView

    options = request.options(config, "")
    slots = open_slots(request, config, _told)
    for slot in slots:
        require_launch_paths(slot.host, config)
    store = _store(request.db)
    if request.resume is not None:
        previous = store.run(request.resume)
        first = slots[0]
        if previous.host != first.label or previous.target != first.target.kind:
            raise InputError(
                f"--resume {request.resume}: that run searched {previous.host} ({previous.target}), "
                f"not {first.label} ({first.target.kind}); give the same --host/--target"
            )
    _interrupt_on_signals()
    view = SearchView(err, config.unit)
    first, *others = slots
    runner = Runner(
        config,
        replace(options, host_label=first.label),
        store=store,
        host=first.host,
        target=first.target,
        catalog=load_catalog(family=config.target),
        events=view.on_event,
        services=first.services,
        resume_run=request.resume,
        use_cache=request.use_cache,
    )
    for slot in others:
        runner.add_host(slot.host, slot.target, slot.label, services=slot.services)
    try:
        result = runner.run()
    except KeyboardInterrupt:
        _leave_quietly()
        view.close()
        err.print("[yellow]autofix: interrupted; the running candidate was stopped and recorded[/]")
        if request.as_json:
            out.print_json(json.dumps({"status": "interrupted"}))
        sys.exit(EXIT_INTERRUPTED)
    finally:
        view.close()
        for slot in slots:
            slot.host.close()
    view.summary(result)
    if request.as_json:
        click.echo(json.dumps(kept_out().scrub_tree(result.to_json())))
    sys.exit(result.run.status.exit_code)


def _search_fleet(request: SearchRequest, configs: list[BaseConfig]) -> NoReturn:
    """Several bases: one search each, spread over the hosts (autofix/fleet.py)."""
    from .catalog import load_catalog
    from .fleet import Fleet
    from .preflight import ProbePool
    from .run import Runner, require_launch_paths
    from .searching import host_and_target, open_host, slot_on
    from .secrets import kept_out
    from .view import FleetView

    if request.resume is not None:
        raise InputError("--resume continues one run: give a single --base")
    specs = request.specs_for(configs)
    plans = [(config, request.options(config, "", where=f"{config.source}: ")) for config in configs]
    catalogs = {family: load_catalog(family=family) for family in {c.target for c in configs}}
    hosts = [(i, spec, open_host(spec, i, request.accept_new_host_key, _told)) for i, spec in enumerate(specs)]
    for _, _, host in hosts:
        for config in configs:
            require_launch_paths(host, config)
    store = _store(request.db)
    probes = ProbePool()  # one warm probe per host and target, for the searches it runs
    view = FleetView(err, [c.name for c in configs])

    def make(index: int, where: tuple[int, str, Host]) -> Runner:
        config, options = plans[index]
        number, spec, host = where
        _, kind = host_and_target(spec, request.target, config)
        slot = slot_on(host, spec, number, kind, config)
        return Runner(
            config,
            replace(options, host_label=spec),
            store=store,
            host=host,
            target=slot.target,
            catalog=catalogs[config.target],
            events=view.sink(index),
            services=slot.services,
            preflight=probes.get(number, host, slot.target),
            use_cache=request.use_cache,
        )

    _interrupt_on_signals()
    fleet = Fleet(len(configs), hosts, make, label=lambda where: where[1])
    try:
        results = fleet.run()
    except KeyboardInterrupt:
        _leave_quietly()
        err.print("[yellow]autofix: interrupted; the running candidates were stopped and recorded[/]")
        if request.as_json:
            out.print_json(json.dumps({"status": "interrupted"}))
        sys.exit(EXIT_INTERRUPTED)
    finally:
        probes.close()
        for _, _, host in hosts:
            host.close()
    rows = _fleet_summary(configs, results)
    if request.as_json:
        click.echo(json.dumps(kept_out().scrub_tree({"runs": rows})))
    codes = [r.exit_code for r in results]
    sys.exit(next((c for c in codes if c == EXIT_INTERRUPTED), max(codes)))


def _fleet_summary(configs: list[BaseConfig], results: list[Any]) -> list[dict[str, Any]]:
    """A line per base at the end of a fleet, and the rows of its --json."""
    rows: list[dict[str, Any]] = []
    for config, r in zip(configs, results, strict=True):
        row: dict[str, Any] = {"base": config.source, "host": r.host}
        if r.result is not None:
            row.update(r.result.to_json())
            line = f"{r.result.run.status.value} run {r.result.run.id}, {r.result.attempts} attempt(s), "
            line += f"{r.result.launches} launch(es)"
            if r.result.winner is not None:
                line += "; gave up: " + ("; ".join(r.result.gave_up) or "nothing")
        elif r.error is not None:
            row.update(status="error", error=str(r.error))
            line = f"error: {r.error}"
        else:
            row.update(status="interrupted" if r.interrupted else "not run")
            line = str(row["status"]) + ("" if r.interrupted else " (no host left)")
        rows.append(row)
        err.print(f"[bold]{escape(config.name)}[/] on {escape(r.host or '-')}: {escape(line)}")
    return rows


def _interrupt_on_signals() -> None:
    """Ctrl-C, SIGTERM (systemd, CI, kill) and SIGHUP (a closed terminal, a dropped SSH
    session to the controller) all stop the search cleanly: the running candidate is
    stopped and recorded as interrupted. SIGINT is re-armed because a shell starts
    background jobs with it ignored."""

    def once() -> None:
        # One stop is enough: a repeat (systemd's SIGTERM then the terminal's SIGHUP) must
        # not interrupt the clean-up the first one started. Ctrl-C stays a person's to press.
        signal.signal(signal.SIGTERM, signal.SIG_IGN)
        signal.signal(signal.SIGHUP, signal.SIG_IGN)

    def stop(signum: int, _frame: object) -> None:
        once()
        raise KeyboardInterrupt(f"signal {signum}")

    def hang_up(signum: int, _frame: object) -> None:
        once()
        # The terminal is gone: writing to it would fail (EIO) in the middle of the
        # clean-up, so what is left to say goes nowhere instead.
        _detach_from_terminal()
        raise KeyboardInterrupt(f"signal {signum}")

    signal.signal(signal.SIGINT, signal.default_int_handler)
    signal.signal(signal.SIGTERM, stop)
    signal.signal(signal.SIGHUP, hang_up)


def _leave_quietly() -> None:
    """The interrupt is handled and the exit code decided (130): a second signal while the
    hosts close (a terminal's second SIGHUP, a process group's SIGINT) must not cut the
    clean-up short, nor turn the exit into death by signal."""
    for signum in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP):
        signal.signal(signum, signal.SIG_IGN)


def _detach_from_terminal() -> None:
    """Point the standard streams that are a terminal at /dev/null (a character device:
    a terminal that hung up may no longer answer isatty)."""
    import stat

    null = os.open(os.devnull, os.O_RDWR)
    for fd in (0, 1, 2):
        try:
            if stat.S_ISCHR(os.fstat(fd).st_mode):
                os.dup2(null, fd)
        except OSError:
            continue
    os.close(null)


# --- review ----------------------------------------------------------------------------------


def _store(db_url: str | None) -> Store:
    from .store import open_store

    return open_store(db_url)


def _duration(a: datetime, b: datetime | None) -> str:
    if b is None:
        return "-"
    return f"{(b - a).total_seconds():.1f}s"


def _attempt_json(a: Attempt, by_id: dict[int, Attempt] | None = None) -> dict[str, Any]:
    parent_seq = by_id[a.parent_id].seq if by_id and a.parent_id in by_id else None
    return {
        "id": a.id,
        "seq": a.seq,
        "parent": a.parent_id,
        "parent_seq": parent_seq,
        "move": a.move.to_json() if a.move else None,
        "move_label": a.move.label() if a.move else None,
        "state": a.state.value,
        "class": a.failure.class_id if a.failure else None,
        "failed_gate": a.failed_gate.value if a.failed_gate else None,
        "gates": [
            {"gate": v.gate.value, "ok": v.ok, "seconds": round(v.seconds, 3), "detail": v.detail} for v in a.verdicts
        ],
        "launched": a.launched,
        "cached_from": a.cached_from,
        "plan": [gate.value for gate in a.plan.gates] if a.plan else None,
        "seconds": round(a.seconds, 3) if a.seconds is not None else None,
        "exception": a.failure.exception if a.failure else None,
        "message": a.failure.message if a.failure else None,
        "fingerprint": a.failure.fingerprint if a.failure else None,
        "args": {k: list(v) if isinstance(v, tuple) else v for k, v in a.candidate.args},
        "env": a.candidate.env_dict(),
        "resolved": dict(a.resolved),
    }


def _run_json(run: Run, attempts: Sequence[Attempt]) -> dict[str, Any]:
    return {
        "id": run.id,
        "name": run.name,
        "host": run.host,
        "target": run.target,
        "status": run.status.value,
        "started_at": run.started_at.isoformat(),
        "ended_at": run.ended_at.isoformat() if run.ended_at else None,
        "attempts": len(attempts),
        "launches": sum(a.launched for a in attempts),
        "winner": run.winner_id,
    }


@main.command()
@click.argument("run_id", required=False, type=int)
@click.option("--db", "db_url", help=DB_HELP)
@click.option("--json", "as_json", is_flag=True)
@handles_errors
def history(run_id: int | None, db_url: str | None, as_json: bool) -> None:
    """List runs, or one run's attempts (seq, parent, move, class, gates, seconds)."""
    from rich.table import Table

    from .store import default_url

    store = _store(db_url)
    if run_id is None:
        runs = store.runs()
        rows = [_run_json(r, store.attempts(r.id)) for r in runs]
        if as_json:
            click.echo(json.dumps(rows))
            return
        table = Table(title=f"runs in {default_url() if db_url is None else db_url}")
        for col in ("run", "name", "host", "target", "status", "attempts", "launches", "winner", "started"):
            table.add_column(col)
        for r, row in zip(runs, rows, strict=True):
            table.add_row(
                str(r.id),
                escape(r.name),
                escape(r.host),
                escape(r.target),
                _status_markup(r.status),
                str(row["attempts"]),
                str(row["launches"]),
                str(r.winner_id or "-"),
                r.started_at.strftime("%Y-%m-%d %H:%M:%S"),
            )
        out.print(table)
        return
    run = store.run(run_id)
    attempts = store.attempts(run_id)
    by_id = {a.id: a for a in attempts}
    if as_json:
        click.echo(
            json.dumps({"run": _run_json(run, attempts), "attempts": [_attempt_json(a, by_id) for a in attempts]})
        )
        return
    table = Table(title=escape(f"run {run.id}: {run.name} on {run.host} ({run.target}) - {run.status.value}"))
    rewrote = "vLLM rewrote" if run.target.startswith("vllm") else "SGLang rewrote"
    for col in ("#", "id", "parent", "move", "state", "class", "gates", rewrote, "seconds"):
        table.add_column(col, overflow="fold")
    for a in attempts:
        parent = f"#{by_id[a.parent_id].seq}" if a.parent_id in by_id else "-"
        move = a.move.label() + (" (inferred)" if a.move.inferred else "") if a.move else "base"
        depth = _depth(a, by_id)
        move = ("  " * (depth - 1) + "└ " if depth else "") + move  # the search tree, by indentation
        gates = " ".join(f"{v.gate.value}:{'ok' if v.ok else 'FAIL'}" for v in a.verdicts)
        table.add_row(
            str(a.seq),
            str(a.id),
            parent,
            escape(move),
            _attempt_state(a),
            escape(a.failure.class_id or "unclassified") if a.failure else "-",
            gates,
            escape(_rewrites(a)),
            _duration(a.started_at, a.ended_at),
        )
    out.print(table)


def _depth(attempt: Attempt, by_id: dict[int, Attempt]) -> int:
    depth, node, seen = 0, attempt, set()
    while node.parent_id in by_id and node.id not in seen:
        seen.add(node.id)
        node = by_id[node.parent_id]
        depth += 1
    return depth


def _rewrites(attempt: Attempt) -> str:
    """The values the operator set that SGLang silently changed (from preflight)."""
    changed = dict(attempt.resolved).get("__changed__")
    if not isinstance(changed, dict):
        return ""
    set_fields = {flag.replace("-", "_") for flag, _ in attempt.candidate.args}
    shown = [
        f"{name} {raw}->{value}" for name, (raw, value) in changed.items() if name in set_fields and raw is not None
    ]
    return ", ".join(shown)


def _status_markup(status: RunStatus) -> str:
    color = {"passed": "green", "exhausted": "red", "running": "yellow"}.get(status.value, "yellow")
    return f"[{color}]{status.value}[/]"


def _attempt_state(a: Attempt) -> str:
    shown = _state_markup(a.state)
    if not a.cached_from:
        return shown
    covered = ",".join(v.gate.value for v in a.verdicts) or "no gate"
    return f"{shown} [dim](cached #{a.cached_from}: {covered})[/]"


def _state_markup(state: AttemptState) -> str:
    color = {"passed": "green", "failed": "red", "running": "yellow"}.get(state.value, "yellow")
    return f"[{color}]{state.value}[/]"


@main.command()
@click.argument("attempt_id", type=int)
@click.option("--db", "db_url", help=DB_HELP)
@click.option("--json", "as_json", is_flag=True)
@handles_errors
def show(attempt_id: int, db_url: str | None, as_json: bool) -> None:
    """One attempt: diff against the base, gate verdicts, failure, log excerpt."""
    from .config import parse_base

    store = _store(db_url)
    a = store.attempt(attempt_id)
    run = store.run(a.run_id)
    base = parse_base(run.base_text, source=run.base_path).base.redacted()
    parent = store.attempt(a.parent_id) if a.parent_id else None
    changes = diff(base, a.candidate)
    if as_json:
        data = _attempt_json(a)
        data.update(
            {
                "run": run.id,
                "diff_base": [{"kind": k, "name": n, "old": o, "new": v} for k, n, o, v in changes],
                "diff_parent": [
                    {"kind": k, "name": n, "old": o, "new": v} for k, n, o, v in diff(parent.candidate, a.candidate)
                ]
                if parent
                else [],
                "evidence": a.failure.evidence if a.failure else None,
                "frame": a.failure.frame.to_json() if a.failure and a.failure.frame else None,
                "log_excerpt": a.log_excerpt,
            }
        )
        click.echo(json.dumps(data, default=str))
        return
    out.print(
        f"[bold]attempt {a.id}[/] (run {run.id} #{a.seq}) {_state_markup(a.state)}"
        + (" [dim]launched on the GPUs[/]" if a.launched else " [dim]not launched[/]")
    )
    if a.move:
        out.print(f"move: {escape(a.move.label())}" + (" [dim](inferred)[/]" if a.move.inferred else ""))
    out.print("[bold]diff against the base:[/]" + ("" if changes else " none"))
    for kind, name, old, new in changes:
        out.print(f"  {kind} {escape(name)}: {escape(_shown(old))} -> {escape(_shown(new))}")
    if parent is not None:
        out.print(f"[bold]diff against the parent (#{parent.seq}):[/]")
        for kind, name, old, new in diff(parent.candidate, a.candidate):
            out.print(f"  {kind} {escape(name)}: {escape(_shown(old))} -> {escape(_shown(new))}")
    out.print("[bold]gates:[/]")
    for v in a.verdicts:
        out.print(
            f"  {v.gate.value:<9} {'[green]pass[/]' if v.ok else '[red]FAIL[/]'} {v.seconds:6.2f}s {escape(v.detail)}"
        )
    changed = dict(a.resolved).get("__changed__")
    if isinstance(changed, dict) and changed:
        out.print("[bold]what SGLang resolved differently from the argv:[/]")
        for name, (raw, value) in list(changed.items())[:30]:
            out.print(f"  {escape(name)}: {escape(_shown(raw))} -> {escape(_shown(value))}")
    if a.failure is not None:
        f = a.failure
        out.print(
            f"[bold]failure:[/] {escape(f.class_id or 'unclassified')} at {f.gate.value}  [dim]{f.fingerprint}[/]"
        )
        out.print(f"  {escape(f.title)}")
        if f.frame is not None:
            out.print(
                f"  in {escape(f.frame.function)} ({escape(f.frame.file)}:{f.frame.line}): {escape(f.frame.source)}"
            )
        if f.evidence:
            out.print("[bold]traceback excerpt:[/]")
            out.print(escape(f.evidence))
    if a.log_excerpt and (a.failure is None or a.failure.gate is not Gate.PREFLIGHT):
        out.print("[bold]log (last lines):[/]")
        out.print(escape("\n".join(a.log_excerpt.splitlines()[-25:])))


def _shown(value: object) -> str:
    if value is None:
        return "(absent)"
    if value is True:
        return "(flag)"
    if isinstance(value, tuple | list):
        return " ".join(str(v) for v in value)
    return str(value)


# --- export ----------------------------------------------------------------------------------


def write_atomically(path: str, text: str, *, mode: int = 0o644) -> None:
    """Write the whole file or nothing: a temp file in the same directory, then rename.
    Ctrl-C at any moment leaves the old file (or none) and no temp file behind: SIGINT and
    SIGTERM wait from before the temp file exists until it is renamed or removed (a signal
    between its creation and the clean-up would leave it), then take effect."""
    target = Path(path)
    directory = target.parent if str(target.parent) else Path(".")
    held = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT, signal.SIGTERM})
    try:
        try:
            fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", dir=directory)
        except OSError as exc:
            raise InputError(f"{path}: cannot write: {exc.strerror}") from None
        try:
            with os.fdopen(fd, "w", encoding="utf-8") as fh:
                fh.write(text)
                fh.flush()
                os.fsync(fh.fileno())
            os.chmod(tmp, mode)
            os.replace(tmp, target)
        except OSError as exc:
            Path(tmp).unlink(missing_ok=True)
            raise InputError(f"{path}: cannot write: {exc.strerror}") from None
        except BaseException:
            Path(tmp).unlink(missing_ok=True)
            raise
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, held)


@main.command()
@click.argument("run_id", type=int)
@click.option("--format", "fmt", type=click.Choice(EXPORT_FORMATS), default="unit", show_default=True)
@click.option("-o", "--output", help="Write to this file (atomically) instead of stdout.")
@click.option("--db", "db_url", help=DB_HELP)
@handles_errors
def export(run_id: int, fmt: str, output: str | None, db_url: str | None) -> None:
    """Export a run's winner as a systemd unit, argv, env file or base YAML."""
    from .config import parse_base
    from .export import ExportContext, render

    store = _store(db_url)
    run = store.run(run_id)
    if run.winner_id is None:
        raise InputError(f"run {run_id}: has no winner to export (status {run.status.value})")
    winner = store.attempt(run.winner_id)
    config = parse_base(run.base_text, source=run.base_path)
    moves = store.path_moves(winner)
    ctx = ExportContext(
        config=config,
        candidate=winner.candidate,
        run_id=run.id,
        attempt_id=winner.id,
        moves=tuple(m.label() for m in moves),
        when=(winner.ended_at or datetime.now(UTC)).strftime("%Y-%m-%d %H:%M UTC"),
    )
    text = render(fmt, ctx)
    if output:
        write_atomically(output, text)
        err.print(f"wrote {escape(output)} ({fmt}, run {run.id}, attempt {winner.id})")
    else:
        click.echo(text, nl=False)


# --- graph -----------------------------------------------------------------------------------


@main.command()
@click.argument("run_id", type=int)
@click.option("--format", "fmt", type=click.Choice(["dot", "html"]), default="dot", show_default=True)
@click.option("-o", "--output", help="Write to this file instead of stdout.")
@click.option("--db", "db_url", help=DB_HELP)
@handles_errors
def graph(run_id: int, fmt: str, output: str | None, db_url: str | None) -> None:
    """The run's search graph: DOT, or one self-contained HTML page drawn by graphviz."""
    from .export import render_dot, render_html

    store = _store(db_url)
    run = store.run(run_id)
    attempts = store.attempts(run_id)
    text = render_dot(run, attempts, store.edges(run_id))
    if fmt == "html":
        text = render_html(run, attempts, _dot_to_svg(text))
    if output:
        write_atomically(output, text)
    else:
        click.echo(text, nl=False)


def _dot_to_svg(dot: str) -> str:
    """Graphviz draws the graph (Debian's graphviz package provides `dot`)."""
    import shutil
    import subprocess

    from .errors import ToolError

    exe = shutil.which("dot")
    if exe is None:
        raise ToolError("graph --format html needs graphviz's `dot`, which is not installed: apt-get install graphviz")
    done = subprocess.run([exe, "-Tsvg"], input=dot.encode(), capture_output=True, check=False, timeout=120)
    if done.returncode != 0:
        raise ToolError(f"graphviz's dot failed: {done.stderr.decode(errors='replace').strip()[-300:]}")
    svg = done.stdout.decode("utf-8", errors="replace")
    return svg[svg.find("<svg") :]  # inline: without the XML prolog and doctype


# --- classify / strategies ---------------------------------------------------------------------


@main.command(name="classify")
@click.argument("source", default="-", required=False)
@click.option(
    "--gate",
    type=click.Choice([g.value for g in Gate]),
    default="preflight",
    show_default=True,
    help="The gate the failure happened at (some classes only match at one).",
)
@click.option(
    "--target",
    "target_opt",
    type=click.Choice(["sglang", "vllm"]),
    help="The engine that wrote the journal (default: told by its tracebacks' frames).",
)
@click.option("--json", "as_json", is_flag=True)
@click.option(
    "--python",
    "python_path",
    help="An SGLang install's python: the failing frame's file is read from its site-packages, "
    "so the moves match what a search on that host would propose.",
)
@handles_errors
def classify_cmd(source: str, gate: str, target_opt: str | None, as_json: bool, python_path: str | None) -> None:
    """Classify journal text offline and suggest moves.

    SOURCE is a file, or - for standard input (any journalctl output form, docker or
    kubectl logs, a paste of an issue's log), e.g.:

    \b
        journalctl -u UNIT | autofix classify -
        journalctl -u UNIT -o json | autofix classify - --json
    """
    from .catalog import load_catalog
    from .classify import classify, engine_of
    from .repair import offline_moves
    from .tracebacks import parse_stream

    if source == "-":
        stdin = getattr(sys.stdin, "buffer", None)
        if stdin is None:
            raise InputError("-: standard input is closed: give a file, or pipe the journal in")
        try:
            journal = parse_stream(stdin)
        except OSError as exc:
            raise InputError(f"-: cannot read standard input: {exc.strerror}") from None
    else:
        try:
            with open(source, "rb") as fh:
                journal = parse_stream(fh)
        except OSError as exc:
            raise InputError(f"{source}: cannot read: {exc.strerror}") from None
    family = target_opt or engine_of(journal)
    catalog = load_catalog(family=family)
    diagnosis = classify(journal, catalog, Gate(gate), package=family)
    frame_source = _installed_source(python_path, diagnosis.failure.frame) if python_path else None
    moves = offline_moves(diagnosis, catalog, frame_source, command=journal.command)
    f = diagnosis.failure
    if as_json:
        frame = f.frame.to_json() if f.frame else None
        click.echo(
            json.dumps(
                {
                    "class": f.class_id,
                    "fingerprint": f.fingerprint,
                    "exception": f.exception,
                    "message": f.message,
                    "frame": frame,
                    "moves": [m.to_json() for m in moves],
                }
            )
        )
        return
    title = diagnosis.failure_class.title if diagnosis.failure_class else "no catalogued class"
    out.print(f"[bold]{escape(f.class_id or 'unclassified')}[/]: {escape(title)}  [dim]{f.fingerprint}[/]")
    out.print(f"  {escape(f.title)}")
    if f.frame is not None:
        out.print(f"  in {escape(f.frame.function)} ({escape(f.frame.file)}:{f.frame.line}): {escape(f.frame.source)}")
    if moves:
        out.print("[bold]moves, best first:[/]")
        for m in moves:
            out.print(f"  {escape(m.label())}" + (" [dim](inferred)[/]" if m.inferred else ""))


def _installed_source(python: str, frame: Any) -> str | None:
    """The failing frame's file as installed for ``python`` (matched under site-packages)."""
    import subprocess

    if frame is None:
        return None
    try:
        done = subprocess.run(
            [python, "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
            capture_output=True, text=True, timeout=60, check=False,
        )  # fmt: skip
    except OSError as exc:
        raise InputError(f"--python {python}: cannot run: {exc.strerror}") from None
    if done.returncode != 0 or not done.stdout.strip():
        raise InputError(f"--python {python}: not a Python interpreter")
    path = str(frame.file).replace("\\", "/")
    marker = "site-packages/"
    rel = path[path.rfind(marker) + len(marker) :] if marker in path else path[path.find("sglang/") :]
    try:
        return (Path(done.stdout.strip()) / rel).read_text(encoding="utf-8", errors="replace")
    except OSError:
        return None


DEFAULT_CAPTURES = Path("tests/data/journals/expected.yaml")


def _load_captures(index: Path) -> list[tuple[str, Any, Gate, str | None]]:
    """The capture index (file -> {class, gate}) and each capture parsed."""
    import yaml

    from .tracebacks import parse_stream

    try:
        entries = yaml.safe_load(index.read_text(encoding="utf-8")) or {}
    except (OSError, yaml.YAMLError) as exc:
        raise InputError(f"{index}: cannot read the capture index: {exc}") from None
    if not isinstance(entries, dict):
        raise InputError(f"{index}: must map capture files to {{class, gate}}")
    captures = []
    for name, spec in entries.items():
        if not isinstance(spec, dict) or "gate" not in spec:
            raise InputError(f"{index}: {name}: needs class: and gate:")
        try:
            gate = Gate(spec["gate"])
        except ValueError:
            raise InputError(f"{index}: {name}: unknown gate {spec['gate']!r}") from None
        path = index.parent / str(name)
        try:
            with open(path, "rb") as fh:
                journal = parse_stream(fh)
        except OSError as exc:
            raise InputError(f"{index}: {name}: cannot read: {exc.strerror}") from None
        captures.append((str(name), journal, gate, spec.get("class")))
    return captures


@main.command()
@click.option("--check", is_flag=True, help="Validate the catalogue (exit 2 on any problem).")
@click.option(
    "--captures",
    "captures_path",
    type=click.Path(path_type=Path),
    help="Capture index (file -> {class, gate}) to check the catalogue against "
    "(default tests/data/journals/expected.yaml when it exists).",
)
@click.option("--json", "as_json", is_flag=True)
@handles_errors
def strategies(check: bool, captures_path: Path | None, as_json: bool) -> None:
    """List the failure classes of strategies/*.yaml; --check validates them."""
    from rich.table import Table

    from .catalog import load_catalog
    from .classify import check_captures

    catalog: Catalog = load_catalog()
    # vLLM's classes are checked (parsed, regexes compiled) and listed beside SGLang's.
    vllm_catalog = load_catalog(family="vllm")
    if check:
        index = captures_path or (DEFAULT_CAPTURES if DEFAULT_CAPTURES.exists() else None)
        report = check_captures(catalog, _load_captures(index)) if index else None
        if as_json:
            click.echo(
                json.dumps(
                    {
                        "classes": len(catalog.classes),
                        "captures": report.checked if report else 0,
                        "mismatches": [
                            {"capture": n, "expected": e, "got": g} for n, e, g in (report.mismatches if report else ())
                        ],
                        "unexercised": list(report.unexercised) if report else [c.id for c in catalog.classes],
                    }
                )
            )
        else:
            out.print(
                f"{len(catalog.classes)} classes, {len(catalog.aliases)} aliases, {len(catalog.flags)} flags: valid"
            )
            out.print(f"vllm: {len(vllm_catalog.classes)} classes: valid")
            if report is None:
                out.print("no capture index given: cannot say which classes are exercised")
            else:
                out.print(f"{report.checked} captures checked from {index}")
                for name, expected, got in report.mismatches:
                    out.print(f"[red]mismatch[/] {escape(name)}: expected {expected}, got {got}")
                if report.unexercised:
                    names = ", ".join(report.unexercised)
                    out.print(f"[yellow]{len(report.unexercised)} classes no capture exercises:[/] {names}")
        if report is not None and report.mismatches:
            sys.exit(1)
        return
    if as_json:
        click.echo(
            json.dumps(
                [
                    {"id": c.id, "title": c.title, "file": c.origin, "moves": len(c.moves), "note": c.note}
                    for c in (*catalog.classes, *vllm_catalog.classes)
                ]
            )
        )
        return
    table = Table(title="failure classes")
    for col in ("id", "file", "moves", "title"):
        table.add_column(col)
    for c in (*catalog.classes, *vllm_catalog.classes):
        table.add_row(c.id, c.origin, str(len(c.moves)), c.title)
    out.print(table)


if __name__ == "__main__":  # pragma: no cover
    main()
