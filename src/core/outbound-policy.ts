/**
 * Where slashd may send requests on an app's behalf (interactions endpoints): a URL check and an
 * address classifier, applied to the URL when it is stored and to every address at connect time.
 * Pure: the caller resolves names and opens sockets.
 */

export type AddressClass = 'public' | 'loopback' | 'private' | 'link-local' | 'multicast' | 'reserved' | 'not-an-ip';

/** `default`: public and loopback (the sandbox: the app runs on the developer's machine). `public-only`: public only. */
export type EndpointPolicyMode = 'default' | 'public-only';

export const ENDPOINT_POLICY_MODES: readonly EndpointPolicyMode[] = ['default', 'public-only'];

export interface OutboundPolicy {
  mode: EndpointPolicyMode;
  /** Also private and link-local addresses (and loopback under `public-only`): a trusted network. */
  allowPrivate: boolean;
}

export const DEFAULT_OUTBOUND_POLICY: OutboundPolicy = { mode: 'default', allowPrivate: false };

/** The refusal's text; it names no address, so it tells nothing about the network behind it. */
export const POLICY_REFUSAL = 'the address is not allowed by the endpoint policy';

type V4Range = readonly [base: number, prefix: number, kind: AddressClass];

/** IPv4 ranges that are not public (RFC 6890 and friends); the first match decides. */
const V4_RANGES: readonly V4Range[] = [
  [0x00000000, 8, 'reserved'], // "this network"; 0.0.0.0 reaches the local host on Linux
  [0x0a000000, 8, 'private'],
  [0x64400000, 10, 'private'], // CGNAT, 100.64/10
  [0x7f000000, 8, 'loopback'],
  [0xa9fe0000, 16, 'link-local'], // 169.254/16, cloud metadata services live here
  [0xac100000, 12, 'private'],
  [0xc0000000, 24, 'reserved'], // IETF protocol assignments
  [0xc0000200, 24, 'reserved'], // TEST-NET-1
  [0xc0a80000, 16, 'private'],
  [0xc6120000, 15, 'reserved'], // benchmarking
  [0xc6336400, 24, 'reserved'], // TEST-NET-2
  [0xcb007100, 24, 'reserved'], // TEST-NET-3
  [0xe0000000, 4, 'multicast'],
  [0xf0000000, 4, 'reserved'], // 240/4 and the broadcast address
];

function parseV4(text: string): number | null {
  const parts = text.split('.');
  if (parts.length !== 4 || !parts.every((p) => /^\d{1,3}$/.test(p) && Number(p) <= 255)) return null;
  return parts.reduce((acc, p) => acc * 256 + Number(p), 0);
}

function classifyV4(value: number): AddressClass {
  for (const [base, prefix, kind] of V4_RANGES) {
    const mask = prefix === 0 ? 0 : (0xffffffff << (32 - prefix)) >>> 0;
    if ((value & mask) >>> 0 === base) return kind;
  }
  return 'public';
}

/** The 8 groups of an IPv6 address, or null; a zone (`%eth0`) is dropped, an IPv4 tail is read. */
export function parseV6(text: string): number[] | null {
  let rest = text.replace(/%.*$/, '');
  const tail: number[] = [];
  const v4Tail = /(?:^|:)(\d+\.\d+\.\d+\.\d+)$/.exec(rest);
  if (v4Tail) {
    const v4 = parseV4(v4Tail[1]!);
    if (v4 === null) return null;
    tail.push(v4 >>> 16, v4 & 0xffff);
    rest = rest.slice(0, rest.length - v4Tail[1]!.length);
    if (rest.endsWith(':') && !rest.endsWith('::')) rest = rest.slice(0, -1);
  }
  const halves = rest.split('::');
  if (halves.length > 2) return null;
  const read = (part: string) => (part === '' ? [] : part.split(':'));
  const head = read(halves[0]!);
  const back = halves.length === 2 ? read(halves[1]!) : [];
  if (![...head, ...back].every((g) => /^[0-9a-f]{1,4}$/i.test(g))) return null;
  const known = head.length + back.length + tail.length;
  if (halves.length === 1 ? known !== 8 : known > 7) return null;
  const zeros = new Array<number>(8 - known).fill(0);
  return [...head.map((g) => parseInt(g, 16)), ...zeros, ...back.map((g) => parseInt(g, 16)), ...tail];
}

/** An IPv4 address carried inside an IPv6 one (mapped, NAT64, 6to4): a way around a v4-only check. */
function embeddedV4(g: number[]): number | null {
  const zeroUpTo = (n: number) => g.slice(0, n).every((x) => x === 0);
  if (zeroUpTo(5) && g[5] === 0xffff) return g[6]! * 0x10000 + g[7]!; // ::ffff:a.b.c.d
  if (g[0] === 0x64 && g[1] === 0xff9b && g.slice(2, 6).every((x) => x === 0)) return g[6]! * 0x10000 + g[7]!;
  if (g[0] === 0x2002) return g[1]! * 0x10000 + g[2]!; // 6to4
  return null;
}

function classifyV6(g: number[]): AddressClass {
  const v4 = embeddedV4(g);
  if (v4 !== null) return classifyV4(v4);
  if (g.every((x, i) => x === (i === 7 ? 1 : 0))) return 'loopback';
  if (g.slice(0, 6).every((x) => x === 0)) return 'reserved'; // ::, and the deprecated ::a.b.c.d
  const first = g[0]!;
  if ((first & 0xfe00) === 0xfc00) return 'private'; // fc00::/7, unique local
  if ((first & 0xffc0) === 0xfe80) return 'link-local';
  if ((first & 0xffc0) === 0xfec0) return 'private'; // deprecated site-local
  if ((first & 0xff00) === 0xff00) return 'multicast';
  if (first === 0x2001 && g[1] === 0x0db8) return 'reserved'; // documentation
  if (first === 0x0100 && g.slice(1, 4).every((x) => x === 0)) return 'reserved'; // discard-only
  return 'public';
}

/** The class of an IP address in text form (IPv4 dotted quad, or IPv6 with or without brackets). */
export function classifyAddress(address: string): AddressClass {
  const bare = address.startsWith('[') && address.endsWith(']') ? address.slice(1, -1) : address;
  const v4 = parseV4(bare);
  if (v4 !== null) return classifyV4(v4);
  const v6 = bare.includes(':') ? parseV6(bare) : null;
  return v6 ? classifyV6(v6) : 'not-an-ip';
}

/** Whether an address of this class may be connected to under the policy. */
export function classAllowed(policy: OutboundPolicy, kind: AddressClass): boolean {
  switch (kind) {
    case 'public':
      return true;
    case 'loopback':
      return policy.mode === 'default' || policy.allowPrivate;
    case 'private':
    case 'link-local':
      return policy.allowPrivate;
    // No HTTP endpoint lives at a multicast, unspecified or reserved address, whatever the network;
    // and what is not an address at all is never connected to.
    default:
      return false;
  }
}

export function addressAllowed(policy: OutboundPolicy, address: string): boolean {
  return classAllowed(policy, classifyAddress(address));
}

export type UrlRefusal = 'userinfo' | 'address';

/**
 * The checks a parsed URL can get before any lookup: no credentials in it, and an IP literal host
 * (WHATWG URL has already turned `127.1`, `2130706433` and `0x7f.1` into `127.0.0.1`) must be
 * allowed. A host name is checked when it is resolved, at each connection.
 */
export function checkEndpointUrl(policy: OutboundPolicy, url: URL): UrlRefusal | null {
  if (url.username !== '' || url.password !== '') return 'userinfo';
  const kind = classifyAddress(url.hostname);
  if (kind !== 'not-an-ip' && !classAllowed(policy, kind)) return 'address';
  return null;
}
