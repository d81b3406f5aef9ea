"""Where a share may listen: this machine's IPv4 addresses (its LAN address first, where the
players' phones can reach it) and the loopback address (for testing on this machine). They
are read from the network interfaces themselves; nothing is sent anywhere.

>>> "127.0.0.1" in local_addresses()
True
"""

from __future__ import annotations

import contextlib
import socket
import struct
import sys

LOOPBACK = "127.0.0.1"
_SIOCGIFADDR = 0x8915  # Linux: an interface's IPv4 address


def local_addresses() -> list[str]:
    """This machine's IPv4 addresses: private (LAN) ones first, then others, loopback last."""
    found = set(_interface_addresses()) | set(_host_addresses())
    found.discard("0.0.0.0")
    ordered = sorted(found - {LOOPBACK}, key=lambda a: (not _private(a), a))
    return [*(a for a in ordered if not a.startswith("127.")), LOOPBACK]


def default_address() -> str:
    """The address a share listens on unless the GM picks another: the first LAN address
    (the loopback address on a machine with none)."""
    return local_addresses()[0]


def _private(address: str) -> bool:
    first, second = (int(part) for part in address.split(".")[:2])
    return first == 10 or (first == 172 and 16 <= second <= 31) or (first, second) == (192, 168)


def _interface_addresses() -> list[str]:
    """Each interface's address, asked of the kernel (Linux); none elsewhere."""
    if not sys.platform.startswith("linux"):
        return []
    import fcntl

    addresses = []
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
        for _index, name in socket.if_nameindex():
            request = struct.pack("256s", name.encode()[:15])
            with contextlib.suppress(OSError):  # an interface with no IPv4 address
                answer = fcntl.ioctl(probe.fileno(), _SIOCGIFADDR, request)
                addresses.append(socket.inet_ntoa(answer[20:24]))
    return addresses


def _host_addresses() -> list[str]:
    """The addresses this machine's name resolves to (where interfaces cannot be read)."""
    try:
        infos = socket.getaddrinfo(socket.gethostname(), None, socket.AF_INET)
    except OSError:
        return []
    return [str(info[4][0]) for info in infos]
