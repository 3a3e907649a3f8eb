/** Other editors' pointers, drawn in flow coordinates at a constant screen size. */
import { ViewportPortal, useStore } from '@xyflow/react';
import { IconPointerFilled } from '@tabler/icons-react';
import type { PeerPresence } from './types.ts';

export function PeerPointers({ peers }: { peers: readonly PeerPresence[] }) {
  const zoom = useStore((s) => s.transform[2]);
  const visible = peers.filter((p) => p.pointer !== null);
  if (visible.length === 0) return null;
  return (
    <ViewportPortal>
      {visible.map((p) => (
        <div
          key={p.clientId}
          className="jc-peer-pointer"
          aria-hidden
          style={{ transform: `translate(${p.pointer?.x ?? 0}px, ${p.pointer?.y ?? 0}px) scale(${1 / (zoom || 1)})`, color: p.color }}
        >
          <IconPointerFilled size={20} style={{ filter: 'drop-shadow(0 1px 1px rgb(0 0 0 / 25%))' }} />
          <span className="jc-peer-pointer__name" style={{ background: p.color }}>
            {p.name}
          </span>
        </div>
      ))}
    </ViewportPortal>
  );
}
