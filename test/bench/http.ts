import type { SeedUser } from './seed-ledger.ts';

/** The bench's HTTP client and its users: it talks to the built server as a client would, over loopback. */
export const USER_PASSWORD = 'Bench-User-Pass-1!';

export class Api {
  constructor(private readonly baseUrl: string) {}

  async call<T>(method: string, path: string, token: string | null, body?: unknown, expected = [200, 201]): Promise<T> {
    const response = await fetch(`${this.baseUrl}/api${path}`, {
      method,
      headers: { 'Content-Type': 'application/json', ...(token ? { Authorization: `Bearer ${token}` } : {}) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await response.text();
    if (!expected.includes(response.status))
      throw new Error(`${method} ${path} answered ${response.status}: ${text.slice(0, 300)}`);
    return (text ? JSON.parse(text) : null) as T;
  }

  async signIn(email: string, password: string): Promise<string> {
    return (await this.call<{ accessToken: string }>('POST', '/auth/signin', null, { email, password }, [200]))
      .accessToken;
  }
}

export interface BenchUser extends SeedUser {
  token: string | null;
}

/** Access tokens live 15 minutes and a full run takes longer: a session signs in again before its token ages out. */
const TOKEN_REFRESH_AFTER_MS = 10 * 60_000;

export class Session {
  private token = '';
  private signedInAt: number | null = null;

  constructor(
    private readonly api: Api,
    readonly email: string,
    private readonly password: string,
  ) {}

  async current(): Promise<string> {
    await this.refreshIfOlderThan(TOKEN_REFRESH_AFTER_MS);
    return this.token;
  }

  /** Signs in again now when the token is older than `ageMs`: before a timed phase, so that none signs in inside it. */
  async refreshIfOlderThan(ageMs: number): Promise<void> {
    if (this.signedInAt === null || performance.now() - this.signedInAt > ageMs) {
      this.token = await this.api.signIn(this.email, this.password);
      this.signedInAt = performance.now();
    }
  }
}

/**
 * CLIENT accounts made by an admin, one after another (each costs the server an argon2 hash, and a sign-in another:
 * a few hundred milliseconds on a shared core, which is why the bench makes hundreds, not thousands).
 */
export async function createUsers(
  api: Api,
  admin: string,
  count: number,
  prefix: string,
  signIn: boolean,
): Promise<BenchUser[]> {
  const users: BenchUser[] = [];
  for (let index = 0; index < count; index += 1) {
    const email = `${prefix}-${index}@bench.kupa.test`;
    const created = await api.call<{ userUuid: string }>('POST', '/users', admin, {
      email,
      password: USER_PASSWORD,
      role: 'CLIENT',
      firstName: 'Bench',
      lastName: `User${String.fromCharCode(65 + (index % 26))}`,
    });
    users.push({ userUuid: created.userUuid, email, token: signIn ? await api.signIn(email, USER_PASSWORD) : null });
  }
  return users;
}

/** A manual deposit by an admin, in dollars. */
export async function deposit(api: Api, admin: string, userUuid: string, amount: number, comment: string) {
  await api.call('POST', '/payments', admin, { userUuid, amount, action: 'DEPOSIT', comment });
}
