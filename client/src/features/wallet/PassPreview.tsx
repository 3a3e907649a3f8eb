/**
 * A pass drawn as the wallets show its front (and its back fields under it): the design with its
 * placeholders filled by shared `resolvePass`, so the preview and the issued pass agree. The
 * barcode is a stand-in pattern of the right shape (square for QR and Aztec, wide for PDF417 and
 * Code 128) made from the code, not a scannable symbol.
 */
import { Box, Group, Stack, Text } from '@mantine/core';
import { resolvePass, type IssuedValues, type PassDesign, type ResolvedField } from '@gd/shared/wallet/model';
import { useT } from '../../i18n/useT.ts';

/** A small deterministic generator from the code, so the pattern stays the same for one code. */
function bits(seed: string, count: number): boolean[] {
  let h = 2166136261;
  for (const c of seed) h = Math.imul(h ^ c.charCodeAt(0), 16777619);
  return Array.from({ length: count }, () => {
    h = Math.imul(h ^ (h >>> 13), 1274126177);
    return ((h >>> 7) & 1) === 1;
  });
}

function BarcodeSketch({ format, code }: { format: PassDesign['barcodeFormat']; code: string }) {
  if (format === 'qr' || format === 'aztec') {
    const n = 21;
    const cells = bits(code, n * n);
    const finder = (x: number, y: number) => format === 'qr' && ((x < 7 && y < 7) || (x >= n - 7 && y < 7) || (x < 7 && y >= n - 7));
    const ring = (x: number, y: number) => Math.max(Math.abs(x - 10), Math.abs(y - 10));
    return (
      <svg viewBox={`0 0 ${n} ${n}`} width={96} height={96} shapeRendering="crispEdges" aria-hidden>
        <rect width={n} height={n} fill="#fff" />
        {cells.map((on, i) => {
          const x = i % n;
          const y = Math.floor(i / n);
          let dark = on;
          if (finder(x, y)) {
            const fx = x < 7 ? x : x - (n - 7);
            const fy = y < 7 ? y : y - (n - 7);
            dark = fx === 0 || fy === 0 || fx === 6 || fy === 6 || (fx >= 2 && fx <= 4 && fy >= 2 && fy <= 4);
          } else if (format === 'aztec' && ring(x, y) <= 5) dark = ring(x, y) % 2 === 1 || ring(x, y) === 0;
          return dark ? <rect key={i} x={x} y={y} width={1} height={1} fill="#111" /> : null;
        })}
      </svg>
    );
  }
  const bars = bits(code, format === 'pdf417' ? 68 : 56);
  const rows = format === 'pdf417' ? 4 : 1;
  return (
    <svg viewBox={`0 0 ${bars.length} ${rows * 6}`} width={220} height={format === 'pdf417' ? 56 : 48} preserveAspectRatio="none" shapeRendering="crispEdges" aria-hidden>
      <rect width={bars.length} height={rows * 6} fill="#fff" />
      {Array.from({ length: rows }, (_, r) => {
        const row = r === 0 ? bars : bits(`${code}${r}`, bars.length);
        return row.map((on, i) => (on ? <rect key={`${r}-${i}`} x={i} y={r * 6} width={1} height={6} fill="#111" /> : null));
      })}
    </svg>
  );
}

function Field({ field, labelColor, big }: { field: ResolvedField; labelColor: string; big?: boolean }) {
  return (
    <Box miw={0}>
      {field.label && <Text size="10px" tt="uppercase" fw={600} style={{ color: labelColor, letterSpacing: '0.04em' }} truncate="end">{field.label}</Text>}
      {big
        ? <Text fw={600} size="22px" lh={1.15} style={{ overflowWrap: 'anywhere' }}>{field.value}</Text>
        : <Text fw={600} size="sm" lh={1.3} truncate="end">{field.value}</Text>}
    </Box>
  );
}

export function PassPreview({ design, values, unlimited }: { design: PassDesign; values: IssuedValues; unlimited: string }) {
  const { t } = useT();
  const pass = resolvePass(design, values, unlimited);
  const row = (fields: ResolvedField[], big = false) => fields.length > 0 && (
    <Group justify="space-between" wrap="nowrap" gap="md" mt={10} align="flex-start">
      {fields.map((f) => <Field key={f.key} field={f} labelColor={design.labelColor} big={big} />)}
    </Group>
  );
  return (
    <Stack gap="xs" data-testid="pass-preview">
      <Box
        p="md"
        style={{ background: design.backgroundColor, color: design.foregroundColor, borderRadius: 14, boxShadow: '0 8px 24px rgba(15,23,42,.18)', width: 320, maxWidth: '100%' }}
      >
        <Group justify="space-between" wrap="nowrap" align="flex-start" gap="sm">
          <Group gap={8} wrap="nowrap" miw={0}>
            <Box w={26} h={26} style={{ borderRadius: 6, flexShrink: 0, background: design.foregroundColor, opacity: 0.9 }} />
            <Text fw={700} size="sm" truncate="end">{design.logoText || design.organizationName}</Text>
          </Group>
          <Group gap="sm" wrap="nowrap">
            {pass.headerFields.map((f) => <Field key={f.key} field={f} labelColor={design.labelColor} />)}
          </Group>
        </Group>
        {row(pass.primaryFields, true)}
        {row(pass.secondaryFields)}
        {row(pass.auxiliaryFields)}
        <Stack align="center" gap={4} mt="md" p={8} style={{ background: '#fff', borderRadius: 8 }}>
          <BarcodeSketch format={design.barcodeFormat} code={pass.barcode} />
          {design.showCode && <Text size="xs" c="#111" className="gd-mono">{pass.barcode}</Text>}
        </Stack>
      </Box>
      {pass.backFields.length > 0 && (
        <Box p="sm" style={{ border: '1px solid var(--mantine-color-default-border)', borderRadius: 10, width: 320, maxWidth: '100%' }}>
          <Text size="xs" c="dimmed" fw={600} mb={4}>{t('wallet.designer.back')}</Text>
          {pass.backFields.map((f) => (
            <Box key={f.key} mb={6}>
              <Text size="xs" c="dimmed">{f.label}</Text>
              <Text size="sm" style={{ whiteSpace: 'pre-wrap', wordBreak: 'break-word' }}>{f.value}</Text>
            </Box>
          ))}
        </Box>
      )}
    </Stack>
  );
}
