/**
 * Where the provisioning API lives and the token it wants. Configured (`PROVISIONING_URL`), it is fixed; for the
 * built-in simulator it is this process's own origin, known only once the server listens.
 */
export abstract class ProvisioningEndpoint {
  /** The address before `/v1/…`, without a trailing slash. */
  abstract baseUrl(): string;
  abstract token(): string;
}

export class FixedProvisioningEndpoint extends ProvisioningEndpoint {
  constructor(
    private readonly url: string,
    private readonly bearer: string,
  ) {
    super();
  }

  baseUrl(): string {
    return this.url.replace(/\/+$/, '');
  }

  token(): string {
    return this.bearer;
  }
}

/** Where the built-in simulator's controller answers, under the API's global prefix. */
export const SANDBOX_STREAMING_PATH = '/api/sandbox/streaming';

/** The slice of Node's HTTP server the endpoint reads: the address it listens on, once it does. */
interface ListeningServer {
  address(): string | { port: number } | null;
}

/**
 * The built-in simulator on this process's own origin, over loopback: the port the server listens on, or, in a
 * process that serves no HTTP (`npm run worker`), the configured `PORT` of the server beside it.
 */
export class SelfOriginProvisioningEndpoint extends ProvisioningEndpoint {
  constructor(
    private readonly server: () => ListeningServer | undefined,
    private readonly configuredPort: number,
    private readonly bearer: string,
  ) {
    super();
  }

  baseUrl(): string {
    const address = this.server()?.address();
    const port = address && typeof address === 'object' ? address.port : this.configuredPort;
    return `http://127.0.0.1:${port}${SANDBOX_STREAMING_PATH}`;
  }

  token(): string {
    return this.bearer;
  }
}
