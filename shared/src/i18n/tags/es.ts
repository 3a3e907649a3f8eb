/** Spanish texts of /manage/tags (see ./en.ts). */
import type { Widen } from '../en.ts';
import type { tagsEn } from './en.ts';

export const tagsEs: Widen<typeof tagsEn> = {
  tags: {
    description: 'Valores tipados que guardas de las personas de {{app}} (etiquetas de usuario) y etiquetas para sus audiencias.',
    descriptionNoApp: 'Valores tipados que guardas de las personas (etiquetas de usuario) y etiquetas para audiencias.',
    add: 'Nueva etiqueta',
    addTitle: 'Crear una etiqueta',
    editTitle: 'Editar etiqueta',
    created: 'Etiqueta creada.',
    deleteTitle: '¿Eliminar esta etiqueta?',
    deleteBody: 'Se eliminarán {{name}} y los valores de {{count}} personas. Los segmentos que la usen dejarán de coincidir.',
    deleted: 'Etiqueta eliminada.',
    emptyTitle: 'Todavía no hay etiquetas',
    emptyBody: 'Las apps asignan etiquetas de usuario con el SDK (setProfile con tags), o crea una aquí para usarla en segmentos e importaciones.',
    noView: 'Tu rol no incluye las etiquetas de esta app.',
    kindFilter: 'Tipo de etiqueta',
    all: 'Todas',
    people: 'Personas con valor',
    typeLocked: 'Ya hay personas con valores: el tipo no puede cambiar.',
    nameCharacters: 'Usa solo letras, dígitos, espacios y _ . - (no se admite: {{characters}})',
    namePlaceholder: 'nivel_fidelidad',
    descriptionPlaceholder: 'Qué significa el valor y quién lo asigna',
    kind: { user_tag: 'Etiqueta de usuario', audience_tag: 'Etiqueta de audiencia' },
    kindHint: { user_tag: 'Un valor por persona, asignado por tu app o una importación', audience_tag: 'Una etiqueta para audiencias' },
    valueType: { text: 'Texto', number: 'Número', date: 'Fecha' },
    fields: { name: 'Nombre', kind: 'Clase', valueType: 'Tipo', description: 'Descripción', updated: 'Actualizada' },
  },
};
