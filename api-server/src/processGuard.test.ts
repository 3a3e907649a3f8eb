import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const guard = fileURLToPath(new URL('./processGuard.ts', import.meta.url));

/** A process that meets an unheeded stream error and an unhandled rejection, then says whether it lives on. */
function run(withGuard: boolean) {
  const script = `
    import { PassThrough } from 'node:stream';
    import { pino } from 'pino';
    ${withGuard ? `const { keepServing } = await import(${JSON.stringify(guard)}); keepServing(pino({ level: 'silent' }));` : ''}
    new PassThrough().destroy(new Error('a download failed before anyone read it'));
    Promise.reject(new Error('nobody awaited this'));
    setTimeout(() => { console.log('still serving'); }, 50);
  `;
  return spawnSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8', cwd: fileURLToPath(new URL('..', import.meta.url)) });
}

describe('keepServing', () => {
  it('keeps the process alive through an unheeded stream error and an unhandled rejection', () => {
    const result = run(true);
    expect(result.stdout).toContain('still serving');
    expect(result.status).toBe(0);
  });
  it('(without it, the same process dies: the test above can fail)', () => {
    const result = run(false);
    expect(result.stdout).not.toContain('still serving');
    expect(result.status).not.toBe(0);
  });
});
