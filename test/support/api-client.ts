/** Small helpers for journeys that prepare data through the real HTTP API before driving the browser. */
export async function apiCall<T>(
  baseUrl: string,
  method: string,
  path: string,
  body?: unknown,
  token?: string,
): Promise<T> {
  const response = await fetch(`${baseUrl}/api${path}`, {
    method,
    headers: { 'Content-Type': 'application/json', ...(token ? { Authorization: `Bearer ${token}` } : {}) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  if (!response.ok) throw new Error(`${method} ${path} answered ${response.status}: ${text}`);
  return (text ? JSON.parse(text) : undefined) as T;
}

export async function signInToken(baseUrl: string, email: string, password: string): Promise<string> {
  const body = await apiCall<{ accessToken: string }>(baseUrl, 'POST', '/auth/signin', { email, password });
  return body.accessToken;
}
