"""The PROXY protocol's header (HAProxy's, versions 1 and 2): the player's own address, sent
by a load balancer ahead of the SSH bytes, so that a node behind it sees players rather
than the balancer (per-address limits, the block list, the failed-login lockout).

Parsed from bytes peeked at the socket: the SSH stream behind the header must stay in the
socket for asyncssh, so nothing is read past the header.
"""

from __future__ import annotations

import ipaddress
import struct
from dataclasses import dataclass

V2_SIGNATURE = b"\r\n\r\n\x00\r\nQUIT\n"
V1_PREFIX = b"PROXY "
V1_MAX = 107  # the longest version 1 line, CRLF included
MAX_HEADER = 16 + 216  # version 2: the fixed part and the longest address block we accept


class ProxyHeaderError(ValueError):
    """Not a PROXY header (a client that reached the node directly, or garbage)."""


@dataclass(frozen=True, slots=True)
class ProxyHeader:
    length: int  # bytes the header takes at the start of the stream
    source: str | None  # the player's address; None: the balancer's own (a health check)


def parse(data: bytes) -> ProxyHeader | None:
    """The header at the start of ``data``; None if more bytes are needed to tell."""
    if data.startswith(V2_SIGNATURE[: len(data)]) and len(data) < len(V2_SIGNATURE):
        return None
    if data.startswith(V2_SIGNATURE):
        return _parse_v2(data)
    if V1_PREFIX.startswith(data[: len(V1_PREFIX)]):
        return _parse_v1(data) if len(data) >= len(V1_PREFIX) else None
    raise ProxyHeaderError("the connection did not begin with a PROXY header")


def _parse_v1(data: bytes) -> ProxyHeader | None:
    end = data.find(b"\r\n", 0, V1_MAX)
    if end < 0:
        if len(data) >= V1_MAX:
            raise ProxyHeaderError("a PROXY line longer than the protocol allows")
        return None
    words = data[:end].decode("ascii", "replace").split(" ")
    if len(words) >= 2 and words[1] == "UNKNOWN":
        return ProxyHeader(end + 2, None)
    if len(words) != 6 or words[1] not in ("TCP4", "TCP6"):
        raise ProxyHeaderError(f"not a PROXY line: {data[:end]!r}")
    return ProxyHeader(end + 2, _address(words[2], 4 if words[1] == "TCP4" else 6))


def _parse_v2(data: bytes) -> ProxyHeader | None:
    if len(data) < 16:
        return None
    version_command, family, size = data[12], data[13], struct.unpack("!H", data[14:16])[0]
    if version_command >> 4 != 2 or version_command & 0xF not in (0, 1):
        raise ProxyHeaderError("a PROXY header of an unknown version or command")
    if 16 + size > MAX_HEADER:
        raise ProxyHeaderError("a PROXY header longer than this server accepts")
    if len(data) < 16 + size:
        return None
    if version_command & 0xF == 0:  # LOCAL: the balancer itself (its health check)
        return ProxyHeader(16 + size, None)
    body = data[16 : 16 + size]
    if family == 0x11 and size >= 12:  # TCP over IPv4
        return ProxyHeader(16 + size, str(ipaddress.IPv4Address(body[:4])))
    if family == 0x21 and size >= 36:  # TCP over IPv6
        return ProxyHeader(16 + size, str(ipaddress.IPv6Address(body[:16])))
    if family == 0x00:  # UNSPEC
        return ProxyHeader(16 + size, None)
    raise ProxyHeaderError(f"a PROXY header of an unsupported family {family:#x}")


def _address(text: str, version: int) -> str:
    try:
        address = ipaddress.ip_address(text)
    except ValueError:
        raise ProxyHeaderError(f"not an address in a PROXY line: {text!r}") from None
    if address.version != version:
        raise ProxyHeaderError(f"an IPv{address.version} address in a TCP{version} line")
    return str(address)
