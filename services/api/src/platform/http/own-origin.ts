import type { HttpAdapterHost } from '@nestjs/core';
import type { AddressInfo } from 'node:net';
import { assert } from '../../kernel';

/**
 * This server's own origin on the loopback interface, for the sandboxes that are part of this very process: the
 * adapter's calls to them and their callbacks to us go there, whatever the public address is (a proxy, a name tests
 * cannot resolve). `sandbox` names which one asks, for the assertion's message.
 */
export function ownLoopbackOrigin(http: HttpAdapterHost, sandbox: string): string {
  const address = http.httpAdapter?.getHttpServer()?.address() as AddressInfo | string | null | undefined;
  assert(
    typeof address === 'object' && address !== null,
    `the ${sandbox} is reached over HTTP, so the server must be listening on a TCP port`,
  );
  return `http://127.0.0.1:${address.port}`;
}
