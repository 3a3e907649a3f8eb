/**
 * `gd/client-layers`: the web app's layers (client/CONTEXT.md). A feature (client/src/features/<name>)
 * never imports another feature: what two features share lives below them, in entities/ (what
 * several features show of one business thing: a journey's status, the condition editor, a
 * person's name), ui/, state/, shell/, sync/, session/, api/ or i18n/. Nothing below features/
 * imports a feature; only app/ (the route table, the composition root) does.
 */
import path from 'node:path';

const CLIENT_SRC = `${path.sep}client${path.sep}src${path.sep}`;

/** [layer, feature name or null] of a file under client/src, or null outside it. */
function placeOf(file) {
  const at = file.indexOf(CLIENT_SRC);
  if (at < 0) return null;
  const parts = file.slice(at + CLIENT_SRC.length).split(path.sep);
  if (parts.length < 2) return [parts[0] ?? '', null];
  return parts[0] === 'features' ? ['features', parts[1]] : [parts[0], null];
}

export const clientLayers = {
  meta: {
    type: 'problem',
    docs: { description: 'A client feature imports no other feature; only app/ imports features.' },
    schema: [],
    messages: {
      crossFeature: "Feature '{{from}}' imports feature '{{to}}': move what both need to entities/, ui/, state/ or shell/.",
      upward: "'{{layer}}/' imports feature '{{to}}': only app/ composes features; move the shared part below features/.",
    },
  },
  create(context) {
    const file = context.filename;
    const here = placeOf(file);
    if (!here) return {};
    const check = (node, specifier) => {
      if (typeof specifier !== 'string' || !specifier.startsWith('.')) return;
      const there = placeOf(path.resolve(path.dirname(file), specifier));
      if (!there || there[0] !== 'features') return;
      if (here[0] === 'features' && here[1] !== there[1]) context.report({ node, messageId: 'crossFeature', data: { from: here[1], to: there[1] } });
      else if (here[0] !== 'features' && here[0] !== 'app') context.report({ node, messageId: 'upward', data: { layer: here[0], to: there[1] } });
    };
    return {
      ImportDeclaration: (node) => check(node, node.source.value),
      ExportNamedDeclaration: (node) => node.source && check(node, node.source.value),
      ExportAllDeclaration: (node) => check(node, node.source.value),
      ImportExpression: (node) => node.source.type === 'Literal' && check(node, node.source.value),
    };
  },
};

export const gdPlugin = { rules: { 'client-layers': clientLayers } };
