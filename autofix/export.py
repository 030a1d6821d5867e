"""Pure renderers of a winning candidate: systemd unit, argv, env file, base YAML.

systemd's quoting is not the shell's: in ExecStart= and Environment= a ``%`` starts a
specifier (write ``%%``), ``$`` starts a variable in ExecStart= (write ``$$``), a lone
``;`` separates commands, and quoted words use C escapes. Every word is quoted here by
those rules, so any value reaches SGLang byte for byte as one argument.
Secrets (autofix/secrets.py) never appear in an export: secret env vars are read from an
EnvironmentFile= the operator fills in, secret flags from SGLang's own ``--config`` YAML
file, which keeps them off every command line (``ps``) too.

The env file follows systemd's EnvironmentFile= rules (man systemd.exec): a value that is
not plain is single-quoted (everything verbatim), or double-quoted when it holds a single
quote (backslash before ``"\\`$``), so it reads back byte for byte. The YAML export writes
each value so that it reads back as the very same candidate (same key).
"""

from __future__ import annotations

import html
import re
import shlex
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import yaml

from .config import BaseConfig
from .model import REDACTED, ArgValue, Attempt, Candidate, Run
from .store.values import Edge

FORMATS = ("unit", "argv", "env", "yaml")
_SAFE_WORD = re.compile(r"^[A-Za-z0-9_./:=,+@-]+\Z")
_BARE_ENV_VALUE = re.compile(r"^[A-Za-z0-9_./:,+@%=-]+\Z")
_PLACEHOLDER = "<set me: autofix keeps no secrets>"


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


def secret_args_file(unit: str) -> str:
    """The operator's SGLang --config file for the unit's secret flags (mode 0600)."""
    return f"/etc/autofix/{unit}.secrets.yaml"


def environment_file_line(name: str, value: str) -> str:
    """NAME=value that systemd's EnvironmentFile= parser reads back as exactly ``value``."""
    if value == "" or _BARE_ENV_VALUE.match(value):
        return f"{name}={value}"
    if "'" not in value:
        return f"{name}='{value}'"  # verbatim up to the next single quote
    escaped = "".join("\\" + ch if ch in '"\\`$' else ch for ch in value)
    return f'{name}="{escaped}"'


def environment_file(env: Sequence[tuple[str, str]]) -> str:
    """A whole EnvironmentFile=, one assignment per line."""
    return "".join(environment_file_line(name, value) + "\n" for name, value in env)


def secret_args_text(args: Mapping[str, ArgValue]) -> str:
    """SGLang's --config YAML for these flags: every value a double-quoted string, so YAML
    reads back exactly the text (SGLang passes each as ``--flag value``)."""
    data = {flag: list(value) if isinstance(value, tuple) else value for flag, value in args.items()}
    return yaml.safe_dump(data, default_style='"', allow_unicode=False, sort_keys=False, width=1 << 30)


@dataclass(frozen=True)
class _Split:
    """What of a candidate an export may show, and the names of what it may not."""

    argv: list[str]
    plain_env: list[tuple[str, str]]
    secret_env: list[str]
    secret_flags: list[str]


def _split(ctx: ExportContext) -> _Split:
    secrets = ctx.config.secrets
    public_args = []
    secret_flags = []
    for flag, value in ctx.candidate.args:
        values = value if isinstance(value, tuple) else (value,)
        if value is not True and (secrets.flag_is_secret(flag) or REDACTED in values):
            secret_flags.append(flag)
        else:
            public_args.append((flag, value))
    public = Candidate(tuple(public_args), ())
    plain = [(n, v) for n, v in ctx.candidate.env if not (secrets.env_is_secret(n) or v == REDACTED)]
    secret_env = [n for n, v in ctx.candidate.env if secrets.env_is_secret(n) or v == REDACTED]
    launch = ctx.config.launch
    argv = [launch.python, "-m", launch.module, *launch.subcommand, *public.argv()]
    if secret_flags:
        argv += ["--config", secret_args_file(ctx.config.unit)]
    return _Split(argv, plain, secret_env, secret_flags)


def render_unit(ctx: ExportContext) -> str:
    cfg = ctx.config
    unit = cfg.unit
    split = _split(ctx)
    lines = [
        f"# {unit}.service: exported by autofix from run {ctx.run_id}, attempt {ctx.attempt_id}"
        + (f" ({ctx.when})" if ctx.when else ""),
        f"# Base config: {_comment(cfg.source)}",
    ]
    if ctx.moves:
        lines.append("# Repairs applied to the base: " + _comment("; ".join(ctx.moves)))
    lines += _secrets_note(unit, split)
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
    for name, value in split.plain_env:
        lines.append(f"Environment={systemd_env(name, value)}")
    for path in env_file_entries(cfg, split):
        lines.append(f"EnvironmentFile={path}")
    if cfg.launch.cwd:
        lines.append(f"WorkingDirectory={systemd_word(cfg.launch.cwd)}")
    lines += [
        f"ExecStart={systemd_exec(split.argv)}",
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


def env_file_entries(cfg: BaseConfig, split: _Split) -> list[str]:
    """The unit's EnvironmentFile= paths: the operator's own (launch.env_files, in their
    order: a later one wins), then autofix's file for the secrets it keeps out, unless
    the operator already lists it."""
    entries = list(cfg.launch.env_files)
    ours = f"-{secret_env_file(cfg.unit)}"
    if split.secret_env and not {ours, ours[1:]} & set(entries):
        entries.append(ours)
    return entries


def _secrets_note(unit: str, split: _Split) -> list[str]:
    """What the operator puts in place: names only, never values."""
    lines = []
    if split.secret_env or split.secret_flags:
        lines.append("# Secrets are not in this file; autofix keeps none. Put them in place (mode 0600) first:")
    if split.secret_env:
        lines.append(f"#   {secret_env_file(unit)}: {', '.join(f'{n}=...' for n in split.secret_env)}")
    if split.secret_flags:
        lines.append(f"# {secret_args_file(unit)}")
        lines.append(f"#   (SGLang's --config YAML): {', '.join(f'{f}: ...' for f in split.secret_flags)}")
    return lines


def _comment(text: str) -> str:
    """Text for a comment line: one line, nothing a unit parser would continue."""
    return "".join(ch if ch.isprintable() else "?" for ch in text).rstrip("\\")


def render_argv(ctx: ExportContext) -> str:
    split = _split(ctx)
    env = [f"{n}={shlex.quote(v)}" for n, v in split.plain_env]
    prefix = " ".join(env)
    line = (prefix + " " if prefix else "") + shlex.join(split.argv)
    notes = []
    if ctx.config.launch.env_files:
        files = ", ".join(p.removeprefix("-") for p in ctx.config.launch.env_files)
        notes.append(f"# set the variables of {files} in your environment first\n")
    if split.secret_env:
        notes.append(f"# set {', '.join(split.secret_env)} in your environment first\n")
    if split.secret_flags:
        notes.append(
            f"# put {', '.join(split.secret_flags)} in {secret_args_file(ctx.config.unit)} (SGLang's --config YAML,"
            " mode 0600) first\n"
        )
    return "".join(notes) + line + "\n"


def render_env(ctx: ExportContext) -> str:
    """A systemd EnvironmentFile=: the winner's env, each value quoted by systemd's rules
    (docker's --env-file does not unquote: use it there for plain values only). Secret
    names are comments: set them yourself."""
    split = _split(ctx)
    lines = [f"# {name}={_PLACEHOLDER}\n" for name in split.secret_env]
    return "".join(lines) + environment_file(split.plain_env)


def render_yaml(ctx: ExportContext) -> str:
    """A base config that reproduces the winner (its args and env as the launch): every
    value reads back as the same candidate; secrets are placeholders to fill in."""
    cfg = ctx.config
    split = _split(ctx)
    args: dict[str, object] = {}
    for flag, value in ctx.candidate.args:
        if flag in split.secret_flags:
            args[flag] = [_PLACEHOLDER for _ in value] if isinstance(value, tuple) else _PLACEHOLDER
        else:
            args[flag] = [yaml_scalar(v) for v in value] if isinstance(value, tuple) else yaml_scalar(value)
    env = {n: (_PLACEHOLDER if n in split.secret_env else v) for n, v in ctx.candidate.env}
    launch: dict[str, object] = {"python": cfg.launch.python, "module": cfg.launch.module}
    if cfg.launch.cwd:
        launch["cwd"] = cfg.launch.cwd
    launch.update({"args": args, "env": env})
    if cfg.launch.env_files:
        launch["env_files"] = list(cfg.launch.env_files)
    search: dict[str, object] = {"pinned": list(cfg.search.pinned)}
    if cfg.search.secrets:
        search["secrets"] = list(cfg.search.secrets)
    data: dict[str, object] = {
        "name": cfg.name,
        "host": cfg.host,
        "service": {"manager": cfg.service.manager, "unit": cfg.unit, "conflicts": list(cfg.service.conflicts)},
        "launch": launch,
        "search": search,
    }
    header = f"# Winner of autofix run {ctx.run_id} (attempt {ctx.attempt_id}), from {_comment(cfg.source)}\n"
    return header + yaml.safe_dump(data, sort_keys=False, default_flow_style=False, allow_unicode=True, width=1 << 30)


def yaml_scalar(value: object) -> object:
    """A value as YAML should carry it: a whole number written as one (``tp: 8``) when it
    reads back as the same text, else the text itself (PyYAML quotes what would read as
    something else: "1.0", "nan", "yes", "010")."""
    if value is True:
        return True
    text = str(value)
    if re.fullmatch(r"-?[1-9][0-9]{0,17}|0", text):
        return int(text)
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
