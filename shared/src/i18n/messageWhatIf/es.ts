import type { messageWhatIfEn } from './en.ts';
import type { Widen } from '../en.ts';

/** Spanish texts of the message what-if (mirrors ./en.ts). */
export const messageWhatIfEs: Widen<typeof messageWhatIfEn> = {
  messageWhatIf: {
    title: 'Quién lo recibe',
    updating: 'Actualizando…',
    failed: 'No se pudo calcular el alcance',
    retry: 'Reintentar',
    empty: 'Elige quién lo recibe',
    emptyHint: 'Elige una audiencia, un segmento o los dispositivos de prueba en Destinatarios para ver a quién llega este mensaje y cuándo.',
    unit_one: 'persona en el destino',
    unit_other: 'personas en el destino',
    peopleColumn: 'Personas',
    nobody: 'Ahora mismo no hay nadie en este destino.',
    reachable: 'Alcanzables por canal',
    channel: { push: 'Push', email: 'E-mail', inApp: 'In-app' },
    channelHint: {
      push: 'Un dispositivo con token push y notificaciones activadas',
      email: 'Una dirección de e-mail en el perfil',
      inApp: 'Abrió la app en los últimos {{days}} días',
    },
    thisMessage: 'Este mensaje',
    receives_one: '{{count}} persona puede recibir este mensaje',
    receives_other: '{{count}} personas pueden recibir este mensaje',
    receivesAb_one: '{{count}} persona puede recibirlo, sea cual sea su variante',
    receivesAb_other: '{{count}} personas pueden recibirlo, sea cual sea su variante',
    when: 'Cuándo lo reciben',
    whenNow: 'En cuanto se envíe, en todas partes a la vez.',
    whenOnce: 'Todos en el mismo momento: {{time}}.',
    whenLocal: 'A la hora programada en el reloj de cada persona: de {{first}} a {{last}}.',
    timesIn: 'Horas en la zona horaria de la app ({{zone}}).',
    zone: 'Zona horaria',
    sendsAt: 'Se envía',
    passed: 'pasada',
    passedHint: 'Este momento ya ha pasado aquí',
    others_one: '{{count}} zona horaria más',
    others_other: '{{count}} zonas horarias más',
    unknownZone_one: '{{count}} persona no tiene zona horaria conocida y cuenta en la de la app.',
    unknownZone_other: '{{count}} personas no tienen zona horaria conocida y cuentan en la de la app.',
    computedIn: 'Calculado en {{ms}} ms',
  },
};
