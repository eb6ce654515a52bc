"""The page for play on this device as files (:mod:`kosti.web.site`): what is in it, that kosti's
archive plays a game with nothing but itself and the standard library (as in Pyodide: no NumPy,
orjson, rich, pydantic or FastAPI), the pinned files and their hashes, ``kosti web export``, and
``kosti serve``'s routes for it."""

from __future__ import annotations

import gzip
import io
import json
import subprocess
import sys
import textwrap
import zipfile
from collections.abc import Callable
from pathlib import Path

import pytest
from helpers import Run

from kosti.errors import KostiError
from kosti.web import pins
from kosti.web.pins import PYODIDE, Pin, cached, fetch
from kosti.web.site import PYODIDE_FILES, Site, python_archive

pytestmark = pytest.mark.timeout(300)

PLAY = textwrap.dedent(
    """
    import asyncio, json, sys
    blocked = ("numpy", "orjson", "rich", "pydantic", "fastapi", "starlette", "sqlalchemy", "numba")
    blocked += ("anyio", "typer")
    class Block:
        def find_spec(self, name, path=None, target=None):
            if name.split(".")[0] in blocked:
                raise ImportError(f"{name} is not in the browser")
            return None
    sys.meta_path.insert(0, Block())
    sys.path.insert(0, sys.argv[1])
    from kosti.web.host import LocalHost
    from kosti.web.worker import warm

    class Store:
        def __init__(self):
            self.t = {}
        async def load(self, i):
            return json.dumps(self.t[i]) if i in self.t else None
        async def append(self, i, v, s, e):
            found = self.t.setdefault(i, {"settings": json.loads(s), "events": []})
            found["events"].extend(json.loads(e))
            return True
        async def describe(self, i, a):
            pass
        async def list(self):
            return "[]"

    async def main():
        warm(moves=4)
        sent = []
        host = LocalHost(Store(), lambda c, t: sent.append(t), bot_delay=0)
        body = json.dumps({"variant": "poker-classic", "seats": 2})
        made = json.loads(await host.request("POST", "/api/tables", body, "ru"))
        for _ in range(2):
            body = json.dumps({"token": made["body"]["token"], "level": "heuristic"})
            await host.request("POST", f"/api/tables/{made['body']['id']}/bots", body, "ru")
        await host.open("c", f"/ws/{made['body']['id']}?lang=ru")
        while not (json.loads(sent[-1]).get("table", {}).get("game") or {}).get("finished"):
            await asyncio.sleep(0.01)
        tops = {m.split(".")[0] for m in sys.modules}
        print(sorted(tops & {*blocked, "babel", "pytrovich"}))

    asyncio.run(main())
    """
)


def test_kostis_archive_plays_a_game_with_the_standard_library_alone(
    assets_cache: None, tmp_path: Path
) -> None:
    with zipfile.ZipFile(io.BytesIO(python_archive())) as archive:
        names = archive.namelist()
        archive.extractall(tmp_path)
    assert not [
        n for n in names if n.startswith(("kosti/solver/", "kosti/sim/", "kosti/tui/", "kosti/commands/"))
    ]
    assert "kosti/server/app.py" not in names and "kosti/server/table.py" in names
    assert {"babel/locale-data/ru.dat", "babel/locale-data/en.dat", "babel/global.dat"} <= set(names)
    assert sorted(n for n in names if n.startswith("babel/locale-data/")) == [
        "babel/locale-data/en.dat",
        "babel/locale-data/root.dat",
        "babel/locale-data/ru.dat",
    ]
    # -I -S: no site-packages, no user site, no PYTHON* variables: the archive and the standard library
    script = tmp_path / "play.py"
    script.write_text(PLAY)
    done = subprocess.run(
        [sys.executable, "-I", "-S", str(script), str(tmp_path)], capture_output=True, text=True, timeout=240
    )
    assert done.returncode == 0, done.stderr[-3000:]
    assert done.stdout.strip() == "['babel', 'pytrovich']"  # the heuristic sheet bot without NumPy


def test_the_archive_is_the_same_bytes_for_the_same_files(assets_cache: None) -> None:
    assert python_archive() == python_archive()


def test_the_site_names_every_file_it_keeps(site: Site) -> None:
    sw = site["sw.js"].data.decode()
    files = json.loads(sw.split("const FILES = ", 1)[1].split(";\n", 1)[0])
    assert f'const BUILD = "{site.build}"' in sw
    assert {f"/local/pyodide/{PYODIDE.version}/{name}" for name in PYODIDE_FILES} <= set(files)
    assert {"/", "/api/words/ru", "/api/words/en", "/local/site.json", "/static/app.js"} <= set(files)
    assert "/static/local/worker.js" in files and "/static/local/transport.js" in files
    for url in files:
        assert site.get(url.lstrip("/") if url != "/" else "") is not None, url
    config = json.loads(site["local/site.json"].data)
    assert config["build"] == site.build and config["server"] is False
    assert config["pyodide"]["lock"]["packages"] == {} and config["pyodide"]["lock"]["info"][
        "python"
    ].startswith("3.14")
    assert config["archive"] in files and config["rules"]["ru"]["thousand-classic"]["sentences"]
    wasm = site[f"local/pyodide/{PYODIDE.version}/pyodide.asm.wasm"]
    assert wasm.immutable and wasm.content_type == "application/wasm" and wasm.gzipped is not None
    assert gzip.decompress(wasm.gzipped) == wasm.data


def test_the_first_visit_is_under_ten_megabytes_on_the_wire(site: Site) -> None:
    sw = site["sw.js"].data.decode()
    files = json.loads(sw.split("const FILES = ", 1)[1].split(";\n", 1)[0])
    wire = 0
    for url in files:
        found = site[url.lstrip("/") or ""] if url != "/" else site.assets[""]
        wire += len(found.gzipped if found.gzipped is not None else found.data)
    assert wire < 10_000_000, wire


def test_kosti_web_export_writes_the_site(
    assets_cache: None, kosti: Callable[..., Run], tmp_path: Path
) -> None:
    result = kosti("web", "export", str(tmp_path / "site"))
    assert result.code == 0, result.err
    site = tmp_path / "site"
    assert (site / "index.html").read_bytes() == (site / "404.html").read_bytes()
    assert (site / "sw.js").is_file() and (site / "local" / "site.json").is_file()
    assert json.loads((site / "api" / "words" / "ru").read_text(encoding="utf-8"))["cell.sixes"]
    assert (site / "local" / "pyodide" / PYODIDE.version / "pyodide.asm.wasm.gz").is_file()
    assert "build" in result.err


def test_a_missing_pinned_file_says_which_command_fetches_it(
    kosti: Callable[..., Run], tmp_path: Path
) -> None:
    result = kosti("web", "export", str(tmp_path / "site"))
    assert result.code == 2
    assert "kosti web fetch" in result.err and "pyodide 314" in result.err
    with pytest.raises(KostiError, match="run `kosti web fetch`"):
        cached(PYODIDE)


class FakeResponse(io.BytesIO):
    def __enter__(self) -> FakeResponse:
        return self

    def __exit__(self, *args: object) -> None:
        self.close()


def test_a_fetch_keeps_only_the_pinned_bytes(monkeypatch: pytest.MonkeyPatch) -> None:
    data = b"the wheel"
    good = Pin(
        "thing", "1.0", "https://files.example/thing-1.0.whl", pins.hashlib.sha256(data).hexdigest(), 9, ""
    )
    bad = Pin("thing", "1.0", "https://files.example/thing-1.0.whl", "0" * 64, 9, "")
    monkeypatch.setattr(pins.urllib.request, "urlopen", lambda request, timeout: FakeResponse(data))
    with pytest.raises(KostiError, match=r"not the pinned thing 1\.0"):
        fetch(bad)
    assert not list(pins.cache_dir().glob("*"))
    assert fetch(good).read_bytes() == data

    def unreachable(request: object, timeout: float) -> FakeResponse:
        raise pins.urllib.error.URLError("no route to host")

    monkeypatch.setattr(pins.urllib.request, "urlopen", unreachable)
    with pytest.raises(KostiError, match=r"cannot fetch other 2 .*: no route to host"):
        fetch(Pin("other", "2", "https://files.example/other.whl", "1" * 64, 1, ""))


def test_kosti_serve_serves_the_same_local_play(assets_cache: None, tmp_path: Path) -> None:
    pytest.importorskip("fastapi")
    from fastapi.testclient import TestClient

    from kosti.server.app import create_app
    from kosti.server.routes.page import VERSIONED, asset_version
    from kosti.server.settings import ServerSettings

    settings = ServerSettings(database_url=f"sqlite:///{tmp_path / 'kosti.sqlite3'}")
    with TestClient(create_app(settings)) as client:
        sw = client.get("/sw.js")
        assert sw.status_code == 200 and sw.headers["cache-control"] == "no-cache"
        files = json.loads(sw.text.split("const FILES = ", 1)[1].split(";\n", 1)[0])
        assert f"{VERSIONED}{asset_version()}/local/transport.js" in files and "/" in files
        config = client.get("/local/site.json").json()
        assert config["server"] is True and config["archive"] in files
        wasm = client.get(
            f"/local/pyodide/{PYODIDE.version}/pyodide.asm.wasm", headers={"Accept-Encoding": "gzip"}
        )
        assert wasm.status_code == 200 and wasm.headers["content-encoding"] == "gzip"
        assert "immutable" in wasm.headers["cache-control"]
        again = client.get(
            config["archive"], headers={"If-None-Match": client.get(config["archive"]).headers["etag"]}
        )
        assert again.status_code == 304 and again.content == b""
        assert client.get("/local/nothing").status_code == 404
        for url in files:
            assert client.get(url).status_code == 200, url
