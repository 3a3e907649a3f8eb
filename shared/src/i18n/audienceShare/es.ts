/** Spanish texts of audience sharing (see ./en.ts). */
import type { Widen } from '../en.ts';
import type { audienceShareEn } from './en.ts';

export const audienceShareEs: Widen<typeof audienceShareEn> = {
  audienceShare: {
    intro: 'Los e-mails, teléfonos e identificadores de dispositivo de sus miembros se normalizan y se cifran con hash (SHA-256) como exige la plataforma, se suben por lotes y se mantienen al día tras cada actualización.',
    integration: 'Integración',
    integrationPlaceholder: 'Elige una integración',
    noTargets: 'Esta app aún no tiene ninguna integración con una plataforma así.',
    connectOne: 'Conecta una en Integraciones',
    platformAudience: 'Audiencia en la plataforma',
    platformAudienceHint: 'Opcional: el id de una audiencia existente en la plataforma que se llenará. Si lo dejas vacío, se crea una con el nombre de esta audiencia en la primera sincronización.',
    platformAudiencePlaceholder: {
      meta_ads: 'Id de público personalizado, p. ej. 23850000000000000',
      google_ads: 'customers/1234567890/userLists/123456',
      the_trade_desk: 'Nombre del segmento',
    },
    submit: 'Compartir',
    shared: 'Se ha empezado a compartir con {{name}}.',
    unsupported: 'aún no disponible',
    notConnected: 'sin conectar',
    services: { meta_ads: 'Meta', tiktok_ads: 'TikTok', google_ads: 'Google Ads', the_trade_desk: 'The Trade Desk' },
    section: {
      title: 'Compartida con plataformas publicitarias',
      empty: 'Aún no se comparte. Compártela con una plataforma social, de anuncios de búsqueda o trade desk desde el menú de acciones.',
      loadFailed: 'No se han podido cargar las comparticiones.',
    },
    status: { sync: 'Sincronizando', ready: 'Lista', error: 'Error', inactive: 'En pausa' },
    statusHint: {
      sync: 'Los cambios se están enviando a la plataforma.',
      ready: 'La audiencia en la plataforma coincide con la última actualización.',
      error: 'La última sincronización falló; se reintenta tras la próxima actualización, o ahora con «Sincronizar ahora».',
      inactive: 'La integración está desconectada: vuelve a conectarla y sincroniza.',
    },
    uploaded: '{{count}} en la plataforma',
    skipped: '{{count}} sin identificadores',
    lastChange: '+{{added}} / −{{removed}} en la última sincronización',
    lastSync: 'Última sincronización {{when}}',
    neverSynced: 'Aún sin sincronizar',
    platformAudienceNew: 'Se crea en la primera sincronización',
    syncNow: 'Sincronizar ahora',
    syncQueued: 'Sincronización iniciada.',
    stop: 'Dejar de compartir',
    stopTitle: '¿Dejar de compartir con {{name}}?',
    stopBody: 'Las personas que subió esta compartición se quitan de la audiencia de la plataforma; la audiencia de la plataforma se mantiene.',
    keepOnPlatform: 'Mantenerlas en la audiencia de la plataforma',
    stopped: 'Se ha dejado de compartir.',
  },
};
