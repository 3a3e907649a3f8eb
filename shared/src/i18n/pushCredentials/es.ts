/** Spanish texts of the "Push notifications" card of /user/app (see ./en.ts). */
import type { Widen } from '../en.ts';
import type { pushCredentialsEn } from './en.ts';

export const pushCredentialsEs: Widen<typeof pushCredentialsEn> = {
  pushCredentials: {
    title: 'Notificaciones push',
    description: 'Las credenciales con las que se envían los mensajes push de esta app: una clave de APNs para iOS y una cuenta de servicio de Firebase para Android. Las claves se guardan cifradas y no se vuelven a mostrar.',
    configured: 'Configurado',
    notConfigured: 'Sin configurar',
    notConfiguredBody: {
      apns: 'Los dispositivos iOS no recibirán push hasta que se configure una clave de APNs.',
      fcm: 'Los dispositivos Android no recibirán push hasta que se configure una cuenta de servicio.',
    },
    updated: 'Último cambio: {{date}}',
    set: 'Configurar',
    replace: 'Reemplazar',
    edit: 'Editar',
    delete: 'Eliminar',
    saved: 'Credenciales push guardadas.',
    deleted: 'Credenciales push eliminadas.',
    deleteTitle: '¿Eliminar estas credenciales?',
    deleteBody: {
      apns: 'Se eliminará la clave de APNs de {{app}}: sus dispositivos iOS no recibirán push hasta que se configure otra.',
      fcm: 'Se eliminará la cuenta de servicio de {{app}}: sus dispositivos Android no recibirán push hasta que se configure otra.',
    },
    provider: {
      apns: 'Apple Push Notification service (APNs)',
      fcm: 'Firebase Cloud Messaging (FCM)',
    },
    platform: {
      apns: 'iOS',
      fcm: 'Android',
    },
    customEndpoint: 'Dirección personalizada fijada por el servidor: {{endpoint}}',
    apnsTitle: 'Clave de APNs',
    apnsIntro: 'Crea una clave con el servicio Apple Push Notifications activado en tu cuenta de Apple Developer (Certificates, Identifiers & Profiles › Keys) y descarga su archivo .p8.',
    fcmTitle: 'Cuenta de servicio de FCM',
    fcmIntro: 'En la consola de Firebase, abre Configuración del proyecto › Cuentas de servicio y genera una nueva clave privada: se descargará un archivo .json.',
    fields: {
      keyId: 'ID de la clave',
      teamId: 'ID del equipo',
      bundleId: 'Bundle ID',
      environment: 'Entorno',
      privateKeyPem: 'Clave privada (.p8)',
      serviceAccount: 'Cuenta de servicio (.json)',
      projectId: 'Proyecto',
      clientEmail: 'Cuenta de servicio',
    },
    environment: {
      production: 'Producción',
      sandbox: 'Sandbox',
    },
    environmentHint: {
      production: 'Apps de la App Store y de TestFlight.',
      sandbox: 'Compilaciones de desarrollo lanzadas desde Xcode.',
    },
    keyIdHint: 'Diez letras y dígitos, junto a la clave.',
    teamIdHint: 'Diez letras y dígitos, arriba a la derecha en tu cuenta de desarrollador.',
    chooseFile: 'Elegir archivo',
    keyPlaceholder: '-----BEGIN PRIVATE KEY-----',
    keyHint: 'Pega el contenido del archivo .p8 o elige el archivo.',
    keyKeepHint: 'Déjalo vacío para conservar la clave guardada (posible cuando solo cambia el entorno).',
    keyRequiredAgain: 'Cambió el ID de la clave, del equipo o el bundle ID: hace falta la clave de nuevo.',
    serviceAccountPlaceholder: '{ "type": "service_account", … }',
    serviceAccountHint: 'Pega el contenido del archivo .json o elige el archivo.',
    appleId: 'Diez letras y dígitos.',
    bundleIdFormat: 'Un bundle ID como com.example.app.',
    fileUnreadable: 'No se pudo leer el archivo.',
    issue: {
      invalid_key: 'No es el tipo de clave correcto (APNs necesita el archivo .p8; FCM, la clave privada de la cuenta de servicio).',
      key_required: 'Introduce la clave: cambió el ID de la clave, del equipo o el bundle ID, o no hay ninguna guardada.',
      not_service_account: 'No es un archivo de cuenta de servicio de Google: necesita project_id, client_email y private_key.',
      token_uri: 'Esta cuenta de servicio indica una dirección de tokens que no es la de Google.',
      invalid_settings: 'Un ajuste de esta cuenta de servicio no es válido (client_email debe ser una dirección de correo).',
    },
  },
};
