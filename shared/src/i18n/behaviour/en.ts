/**
 * English texts of the behaviour screens (people, events, the event catalogue, explore) and of
 * the built-in events. Spread into the main catalogue; es.ts and to.ts of this folder mirror it.
 */
export const behaviourEn = {
  builtInEvent: {
    install: 'Install',
    register: 'Register',
    login: 'First login',
    login2: 'Login',
    start_session: 'Start session',
    end_session: 'End session',
    transaction: 'Sale',
    uninstall: 'Uninstall',
    reinstall: 'Reinstall',
    reopen: 'Opening',
    retargeting_open: 'Retargeting open',
    auto_event: 'Automatic event',
  },
};
