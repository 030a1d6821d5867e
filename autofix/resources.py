"""Where the shipped data lives: strategies/ and migrations/.

In a wheel they sit under ``autofix/_data/`` (hatch force-include); in a checkout or an
editable install they are the top-level folders next to the package.
"""

from __future__ import annotations

from importlib import resources
from pathlib import Path

_PACKAGE_DIR = Path(__file__).resolve().parent


def data_path(name: str) -> Path:
    """The directory of a shipped data folder (``strategies`` or ``migrations``)."""
    installed = resources.files("autofix").joinpath("_data").joinpath(name)
    if installed.is_dir():
        return Path(str(installed))
    checkout = _PACKAGE_DIR.parent / name
    if checkout.is_dir():
        return checkout
    raise FileNotFoundError(f"autofix data folder {name!r} is missing from this installation")
