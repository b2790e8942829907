// Webhook URLs may not reach this service's own network: a host that resolves to a loopback, private, link-local,
// multicast, unspecified or other non-public address is refused (unless WEBHOOK_ALLOW_PRIVATE_URLS=true). The check
// runs in the connection's own DNS lookup, so the address checked is the address connected to: a name that
// resolves to a public address when a URL is saved and to a private one when it is used (DNS rebinding) is refused
// then too. Address ranges come from ipaddr.js.
import dns, { type LookupAddress, type LookupOptions } from "node:dns";
import { isIP } from "node:net";
import ipaddr from "ipaddr.js";
import type { Agent } from "undici";
import { config } from "../config";

export class PrivateAddressError extends Error {
  readonly code = "EPRIVATEADDRESS";
}

/**
 * IPv6 forms that carry an IPv4 address, and where: an address in one of them reaches (through a dual-stack socket,
 * a translator, a relay or a tunnel) the IPv4 address it carries, so it is judged by that address too. Only two are
 * another spelling of a public IPv4 address that a resolver may legitimately answer: IPv4-mapped (::ffff:a.b.c.d)
 * and the well-known NAT64 prefix (64:ff9b::/96, which DNS64 answers for an IPv4-only host on an IPv6-only
 * network); the others are refused whatever they carry: IPv4-compatible (::a.b.c.d, deprecated), IPv4-translated
 * (::ffff:0:a.b.c.d), local-use NAT64 (64:ff9b:1::/48, a private network's translator), 6to4 (2002::/16) and Teredo
 * (2001::/32: its server's address, and its client's with every bit inverted).
 */
const CARRIERS: Array<{ form: string; prefix: [ipaddr.IPv6, number]; at: Array<{ byte: number; inverted?: boolean }>; spelling: boolean }> = [
  { form: "IPv4-mapped", prefix: ipaddr.IPv6.parseCIDR("::ffff:0:0/96"), at: [{ byte: 12 }], spelling: true },
  { form: "NAT64", prefix: ipaddr.IPv6.parseCIDR("64:ff9b::/96"), at: [{ byte: 12 }], spelling: true },
  { form: "IPv4-compatible", prefix: ipaddr.IPv6.parseCIDR("::/96"), at: [{ byte: 12 }], spelling: false },
  { form: "IPv4-translated", prefix: ipaddr.IPv6.parseCIDR("::ffff:0:0:0/96"), at: [{ byte: 12 }], spelling: false },
  { form: "local-use NAT64", prefix: ipaddr.IPv6.parseCIDR("64:ff9b:1::/48"), at: [{ byte: 12 }], spelling: false },
  { form: "6to4", prefix: ipaddr.IPv6.parseCIDR("2002::/16"), at: [{ byte: 2 }], spelling: false },
  { form: "Teredo", prefix: ipaddr.IPv6.parseCIDR("2001::/32"), at: [{ byte: 4 }, { byte: 12, inverted: true }], spelling: false },
];

/**
 * An IPv6 address as ipaddr.js reads it correctly: a dotted IPv4 tail written as two hex groups first (ipaddr.js
 * 2.5 reads "::127.0.0.1", the form glibc's resolver writes IPv4-compatible addresses in, as IPv4-mapped).
 */
function parse(address: string): ipaddr.IPv4 | ipaddr.IPv6 {
  if (!address.includes(":")) return ipaddr.parse(address);
  const hexTail = address.replace(/(\d+)\.(\d+)\.(\d+)\.(\d+)$/, (_, a: string, b: string, c: string, d: string) =>
    [(Number(a) << 8) | Number(b), (Number(c) << 8) | Number(d)].map((group) => group.toString(16)).join(":"),
  );
  return ipaddr.parse(hexTail);
}

/** "a loopback address", "an unspecified address", "a uniqueLocal address". */
const an = (kind: string) => `${/^(?:[aeio]|un(?!i))/i.test(kind) ? "an" : "a"} ${kind} address`;

/**
 * Why an address may not be called ("a loopback address", "the 6to4 form of 10.0.0.1, a private address", …), or
 * null for a public unicast address.
 */
export function nonPublicAddress(address: string): string | null {
  const ip = parse(address);
  const range = ip.range();
  if (ip.kind() === "ipv4" || range === "unspecified" || range === "loopback") return range === "unicast" ? null : an(range);
  const carrier = CARRIERS.find(({ prefix }) => (ip as ipaddr.IPv6).match(prefix));
  if (carrier) {
    const bytes = ip.toByteArray();
    for (const { byte, inverted } of carrier.at) {
      const ipv4 = new ipaddr.IPv4(bytes.slice(byte, byte + 4).map((b) => (inverted ? b ^ 0xff : b)));
      if (ipv4.range() !== "unicast") return `the ${carrier.form} form of ${ipv4.toString()}, ${an(ipv4.range())}`;
    }
    return carrier.spelling ? null : an(carrier.form);
  }
  return range === "unicast" ? null : an(range);
}

function refusal(host: string, address: string, why: string): PrivateAddressError {
  return new PrivateAddressError(`${host} resolves to ${address}, ${why}; webhooks are sent only to public addresses`);
}

/** Resolves `host` (all its addresses) and throws PrivateAddressError when one of them is not public. */
export async function checkHost(host: string): Promise<void> {
  if (config.WEBHOOK_ALLOW_PRIVATE_URLS) return;
  const bare = host.replace(/^\[|\]$/g, "");
  const addresses = isIP(bare) ? [{ address: bare }] : await dns.promises.lookup(bare, { all: true, verbatim: true });
  for (const { address } of addresses) {
    const why = nonPublicAddress(address);
    if (why) throw refusal(bare, address, why);
  }
}

type LookupCallback = (err: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;

/** net.connect's lookup: dns.lookup, then every address checked before the socket connects to one of them. */
function checkedLookup(hostname: string, options: LookupOptions, callback: LookupCallback): void {
  dns.lookup(hostname, { ...options, all: true }, (err, addresses) => {
    if (err) return callback(err, []);
    for (const { address } of addresses) {
      const why = nonPublicAddress(address);
      if (why) return callback(refusal(hostname, address, why), []);
    }
    if (options.all) callback(null, addresses);
    else callback(null, addresses[0].address, addresses[0].family);
  });
}

/**
 * undici, loaded when the first delivery worker starts: ~0.1 s of CPU at start-up that a process delivering no webhook
 * (and every test file) need not pay.
 */
// eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded on first use (see above)
export const undici = (): typeof import("undici") => require("undici") as typeof import("undici");

/** The HTTP client of deliveries: keeps connections alive, and connects only to checked addresses. */
export function deliveryAgent(): Agent {
  const { Agent } = undici();
  return new Agent({
    connect: config.WEBHOOK_ALLOW_PRIVATE_URLS ? {} : { lookup: checkedLookup as never },
    keepAliveTimeout: 10_000,
  });
}
