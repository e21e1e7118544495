import { readdirSync } from 'node:fs';
import { join, relative } from 'node:path';
import { RequestMethod, type ExecutionContext, type Type } from '@nestjs/common';
import { METHOD_METADATA, PATH_METADATA } from '@nestjs/common/constants';
import { Reflector } from '@nestjs/core';
import type { Actor } from './actor';
import { ViewAsRecorder } from './actor';
import { ViewAsReadOnlyGuard } from './guards';

/**
 * Over every controller of the API (read from the source tree, so a route added later is covered without touching
 * this spec): a view-as token may make a GET, and a non-GET only on a route marked `@ReadOnlyRoute()`; every other
 * route refuses it before its handler runs (ADR 0092). The marked routes are listed here, so marking one is a
 * visible decision.
 */

const SOURCE_ROOT = join(__dirname, '..', '..');

function controllerFiles(directory: string): string[] {
  return readdirSync(directory, { withFileTypes: true }).flatMap((entry) => {
    const path = join(directory, entry.name);
    if (entry.isDirectory()) return entry.name === 'node_modules' ? [] : controllerFiles(path);
    return entry.name.endsWith('.controller.ts') ? [path] : [];
  });
}

interface Route {
  label: string;
  method: string;
  controller: Type<unknown>;
  handler: (...args: unknown[]) => unknown;
}

function routesOf(file: string): Route[] {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const exported = require(file) as Record<string, unknown>;
  return Object.values(exported).flatMap((value) => {
    if (typeof value !== 'function' || Reflect.getMetadata(PATH_METADATA, value) === undefined) return [];
    const controller = value as Type<unknown>;
    const prefix = String(Reflect.getMetadata(PATH_METADATA, controller));
    const prototype = controller.prototype as Record<string, unknown>;
    return Object.getOwnPropertyNames(prototype).flatMap((name) => {
      const handler = prototype[name];
      if (name === 'constructor' || typeof handler !== 'function') return [];
      const method = Reflect.getMetadata(METHOD_METADATA, handler) as RequestMethod | undefined;
      if (method === undefined) return [];
      const path = String(Reflect.getMetadata(PATH_METADATA, handler));
      return [
        {
          label: `${RequestMethod[method]} /${prefix}/${path}`.replace(/\/+/g, '/').replace(/\/$/, ''),
          method: RequestMethod[method],
          controller,
          handler: handler as Route['handler'],
        },
      ];
    });
  });
}

const ROUTES: Route[] = controllerFiles(SOURCE_ROOT)
  .sort()
  .flatMap((file) => routesOf(file));

const MARKED_AS_READS = [
  'POST /audit-logs/search',
  'POST /notifications/search',
  'POST /payment-plans/search',
  'POST /payments/search',
  'POST /payments/search/:userUuid',
  'POST /subscriptions/search',
  'POST /users/:uuid/notifications/search',
  'POST /users/search',
  'POST /users/staff/search',
];

const viewer: Actor = {
  userUuid: '6f1c1b9e-0000-4000-8000-000000000001',
  email: 'dana@example.com',
  role: 'CLIENT',
  name: 'Dana Cohen',
  viewAs: {
    viewId: '6f1c1b9e-0000-4000-8000-000000000002',
    staff: { userUuid: '6f1c1b9e-0000-4000-8000-000000000003', email: 'm@example.com', role: 'MANAGER', name: 'M' },
  },
};

class RecordingLog extends ViewAsRecorder {
  readonly pages: string[] = [];
  recordRequest(_actor: Actor, page: string): Promise<void> {
    this.pages.push(page);
    return Promise.resolve();
  }
}

function contextOf(route: Route, user: Actor | undefined): ExecutionContext {
  const request = { user, method: route.method, path: `/api${route.label.split(' ')[1]}`, headers: {} };
  return {
    getHandler: () => route.handler,
    getClass: () => route.controller,
    switchToHttp: () => ({ getRequest: () => request, getResponse: () => ({}) }),
  } as unknown as ExecutionContext;
}

async function verdictOf(guard: ViewAsReadOnlyGuard, route: Route, user: Actor | undefined): Promise<string> {
  try {
    return (await guard.canActivate(contextOf(route, user))) ? 'allowed' : 'refused';
  } catch (error) {
    return (error as { code?: string }).code ?? String(error);
  }
}

describe('a view-as token over the whole route table', () => {
  it('finds the API’s controllers', () => {
    expect(ROUTES.length).toBeGreaterThan(80);
    expect(ROUTES.map((route) => route.label)).toContain('POST /users/:uuid/view-as');
    expect(controllerFiles(SOURCE_ROOT).map((file) => relative(SOURCE_ROOT, file))).toContain(
      'contexts/ledger/commands/transfer-balance/transfer-balance.controller.ts',
    );
  });

  it('may GET anything its role may, and every other route refuses it unless marked as a read', async () => {
    const log = new RecordingLog();
    const guard = new ViewAsReadOnlyGuard(new Reflector(), log);
    const marked: string[] = [];
    for (const route of ROUTES) {
      const verdict = await verdictOf(guard, route, viewer);
      if (route.method === 'GET')
        expect({ route: route.label, verdict }).toEqual({ route: route.label, verdict: 'allowed' });
      else if (verdict === 'allowed') marked.push(route.label);
      else expect({ route: route.label, verdict }).toEqual({ route: route.label, verdict: 'error.view.as.read.only' });
    }
    expect(marked.sort()).toEqual(MARKED_AS_READS);
    expect(log.pages).toHaveLength(ROUTES.length);
  });

  it('leaves ordinary tokens and anonymous callers alone, and records nothing for them', async () => {
    const log = new RecordingLog();
    const guard = new ViewAsReadOnlyGuard(new Reflector(), log);
    const { viewAs: _viewAs, ...ordinary } = viewer;
    for (const route of ROUTES.filter((candidate) => candidate.method !== 'GET')) {
      expect(await verdictOf(guard, route, ordinary)).toBe('allowed');
      expect(await verdictOf(guard, route, undefined)).toBe('allowed');
    }
    expect(log.pages).toEqual([]);
  });
});
