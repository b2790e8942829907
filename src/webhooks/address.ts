// Webhook URLs may not reach this service's own network: a host that resolves to a loopback, private, link-local,
// multicast, unspecified or other non-public address is refused (unless WEBHOOK_ALLOW_PRIVATE_URLS=true). The check
// runs in the connection's own DNS lookup, so the address checked is the address connected to: a name that
// resolves to a public address when a URL is saved and to a private one when it is used (DNS rebinding) is refused
// then too. Address ranges come from ipaddr.js.
import dns, { type LookupAddress, type LookupOptions } from "node:dns";
import { isIP } from "node:net";
import ipaddr from "ipaddr.js";
import { Agent } from "undici";
import { config } from "../config";

export class PrivateAddressError extends Error {
  readonly code = "EPRIVATEADDRESS";
}

/** Why an address may not be called ("loopback", "private", …), or null for a public unicast address. */
export function nonPublicRange(address: string): string | null {
  const range = ipaddr.process(address).range(); // IPv4-mapped IPv6 addresses are judged as the IPv4 address
  return range === "unicast" ? null : range;
}

function refusal(host: string, address: string, range: string): PrivateAddressError {
  return new PrivateAddressError(`${host} resolves to ${address}, a ${range} address; webhooks are sent only to public addresses`);
}

/** Resolves `host` (all its addresses) and throws PrivateAddressError when one of them is not public. */
export async function checkHost(host: string): Promise<void> {
  if (config.WEBHOOK_ALLOW_PRIVATE_URLS) return;
  const bare = host.replace(/^\[|\]$/g, "");
  const addresses = isIP(bare) ? [{ address: bare }] : await dns.promises.lookup(bare, { all: true, verbatim: true });
  for (const { address } of addresses) {
    const range = nonPublicRange(address);
    if (range) throw refusal(bare, address, range);
  }
}

type LookupCallback = (err: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;

/** net.connect's lookup: dns.lookup, then every address checked before the socket connects to one of them. */
function checkedLookup(hostname: string, options: LookupOptions, callback: LookupCallback): void {
  dns.lookup(hostname, { ...options, all: true }, (err, addresses) => {
    if (err) return callback(err, []);
    for (const { address } of addresses) {
      const range = nonPublicRange(address);
      if (range) return callback(refusal(hostname, address, range), []);
    }
    if (options.all) callback(null, addresses);
    else callback(null, addresses[0].address, addresses[0].family);
  });
}

/** The HTTP client of deliveries: keeps connections alive, and connects only to checked addresses. */
export function deliveryAgent(): Agent {
  return new Agent({
    connect: config.WEBHOOK_ALLOW_PRIVATE_URLS ? {} : { lookup: checkedLookup as never },
    keepAliveTimeout: 10_000,
  });
}
