"""A DAIDE client for the tests, written from the DAIDE documents (the client-server protocol
and the message syntax), never from services/daide: its own token table, its own encoder of
DAIDE's written form (``NME ('Albert') ('1.0')``) into bytes, its own decoder, and a checker of
every server message against the syntax document's grammar (press levels 0 and 10).
"""
from __future__ import annotations

import asyncio
import re
import struct
from dataclasses import dataclass, field
from typing import Any

# The tokens as the syntax document lists them: "number name" pairs by category.
TOKEN_LIST = """
4000 (  4001 )
4100 AUS 4101 ENG 4102 FRA 4103 GER 4104 ITA 4105 RUS 4106 TUR
4200 AMY 4201 FLT
4320 CTO 4321 CVY 4322 HLD 4323 MTO 4324 SUP 4325 VIA 4340 DSB 4341 RTO 4380 BLD 4381 REM 4382 WVE
4400 MBV 4401 BPR 4402 CST 4403 ESC 4404 FAR 4405 HSC 4406 NAS 4407 NMB 4408 NMR 4409 NRN 440A NRS 440B NSA
440C NSC 440D NSF 440E NSP 440F NST 4410 NSU 4411 NVR 4412 NYU 4413 YSC
4500 SUC 4501 BNC 4502 CUT 4503 DSR 4504 FLD 4505 NSO 4506 RET
4600 NCS 4602 NEC 4604 ECS 4606 SEC 4608 SCS 460A SWC 460C WCS 460E NWC
4700 SPR 4701 SUM 4702 FAL 4703 AUT 4704 WIN
4800 CCD 4801 DRW 4802 FRM 4803 GOF 4804 HLO 4805 HST 4806 HUH 4807 IAM 4808 LOD 4809 MAP 480A MDF 480B MIS
480C NME 480D NOT 480E NOW 480F OBS 4810 OFF 4811 ORD 4812 OUT 4813 PRN 4814 REJ 4815 SCO 4816 SLO 4817 SND
4818 SUB 4819 SVE 481A THX 481B TME 481C YES 481D ADM 481E SMR
4900 AOA 4901 BTL 4902 ERR 4903 LVL 4904 MRT 4905 MTL 4906 NPB 4907 NPR 4908 PDA 4909 PTL 490A RTL 490B UNO
490D DSD
4A00 ALY 4A01 AND 4A02 BWX 4A03 DMZ 4A06 FCT 4A07 FOR 4A08 FWD 4A0D IOU 4A10 PCE 4A12 PPT 4A13 PRP 4A17 SUG 4A1A TRY
4A1B UOM 4A1C VSS 4A1F XDO 4A25 NAR
4A26 CCL
5000 BOH 5001 BUR 5002 GAL 5003 RUH 5004 SIL 5005 TYR 5006 UKR
5107 BUD 5108 MOS 5109 MUN 510A PAR 510B SER 510C VIE 510D WAR
520E ADR 520F AEG 5210 BAL 5211 BAR 5212 BLA 5213 EAS 5214 ECH 5215 GOB 5216 GOL 5217 HEL 5218 ION 5219 IRI
521A MAO 521B NAO 521C NTH 521D NWG 521E SKA 521F TYS 5220 WES
5421 ALB 5422 APU 5423 ARM 5424 CLY 5425 FIN 5426 GAS 5427 LVN 5428 NAF 5429 PIC 542A PIE 542B PRU 542C SYR
542D TUS 542E WAL 542F YOR
5530 ANK 5531 BEL 5532 BER 5533 BRE 5534 CON 5535 DEN 5536 EDI 5537 GRE 5538 HOL 5539 KIE 553A LON 553B LVP
553C MAR 553D NAP 553E NWY 553F POR 5540 ROM 5541 RUM 5542 SEV 5543 SMY 5544 SWE 5545 TRI 5546 TUN 5547 VEN
5748 BUL 5749 SPA 574A STP
"""
_words = TOKEN_LIST.split()
BY_NAME = {_words[i + 1]: int(_words[i], 16) for i in range(0, len(_words), 2)}
BY_NUMBER = {number: name for name, number in BY_NAME.items()}
POWERS = {"AUS", "ENG", "FRA", "GER", "ITA", "RUS", "TUR"}
PROVINCES = {name for name, number in BY_NAME.items() if number >> 12 == 5}
CENTRES = {name for name, number in BY_NAME.items() if number >> 12 == 5 and (number >> 8) & 1}
BICOASTAL = {"BUL": {"ECS", "SCS"}, "SPA": {"NCS", "SCS"}, "STP": {"NCS", "SCS"}}
COASTS = {"NCS", "NEC", "ECS", "SEC", "SCS", "SWC", "WCS", "NWC"}
SEASONS = {"SPR", "SUM", "FAL", "AUT", "WIN"}
NOTES = {"MBV", "BPR", "CST", "ESC", "FAR", "HSC", "NAS", "NMB", "NMR", "NRN", "NRS", "NSA", "NSC", "NSF", "NSP",
         "NST", "NSU", "NVR", "NYU", "YSC"}
RESULTS = {"SUC", "BNC", "CUT", "DSR", "FLD", "NSO"}
VARIANT_OPTIONS = {"LVL", "MTL", "RTL", "BTL", "AOA", "DSD", "PDA", "NPR", "NPB", "PTL"}
TEXT = 0x4B00

IM, RM, DM, FM, EM = 0, 1, 2, 3, 4


# ------------------------------------------------------------------------------ the written form

def encode(written: str) -> bytes:
    """DAIDE's written form as DM body bytes: ``(`` ``)``, three-letter tokens, integers and
    'strings' (a quote doubled inside)."""
    numbers: list[int] = []
    for match in re.finditer(r"'((?:[^']|'')*)'|\(|\)|-?\d+|[A-Za-z]{3}", written):
        word = match.group(0)
        if match.group(1) is not None:
            numbers += [TEXT | ord(c) for c in match.group(1).replace("''", "'")]
        elif word[0].isdigit() or word[0] == "-":
            numbers.append(int(word) & 0x3FFF)
        else:
            numbers.append(BY_NAME[word.upper() if word not in "()" else word])
    return struct.pack(f">{len(numbers)}H", *numbers)


def dm(written: str) -> bytes:
    body = encode(written)
    return struct.pack(">BBH", DM, 0, len(body)) + body


def decode(body: bytes) -> str:
    """A DM body in the written form, each token once, strings quoted."""
    numbers = struct.unpack(f">{len(body) // 2}H", body)
    out: list[str] = []
    text: list[str] = []

    def flush() -> None:
        if text:
            out.append("'" + "".join(text).replace("'", "''") + "'")
            text.clear()

    for number in numbers:
        if number >> 8 == 0x4B:
            text.append(chr(number & 0xFF))
            continue
        flush()
        if number < 0x4000:
            out.append(str(number - 0x4000 if number & 0x2000 else number))
        else:
            out.append(BY_NUMBER[number])  # an unknown token fails the test here
    flush()
    return re.sub(r"\( ", "(", re.sub(r" \)", ")", " ".join(out)))


def tree(written: str) -> list[Any]:
    """The written form as nested lists (strings stay quoted)."""
    stack: list[list[Any]] = [[]]
    for match in re.finditer(r"'(?:[^']|'')*'|\(|\)|[^\s()]+", written):
        word = match.group(0)
        if word == "(":
            stack.append([])
        elif word == ")":
            inner = stack.pop()
            stack[-1].append(inner)
        else:
            stack[-1].append(int(word) if re.fullmatch(r"-?\d+", word) else word)
    assert len(stack) == 1, f"unbalanced: {written}"
    return stack[0]


# ------------------------------------------------------------------------------ the grammar

def _name(item: Any, names: set[str]) -> bool:
    return isinstance(item, str) and item in names


def _is_string(item: Any) -> bool:
    return isinstance(item, list) and len(item) == 1 and isinstance(item[0], str) and item[0].startswith("'")


def _province(item: Any) -> bool:
    if isinstance(item, str):
        return item in PROVINCES
    return (isinstance(item, list) and len(item) == 2 and _name(item[0], set(BICOASTAL))
            and _name(item[1], BICOASTAL[item[0]]))


def _unit(item: Any) -> bool:
    return (isinstance(item, list) and len(item) == 3 and _name(item[0], POWERS) and _name(item[1], {"AMY", "FLT"})
            and _province(item[2]))


def _turn(item: Any) -> bool:
    return isinstance(item, list) and len(item) == 2 and _name(item[0], SEASONS) and isinstance(item[1], int)


def _order(item: Any) -> bool:
    if not isinstance(item, list) or not item:
        return False
    if len(item) == 2 and isinstance(item[0], str) and item[0] in POWERS and item[1] == "WVE":
        return True
    if not _unit(item[0]):
        return False
    rest = item[1:]
    if rest in (["HLD"], ["DSB"], ["BLD"], ["REM"]):
        return True
    if len(rest) == 2 and rest[0] in ("MTO", "RTO"):
        return _province(rest[1])
    if len(rest) == 2 and rest[0] == "SUP":
        return _unit(rest[1])
    if len(rest) == 4 and rest[0] == "SUP" and rest[2] == "MTO":
        return _unit(rest[1]) and isinstance(rest[3], str) and rest[3] in PROVINCES
    if len(rest) == 4 and rest[0] == "CVY" and rest[2] == "CTO":
        return _unit(rest[1]) and _province(rest[3])
    if len(rest) == 4 and rest[0] == "CTO" and rest[2] == "VIA":
        return _province(rest[1]) and isinstance(rest[3], list) and all(_province(p) for p in rest[3])
    return False


def _power_list(item: Any) -> bool:
    return isinstance(item, list) and len(item) == 1 and _name(item[0], POWERS)


def _powers(item: Any) -> bool:
    return isinstance(item, list) and bool(item) and all(_name(p, POWERS) for p in item)


def _arrangement(item: Any) -> bool:
    """Level 10: PCE (powers), ALY (powers) VSS (powers), DRW, SLO (power), NOT/NAR (arrangement)."""
    if not isinstance(item, list) or not item:
        return False
    head, rest = item[0], item[1:]
    return ((head == "PCE" and len(rest) == 1 and _powers(rest[0]))
            or (head == "ALY" and len(rest) == 3 and _powers(rest[0]) and rest[1] == "VSS" and _powers(rest[2]))
            or (head == "DRW" and not rest) or (head == "SLO" and len(rest) == 1 and _power_list(rest[0]))
            or (head in ("NOT", "NAR") and len(rest) == 1 and _arrangement(rest[0])))


def _press(item: Any) -> bool:
    """Level 10's press messages: PRP/FCT (arrangement), TRY (tokens), YES/REJ/BWX/HUH/CCL (press)."""
    if not isinstance(item, list) or len(item) != 2:
        return False
    head, inner = item
    return ((head in ("PRP", "FCT") and _arrangement(inner)) or (head == "TRY" and isinstance(inner, list))
            or (head in ("YES", "REJ", "BWX", "CCL") and _press(inner))
            or (head == "HUH" and _press(_without_err(inner))))


def _without_err(item: Any) -> Any:
    """A press message a bot answered HUH, without the ERR it put where it stopped reading."""
    return [_without_err(i) for i in item if i != "ERR"] if isinstance(item, list) else item


def check(written: str) -> list[Any]:
    """The message's tree, after asserting that it is a server message of the syntax document."""
    items = tree(written)
    head, args = items[0], items[1:]
    ok: bool
    if head == "HLO":
        ok = (len(args) == 3 and _power_list(args[0]) and isinstance(args[1], list) and len(args[1]) == 1
              and isinstance(args[1][0], int) and 0 < args[1][0] < 8192 and isinstance(args[2], list)
              and all(isinstance(o, list) and _name(o[0], VARIANT_OPTIONS) for o in args[2]))
    elif head == "MAP":
        ok = len(args) == 1 and _is_string(args[0])
    elif head == "MDF":
        ok = len(args) == 3 and args[0] == sorted(POWERS) and len(args[2]) == len(PROVINCES)
    elif head == "SCO":
        owned = [c for group in args for c in group[1:]]
        ok = (all(isinstance(g, list) and g and _name(g[0], POWERS | {"UNO"}) for g in args)
              and sorted(owned) == sorted(CENTRES))
    elif head == "NOW":
        ok = (bool(args) and _turn(args[0])
              and all(_unit(u) or (isinstance(u, list) and len(u) == 5 and _unit(u[:3]) and u[3] == "MRT"
                                   and all(_province(p) for p in u[4])) for u in args[1:]))
    elif head == "ORD":
        ok = (len(args) == 3 and _turn(args[0]) and _order(args[1]) and isinstance(args[2], list)
              and (args[2] == ["RET"] or (_name(args[2][0], RESULTS) and args[2][1:] in ([], ["RET"]))))
    elif head == "THX":
        ok = len(args) == 2 and isinstance(args[0], list) and isinstance(args[1], list) and _name(args[1][0], NOTES)
    elif head == "MIS":
        ok = (all(_unit(u) or (isinstance(u, list) and len(u) == 5 and u[3] == "MRT") for u in args)
              or (len(args) == 1 and isinstance(args[0], list) and len(args[0]) == 1 and isinstance(args[0][0], int)))
    elif head in ("YES", "REJ", "HUH", "PRN"):
        ok = len(args) == 1 and isinstance(args[0], list)
    elif head == "FRM":  # FRM (power) (powers) (press message), level 10
        ok = (len(args) == 3 and _power_list(args[0]) and isinstance(args[1], list) and bool(args[1])
              and all(_name(p, POWERS) for p in args[1]) and _press(args[2]))
    elif head in ("CCD", "SLO", "OUT"):
        ok = len(args) == 1 and _power_list(args[0])
    elif head == "NOT":
        ok = len(args) == 1 and isinstance(args[0], list) and args[0][0] == "CCD" and _power_list(args[0][1])
    elif head == "DRW":  # DRW (powers): a partial draw, in a game whose HLO said PDA
        ok = args == [] or (len(args) == 1 and _powers(args[0]))
    elif head == "OFF":
        ok = args == []
    elif head == "SMR":
        ok = (_turn(args[0]) and len(args) == 8 and all(
            isinstance(e, list) and _name(e[0], POWERS) and _is_string(e[1]) and _is_string(e[2])
            and isinstance(e[3], int) for e in args[1:]))
    elif head == "TME":
        ok = len(args) == 1 and isinstance(args[0], list) and isinstance(args[0][0], int)
    elif head == "ADM":
        ok = len(args) == 2 and _is_string(args[0]) and _is_string(args[1])
    else:
        ok = False
    assert ok, f"not a server message of the DAIDE syntax: {written}"
    return items


# ------------------------------------------------------------------------------ the connection

@dataclass
class Frame:
    kind: int
    body: bytes


@dataclass
class DaideClient:
    reader: asyncio.StreamReader
    writer: asyncio.StreamWriter
    seen: list[str] = field(default_factory=list)
    representation: dict[str, int] = field(default_factory=dict)

    @classmethod
    async def connect(cls, port: int, host: str = "127.0.0.1") -> DaideClient:
        reader, writer = await asyncio.open_connection(host, port)
        return cls(reader, writer)

    def raw(self, data: bytes) -> None:
        self.writer.write(data)

    def initial(self, version: int = 1, magic: int = 0xDA10) -> None:
        self.raw(struct.pack(">BBHHH", IM, 0, 4, version, magic))

    async def hello(self) -> None:
        """IM, then the RM (its 6-byte entries: a token and its name, NUL-padded)."""
        self.initial()
        found = await self.frame()
        assert found.kind == RM, found
        assert len(found.body) % 6 == 0
        for offset in range(0, len(found.body), 6):
            number, name = struct.unpack_from(">H4s", found.body, offset)
            assert name[3] == 0
            self.representation[name[:3].decode()] = number
        for name, number in self.representation.items():
            assert BY_NAME[name] == number, (name, hex(number))

    def send(self, written: str) -> None:
        self.raw(dm(written))

    async def frame(self, timeout: float = 20.0) -> Frame:
        header = await asyncio.wait_for(self.reader.readexactly(4), timeout)
        kind, _, length = struct.unpack(">BBH", header)
        body = await asyncio.wait_for(self.reader.readexactly(length), timeout) if length else b""
        return Frame(kind, body)

    async def receive(self, timeout: float = 20.0) -> str:
        """The next DM in the written form, checked against the grammar."""
        found = await self.frame(timeout)
        assert found.kind == DM, f"expected a DM, got type {found.kind} {found.body.hex()}"
        written = decode(found.body)
        if written.startswith("PRN ("):  # PRN echoes a message whose brackets do not pair up
            assert written.endswith(")"), written
        else:
            check(written)
        self.seen.append(written)
        return written

    async def until(self, prefix: str, timeout: float = 30.0) -> list[str]:
        """Messages up to and including the first that starts with ``prefix``."""
        got = []
        loop = asyncio.get_running_loop()
        end = loop.time() + timeout
        while True:
            message = await self.receive(max(0.1, end - loop.time()))
            got.append(message)
            if message.startswith(prefix):
                return got

    async def turn(self, timeout: float = 30.0) -> list[str]:
        """Messages up to the next NOW and the TME that follows it in a game with a clock (the
        time left, sent with every new turn)."""
        got = await self.until("NOW", timeout)
        got.append(await self.receive(timeout))
        assert got[-1].startswith("TME ("), got[-1]
        return got

    async def closed(self, timeout: float = 20.0) -> bytes:
        """Everything the server still sends until it closes the connection."""
        return await asyncio.wait_for(self.reader.read(), timeout)

    async def close(self) -> None:
        self.writer.close()
        try:
            await self.writer.wait_closed()
        except (ConnectionError, OSError):
            pass


def units_in(now: str, power: str) -> list[list[Any]]:
    """The units of ``power`` in a NOW message (as trees)."""
    return [u for u in tree(now)[2:] if u[0] == power]


def written(item: Any) -> str:
    """A tree item in the written form."""
    if isinstance(item, list):
        return "(" + " ".join(written(i) for i in item) + ")"
    return str(item)
