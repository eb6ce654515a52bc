"""The page for play on this device, as files: what ``kosti web export DIR`` writes and what
``kosti serve`` serves beside its online tables.

A site is a set of :class:`Asset` by URL path:

* the page itself: ``index.html`` and ``static/…`` (the files of :mod:`kosti.server`, the worker
  and the local transport among them, ``static/local/``), and kosti's catalogs at
  ``api/words/{ru,en}`` where no server answers them (an export);
* ``sw.js``: the service worker, which keeps every file of the site on the first visit and
  serves them from there after (``static/local/sw.js``, headed with this build's list of files);
* ``local/site.json``: what the page needs before Python runs (the presets, the bots of a
  device, where Pyodide and the archive are) and the build's id;
* ``local/pyodide/VERSION/…``: Pyodide's runtime (:data:`~kosti.web.pins.PYODIDE`), four files;
* ``local/kosti-HASH.zip``: the Python the worker unpacks: the parts of kosti a table needs
  (the rules, the bots that need no solver, the server's table code) and the parts of Babel
  and pytrovich that Russian and English need.

The files whose name carries their version or hash never change under that name: a browser
keeps them for good, and a new build fetches only what changed. ``docs/offline.md`` says
why each file is there.
"""

from __future__ import annotations

import gzip
import hashlib
import io
import json
import tarfile
import zipfile
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path, PurePosixPath
from typing import Any

from kosti.web.pins import BABEL, PYODIDE, PYTROVICH, cached

STATIC = Path(str(resources.files("kosti.server"))) / "static"
"""The page's files (``kosti/server/static``)."""

SW_SOURCE = STATIC / "local" / "sw.js"

PYODIDE_FILES = ("pyodide.mjs", "pyodide.asm.mjs", "pyodide.asm.wasm", "python_stdlib.zip")
"""Pyodide's runtime: the loader, the Emscripten module, the WebAssembly, the standard library.
Its lock file of packages is left out: the page loads no package (the worker gives Pyodide an
empty one)."""

SITE_PACKAGES = "/lib/python3.14/site-packages"
"""Where the worker unpacks the archive in Pyodide's file system (on its ``sys.path``)."""

SERVER_MODULES = (
    "__init__",
    "bots",
    "broadcast",
    "events",
    "fair",
    "game",
    "hints",
    "limits",
    "planning",
    "refusal",
    "rooms",
    "rulebook",
    "seating",
    "settings",
    "table",
    "view",
    "wire",
    "words",
)
"""The modules of :mod:`kosti.server` a table needs (none of them imports FastAPI, pydantic,
SQLAlchemy or orjson at its top); the rest serves tables over the network."""

LEFT_OUT = ("cli.py", "__main__.py", "commands/", "envs/", "sim/", "solver/", "tui/")
"""kosti's parts a table in the browser does without: the command line, the terminal game, the
adapters, the simulator and the solver (numba). Of :mod:`kosti.web` only the host goes."""

WEB_MODULES = ("__init__.py", "host.py", "worker.py")

LOCALES = ("root", "en", "ru")
"""Babel's locale data the page reads (``en`` and ``ru`` fall back on ``root``)."""

COMPRESSED = (".zip", ".png")
"""Files already compressed: sent as they are."""


@dataclass(frozen=True)
class Asset:
    """One file of the site."""

    path: str
    """Its URL path, without the leading ``/``."""

    data: bytes
    content_type: str
    immutable: bool = False
    """Its name changes with its content: it may be kept for good."""

    gzipped: bytes | None = field(default=None, compare=False, repr=False)
    """The same gzipped, where that makes it smaller on the wire."""

    @property
    def digest(self) -> str:
        return hashlib.sha256(self.data).hexdigest()


@dataclass(frozen=True)
class Site:
    """Every file of one build of the page for local play, and the build's id."""

    assets: dict[str, Asset]
    build: str

    def __getitem__(self, path: str) -> Asset:
        return self.assets[path.lstrip("/")]

    def get(self, path: str) -> Asset | None:
        return self.assets.get(path.lstrip("/"))


def content_type(path: str) -> str:
    suffix = PurePosixPath(path).suffix
    return {
        ".html": "text/html; charset=utf-8",
        ".js": "text/javascript; charset=utf-8",
        ".mjs": "text/javascript; charset=utf-8",
        ".css": "text/css; charset=utf-8",
        ".json": "application/json",
        ".webmanifest": "application/manifest+json",
        ".svg": "image/svg+xml",
        ".png": "image/png",
        ".wasm": "application/wasm",
        ".zip": "application/zip",
    }.get(suffix, "application/json" if path.startswith("api/") else "application/octet-stream")


def asset(path: str, data: bytes, immutable: bool = False) -> Asset:
    """An :class:`Asset`, gzipped (deterministically: no name, no time) unless that gains little."""
    packed = None
    if not path.endswith(COMPRESSED) and len(data) > 1024:
        packed = gzip.compress(data, compresslevel=9, mtime=0)
        if len(packed) > 0.9 * len(data):
            packed = None
    return Asset(path, data, content_type(path), immutable, packed)


# -- the Python the worker runs ------------------------------------------------------------------


def _kosti_files() -> Iterator[tuple[str, bytes]]:
    root = Path(str(resources.files("kosti")))
    for path in sorted(root.rglob("*")):
        relative = path.relative_to(root).as_posix()
        if not path.is_file() or "__pycache__" in relative or relative.startswith("server/static/"):
            continue
        if path.suffix not in (".py", ".toml", ".typed"):
            continue
        if relative.startswith("server/"):
            name = relative.removeprefix("server/").removesuffix(".py")
            if "/" in name or name not in SERVER_MODULES:
                continue
        elif relative.startswith("web/"):
            if relative.removeprefix("web/") not in WEB_MODULES:
                continue
        elif relative.startswith(LEFT_OUT):
            continue
        yield f"kosti/{relative}", path.read_bytes()


def _wheel_files(wheel: Path, keep: Iterable[str]) -> Iterator[tuple[str, bytes]]:
    """The files of ``wheel`` whose names start with one of ``keep``."""
    wanted = tuple(keep)
    with zipfile.ZipFile(wheel) as archive:
        for name in sorted(archive.namelist()):
            if name.startswith(wanted) and not name.endswith("/"):
                yield name, archive.read(name)


def _babel_files() -> Iterator[tuple[str, bytes]]:
    wheel = cached(BABEL)
    with zipfile.ZipFile(wheel) as archive:
        names = archive.namelist()
    modules = [
        n
        for n in names
        if n.startswith(("babel/localtime/",)) or (n.count("/") == 1 and n.startswith("babel/"))
    ]
    locales = [f"babel/locale-data/{name}.dat" for name in LOCALES]
    licences = [n for n in names if n.endswith(("LICENSE", "LICENSE.txt")) and ".dist-info/" in n]
    yield from _wheel_files(wheel, [*modules, *locales, *licences])


def _pytrovich_files() -> Iterator[tuple[str, bytes]]:
    wheel = cached(PYTROVICH)
    keep = [
        "pytrovich/__init__.py",
        "pytrovich/detector.py",
        "pytrovich/enums.py",
        "pytrovich/gender_models.py",
    ]
    keep += [
        "pytrovich/maker.py",
        "pytrovich/meta.py",
        "pytrovich/rule_models.py",
        "pytrovich/suffix_trie.py",
    ]
    keep += [
        "pytrovich/py.typed",
        "pytrovich/petrovich-rules/rules.json",
        "pytrovich/petrovich-rules/gender.json",
    ]
    keep += ["pytrovich/petrovich-rules/LICENSE"]
    yield from _wheel_files(wheel, keep)


def python_archive() -> bytes:
    """The zip the worker unpacks into Pyodide's ``site-packages``: the same bytes for the same
    files (sorted, no times), so that its hash names its content."""
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED, compresslevel=9) as archive:
        for name, data in sorted([*_kosti_files(), *_babel_files(), *_pytrovich_files()]):
            info = zipfile.ZipInfo(name, date_time=(1980, 1, 1, 0, 0, 0))
            info.compress_type = zipfile.ZIP_DEFLATED
            info.external_attr = 0o644 << 16
            archive.writestr(info, data, compresslevel=9)
    return buffer.getvalue()


# -- Pyodide -------------------------------------------------------------------------------------


def pyodide_files() -> tuple[dict[str, bytes], dict[str, Any]]:
    """Pyodide's runtime files (:data:`PYODIDE_FILES`) from the pinned npm tarball, and the
    ``info`` of its lock file (the worker hands Pyodide a lock file of no packages)."""
    files: dict[str, bytes] = {}
    info: dict[str, Any] = {}
    with tarfile.open(cached(PYODIDE), "r:gz") as tarball:
        for member in tarball.getmembers():
            name = member.name.removeprefix("package/")
            if name in PYODIDE_FILES or name == "pyodide-lock.json":
                extracted = tarball.extractfile(member)
                if extracted is None:  # pragma: no cover - the tarball holds them as files
                    continue
                data = extracted.read()
                if name == "pyodide-lock.json":
                    info = json.loads(data)["info"]
                else:
                    files[name] = data
    missing = set(PYODIDE_FILES) - set(files)
    if missing or not info:  # pragma: no cover - the pinned tarball has them all
        raise ValueError(f"the Pyodide tarball lacks {sorted(missing) or 'its lock file'}")
    return files, info


# -- the whole site --------------------------------------------------------------------------------


def page_assets(prefix: str = "static/") -> list[Asset]:
    """The page's own files under ``prefix`` (the worker, the transport and the service
    worker's source among them), and ``index.html`` (``/`` is the page)."""
    found = []
    for path in sorted(STATIC.rglob("*")):
        # the service worker's source is headed and served as /sw.js, index.html as /
        if (
            path.is_file()
            and "__pycache__" not in path.parts
            and path not in (SW_SOURCE, STATIC / "index.html")
        ):
            found.append(asset(prefix + path.relative_to(STATIC).as_posix(), path.read_bytes()))
    return found


def build(
    *,
    server: bool = False,
    page: Iterable[Asset] | None = None,
    precache: Iterable[str] = (),
) -> Site:
    """One build of the site. ``server``: a server answers beside it (``kosti serve``); its
    page's files are then the server's, and ``precache`` names the URLs of them the service
    worker keeps (else the files of :func:`page_assets` are part of the site, served as they are
    by any static host, with kosti's catalogs as files)."""
    from kosti.i18n import messages
    from kosti.rules.presets import PRESETS
    from kosti.server.rulebook import preset_list, variant_rules
    from kosti.web.host import server_info

    assets: list[Asset] = []
    urls = list(precache)
    if not server:
        shown = list(page) if page is not None else page_assets()
        index = (STATIC / "index.html").read_bytes()
        shown += [asset("", index), asset("404.html", index)]
        for lang in ("ru", "en"):
            words = json.dumps(dict(messages(lang)), ensure_ascii=False, separators=(",", ":")).encode()
            shown.append(asset(f"api/words/{lang}", words))
        assets += shown
        urls += ["/" + a.path for a in shown if a.path != "404.html"]
    files, info = pyodide_files()
    base = f"local/pyodide/{PYODIDE.version}/"
    runtime = [asset(base + name, data, immutable=True) for name, data in files.items()]
    archive = python_archive()
    bundle = asset(f"local/kosti-{hashlib.sha256(archive).hexdigest()[:16]}.zip", archive, immutable=True)
    assets += [*runtime, bundle]
    config: dict[str, Any] = {
        "server": server,
        "pyodide": {"version": PYODIDE.version, "index": "/" + base, "lock": {"info": info, "packages": {}}},
        "archive": "/" + bundle.path,
        "site_packages": SITE_PACKAGES,
        "presets": {lang: preset_list(lang) for lang in ("ru", "en")},
        # each preset's rules as /api/rules answers them: the lobby's form reads them before Python runs
        "rules": {lang: {p: variant_rules(p, lang) for p in PRESETS} for lang in ("ru", "en")},
        "server_info": server_info(),
    }
    digest = hashlib.sha256()
    for url in sorted(urls):
        digest.update(url.encode() + b"\0")
    for item in sorted(assets, key=lambda a: a.path):
        digest.update(item.path.encode() + b"\0" + item.digest.encode() + b"\0")
    digest.update(json.dumps(config, sort_keys=True).encode())
    build_id = digest.hexdigest()[:16]
    config["build"] = build_id
    site_json = asset("local/site.json", json.dumps(config, ensure_ascii=False).encode())
    assets.append(site_json)
    cached_urls = sorted({*urls, "/" + site_json.path, *("/" + a.path for a in [*runtime, bundle])})
    assets.append(asset("sw.js", service_worker(build_id, cached_urls)))
    return Site({a.path: a for a in assets}, build_id)


def service_worker(build_id: str, urls: list[str]) -> bytes:
    """The service worker of a build: its source (``static/local/sw.js``) headed with the build's
    id and the URLs it keeps."""
    head = f"const BUILD = {json.dumps(build_id)};\nconst FILES = {json.dumps(urls, indent=0)};\n"
    return head.encode() + SW_SOURCE.read_bytes()


def export(site: Site, directory: Path) -> list[Path]:
    """Write every file of ``site`` under ``directory`` (``/`` as ``index.html``), each with its
    gzipped twin (``NAME.gz``) where that is smaller, for a static host that serves those
    (nginx's ``gzip_static``, for one). The files written."""
    written = []
    for item in site.assets.values():
        target = directory / (item.path or "index.html")
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(item.data)
        written.append(target)
        if item.gzipped is not None:
            packed = target.with_name(target.name + ".gz")
            packed.write_bytes(item.gzipped)
            written.append(packed)
    return written
