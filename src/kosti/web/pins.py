"""What the page for local play loads from elsewhere, each file at a pinned version and hash.

The page never loads anything from a CDN. Pyodide (CPython for WebAssembly) comes from the npm
registry, and the pure-Python wheels kosti's wording needs (Babel, pytrovich) from PyPI, each
checked against the SHA-256 pinned here, fetched once into the user's cache directory
(``$KOSTI_CACHE_DIR`` or the platform's, ``…/web``) by ``kosti web fetch``. ``kosti web
export`` and ``kosti serve`` read them from there; when one is missing they say so, and which
command fetches it (:class:`MissingAssets`).

Babel and pytrovich are pinned at the versions of ``uv.lock``, so that the browser words the
game as the terminal and the server do.
"""

from __future__ import annotations

import hashlib
import os
import tempfile
import urllib.error
import urllib.request
from dataclasses import dataclass
from pathlib import Path

from kosti.errors import KostiError

FETCH_COMMAND = "kosti web fetch"


@dataclass(frozen=True)
class Pin:
    """One file fetched from a registry, by version and hash."""

    name: str
    version: str
    url: str
    sha256: str
    """The SHA-256 of the file as the registry serves it (the npm tarball, the wheel)."""

    size: int
    """Its size in bytes (shown while it is fetched)."""

    why: str
    """What the page needs it for."""

    @property
    def filename(self) -> str:
        return self.url.rsplit("/", 1)[-1]


PYODIDE = Pin(
    "pyodide",
    "314.0.8",
    "https://registry.npmjs.org/pyodide/-/pyodide-314.0.8.tgz",
    "9a52704e0ae5b07aaacb8e4fed9f1658e8024694a078695ea45ac79dee4cefcb",
    6_503_208,
    "CPython 3.14 built for WebAssembly, and its standard library: runs kosti in the browser",
)

BABEL = Pin(
    "babel",
    "2.19.0",
    "https://files.pythonhosted.org/packages/71/3b/ddf4b07be846bfa361683729b5948c9c61a87fbdf09e69540d8e586bb7c5/"
    "babel-2.19.0-py3-none-any.whl",
    "6d49734aed1d595b2c065d012174df8c83964692f26fc461702281634dd7555b",
    10_983_582,
    "plural rules and percentages of Russian and English (kosti.i18n, kosti.phrases)",
)

PYTROVICH = Pin(
    "pytrovich",
    "0.2.0",
    "https://files.pythonhosted.org/packages/3c/a5/f029c2f0f78555b6471a2103ee614e902e7a2e03b47437da7b782d8ce1b9/"
    "pytrovich-0.2.0-py3-none-any.whl",
    "cb5fbdaed2a33738896d70156ffde5f74ff5a60375f47ced697b8ae76507ed6a",
    31_872,
    "Russian names in their cases in the log («у Анны», «Борису»: kosti.narrate)",
)

PINS: tuple[Pin, ...] = (PYODIDE, BABEL, PYTROVICH)


class MissingAssets(KostiError):
    """A pinned file is not in the cache: the message names it and the command that fetches it."""


def cache_dir() -> Path:
    """Where the pinned files are kept: ``$KOSTI_CACHE_DIR/web``, or the user's cache directory's
    (the rule of the solver's and simulator's caches)."""
    env = os.environ.get("KOSTI_CACHE_DIR")
    if env:
        return Path(env) / "web"
    import platformdirs

    return Path(platformdirs.user_cache_dir("kosti")) / "web"


def cached(pin: Pin) -> Path:
    """The file of ``pin`` in the cache, its hash checked; :class:`MissingAssets` when it is not
    there (or not whole), saying what to run."""
    path = cache_dir() / pin.filename
    if not path.is_file() or sha256_of(path) != pin.sha256:
        raise MissingAssets(
            f"{pin.name} {pin.version} is not in {path.parent} (the page for play on this device needs it): "
            f"run `{FETCH_COMMAND}`"
        )
    return path


def sha256_of(path: Path) -> str:
    digest = hashlib.sha256()
    with path.open("rb") as file:
        for block in iter(lambda: file.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def fetch(pin: Pin, timeout: float = 60) -> Path:
    """The file of ``pin``, fetched into the cache unless it is there already; its hash is checked
    before it is kept. :class:`KostiError` saying why when it cannot be fetched or differs."""
    path = cache_dir() / pin.filename
    if path.is_file() and sha256_of(path) == pin.sha256:
        return path
    path.parent.mkdir(parents=True, exist_ok=True)
    digest = hashlib.sha256()
    request = urllib.request.Request(pin.url, headers={"User-Agent": "kosti (web fetch)"})
    with tempfile.NamedTemporaryFile(dir=path.parent, delete=False, suffix=".part") as part:
        try:
            with urllib.request.urlopen(request, timeout=timeout) as response:
                for block in iter(lambda: response.read(1 << 16), b""):
                    digest.update(block)
                    part.write(block)
        except (urllib.error.URLError, OSError) as error:
            Path(part.name).unlink(missing_ok=True)
            reason = getattr(error, "reason", error)
            raise KostiError(f"cannot fetch {pin.name} {pin.version} from {pin.url}: {reason}") from None
    if digest.hexdigest() != pin.sha256:
        Path(part.name).unlink(missing_ok=True)
        raise KostiError(
            f"{pin.url} is not the pinned {pin.name} {pin.version}: its SHA-256 is {digest.hexdigest()}, "
            f"not {pin.sha256}"
        )
    os.replace(part.name, path)
    return path
