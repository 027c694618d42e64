"""The web client's own checks (docs/web.md, "Checks"): tsc type-checks the modules' JSDoc types
under shared/web/tsconfig.json (strict), ESLint lints them under shared/web/eslint.config.mjs,
Node runs state.js and endpoints.js as the browser loads them, and the house rules of the
client's modules hold.

TypeScript and ESLint come from the npm registry at the versions tests/node_tools pins, installed
once (tests/utils/node_tools.py); without npm, or without the registry, those tests are skipped
and say why. The shipped client
has no build step: the checks read the files the browser loads, and change none of them.
"""
from __future__ import annotations

import difflib
import json
import re
import shutil
import subprocess
from pathlib import Path

import pytest

from shared.web import STATIC
from tests.utils.http import running_app, settings_for
from tests.utils.node_tools import FOLDER, node_modules
from tests.web.web_types import CHECKED_IN, generated_types

WEB = STATIC.parent
PINNED = json.loads((FOLDER / "package.json").read_text())["dependencies"]
MAX_LINES = 600  # no module over about 600 lines (docs/web.md, "How it is built")


def tools(request: pytest.FixtureRequest) -> Path:
    """The folder of tsc and eslint, at the versions tests/node_tools pins (tests/utils/node_tools.py)."""
    return node_modules() / ".bin"


def run(command: list[str], cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(command, cwd=cwd, capture_output=True, text=True, timeout=300)


def test_tsc_finds_the_jsdoc_types_sound(request: pytest.FixtureRequest) -> None:
    bin_folder = tools(request)
    version = run([str(bin_folder / "tsc"), "--version"], WEB)
    assert PINNED["typescript"] in version.stdout, version.stdout
    checked = run([str(bin_folder / "tsc"), "-p", "tsconfig.json"], WEB)
    assert checked.returncode == 0, checked.stdout[-8000:] + checked.stderr[-2000:]


def test_the_checked_in_types_are_the_documents(tmp_path: Path) -> None:
    """shared/web/openapi.d.ts is what openapi-typescript writes for the API's document today: a
    change to the API that the types do not have fails here (and tsc then checks the pages against
    the new types, above)."""
    generated = generated_types(node_modules() / ".bin" / "openapi-typescript", tmp_path)
    if generated != CHECKED_IN.read_text(encoding="utf-8"):
        changed = difflib.unified_diff(CHECKED_IN.read_text(encoding="utf-8").splitlines(), generated.splitlines(),
                                       "checked in", "generated now", lineterm="", n=1)
        pytest.fail("shared/web/openapi.d.ts is not the API's document: write it again with "
                    "`python -m tests.web.web_types`\n" + "\n".join(list(changed)[:80]))


def test_shapes_names_only_the_documents_schemas() -> None:
    """shapes.js writes no type of an answer by hand: each of its types is a schema of the document
    (or a union of them: a game's settings, of whichever variant)."""
    text = (STATIC / "shapes.js").read_text(encoding="utf-8")
    typedefs = re.findall(r"@typedef \{([^}]*)\} (\w+)", text.partition("export {};")[2])
    assert typedefs and "@property" not in text
    schema = r'Schemas\["\w+"\]'
    written_from_the_document = rf'import\("\.\./openapi"\)\.components\["schemas"\]|{schema}( \| {schema})*'
    for written, name in typedefs:
        assert re.fullmatch(written_from_the_document, written), name


def test_eslint_finds_nothing(request: pytest.FixtureRequest) -> None:
    bin_folder = tools(request)
    linted = run([str(bin_folder / "eslint"), "--max-warnings", "0", "."], WEB)
    assert linted.returncode == 0, linted.stdout[-8000:] + linted.stderr[-2000:]


def test_eslint_refuses_what_the_house_rules_forbid(request: pytest.FixtureRequest) -> None:
    """The configuration's own rules bite: a fetch, a getElementById and an API path written
    outside their modules, and a name the browser does not have."""
    bin_folder = tools(request)
    source = 'const id = "g";\nfetch(`/games/${id}/view`);\ndocument.getElementById("x");\nundefinedName();\n'
    linted = subprocess.run([str(bin_folder / "eslint"), "--format", "json", "--stdin", "--stdin-filename",
                             "static/probe.js"], cwd=WEB, input=source, capture_output=True, text=True, timeout=300)
    assert linted.returncode == 1, linted.stdout + linted.stderr
    rules = {message["ruleId"] for message in json.loads(linted.stdout)[0]["messages"]}
    assert rules == {"no-restricted-globals", "no-restricted-syntax", "no-restricted-properties", "no-undef"}


def node(script: str) -> str:
    """Runs ``script`` as an ES module in Node from the static folder; its standard output."""
    if shutil.which("node") is None:
        pytest.skip("node is not installed (Debian's nodejs package brings it)")
    done = subprocess.run(["node", "--input-type=module", "-e", script], cwd=STATIC, capture_output=True, text=True,
                          timeout=60)
    assert done.returncode == 0, done.stdout + done.stderr
    return done.stdout


def test_the_state_changes_only_through_update() -> None:
    answer = json.loads(node("""
import {gameStore} from "./state.js";
const store = gameStore("g_1");
const heard = [];
store.subscribe((state, changed) => heard.push([[...changed].sort(), state.shown]));
store.update({shown: "S1901M", drawn: null});  // drawn was null already: only shown changed
store.update({shown: "S1901M"});  // nothing changed: nobody is told
let unknown = "";
try { store.update({invented: 1}); } catch (error) { unknown = error.message; }
let written = "";
try { store.get().shown = "F1901M"; } catch (error) { written = error.constructor.name; }
console.log(JSON.stringify({heard, unknown, written, shown: store.get().shown, id: store.get().id}));
"""))
    assert answer == {"heard": [[["shown"], "S1901M"]], "unknown": "the state has no field invented",
                      "written": "TypeError", "shown": "S1901M", "id": "g_1"}


async def test_every_path_endpoints_builds_is_a_route_of_the_api(sqlite_url: str) -> None:
    built = json.loads(node("""
import * as e from "./endpoints.js";
const id = "g_0123456789ab";
const calls = {variantsPath: [e.variantsPath()], variantPath: [e.variantPath("standard")],
  variantMapPath: [e.variantMapPath("standard")], authOptionsPath: [e.authOptionsPath()], logoutPath: [e.logoutPath()],
  mePath: [e.mePath()], myGamesPath: [e.myGamesPath()],
  gamesPath: [e.gamesPath(), e.gamesPath({status: "forming", limit: 20, variant: "standard", cursor: "c"})],
  gamePath: [e.gamePath(id)], viewPath: [e.viewPath(id), e.viewPath(id, "S1901M")],
  mapPath: [e.mapPath(id), e.mapPath(id, {phase: "S1901M", power: "FRANCE"})],
  possibleOrdersPath: [e.possibleOrdersPath(id, "FRANCE")], ordersPath: [e.ordersPath(id)],
  readyPath: [e.readyPath(id)], playersPath: [e.playersPath(id)], startPath: [e.startPath(id)],
  resolvePath: [e.resolvePath(id)], pngPath: [e.pngPath(id), e.pngPath(id, {phase: "S1901M", power: "FRANCE"})],
  seatPath: [e.seatPath(id, "Amber Falcon")], extendPath: [e.extendPath(id)], pausePath: [e.pausePath(id)],
  resumePath: [e.resumePath(id)],
  messagesPath: [e.messagesPath(id)], drawPath: [e.drawPath(id)], identitiesPath: [e.identitiesPath(id)],
  streamTicketPath: [e.streamTicketPath(id)], streamPath: [e.streamPath(id, "t.x", "0")],
  pushKeyPath: [e.pushKeyPath()], pushPath: [e.pushPath(id), e.pushPath(id, "https://push.example.org/x")],
  emailPath: [e.emailPath(id)], emailConfirmPath: [e.emailConfirmPath(id)], concedePath: [e.concedePath(id)],
  conversationsPath: [e.conversationsPath(id)], conversationReadPath: [e.conversationReadPath(id, "ENGLAND,FRANCE")]};
console.log(JSON.stringify({calls, exported: Object.keys(e), page: e.playPage(id)}));
"""))
    assert set(built["exported"]) == {*built["calls"], "playPage"}, "a path of endpoints.js is missing from this test"
    assert built["page"] == "/play/g_0123456789ab"
    async with running_app(settings_for(sqlite_url)) as (_, client):
        document = (await client.get("/openapi.json")).json()
    routes = [re.compile("^" + re.sub(r"\{[^}]+\}", "[^/]+", route) + "$") for route in document["paths"]]
    for path in [path for paths in built["calls"].values() for path in paths]:
        bare, _, query = path.partition("?")
        matching = [route for route, pattern in zip(document["paths"], routes, strict=True) if pattern.match(bare)]
        assert matching, f"{path} is no route of the API"
        names = {p["name"] for route in matching for operation in document["paths"][route].values()
                 if isinstance(operation, dict) for p in operation.get("parameters", []) if p.get("in") == "query"}
        for name in re.findall(r"(?:^|&)([^=&]+)=", query):
            assert name in names, f"{path}: the API takes no query parameter {name}"


def test_the_modules_keep_the_house_rules() -> None:
    """Without npm too: fetch only in api.js, getElementById only in dom.js, API paths only in
    endpoints.js, no page state kept in a loose object, no module over about 600 lines."""
    api_path = re.compile(r"""["'`]/(games|variants|me|auth)(/|\?|["'`$])""")
    for module in sorted(STATIC.glob("*.js")):
        text = module.read_text(encoding="utf-8")
        lines = text.count("\n")
        assert lines <= MAX_LINES, f"{module.name} has {lines} lines"
        if module.name != "api.js":
            assert not re.search(r"\bfetch\(|new EventSource\(", text), f"{module.name} asks the server itself"
        if module.name != "dom.js":
            assert "getElementById" not in text, f"{module.name} looks an element up outside dom.js"
        if module.name != "endpoints.js":
            assert not api_path.search(text), f"{module.name} writes an API path"
        assert not re.search(r"^const game = \{", text, re.MULTILINE), f"{module.name} keeps a loose game object"


def test_dirigible_phases_and_removals_are_named_as_its_rules_name_them() -> None:
    """Dirigible's Summer and Late Fall are retreats and devastation (docs/rules/dirigible.md,
    rule 13); its removals are units owed, with the SP of upkeep over the points (R13)."""
    answer = json.loads(node("""
import {phaseName} from "./api.js";
import {removalsText, spentBy} from "./prices.js";
const position = {variant: "dirigible"};
console.log(JSON.stringify({
  phases: [phaseName("S1901R", "dirigible"), phaseName("F1901R", "dirigible"), phaseName("F1901R", "standard")],
  removals: [removalsText(2, -5), removalsText(1, undefined)],
  spent: spentBy([{text: "D LON B", type: "build", unit: "D LON"},
                  {text: "F EDI B", type: "build", unit: "F EDI"}], position),
}));
"""))
    assert answer == {
        "phases": ["Summer 1901, retreats and devastation", "Late Fall 1901, retreats and devastation",
                   "Fall 1901, retreats"],
        "removals": ["at least 2 units: the upkeep is 5 SP over the points", "at least 1 unit"],
        "spent": 7,
    }
