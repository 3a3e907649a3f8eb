/**
 * A light hook point between the session (logout) and the sync layer, so logging out does not load
 * the collaboration code just to find out that nothing is open.
 */
type Closer = () => Promise<void>;
const closers = new Set<Closer>();

/** The sync registry registers how to close every open document. */
export function onCloseAll(closer: Closer): void {
  closers.add(closer);
}

export async function closeAll(): Promise<void> {
  await Promise.all([...closers].map((close) => close().catch(() => undefined)));
}
