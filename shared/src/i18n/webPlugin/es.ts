import type { webPluginEn } from './en.ts';
import type { Widen } from '../en.ts';

/** Spanish texts of the web plugin screen (mirrors ./en.ts). */
export const webPluginEs: Widen<typeof webPluginEn> = {
  webPlugin: {
    description: 'Muestra los mensajes in-app de {{app}} en tus sitios web a través del SDK web.',
    descriptionNoApp: 'Muestra los mensajes in-app de una app en sus sitios web a través del SDK web.',
    readOnly: 'Puedes ver estos ajustes; para cambiarlos necesitas permiso para editar la app.',
    settings: 'Ajustes',
    enabled: 'Mostrar mensajes in-app en los sitios web siguientes',
    enabledHint: 'Las páginas de otros dominios nunca los muestran.',
    domains: 'Sitios web',
    domainsHint: 'Un dominio por entrada, como tienda.ejemplo.com; *.ejemplo.com cubre todos sus subdominios.',
    domainsPlaceholder: 'tienda.ejemplo.com',
    position: 'Ubicación por defecto',
    positionOption: { top: 'Arriba', middle: 'En medio', bottom: 'Abajo' },
    accentColor: 'Color de acento',
    zIndex: 'Orden de apilamiento (z-index)',
    zIndexHint: 'Por encima de las capas de tu página; el valor por defecto sirve para la mayoría de sitios.',
    closeButton: 'Mostrar un botón de cerrar',
    lastSaved: 'Guardado {{when}} por {{name}}',
    neverSaved: 'Aún sin guardar: el plugin está desactivado.',
    snippet: 'Fragmento de código',
    snippetHint: 'Pégalo antes de </body> en todas las páginas de esos sitios. Los ajustes de arriba se aplican sin cambiarlo.',
    preview: 'Vista previa',
    previewTitle: 'Rebajas de invierno',
    previewBody: 'Hasta un 40 % de descuento solo esta semana.',
    previewAction: 'Ver ofertas',
    status: { on: 'Activado', off: 'Desactivado' },
    error: {
      domainInvalid: 'Escribe dominios como tienda.ejemplo.com o *.ejemplo.com (sin https:// ni ruta).',
      domainTwice: 'Hay un dominio repetido.',
      domainsRequired: 'Añade al menos un sitio web para activar el plugin.',
      colorInvalid: 'Escribe un color como #RRGGBB.',
      zIndexInvalid: 'Escribe un número entero de 1 a 2147483647.',
    },
  },
};
