/** Metadata every stored event carries (docs/ARCHITECTURE.md, The event store): who caused it, why, and when. */
export interface EventActor {
  id: string;
  email: string | null;
  role: string | null;
  name: string;
}

export interface EventMetadata {
  actor: EventActor;
  correlationId: string;
  causationId: string | null;
  occurredAt: string;
  ip: string | null;
}
