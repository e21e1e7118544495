/** Metadata every stored event carries (design §3): who caused it, why, and when. */
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
