"""Pure renderers of a winning candidate: systemd unit, argv, env file, base YAML.

systemd's quoting is not the shell's: in ExecStart= and Environment= a ``%`` starts a
specifier (write ``%%``), ``$`` starts a variable in ExecStart= (write ``$$``), a lone
``;`` separates commands, and quoted words use C escapes. Every word is quoted here by
those rules, so any value reaches SGLang byte for byte as one argument.
Secret env values (names matching TOKEN|KEY|SECRET|PASSWORD) never appear inline: the
unit reads them from an EnvironmentFile= the operator fills in.
"""

from __future__ import annotations

import html
import re
import shlex
from collections.abc import Sequence
from dataclasses import dataclass

import yaml

from .config import BaseConfig
from .model import SECRET_NAME, Attempt, Candidate, Run
from .store.values import Edge

FORMATS = ("unit", "argv", "env", "yaml")
_SAFE_WORD = re.compile(r"^[A-Za-z0-9_./:=,+@-]+$")


@dataclass(frozen=True)
class ExportContext:
    config: BaseConfig
    candidate: Candidate
    run_id: int
    attempt_id: int
    moves: tuple[str, ...] = ()
    when: str = ""


def _escape_c(text: str, *, dollars: bool) -> str:
    out: list[str] = []
    for ch in text:
        if ch == "\\":
            out.append("\\\\")
        elif ch == '"':
            out.append('\\"')
        elif ch == "%":
            out.append("%%")
        elif ch == "$" and dollars:
            out.append("$$")
        elif ch == "\n":
            out.append("\\n")
        elif ch == "\t":
            out.append("\\t")
        elif ord(ch) < 0x20 or ord(ch) == 0x7F:
            out.append(f"\\x{ord(ch):02x}")
        else:
            out.append(ch)
    return "".join(out)


def systemd_word(arg: str) -> str:
    """One ExecStart= word that systemd splits back into exactly ``arg``."""
    if arg and _SAFE_WORD.match(arg):
        return arg
    return '"' + _escape_c(arg, dollars=True) + '"'


def systemd_exec(argv: Sequence[str]) -> str:
    return " ".join(systemd_word(a) for a in argv)


def systemd_env(name: str, value: str) -> str:
    """An Environment= assignment (no $-expansion there, but % specifiers and quotes)."""
    return '"' + _escape_c(f"{name}={value}", dollars=False) + '"'


def secret_env_file(unit: str) -> str:
    return f"/etc/autofix/{unit}.env"


def render_unit(ctx: ExportContext) -> str:
    cfg = ctx.config
    unit = cfg.unit
    argv = [cfg.launch.python, "-m", cfg.launch.module, *cfg.launch.subcommand, *ctx.candidate.argv()]
    env = ctx.candidate.env
    plain = [(n, v) for n, v in env if not SECRET_NAME.search(n)]
    secret = [n for n, _ in env if SECRET_NAME.search(n)]
    lines = [
        f"# {unit}.service: exported by autofix from run {ctx.run_id}, attempt {ctx.attempt_id}"
        + (f" ({ctx.when})" if ctx.when else ""),
        f"# Base config: {cfg.source}",
    ]
    if ctx.moves:
        lines.append("# Repairs applied to the base: " + "; ".join(ctx.moves))
    lines += [
        "",
        "[Unit]",
        f"Description=SGLang {cfg.name} (found by autofix run {ctx.run_id})",
        "After=network-online.target",
        "Wants=network-online.target",
    ]
    for other in cfg.service.conflicts:
        lines.append(f"Conflicts={other}")
    lines += ["", "[Service]", "Type=simple"]
    for name, value in plain:
        lines.append(f"Environment={systemd_env(name, value)}")
    if secret:
        lines.append(f"# Secrets ({', '.join(secret)}) are read from this file, never written here:")
        lines.append(f"EnvironmentFile=-{secret_env_file(unit)}")
    if cfg.launch.cwd:
        lines.append(f"WorkingDirectory={systemd_word(cfg.launch.cwd)}")
    lines += [
        f"ExecStart={systemd_exec(argv)}",
        "Restart=on-failure",
        "RestartSec=30",
        "# Loading the weights takes minutes; Type=simple does not wait for it, the stop may.",
        "TimeoutStopSec=120",
        "KillMode=control-group",
        "LimitNOFILE=1048576",
        "",
        "[Install]",
        "WantedBy=multi-user.target",
        "",
    ]
    return "\n".join(lines)


def render_argv(ctx: ExportContext) -> str:
    cfg = ctx.config
    argv = [cfg.launch.python, "-m", cfg.launch.module, *cfg.launch.subcommand, *ctx.candidate.argv()]
    env = [f"{n}={shlex.quote(v)}" for n, v in ctx.candidate.env if not SECRET_NAME.search(n)]
    secrets = [n for n, _ in ctx.candidate.env if SECRET_NAME.search(n)]
    prefix = " ".join(env)
    line = (prefix + " " if prefix else "") + shlex.join(argv)
    note = f"# set {', '.join(secrets)} in your environment first\n" if secrets else ""
    return note + line + "\n"


def render_env(ctx: ExportContext) -> str:
    """An EnvironmentFile= / docker --env-file style file (no quoting, one per line)."""
    lines = []
    for name, value in ctx.candidate.env:
        if SECRET_NAME.search(name):
            lines.append(f"# {name}=<set me: secrets are not stored by autofix>")
        else:
            lines.append(f"{name}={value}")
    return "\n".join(lines) + ("\n" if lines else "")


def render_yaml(ctx: ExportContext) -> str:
    """A base config that reproduces the winner (its args and env as the launch)."""
    cfg = ctx.config
    args: dict[str, object] = {}
    for flag, value in ctx.candidate.args:
        args[flag] = list(value) if isinstance(value, tuple) else _yaml_scalar(value)
    env = {n: ("<set me>" if SECRET_NAME.search(n) else v) for n, v in ctx.candidate.env}
    data: dict[str, object] = {
        "name": cfg.name,
        "host": cfg.host,
        "service": {"manager": cfg.service.manager, "unit": cfg.unit, "conflicts": list(cfg.service.conflicts)},
        "launch": {"python": cfg.launch.python, "module": cfg.launch.module, "args": args, "env": env},
        "search": {"pinned": list(cfg.search.pinned)},
    }
    header = f"# Winner of autofix run {ctx.run_id} (attempt {ctx.attempt_id}), from {cfg.source}\n"
    return header + yaml.safe_dump(data, sort_keys=False, default_flow_style=False)


def _yaml_scalar(value: object) -> object:
    if value is True:
        return True
    text = str(value)
    for cast in (int, float):
        try:
            number = cast(text)
        except ValueError:
            continue
        if str(number) == text:
            return number
    return text


RENDERERS = {"unit": render_unit, "argv": render_argv, "env": render_env, "yaml": render_yaml}


def render(fmt: str, ctx: ExportContext) -> str:
    return RENDERERS[fmt](ctx)


# --- the search graph ------------------------------------------------------------------------

_STATE_COLOURS = {
    "passed": "palegreen",
    "failed": "lightpink",
    "timeout": "orange",
    "interrupted": "khaki",
    "host_lost": "lightgrey",
    "blocked": "lightgrey",
    "running": "lightyellow",
}


def _dot_id(text: str) -> str:
    """A DOT quoted string; real newlines become DOT's line breaks."""
    escaped = text.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n")
    return '"' + escaped + '"'


def render_dot(run: Run, attempts: Sequence[Attempt], edges: Sequence[Edge]) -> str:
    """Graphviz DOT: attempted candidates coloured by outcome, untried ones dashed,
    edges labelled by move, the winner's path in bold."""
    by_key = {a.candidate.key: a for a in attempts}
    by_id = {a.id: a for a in attempts}
    winner_path: set[int] = set()
    node = by_id.get(run.winner_id) if run.winner_id else None
    while node is not None and node.id not in winner_path:
        winner_path.add(node.id)
        node = by_id.get(node.parent_id) if node.parent_id else None
    lines = [
        f"digraph run_{run.id} {{",
        "  rankdir=TB;",
        '  node [shape=box, style="rounded,filled", fontname="Helvetica"];',
    ]
    keys: set[str] = set()
    for a in attempts:
        key = a.candidate.key
        keys.add(key)
        label = f"#{a.seq} {a.state.value}"
        if a.failure is not None:
            label += f"\n{a.failure.class_id or 'unclassified'}"
        bold = ", penwidth=3" if a.id in winner_path else ""
        colour = _STATE_COLOURS.get(a.state.value, "white")
        lines.append(f"  {_dot_id(key[:12])} [label={_dot_id(label)}, fillcolor={colour}{bold}];")
    for e in edges:
        if e.child_key not in keys:
            keys.add(e.child_key)
            lines.append(f'  {_dot_id(e.child_key[:12])} [label="untried", style="rounded,dashed", fillcolor=white];')
    for e in edges:
        child = by_key.get(e.child_key)
        parent = by_key.get(e.parent_key)
        on_path = child is not None and parent is not None and child.id in winner_path and parent.id in winner_path
        style = ", penwidth=3" if on_path else (", style=dashed" if e.move.inferred else "")
        lines.append(
            f"  {_dot_id(e.parent_key[:12])} -> {_dot_id(e.child_key[:12])} [label={_dot_id(e.move.label())}{style}];"
        )
    lines.append("}")
    return "\n".join(lines) + "\n"


_STATE_MEANINGS = {
    "passed": "passed every gate",
    "failed": "a gate failed: the failure's class names the kind",
    "timeout": "a gate waited out its timeout",
    "interrupted": "stopped by Ctrl-C, a signal or a dead controller",
    "host_lost": "the host lost the candidate (a dropped connection, a reboot)",
    "blocked": "the host would not let it be judged (its port held by another process)",
    "running": "still running when the page was made",
}


def _bench_text(attempt: Attempt) -> str:
    """The bench gate's figures of an attempt, as an operator reads them."""
    bench = dict(attempt.resolved).get("__bench__")
    if not isinstance(bench, dict) or "tokens_per_s" not in bench:
        return ""
    parts = [f"{bench['tokens_per_s']:.1f} tok/s"]
    parts += [f"{v:.1f} tok/s at {k.split('_x')[1]} streams" for k, v in bench.items() if "_x" in k]
    if "accept_length" in bench:
        parts.append(f"accept length {bench['accept_length']:.2f}")
    return ", ".join(parts)


def _legend(attempts: Sequence[Attempt]) -> str:
    """Every mark the graph uses: node fills by outcome, the untried box, the three edges."""
    states = [s for s in _STATE_COLOURS if any(a.state.value == s for a in attempts)]
    items = [
        f'<li><span class="swatch" style="background:{_STATE_COLOURS[s]}"></span><b>{s}</b>: {_STATE_MEANINGS[s]}</li>'
        for s in states
    ]
    items += [
        '<li><span class="swatch untried"></span><b>untried</b>: a candidate a move proposed, not run '
        "(the search passed before it)</li>",
        '<li><span class="edge solid"></span><b>solid edge</b>: a curated move (a failure class of the catalogue)</li>',
        '<li><span class="edge dashed"></span><b>dashed edge</b>: an inferred move (read from the message, the '
        "failing statement or the parser; no class knew the failure)</li>",
        '<li><span class="edge bold"></span><b>bold</b>: the winner\'s path from the base</li>',
    ]
    return '<ul id="legend">' + "".join(items) + "</ul>"


def render_html(run: Run, attempts: Sequence[Attempt], svg: str) -> str:
    """One self-contained page: the search graph (an SVG drawn by graphviz), its legend, and
    the attempts with their failure's message and bench figures."""
    by_id = {a.id: a for a in attempts}
    rows = []
    for a in attempts:
        parent = f"#{by_id[a.parent_id].seq}" if a.parent_id in by_id else ""
        move = (
            html.escape(a.move.label()) + (" <em>(inferred)</em>" if a.move and a.move.inferred else "")
            if a.move
            else "base"
        )
        gates = " ".join(f"{v.gate.value}:{'ok' if v.ok else 'FAIL'}" for v in a.verdicts)
        failure = html.escape(a.failure.class_id or "unclassified") if a.failure else ""
        message = html.escape(a.failure.title[:400]) if a.failure else ""
        rows.append(
            f'<tr class="{a.state.value}"><td>#{a.seq}</td><td>{parent}</td><td>{move}</td>'
            f"<td>{a.state.value}{' (cached)' if a.cached_from else ''}</td><td>{failure}</td>"
            f'<td class="message">{message}</td><td>{html.escape(gates)}</td>'
            f'<td class="bench">{html.escape(_bench_text(a))}</td><td>{"yes" if a.launched else ""}</td></tr>'
        )
    winner = f"winner: attempt #{by_id[run.winner_id].seq}" if run.winner_id in by_id else "no winner"
    return f"""<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8">
<title>autofix run {run.id}: {html.escape(run.name)}</title>
<style>
body {{ font-family: Helvetica, Arial, sans-serif; margin: 1.5em; color: #222; }}
h1 {{ font-size: 1.3em; }} .meta {{ color: #555; }}
#graph svg {{ max-width: 100%; height: auto; border: 1px solid #ddd; }}
#legend {{ list-style: none; padding: 0; font-size: 0.9em; }} #legend li {{ margin: 2px 0; }}
.swatch {{ display: inline-block; width: 1.4em; height: 0.9em; border: 1px solid #555; border-radius: 3px;
  margin-right: 0.5em; vertical-align: middle; }}
.swatch.untried {{ background: white; border-style: dashed; }}
.edge {{ display: inline-block; width: 2.2em; margin-right: 0.5em; vertical-align: middle;
  border-top: 2px solid #222; }}
.edge.dashed {{ border-top-style: dashed; }} .edge.bold {{ border-top-width: 4px; }}
table {{ border-collapse: collapse; margin-top: 1em; }}
td, th {{ border: 1px solid #ccc; padding: 3px 8px; font-size: 0.9em; vertical-align: top; }}
td.message {{ max-width: 36em; font-family: monospace; font-size: 0.8em; }}
tr.passed {{ background: #e6f7e6; }} tr.failed {{ background: #fbeaea; }}
tr.interrupted, tr.host_lost, tr.blocked {{ background: #f6f3dc; }}
</style></head>
<body>
<h1>autofix run {run.id}: {html.escape(run.name)}</h1>
<p class="meta">{html.escape(run.host)} ({html.escape(run.target)}), {run.status.value}, {len(attempts)} attempts,
{sum(a.launched for a in attempts)} launched; {winner}.</p>
<div id="graph">
{svg}
</div>
{_legend(attempts)}
<table id="attempts"><thead><tr><th>#</th><th>parent</th><th>move</th><th>state</th><th>class</th>
<th>message</th><th>gates</th><th>bench</th><th>launched</th></tr></thead>
<tbody>
{chr(10).join(rows)}
</tbody></table>
</body></html>
"""
