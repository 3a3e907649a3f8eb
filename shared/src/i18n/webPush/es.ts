/** Spanish texts of the web push part of the "Push notifications" card (see ./en.ts). */
import type { Widen } from '../en.ts';
import type { webPushEn } from './en.ts';

export const webPushEs: Widen<typeof webPushEn> = {
  webPush: {
    title: 'Push web',
    platform: 'Navegadores (VAPID)',
    description: 'Los navegadores se suscriben con esta clave pública a través del SDK web; la clave privada no sale del servidor.',
    enabled: 'Activado',
    disabled: 'Desactivado',
    disabledBody: 'Los navegadores no reciben push hasta que se active el push web.',
    publicKey: 'Clave pública',
    subject: 'Contacto',
    subjectHint: 'Una dirección mailto: o una página https: donde los servicios push puedan contactarte',
    subjectInvalid: 'Una dirección mailto: o una URL https:',
    enable: 'Activar',
    edit: 'Editar',
    save: 'Guardar',
    rotate: 'Renovar claves',
    disable: 'Desactivar',
    saved: 'Push web guardado.',
    rotated: 'Claves nuevas creadas: los navegadores se suscriben de nuevo en su próxima visita.',
    disabledNotice: 'Push web desactivado.',
    rotateTitle: '¿Renovar las claves VAPID?',
    rotateBody: 'Las suscripciones hechas con la clave actual dejan de recibir push hasta que cada navegador vuelva a visitar el sitio.',
    disableTitle: '¿Desactivar el push web?',
    disableBody: 'Las claves de {{app}} se eliminan y ningún navegador recibirá push de ella.',
  },
};
