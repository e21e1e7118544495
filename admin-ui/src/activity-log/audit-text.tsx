import {
  auditActorName,
  type AuditLog,
  type AuditRef,
  auditRefSegments,
  auditSentenceParts,
  SYSTEM_ACTOR_ID,
  type TextSegment,
  type UserRole,
} from '@kupa/proto';
import { Fragment, type MouseEvent, type ReactNode } from 'react';
import { Link, useCreatePath, usePermissions } from 'react-admin';
import { type ResourceName, resourcesForRole } from '../resources';
import { useLang } from '../shared/use-lang';

/** A piece of activity-log text; values that keep their own direction sit in a `<bdi>`. */
export function Segment({ segment }: { segment: TextSegment }) {
  return segment.isolate ? <bdi dir={segment.isolate}>{segment.text}</bdi> : <>{segment.text}</>;
}

/**
 * A ref's segments on screen, a person's e-mail kept whole with its brackets: "(dana-cohen@example.com)" is one piece
 * a line does not break inside. Left to the browser, a Hebrew sentence broke at the e-mail's hyphen, or after the
 * opening bracket, and left "(" alone at a line's end. Only how the line wraps changes: a copy gives the same text.
 */
function RefSegments({ segments }: { segments: TextSegment[] }) {
  const pieces: ReactNode[] = [];
  for (let index = 0; index < segments.length; index += 1) {
    const [open, value, close] = segments.slice(index, index + 3);
    const bracketed =
      close !== undefined &&
      !open.isolate &&
      open.text.endsWith('(') &&
      value.isolate !== undefined &&
      !close.isolate &&
      close.text.startsWith(')');
    if (!bracketed) {
      pieces.push(<Segment key={index} segment={open} />);
      continue;
    }
    pieces.push(
      <Fragment key={index}>
        {open.text.slice(0, -1)}
        <span style={{ whiteSpace: 'nowrap' }}>
          (<Segment segment={value} />)
        </span>
        {close.text.slice(1)}
      </Fragment>,
    );
    index += 2;
  }
  return <>{pieces}</>;
}

const PERSON_TYPES: ReadonlySet<string> = new Set(['ADMIN', 'MANAGER', 'CLIENT']);

/** Targets without a page of their own, shown in their resource's list: a batch's progress, a broadcast's recipients. */
const LISTED_ON_PAGE: Partial<Record<AuditRef['type'], ResourceName>> = {
  BULK_BATCH: 'bulk-operations',
  BROADCAST: 'broadcasts',
};

/** The list's rows open the entry on click; a link inside a row opens what it names instead. */
function keepRowClick(event: MouseEvent) {
  event.stopPropagation();
}

/**
 * Where a target or parent leads: a person to their account in the clients resource, a payment to its detail when
 * the staff member's role has the payments resource, a package that still exists (named by the catalog, not by what
 * its entries recorded) to its detail, a bulk batch or a broadcast to its page (admins only), where it is listed.
 * Subscriptions have no screens yet.
 */
function useRefPath(ref: AuditRef): string | null {
  const createPath = useCreatePath();
  const { permissions } = usePermissions<UserRole | null>();
  if (PERSON_TYPES.has(ref.type)) return createPath({ resource: 'clients', id: ref.id, type: 'show' });
  if (ref.type === 'PAYMENT' && resourcesForRole(permissions ?? null).includes('payments')) {
    return createPath({ resource: 'payments', id: ref.id, type: 'show' });
  }
  if (ref.type === 'PACKAGE' && ref.name && !ref.nameRecorded)
    return createPath({ resource: 'packages', id: ref.id, type: 'show' });
  const page = LISTED_ON_PAGE[ref.type];
  if (page && resourcesForRole(permissions ?? null).includes(page)) return createPath({ resource: page, type: 'list' });
  return null;
}

/** A target or parent by name (a person's name and e-mail, a payment's number), as a link where it has a screen. */
export function AuditRefLink({ value, testId }: { value: AuditRef; testId?: string }) {
  const lang = useLang();
  const path = useRefPath(value);
  const segments = <RefSegments segments={auditRefSegments(value, lang)} />;
  return path ? (
    <Link to={path} onClick={keepRowClick} data-testid={testId} data-ref-type={value.type} data-ref-id={value.id}>
      {segments}
    </Link>
  ) : (
    <span data-testid={testId} data-ref-type={value.type} data-ref-id={value.id}>
      {segments}
    </span>
  );
}

/**
 * The entry's sentence in the page language ("Payment #134 of Dana Cohen (dana@example.com): status Success →
 * Failed"), its target and parent as links (proto/src/audit-sentence.ts).
 */
export function AuditSentence({ entry }: { entry: AuditLog }) {
  const lang = useLang();
  return (
    <span data-testid="activity-log-sentence" data-event-type={entry.eventType}>
      {auditSentenceParts(entry, lang).map((part, index) =>
        'ref' in part ? (
          <AuditRefLink
            key={index}
            value={part.ref === 'target' ? entry.target : (entry.parent as AuditRef)}
            testId={`activity-log-${part.ref}`}
          />
        ) : (
          <Segment key={index} segment={part} />
        ),
      )}
    </span>
  );
}

/** Who made the entry: a link to their account, or "System" for entries no person caused. */
export function AuditActor({ entry }: { entry: AuditLog }) {
  const lang = useLang();
  const createPath = useCreatePath();
  const name = <bdi>{auditActorName(entry.createdBy, lang)}</bdi>;
  if (entry.createdBy.id === SYSTEM_ACTOR_ID) return <span data-testid="activity-log-actor">{name}</span>;
  return (
    <Link
      to={createPath({ resource: 'clients', id: entry.createdBy.id, type: 'show' })}
      onClick={keepRowClick}
      data-testid="activity-log-actor"
    >
      {name}
    </Link>
  );
}
