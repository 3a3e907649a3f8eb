/** Spanish texts of the behaviour screens (see ./en.ts). */
import type { Widen } from '../en.ts';
import type { behaviourEn } from './en.ts';

export const behaviourEs: Widen<typeof behaviourEn> = {
  builtInEvent: {
    install: 'Instalación',
    register: 'Registro',
    login: 'Primer login',
    login2: 'Login',
    start_session: 'Inicio de sesión',
    end_session: 'Fin de sesión',
    transaction: 'Venta',
    uninstall: 'Desinstalación',
    reinstall: 'Reinstalación',
    reopen: 'Apertura',
    retargeting_open: 'Apertura por retargeting',
    auto_event: 'Evento automático',
  },
};
