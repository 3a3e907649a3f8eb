/** Spanish core texts of signing in: the password rule, login, register, forgot and reset password, auto-login (see ./auth.en.ts). */
import type { Widen } from '../en.ts';
import type { authEn } from './auth.en.ts';

export const authEs: Widen<typeof authEn> = {
  password: {
    rules: {
      title: 'Reglas de la contraseña',
      length: 'Al menos {{min}} caracteres',
      upper: 'Una letra mayúscula',
      lower: 'Una letra minúscula',
      digit: 'Un dígito',
      special: 'Un carácter especial, como ! ? # $ % o *',
      met: 'cumplida',
    },
  },
  auth: {
    backToLogin: 'Volver a entrar',
    login: {
      title: 'Entrar',
      subtitle: 'Hola de nuevo. Entra en tu cuenta.',
      submit: 'Entrar',
      forgot: '¿Has olvidado tu contraseña?',
      noAccount: '¿Eres nuevo en Growthdeck?',
      register: 'Crea una cuenta',
      expired: 'Tu sesión ha caducado. Vuelve a entrar para continuar.',
    },
    register: {
      title: 'Crea tu cuenta',
      subtitle: 'Configura Growthdeck para tu equipo en un minuto.',
      submit: 'Crear cuenta',
      haveAccount: '¿Ya tienes una cuenta?',
      accountHint: 'Normalmente tu empresa o tu equipo',
      planRequired: 'Elige un plan',
    },
    forgot: {
      title: 'Restablece tu contraseña',
      subtitle: 'Introduce el e-mail de tu cuenta y te enviaremos un enlace para elegir una contraseña nueva.',
      submit: 'Enviar el enlace',
      sentTitle: 'Revisa tu correo',
      sent: 'Si existe una cuenta para {{email}}, le hemos enviado un enlace para restablecer la contraseña. El enlace es válido durante una hora.',
    },
    reset: {
      title: 'Elige una contraseña nueva',
      subtitle: 'La contraseña nueva sustituye a la anterior y cierra tu sesión en todos los dispositivos.',
      submit: 'Guardar la contraseña nueva',
      doneTitle: 'Contraseña cambiada',
      done: 'Tu contraseña se ha cambiado. Entra con la nueva.',
      requestNew: 'Pedir un enlace nuevo',
    },
    autoLogin: {
      title: 'Iniciando tu sesión',
      failed: 'Este enlace de acceso no ha funcionado',
      missing: 'Este enlace de acceso está incompleto. Vuelve a abrir el enlace de tu e-mail.',
    },
    logout: { progress: 'Cerrando tu sesión…' },
    info: {
      continue: 'Ir a entrar',
      legacy: {
        title: 'La interfaz clásica se ha retirado',
        body: 'Todo lo que usabas en la interfaz clásica forma parte ahora de esta aplicación, con el mismo e-mail y la misma contraseña. Pega una dirección antigua para encontrar su nuevo sitio.',
        address: 'Dirección antigua',
        find: 'Buscar',
        movedTo: 'Ahora está en {{screen}}',
        unknown: 'No conocemos esa dirección. Abajo verás dónde está ahora cada área.',
        whereNow: 'Dónde está cada cosa ahora',
      },
    },
  },
};
