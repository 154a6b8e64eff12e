"""Where a webhook may go: a host as a resolver reads it, and the addresses it may not be.

`normal_host` reads a URL's host the way a browser or resolver would, before anything is
checked: Unicode compatibility forms folded (NFKC: full-width digits and dots, circled
digits, the ideographic full stop `。`), then IDNA (UTS #46) for an international name, lower
case, without the trailing dot of a fully qualified name; an IPv4 address in the shorter
forms resolvers also take (`2130706433`, `127.1`, `0x7f.0.0.1`, `0177.0.0.1`) is that address.
A host that holds a `%` (a percent-encoded name, an IPv6 zone) is refused: no endpoint needs
one, and readers differ on what it names.

`refused_range` says which special-purpose range an address is in: every entry of the IANA
IPv4 and IPv6 Special-Purpose Address Registries (RFC 6890 and the RFCs that updated them),
plus multicast and the IPv6 forms that carry an IPv4 address (IPv4-compatible,
IPv4-translated). Nothing in them is a webhook's address: private, shared, loopback,
link-local, documentation, benchmarking, translation and anycast service addresses alike."""

import ipaddress
import re
import socket
import unicodedata
from typing import Final

import idna

from webhooks.errors import WebhookError

IPAddress = ipaddress.IPv4Address | ipaddress.IPv6Address
IPNetwork = ipaddress.IPv4Network | ipaddress.IPv6Network

# (range, its name in the registry): https://www.iana.org/assignments/iana-ipv4-special-registry
# and .../iana-ipv6-special-registry, then the ranges this service adds (marked).
SPECIAL_PURPOSE: Final[tuple[tuple[str, str], ...]] = (
    ("0.0.0.0/8", '"This network" (RFC 791)'),
    ("0.0.0.0/32", '"This host on this network" (RFC 1122)'),
    ("10.0.0.0/8", "Private-Use (RFC 1918)"),
    ("100.64.0.0/10", "Shared Address Space (RFC 6598)"),
    ("127.0.0.0/8", "Loopback (RFC 1122)"),
    ("169.254.0.0/16", "Link Local (RFC 3927)"),
    ("172.16.0.0/12", "Private-Use (RFC 1918)"),
    ("192.0.0.0/24", "IETF Protocol Assignments (RFC 6890)"),
    ("192.0.0.0/29", "IPv4 Service Continuity Prefix (RFC 7335)"),
    ("192.0.0.8/32", "IPv4 dummy address (RFC 7600)"),
    ("192.0.0.9/32", "Port Control Protocol Anycast (RFC 7723)"),
    ("192.0.0.10/32", "Traversal Using Relays around NAT Anycast (RFC 8155)"),
    ("192.0.0.170/32", "NAT64/DNS64 Discovery (RFC 7050)"),
    ("192.0.0.171/32", "NAT64/DNS64 Discovery (RFC 7050)"),
    ("192.0.2.0/24", "Documentation (TEST-NET-1) (RFC 5737)"),
    ("192.31.196.0/24", "AS112-v4 (RFC 7535)"),
    ("192.52.193.0/24", "AMT (RFC 7450)"),
    ("192.88.99.0/24", "Deprecated (6to4 Relay Anycast) (RFC 7526)"),
    ("192.168.0.0/16", "Private-Use (RFC 1918)"),
    ("192.175.48.0/24", "Direct Delegation AS112 Service (RFC 7534)"),
    ("198.18.0.0/15", "Benchmarking (RFC 2544)"),
    ("198.51.100.0/24", "Documentation (TEST-NET-2) (RFC 5737)"),
    ("203.0.113.0/24", "Documentation (TEST-NET-3) (RFC 5737)"),
    ("240.0.0.0/4", "Reserved (RFC 1112)"),
    ("255.255.255.255/32", "Limited Broadcast (RFC 8190)"),
    ("224.0.0.0/4", "Multicast (RFC 5771; added here)"),
    ("::1/128", "Loopback Address (RFC 4291)"),
    ("::/128", "Unspecified Address (RFC 4291)"),
    ("::ffff:0:0/96", "IPv4-mapped Address (RFC 4291)"),
    ("64:ff9b::/96", "IPv4-IPv6 Translat. (RFC 6052)"),
    ("64:ff9b:1::/48", "IPv4-IPv6 Translat. (RFC 8215)"),
    ("100::/64", "Discard-Only Address Block (RFC 6666)"),
    ("100:0:0:1::/64", "Dummy IPv6 Prefix (RFC 9780)"),
    ("2001::/23", "IETF Protocol Assignments (RFC 2928)"),
    ("2001::/32", "TEREDO (RFC 4380)"),
    ("2001:1::1/128", "Port Control Protocol Anycast (RFC 7723)"),
    ("2001:1::2/128", "Traversal Using Relays around NAT Anycast (RFC 8155)"),
    ("2001:1::3/128", "DNS-SD Service Registration Protocol Anycast (RFC 9665)"),
    ("2001:2::/48", "Benchmarking (RFC 5180)"),
    ("2001:3::/32", "AMT (RFC 7450)"),
    ("2001:4:112::/48", "AS112-v6 (RFC 7535)"),
    ("2001:10::/28", "Deprecated (previously ORCHID) (RFC 4843)"),
    ("2001:20::/28", "ORCHIDv2 (RFC 7343)"),
    ("2001:30::/28", "Drone Remote ID Protocol Entity Tags (RFC 9374)"),
    ("2001:db8::/32", "Documentation (RFC 3849)"),
    ("2002::/16", "6to4 (RFC 3056)"),
    ("2620:4f:8000::/48", "Direct Delegation AS112 Service (RFC 7534)"),
    ("3fff::/20", "Documentation (RFC 9637)"),
    ("5f00::/16", "Segment Routing (SRv6) SIDs (RFC 9602)"),
    ("fc00::/7", "Unique-Local (RFC 4193)"),
    ("fe80::/10", "Link-Local Unicast (RFC 4291)"),
    ("ff00::/8", "Multicast (RFC 4291; added here)"),
    ("::/96", "IPv4-compatible Address, deprecated (RFC 4291; added here)"),
    ("::ffff:0:0:0/96", "IPv4-translated Address (RFC 2765; added here)"),
)
_NETWORKS: Final[tuple[tuple[IPNetwork, str], ...]] = tuple(
    (ipaddress.ip_network(network), name) for network, name in SPECIAL_PURPOSE
)
LOOPBACK: Final = (ipaddress.ip_network("127.0.0.0/8"), ipaddress.ip_network("::1/128"))


def refused_range(address: IPAddress) -> str:
    """The name of the special-purpose range `address` is in (the most specific one), or ""
    for an address a webhook may be sent to. An address outside every range that Python does
    not hold global either (an unassigned block) is refused too."""
    found = [(net, name) for net, name in _NETWORKS if address in net]
    if found:
        return max(found, key=lambda item: item[0].prefixlen)[1]
    return "" if address.is_global else "Not globally reachable"


def is_loopback(address: IPAddress) -> bool:
    return any(address in network for network in LOOPBACK)


# One label of a host name once in ASCII (IDNA): letters, digits, hyphens inside, and the
# underscore some names carry; at most 63 characters.
_LABEL = re.compile(r"(?!-)[a-z0-9_-]{1,63}(?<!-)")


def normal_host(host: str) -> tuple[str, IPAddress | None]:
    """The host as it is looked up and sent in the Host header (ASCII, lower case, no trailing
    dot), and the IP address it names without DNS, if it is one; `invalid_url` when it is not
    a host name at all."""
    if "%" in host:
        raise WebhookError(
            "invalid_url", "The address's host may not hold % (an encoded name or a zone)."
        )
    bracketed = host.startswith("[") and host.endswith("]")
    name = unicodedata.normalize("NFKC", host[1:-1] if bracketed else host).lower()
    try:
        literal = ipaddress.ip_address(name)
    except ValueError:
        literal = None
    if literal is not None:
        return str(literal), literal
    if bracketed:
        raise WebhookError("invalid_url", f"{host!r} is not an IPv6 address.")
    if not name.isascii():
        try:
            name = idna.encode(name, uts46=True, transitional=False).decode("ascii")
        except (idna.IDNAError, UnicodeError):
            raise WebhookError(
                "invalid_url", f"{host!r} is not a host name DNS can look up."
            ) from None
    if name.endswith(".") and not name.endswith(".."):
        name = name[:-1]
    literal = _short_ipv4(name)
    if literal is not None:
        return str(literal), literal
    labels = name.split(".")
    if len(name) > 253 or not all(_LABEL.fullmatch(label) for label in labels):
        raise WebhookError("invalid_url", f"{host!r} is not a host name DNS can look up.")
    return name, None


def _short_ipv4(name: str) -> ipaddress.IPv4Address | None:
    """An IPv4 address in a form resolvers read besides the dotted quad: one number, fewer
    parts, octal or hex parts (`2130706433`, `127.1`, `0x7f.0.0.1`, `0177.0.0.1`)."""
    if not _NUMERIC.fullmatch(name):
        return None
    try:
        return ipaddress.IPv4Address(socket.inet_aton(name))
    except OSError:
        return None


# One to four parts, each decimal, octal (a leading 0) or hex (0x): what inet_aton reads.
_NUMERIC = re.compile(r"(?:0x[0-9a-f]*|[0-9]+)(?:\.(?:0x[0-9a-f]*|[0-9]+)){0,3}")
