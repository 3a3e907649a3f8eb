/**
 * Presence (awareness) of the other people in a document. Who they are (`user`: id, name, colour) is
 * written by the sync server from the authenticated user; a client only publishes what it is doing
 * (`LocalPresence`) and never its own name or colour. Pure.
 */
export interface Point {
  x: number;
  y: number;
}

/** What this client publishes about itself. */
export interface LocalPresence {
  selectedStepId: string | null;
  /** Pointer in canvas (flow) coordinates; null when outside the canvas. */
  pointer: Point | null;
  /** A step being dragged right now, at its live position (positions are stored on drag end). */
  dragging: { stepId: string; x: number; y: number } | null;
  /** What the person looks at: the canvas point at the middle of their view, and their zoom. */
  view: View | null;
}

export interface View {
  center: Point;
  zoom: number;
}

export interface Peer extends LocalPresence {
  clientId: number;
  userId: string;
  name: string;
  color: string;
}

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const finite = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v);
const point = (v: unknown): Point | null => (isRecord(v) && finite(v.x) && finite(v.y) ? { x: v.x, y: v.y } : null);
const COLOR = /^#[0-9a-f]{3,8}$/i;
const view = (v: unknown): View | null => {
  const center = isRecord(v) ? point(v.center) : null;
  return center && isRecord(v) && finite(v.zoom) && v.zoom > 0 ? { center, zoom: v.zoom } : null;
};

/** The peers in awareness states: other clients that the server has stamped with a user. */
export function readPeers(states: ReadonlyMap<number, unknown>, ownClientId: number): Peer[] {
  const peers: Peer[] = [];
  for (const [clientId, state] of states) {
    if (clientId === ownClientId || !isRecord(state) || !isRecord(state.user)) continue;
    const { user } = state;
    if (typeof user.id !== 'string' || typeof user.name !== 'string') continue;
    const drag = isRecord(state.dragging) && typeof state.dragging.stepId === 'string' ? point(state.dragging) : null;
    peers.push({
      clientId,
      userId: user.id,
      name: user.name,
      color: typeof user.color === 'string' && COLOR.test(user.color) ? user.color : '#868e96',
      selectedStepId: typeof state.selectedStepId === 'string' ? state.selectedStepId : null,
      pointer: point(state.pointer),
      dragging: drag && isRecord(state.dragging) ? { stepId: state.dragging.stepId as string, ...drag } : null,
      view: view(state.view),
    });
  }
  return peers.sort((a, b) => a.name.localeCompare(b.name) || a.clientId - b.clientId);
}

/** One entry per person (several tabs of one person show one avatar). */
export function distinctPeople(peers: readonly Peer[]): Peer[] {
  const seen = new Set<string>();
  return peers.filter((p) => (seen.has(p.userId) ? false : (seen.add(p.userId), true)));
}

/** Live drag positions of other people's steps, by step id. */
export function peerDrags(peers: readonly Peer[]): Record<string, Point> {
  const out: Record<string, Point> = {};
  for (const p of peers) if (p.dragging) out[p.dragging.stepId] = { x: p.dragging.x, y: p.dragging.y };
  return out;
}

/** Only the fields a client may publish (never `user`). */
export function presencePatch(partial: Partial<LocalPresence>): Partial<LocalPresence> {
  const out: Partial<LocalPresence> = {};
  if ('selectedStepId' in partial) out.selectedStepId = partial.selectedStepId ?? null;
  if ('pointer' in partial) out.pointer = partial.pointer ? { x: partial.pointer.x, y: partial.pointer.y } : null;
  if ('dragging' in partial) out.dragging = partial.dragging ? { stepId: partial.dragging.stepId, x: partial.dragging.x, y: partial.dragging.y } : null;
  if ('view' in partial) out.view = partial.view ? { center: { x: partial.view.center.x, y: partial.view.center.y }, zoom: partial.view.zoom } : null;
  return out;
}
