/**
 * The client's layering lint rule (scripts/eslint/clientLayers.js): a feature imports no other
 * feature, nothing below features/ imports one, app/ composes them; and no file breaks it today.
 */
import { fileURLToPath } from 'node:url';
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../../../', import.meta.url));
const eslint = new ESLint({
  cwd: root,
  ruleFilter: ({ ruleId }) => ruleId === 'gd/client-layers',
  overrideConfig: { languageOptions: { parserOptions: { projectService: false } } },
});

/** Lines the rule refuses in `code` (one import per line) linted as `filePath`. */
async function refusedLines(filePath: string, lines: string[]): Promise<number[]> {
  const code = [...lines, `export const used = [${lines.map((_, i) => `x${i}`).join(', ')}];`].join('\n');
  const [result] = await eslint.lintText(code, { filePath });
  expect(result?.messages.filter((m) => !m.ruleId)).toEqual([]);
  return (result?.messages ?? []).filter((m) => m.ruleId === 'gd/client-layers').map((m) => m.line);
}

describe('client layers lint rule', () => {
  it('refuses a feature importing another feature, in any import form', async () => {
    expect(await refusedLines('client/src/features/journeys/JourneyEditor.tsx', [
      "import { x0 } from '../segments/ConditionRow.tsx';",
      "import { x1 } from './own.ts';",
      "import { x2 } from '../../ui/format.ts';",
      "import { x3 } from '../../entities/journey/JourneyStatus.tsx';",
      "export { x4 } from '../people/PeoplePage.tsx';",
      "const x5 = () => import('../home/HomePage.tsx');",
    ])).toEqual([1, 5, 6]);
  });

  it('lets a nested file of a feature import its own folder', async () => {
    expect(await refusedLines('client/src/features/journeys/inspector/Pickers.tsx', [
      "import { x0 } from '../useJourneys.ts';",
      "import { x1 } from '../../segments/SegmentEditor.tsx';",
      "import { x2 } from '../../../entities/segment/ConditionRow.tsx';",
    ])).toEqual([2]);
  });

  it('refuses shared layers importing a feature; app/ composes features', async () => {
    const intoFeature = ["import { x0 } from '../../features/people/PeoplePage.tsx';"];
    expect(await refusedLines('client/src/entities/segment/ConditionRow.tsx', intoFeature)).toEqual([1]);
    expect(await refusedLines('client/src/ui/sub/Thing.tsx', intoFeature)).toEqual([1]);
    expect(await refusedLines('client/src/app/screens.ts', ["import { x0 } from '../features/people/PeoplePage.tsx';"])).toEqual([]);
  });

  it('holds for every client file today', async () => {
    const results = await eslint.lintFiles(['client/src/**/*.{ts,tsx}']);
    expect(results.flatMap((r) => r.messages.filter((m) => m.ruleId === 'gd/client-layers').map((m) => `${r.filePath}:${m.line}`))).toEqual([]);
  }, 60_000);
});
