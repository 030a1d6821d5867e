"""Stand-ins for the parts of transformers / huggingface_hub that model-path lookup runs.

Each function sits at the line of the real file (transformers 4.57, huggingface_hub 0.36)
so a missing model fails with the same frames, messages and exception chain as on a real
host. Built-in simulated model directories are answered from ``models.virtual_files``.
"""

import json
import os

from sglang.srt._sim import models
from sglang.srt._sim.foreign import exception_class, place, virtual_module

HFValidationError = exception_class(
    "huggingface_hub.errors",
    "HFValidationError",
    ValueError,
    "Generic exception thrown by `huggingface_hub` validators.",
)

_VALIDATORS_SRC = place(
    [
        (
            1,
            '''
import functools
import re

REPO_ID_REGEX = re.compile(
    r"""
    ^
    (\\b[\\w\\-.]+\\b/)? # optional namespace (username or organization)
    \\b               # starts with a word boundary
    [\\w\\-.]{1,96}    # repo_name: alphanumeric + . _ -
    \\b               # ends with a word boundary
    $
    """,
    flags=re.VERBOSE,
)
''',
        ),
        (
            40,
            '''
def validate_hf_hub_args(fn):
    """Validate values received as argument for any public method of `huggingface_hub`."""
    signature = fn.__code__.co_varnames[: fn.__code__.co_argcount]

    @functools.wraps(fn)
    def _inner_fn(*args, **kwargs):
        for arg_name, arg_value in list(zip(signature, args)) + list(kwargs.items()):
            if arg_name in ["repo_id", "from_id", "to_id"]:
''',
        ),
        (
            85,
            """
                validate_repo_id(arg_value)

        return fn(*args, **kwargs)

    return _inner_fn


def validate_repo_id(repo_id: str) -> None:
    \"\"\"Validate `repo_id` is valid.\"\"\"
    if not isinstance(repo_id, str):
        # Typically, a Path is not a repo_id
        raise HFValidationError(f"Repo id must be a string, not {type(repo_id)}: '{repo_id}'.")

    if repo_id.count("/") > 1:
""",
        ),
        (
            133,
            """
        raise HFValidationError(
            "Repo id must be in the form 'repo_name' or 'namespace/repo_name':"
            f" '{repo_id}'. Use `repo_type` argument if needed."
        )

    if not REPO_ID_REGEX.match(repo_id):
        raise HFValidationError(
            "Repo id must use alphanumeric chars, '-', '_' or '.'."
            " The name cannot start or end with '-' or '.' and the maximum length is 96:"
            f" '{repo_id}'."
        )

    if "--" in repo_id or ".." in repo_id:
        raise HFValidationError(f"Cannot have -- or .. in repo_id: '{repo_id}'.")

    if repo_id.endswith(".git"):
        raise HFValidationError(f"Repo_id cannot end by '.git': '{repo_id}'.")
""",
        ),
    ]
)

_validators = virtual_module(
    "huggingface_hub/utils/_validators.py",
    "huggingface_hub.utils._validators",
    _VALIDATORS_SRC,
    {"HFValidationError": HFValidationError},
)

_FILE_DOWNLOAD_SRC = place(
    [
        (
            1,
            """
from huggingface_hub.utils._validators import validate_hf_hub_args
""",
        ),
        (
            920,
            '''
@validate_hf_hub_args
def hf_hub_download(repo_id, filename, *, subfolder=None, repo_type=None, revision=None, cache_dir=None, local_files_only=False, **kwargs):
    """Download a given file if it's not already present in the local cache."""
    raise LocalEntryNotFoundError(
        "Cannot find the requested files in the disk cache and outgoing traffic has been"
        " disabled. To enable hf.co look-ups and downloads online, set 'local_files_only'"
        " to False."
    )
''',
        ),
    ]
)

LocalEntryNotFoundError = exception_class(
    "huggingface_hub.errors", "LocalEntryNotFoundError", FileNotFoundError
)

_file_download = virtual_module(
    "huggingface_hub/file_download.py",
    "huggingface_hub.file_download",
    _FILE_DOWNLOAD_SRC.replace(
        "from huggingface_hub.utils._validators import validate_hf_hub_args\n", "\n"
    ),
    {
        "validate_hf_hub_args": _validators.validate_hf_hub_args,
        "LocalEntryNotFoundError": LocalEntryNotFoundError,
    },
)

_HUB_SRC = place(
    [
        (
            1,
            '''
"""Hub utilities: utilities related to download and cache models"""

import json
import os
''',
        ),
        (
            321,
            '''
def cached_file(
    path_or_repo_id,
    filename: str,
    **kwargs,
):
    """Tries to locate a file in a local folder and repo, downloads and cache it if necessary."""
''',
        ),
        (
            370,
            """
    file = cached_files(path_or_repo_id=path_or_repo_id, filenames=[filename], **kwargs)
    file = file[0] if file is not None else file
    return file


def cached_files(
    path_or_repo_id,
    filenames,
    cache_dir=None,
    force_download=False,
    resume_download=None,
    proxies=None,
    token=None,
    revision=None,
    local_files_only=False,
    subfolder="",
    repo_type=None,
    user_agent=None,
    _raise_exceptions_for_gated_repo=True,
    _raise_exceptions_for_missing_entries=True,
    _raise_exceptions_for_connection_errors=True,
    _commit_hash=None,
    **deprecated_kwargs,
):
    \"\"\"Tries to locate several files in a local folder and repo, downloads and cache them if necessary.\"\"\"
    if revision is None:
        revision = "main"
    path_or_repo_id = str(path_or_repo_id)
    full_filenames = [os.path.join(subfolder, file) for file in filenames]

    existing_files = []
    virtual = _sim_virtual_files(path_or_repo_id)
    if virtual is not None or os.path.isdir(path_or_repo_id):
        for filename in full_filenames:
            resolved_file = os.path.join(path_or_repo_id, filename)
            if virtual is not None:
                present = filename in virtual
            else:
                present = os.path.isfile(resolved_file)
            if not present:
                if _raise_exceptions_for_missing_entries and filename != os.path.join(subfolder, "config.json"):
                    revision_ = "main" if revision is None else revision
                    raise OSError(
                        f"{path_or_repo_id} does not appear to have a file named {filename}. Checkout "
                        f"'https://huggingface.co/{path_or_repo_id}/tree/{revision_}' for available files."
                    )
                elif _raise_exceptions_for_missing_entries:
                    raise OSError(
                        f"{path_or_repo_id} does not appear to have a file named {filename}. Checkout "
                        f"'https://huggingface.co/{path_or_repo_id}/tree/{revision}' for available files."
                    )
                else:
                    continue
            existing_files.append(resolved_file)
        return existing_files if existing_files else None

    try:
        # Load from URL or cache if already cached
""",
        ),
        (
            537,
            """
        hf_hub_download(
            path_or_repo_id,
            filenames[0],
            subfolder=None if len(subfolder) == 0 else subfolder,
            repo_type=repo_type,
            revision=revision,
            cache_dir=cache_dir,
            local_files_only=local_files_only,
        )
    except Exception as e:
        # We cannot recover from them
        if isinstance(e, OSError) and not _raise_exceptions_for_connection_errors:
            return None
""",
        ),
        (
            595,
            """
        raise OSError(f"{e}") from e
""",
        ),
    ]
)

_hub = virtual_module(
    "transformers/utils/hub.py",
    "transformers.utils.hub",
    _HUB_SRC,
    {
        "hf_hub_download": _file_download.hf_hub_download,
        "_sim_virtual_files": models.virtual_files,
    },
)

cached_file = _hub.cached_file
cached_files = _hub.cached_files

_CONFIGURATION_SRC = place(
    [
        (
            1,
            '''
"""Configuration base class and utilities."""

import json
import os
''',
        ),
        (
            60,
            '''
class PretrainedConfig:
    """Base class for all configuration classes."""
''',
        ),
        (
            770,
            '''
    @classmethod
    def get_config_dict(cls, pretrained_model_name_or_path, **kwargs):
        """From a `pretrained_model_name_or_path`, resolve to a dictionary of parameters."""
        original_kwargs = dict(kwargs)
''',
        ),
        (
            792,
            """
        config_dict, kwargs = cls._get_config_dict(pretrained_model_name_or_path, **kwargs)
        return config_dict, kwargs

    @classmethod
    def _get_config_dict(cls, pretrained_model_name_or_path, **kwargs):
        cache_dir = kwargs.pop("cache_dir", None)
        revision = kwargs.pop("revision", None)
        subfolder = kwargs.pop("subfolder", "")
        configuration_file = kwargs.pop("_configuration_file", "config.json")
        pretrained_model_name_or_path = str(pretrained_model_name_or_path)
""",
        ),
        (
            844,
            """
        resolved_config_file = cached_file(
            pretrained_model_name_or_path,
            configuration_file,
            cache_dir=cache_dir,
            revision=revision,
            subfolder=subfolder,
        )
        virtual = _sim_virtual_files(pretrained_model_name_or_path)
        if virtual is not None:
            config_dict = json.loads(virtual[configuration_file])
        else:
            with open(resolved_config_file, encoding="utf-8") as reader:
                config_dict = json.loads(reader.read())
        return config_dict, kwargs
""",
        ),
    ]
)

_configuration = virtual_module(
    "transformers/configuration_utils.py",
    "transformers.configuration_utils",
    _CONFIGURATION_SRC,
    {"cached_file": cached_file, "_sim_virtual_files": models.virtual_files},
)

PretrainedConfig = _configuration.PretrainedConfig

__all__ = ["HFValidationError", "PretrainedConfig", "cached_file", "cached_files", "json", "os"]
