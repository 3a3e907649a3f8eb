import type { Catalogue } from './en.ts';
import { shellEs } from './core/shell.es.ts';
import { authEs } from './core/auth.es.ts';
import { accountEs } from './core/account.es.ts';
import { journeysEs } from './core/journeys.es.ts';
import { behaviourEs } from './behaviour/es.ts';
import { tagsEs } from './tags/es.ts';
import { peopleEs } from './people/es.ts';
import { segmentsEs } from './segments/es.ts';
import { importsEs } from './imports/es.ts';
import { homeEs } from './home/es.ts';

export const es: Catalogue = {
  ...shellEs,
  ...authEs,
  ...accountEs,
  ...journeysEs,
  ...behaviourEs,
  ...tagsEs,
  ...peopleEs,
  ...segmentsEs,
  ...importsEs,
  ...homeEs,
};
