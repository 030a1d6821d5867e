"""A server's command line read as its parser would: interpreter, module, flags, env.

Accepted shapes (what operators' units, scripts and generators write):

    [env] [NAME=value ...] [wrapper ...] PYTHON [-u|-O|-X opt ...] -m sglang.launch_server FLAGS
    [NAME=value ...] /venv/bin/sglang serve FLAGS          (SGLang's own CLI: the same server)
    [NAME=value ...] PYTHON -m vllm.entrypoints.openai.api_server FLAGS
    [NAME=value ...] [/venv/bin/]vllm serve [MODEL] FLAGS

Flags are kept as the user spelled them (the search renames what the host's parser
refuses); how many words a flag takes is the target parser's fact (a switch none, a list
every word up to the next flag, any other one), and a flag the parser does not know takes
the words that follow it. Words a shell would act on (``> log``, ``&``, ``|``) end the
command; wrappers before the interpreter (nohup, numactl, taskset …) are dropped and named.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from ..errors import InputError

SGLANG_MODULE = "sglang.launch_server"
VLLM_MODULE = "vllm.entrypoints.cli.main"
_MODULES = {
    SGLANG_MODULE: ("sglang", ()),
    "vllm.entrypoints.openai.api_server": ("vllm", ()),
    VLLM_MODULE: ("vllm", ("serve",)),
}
_PYTHON = re.compile(r"^python(\d+(\.\d+)?)?$")
_ASSIGNMENT = re.compile(r"^([A-Za-z_][A-Za-z0-9_]*)=(.*)$", re.S)
_NUMBER = re.compile(r"^-\.?\d")
_SHELL_WORDS = re.compile(r"^(\||\|\||&|&&|;|[0-9]*>>?.*|<.*|[0-9]*>&[0-9]+)$")
_CONTAINERS = {"docker", "podman", "kubectl", "nerdctl", "singularity", "apptainer", "enroot"}
# Interpreter options that take the next word (python -X importtime -W ignore -m …).
_PYTHON_OPTION_ARGS = {"-X", "-W", "-Q"}


@dataclass(frozen=True)
class FlagFacts:
    """What the target's parser says about how many words each flag takes."""

    kinds: Mapping[str, str] = field(default_factory=dict)  # flag -> bool | bool_false | value | list
    aliases: Mapping[str, str] = field(default_factory=dict)  # alias -> flag

    def kind(self, spelling: str) -> str | None:
        if spelling in self.kinds:
            return self.kinds[spelling]
        if spelling in self.aliases:
            return self.kinds.get(self.aliases[spelling])
        named = {self.aliases.get(n, n) for n in (*self.kinds, *self.aliases) if n.startswith(spelling)}
        return self.kinds.get(named.pop()) if len(named) == 1 else None  # argparse's abbreviations


@dataclass(frozen=True)
class Command:
    """A launch as a base config holds it."""

    family: str
    python: str
    module: str
    args: tuple[tuple[str, object], ...]  # flag as spelled -> True | text | list of text
    env: tuple[tuple[str, str], ...] = ()
    notes: tuple[str, ...] = ()


def parse_command(words: Sequence[str], *, where: str, facts: Mapping[str, FlagFacts], shell: bool = False) -> Command:
    """``facts`` per family (sglang, vllm); ``shell``: the words came from a shell line,
    where ``>``, ``&`` or ``|`` end the command (in ExecStart= they are plain words)."""
    words = _until_shell_words(list(words)) if shell else list(words)
    env, notes, rest = _leading_env(words, where)
    start = _server_start(rest, where)
    wrappers = rest[:start]
    if wrappers:
        notes.append(f"dropped {' '.join(wrappers)!r} before the interpreter: autofix launches Python itself")
    family, python, module, subcommand, flags_at, more = _interpreter(rest, start, where)
    notes += more
    flag_words = rest[flags_at:]
    if subcommand == "serve" and family == "vllm" and flag_words and not flag_words[0].startswith("-"):
        flag_words = ["--model", *flag_words]  # vllm serve MODEL: the positional is --model
    args, flag_notes = _flags(flag_words, where, facts.get(family, FlagFacts()))
    return Command(family, python, module, args, tuple(env.items()), tuple(notes + flag_notes))


def _until_shell_words(words: list[str]) -> list[str]:
    for i, word in enumerate(words):
        if _SHELL_WORDS.match(word):
            return words[:i]
    return words


def _leading_env(words: list[str], where: str) -> tuple[dict[str, str], list[str], list[str]]:
    """NAME=value words before the command (a shell's, or ``env``'s), and the rest."""
    env: dict[str, str] = {}
    notes: list[str] = []
    i = 0
    while i < len(words):
        word = words[i]
        if word.rsplit("/", 1)[-1] == "env" and i + 1 < len(words):
            i += 1
            continue
        found = _ASSIGNMENT.match(word)
        if not found:
            break
        env[found.group(1)] = found.group(2)
        i += 1
    return env, notes, words[i:]


def _server_start(words: list[str], where: str) -> int:
    """Where the interpreter (or the sglang / vllm script) is among the words."""
    for i, word in enumerate(words):
        base = word.rsplit("/", 1)[-1]
        if base in _CONTAINERS:
            raise InputError(
                f"{where}: a {base} command: autofix launches on the host itself; give the command the container runs"
            )
        if _PYTHON.match(base) or (base in ("sglang", "vllm") and words[i + 1 : i + 2] == ["serve"]):
            return i
    shown = " ".join(words[:3]) or "(nothing)"
    raise InputError(f"{where}: no Python interpreter, sglang serve or vllm serve in the command ({shown} …)")


def _interpreter(words: list[str], start: int, where: str) -> tuple[str, str, str, str, int, list[str]]:
    """(family, python, module, subcommand, index of the first flag, notes)."""
    word = words[start]
    base = word.rsplit("/", 1)[-1]
    if base in ("sglang", "vllm"):
        python = word[: -len(base)] + "python" if "/" in word else "python3"
        notes = [
            f"{word} serve: launched as {python} -m {SGLANG_MODULE if base == 'sglang' else VLLM_MODULE + ' serve'}"
        ]
        if "/" not in word:
            notes.append("python3 is the interpreter: set launch.python to the one of the venv SGLang is installed in")
        module = SGLANG_MODULE if base == "sglang" else VLLM_MODULE
        return base, python, module, "serve", start + 2, notes
    i = start + 1
    while i < len(words) and words[i].startswith("-") and words[i] != "-m":
        i += 2 if words[i] in _PYTHON_OPTION_ARGS else 1
    if i + 1 >= len(words) or words[i] != "-m":
        raise InputError(f"{where}: {word} runs no module (-m sglang.launch_server expected)")
    module = words[i + 1]
    if module not in _MODULES:
        known = ", ".join(_MODULES)
        raise InputError(f"{where}: -m {module} is not a server autofix drives (one of {known})")
    family, subcommand_words = _MODULES[module]
    flags_at = i + 2
    if subcommand_words:
        if words[flags_at : flags_at + 1] != list(subcommand_words):
            raise InputError(f"{where}: -m {module} without its subcommand serve")
        flags_at += 1
    if module == "vllm.entrypoints.openai.api_server":
        module = VLLM_MODULE  # the same server, as `vllm serve` starts it
        return (
            family,
            word,
            module,
            "serve",
            flags_at,
            [f"-m vllm.entrypoints.openai.api_server: launched as -m {VLLM_MODULE} serve"],
        )
    return family, word, module, " ".join(subcommand_words), flags_at, []


def _is_flag(word: str) -> bool:
    return word.startswith("-") and not _NUMBER.match(word) and word != "-"


def _flags(words: list[str], where: str, facts: FlagFacts) -> tuple[tuple[tuple[str, object], ...], list[str]]:
    args: dict[str, object] = {}
    notes: list[str] = []
    i = 0
    while i < len(words):
        word = words[i]
        if word == "-" and i + 1 < len(words) and words[i + 1].startswith("-"):
            name = f"- {words[i + 1]}"  # a split flag, kept as the user's words
            i += 2
            inline = None
        elif _is_flag(word):
            spelled, eq, value = word.partition("=")
            name = spelled[2:] if re.match(r"^--[A-Za-z0-9_]", spelled) else spelled
            inline = value if eq else None
            i += 1
        else:
            raise InputError(f"{where}: {word!r} stands where a flag should (no --flag before it takes it)")
        taken, i = _values(words, i, facts.kind(name), inline)
        if name in args:
            notes.append(f"--{name} is given twice: the last value is kept, as the parser does")
        args[name] = taken
    return tuple(args.items()), notes


def _values(words: list[str], i: int, kind: str | None, inline: str | None) -> tuple[object, int]:
    """The value of a flag whose words start at ``i``, and where the next flag starts."""
    if inline is not None:
        return inline, i
    following: list[str] = []
    while i + len(following) < len(words) and not _is_flag(words[i + len(following)]):
        if words[i + len(following)] == "-":
            break
        following.append(words[i + len(following)])
    if kind in ("bool", "bool_false") or not following:
        return True, i
    if kind == "value":
        return following[0], i + 1
    if kind == "list" or len(following) > 1:
        return list(following), i + len(following)
    return following[0], i + 1
