import { type CallHandler, type ExecutionContext, Injectable, type NestInterceptor } from '@nestjs/common';
import type { Request } from 'express';
import { catchError, concatMap, from, map, type Observable, of, throwError } from 'rxjs';
import { ReadSource, requestCommittedEvents } from './read-replica';

/**
 * Read-your-writes for the replica (docs/adr/0113-read-replicas.md): when a signed-in person's request committed
 * events (the event store marks it), `ReadSource` notes the primary's WAL position for them before the answer
 * leaves, well or badly, so none of their next heavy reads is served by a replica that has not replayed that far.
 * Does nothing without a replica, and nothing for requests that wrote no event.
 */
@Injectable()
export class ReadYourWritesInterceptor implements NestInterceptor {
  constructor(private readonly reads: ReadSource) {}

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    if (!this.reads.enabled || context.getType() !== 'http') return next.handle();
    const request = context.switchToHttp().getRequest<Request & { user?: { userUuid?: string } }>();
    const record = (): Observable<unknown> => {
      const writer = request.user?.userUuid;
      return writer !== undefined && requestCommittedEvents(request) ? from(this.reads.recordWrite(writer)) : of(null);
    };
    return next.handle().pipe(
      concatMap((value: unknown) => record().pipe(map(() => value))),
      catchError((error: unknown) => record().pipe(concatMap(() => throwError(() => error)))),
    );
  }
}
