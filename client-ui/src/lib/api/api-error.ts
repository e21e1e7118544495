import {
  clientFieldMessagesOfApiError,
  formatClientErrorMessage,
  clientMessageForApiError,
  type ApiErrorBody,
  type Language,
} from '@kupa/proto';

/** A failed call: the HTTP status and the server's error body, or a synthetic one for network failures. */
export class ApiError extends Error {
  readonly status: number;
  readonly body: ApiErrorBody;
  /** True once the client has already reacted (session lost, account blocked), so no toast repeats it. */
  handled = false;

  constructor(status: number, body: ApiErrorBody) {
    super(body.message || body.error);
    this.name = 'ApiError';
    this.status = status;
    this.body = body;
  }

  get code(): string {
    return this.body.error;
  }
}

export function isApiError(error: unknown): error is ApiError {
  return error instanceof ApiError;
}

/** Reads an error answer defensively: a proxy or a crash may answer with HTML or nothing at all. */
export async function readErrorBody(response: Response): Promise<ApiErrorBody> {
  let parsed: unknown = null;
  try {
    const text = await response.text();
    parsed = text ? JSON.parse(text) : null;
  } catch {
    parsed = null;
  }
  const record = (typeof parsed === 'object' && parsed !== null ? parsed : {}) as Partial<ApiErrorBody>;
  return {
    status: typeof record.status === 'number' ? record.status : response.status,
    error: typeof record.error === 'string' ? record.error : '',
    message: typeof record.message === 'string' ? record.message : '',
    ...(record.details ? { details: record.details } : {}),
  };
}

/**
 * A call that reached no server: fetch itself failed (offline, DNS, a dropped connection). It is told apart from a
 * server's 5xx, which did answer, so the screens can say "check your connection" and offer to try again.
 */
export function connectionLostError(): ApiError {
  return new ApiError(0, { status: 0, error: 'error.connection.lost', message: '' });
}

export function isConnectionLost(error: unknown): boolean {
  return isApiError(error) && error.code === 'error.connection.lost';
}

/** The server answered that it is busy for a moment (503 `error.service.unavailable`): worth reading again. */
export function isServiceBusy(error: unknown): boolean {
  return isApiError(error) && error.code === 'error.service.unavailable';
}

/** The catalogue message for any thrown value, so screens never show a raw exception text by accident. */
export function errorMessageFor(error: unknown, lang: Language): string {
  if (isApiError(error)) return clientMessageForApiError(error.body, lang);
  return formatClientErrorMessage('error.internal.server.error', lang);
}

/** Per-field messages of a 400 answer, keyed by field name, for forms to show beside their inputs. */
export function fieldErrorsOf(error: unknown, lang: Language): Record<string, string> {
  return isApiError(error) ? clientFieldMessagesOfApiError(error.body, lang) : {};
}
