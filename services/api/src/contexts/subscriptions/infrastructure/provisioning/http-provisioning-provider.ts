import {
  LoginTakenError,
  PermanentProvisioningError,
  ProvisioningProvider,
  type StreamingAccount,
  TransientProvisioningError,
} from './provisioning-provider.port';
import type { ProvisioningEndpoint } from './provisioning-endpoint';

export interface HttpProvisioningOptions {
  /** A call without a complete answer after this long is abandoned as a transient failure. */
  timeoutMs: number;
}

type Operation = 'create' | 'lookup' | 'extend' | 'change login' | 'change password' | 'disable';

/**
 * The provisioning API over `fetch` (docs/provisioning-api.md), for the real service and the built-in simulator
 * alike. Each call has its own deadline; statuses become the port's three kinds of failure. Request bodies, which
 * may hold a password, never reach an error message or a log, and neither does the token.
 */
export class HttpProvisioningProvider extends ProvisioningProvider {
  constructor(
    private readonly endpoint: ProvisioningEndpoint,
    private readonly options: HttpProvisioningOptions,
  ) {
    super();
  }

  async createAccount(request: { login: string; password: string; expiresAt: Date }): Promise<StreamingAccount> {
    const answer = await this.call('create', 'POST', '/v1/accounts', {
      login: request.login,
      password: request.password,
      expiresAt: request.expiresAt.toISOString(),
    });
    if (answer.status === 409) throw new LoginTakenError(request.login);
    return this.account('create', answer);
  }

  async extendAccount(request: { login: string; expiresAt: Date }): Promise<StreamingAccount> {
    const answer = await this.call('extend', 'PUT', `${accountPath(request.login)}/expiry`, {
      expiresAt: request.expiresAt.toISOString(),
    });
    return this.account('extend', answer);
  }

  async changeLogin(request: { login: string; newLogin: string }): Promise<StreamingAccount> {
    const answer = await this.call('change login', 'PUT', `${accountPath(request.login)}/login`, {
      login: request.newLogin,
    });
    if (answer.status === 409) throw new LoginTakenError(request.newLogin);
    if (answer.status === 404) {
      // A repeated rename whose first answer was lost finds the old login gone and the account under the new one.
      const renamed = await this.lookup(request.newLogin);
      if (renamed !== null) return renamed;
    }
    return this.account('change login', answer);
  }

  async changePassword(request: { login: string; password: string }): Promise<void> {
    const answer = await this.call('change password', 'PUT', `${accountPath(request.login)}/password`, {
      password: request.password,
    });
    this.account('change password', answer);
  }

  async disableAccount(request: { login: string }): Promise<StreamingAccount> {
    const answer = await this.call('disable', 'POST', `${accountPath(request.login)}/disable`, undefined);
    return this.account('disable', answer);
  }

  async isLoginAvailable(login: string): Promise<boolean> {
    const account = await this.lookup(login);
    return account === null || account.status === 'DISABLED';
  }

  private async lookup(login: string): Promise<StreamingAccount | null> {
    const answer = await this.call('lookup', 'GET', accountPath(login), undefined);
    if (answer.status === 404) return null;
    return this.account('lookup', answer);
  }

  /** Sends one request; only a failure to get a whole answer in time throws here, statuses are judged by callers. */
  private async call(
    operation: Operation,
    method: string,
    path: string,
    body: Record<string, string> | undefined,
  ): Promise<{ status: number; body: unknown }> {
    const headers: Record<string, string> = {
      Authorization: `Bearer ${this.endpoint.token()}`,
      Accept: 'application/json',
    };
    if (body !== undefined) headers['Content-Type'] = 'application/json';
    try {
      const response = await fetch(`${this.endpoint.baseUrl()}${path}`, {
        method,
        headers,
        body: body === undefined ? undefined : JSON.stringify(body),
        signal: AbortSignal.timeout(this.options.timeoutMs),
        redirect: 'error',
      });
      const text = await response.text();
      let parsed: unknown = null;
      if (text !== '') {
        try {
          parsed = JSON.parse(text);
        } catch {
          parsed = undefined;
        }
      }
      return { status: response.status, body: parsed };
    } catch (error) {
      throw new TransientProvisioningError(`Provisioning ${operation}: ${reasonOf(error, this.options.timeoutMs)}`);
    }
  }

  /** A 2xx with an account, or the failure its status stands for. */
  private account(operation: Operation, answer: { status: number; body: unknown }): StreamingAccount {
    const { status, body } = answer;
    if (status >= 200 && status < 300) {
      if (isAccount(body)) return body;
      throw new PermanentProvisioningError(
        `Provisioning ${operation}: the service answered ${status} without an account`,
      );
    }
    const code =
      typeof (body as { error?: unknown } | null)?.error === 'string' ? ` ${(body as { error: string }).error}` : '';
    // A refused token is the operator's to fix, not the client's fault: the job waits for it rather than giving up.
    if (status >= 500 || status === 429 || status === 408 || status === 401 || status === 403)
      throw new TransientProvisioningError(`Provisioning ${operation}: the service answered ${status}${code}`);
    throw new PermanentProvisioningError(`Provisioning ${operation}: the service answered ${status}${code}`);
  }
}

function accountPath(login: string): string {
  return `/v1/accounts/${encodeURIComponent(login)}`;
}

function isAccount(body: unknown): body is StreamingAccount {
  const candidate = body as Partial<StreamingAccount> | null;
  return (
    typeof candidate === 'object' &&
    candidate !== null &&
    typeof candidate.login === 'string' &&
    typeof candidate.expiresAt === 'string' &&
    !Number.isNaN(Date.parse(candidate.expiresAt)) &&
    (candidate.status === 'ACTIVE' || candidate.status === 'DISABLED')
  );
}

function reasonOf(error: unknown, timeoutMs: number): string {
  const named = error as { name?: string; cause?: { code?: string } } | null;
  if (named?.name === 'TimeoutError' || named?.name === 'AbortError') return `no answer within ${timeoutMs} ms`;
  const code = named?.cause?.code;
  return typeof code === 'string' ? `no connection (${code})` : 'no connection';
}
