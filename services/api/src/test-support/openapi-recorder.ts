import type { INestApplication } from '@nestjs/common';
import request from 'supertest';
import { type Exchange, OpenApiContract, type OpenApiDocument } from './openapi-contract';

type Agent = ReturnType<typeof request>;
type Test = ReturnType<Agent['get']>;
type Callback = (error: Error | null, response: request.Response) => void;

interface SentRequest {
  method: string;
  url: string;
  _data?: unknown;
  _header?: Record<string, string>;
}

const METHODS = ['get', 'post', 'put', 'patch', 'delete', 'head', 'options'] as const;

function responseBodyOf(response: request.Response): unknown {
  const contentType = String(response.headers['content-type'] ?? '');
  if (typeof response.text === 'string') {
    if (/json/.test(contentType) && response.text !== '') return JSON.parse(response.text) as unknown;
    return response.text;
  }
  return Buffer.isBuffer(response.body) ? response.body.toString('utf8') : response.body;
}

/**
 * The request body as the document describes it: a JSON body sent as its exact bytes (a signed webhook, whose
 * signature covers those bytes) is checked as the JSON it is.
 */
function requestBodyOf(test: SentRequest): unknown {
  const contentType = Object.entries(test._header ?? {}).find(([name]) => name.toLowerCase() === 'content-type')?.[1];
  if (typeof test._data !== 'string' || !/json/.test(String(contentType ?? ''))) return test._data;
  try {
    return JSON.parse(test._data) as unknown;
  } catch {
    return test._data;
  }
}

function exchangeOf(test: SentRequest, response: request.Response): Exchange {
  const url = new URL(test.url);
  return {
    method: test.method,
    url: `${url.pathname}${url.search}`,
    requestHeaders: test._header ?? {},
    requestBody: requestBodyOf(test),
    status: response.status,
    responseHeaders: response.headers as Record<string, string | string[] | undefined>,
    responseBody: responseBodyOf(response),
  };
}

/**
 * supertest against the app, with every exchange checked against the app's OpenAPI document as its response
 * arrives: a call the document does not describe fails the test that made it, with the call named.
 */
export async function contractCheckedHttp(app: INestApplication): Promise<{ http: Agent; raw: Agent }> {
  const raw = request(app.getHttpServer());
  const served = await raw.get('/api/docs/openapi.json');
  if (served.status !== 200) throw new Error(`The OpenAPI document is not served: ${served.status}`);
  const contract = new OpenApiContract(served.body as OpenApiDocument);
  const http = { ...raw } as Agent;
  for (const method of METHODS) {
    http[method] = (url: string) => {
      const test: Test = raw[method](url);
      const end = test.end.bind(test);
      test.end = (callback?: Callback) =>
        end((error: Error | null, response: request.Response) => {
          let failure = error;
          const exchange = response ? exchangeOf(test as unknown as SentRequest, response) : null;
          // The document describes the API, not the UIs around it nor itself.
          const described = exchange?.url.startsWith('/api/') && !exchange.url.startsWith('/api/docs');
          if (exchange && !failure && described) {
            const problems = contract.check(exchange);
            if (problems.length > 0) {
              failure = new Error(
                `${exchange.method} ${exchange.url} → ${exchange.status} disagrees with /api/docs/openapi.json:\n  ` +
                  problems.join('\n  '),
              );
            }
          }
          callback?.(failure, response);
        });
      return test;
    };
  }
  return { http, raw };
}
