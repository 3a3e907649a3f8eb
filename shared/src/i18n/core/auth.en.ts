/** English core texts of signing in: the password rule, login, register, forgot and reset password, auto-login. Part of `enCore` (../en.ts), bundled with the login page. */
export const authEn = {
  password: {
    rules: {
      title: 'Password rules',
      length: 'At least {{min}} characters',
      upper: 'An upper-case letter',
      lower: 'A lower-case letter',
      digit: 'A digit',
      special: 'A special character, such as ! ? # $ % or *',
      met: 'done',
    },
  },
  auth: {
    backToLogin: 'Back to sign in',
    login: {
      title: 'Sign in',
      subtitle: 'Welcome back. Sign in to your account.',
      submit: 'Sign in',
      forgot: 'Forgot your password?',
      noAccount: 'New to Growthdeck?',
      register: 'Create an account',
      expired: 'Your session has expired. Sign in again to continue.',
    },
    register: {
      title: 'Create your account',
      subtitle: 'Set up Growthdeck for your team in a minute.',
      submit: 'Create account',
      haveAccount: 'Already have an account?',
      accountHint: 'Usually your company or team',
      planRequired: 'Choose a plan',
    },
    forgot: {
      title: 'Reset your password',
      subtitle: 'Enter the e-mail address of your account and we will send you a link to choose a new password.',
      submit: 'Send the link',
      sentTitle: 'Check your inbox',
      sent: 'If an account exists for {{email}}, we have sent it a link to reset the password. The link is valid for one hour.',
    },
    reset: {
      title: 'Choose a new password',
      subtitle: 'Your new password replaces the old one and signs you out everywhere.',
      submit: 'Set the new password',
      doneTitle: 'Password changed',
      done: 'Your password has been changed. Sign in with the new one.',
      requestNew: 'Request a new reset link',
    },
    autoLogin: {
      title: 'Signing you in',
      failed: 'This sign-in link did not work',
      missing: 'This sign-in link is incomplete. Open the link from your e-mail again.',
    },
    logout: { progress: 'Signing you out…' },
    info: {
      continue: 'Go to sign in',
      legacy: {
        title: 'The classic interface has been retired',
        body: 'Everything you used in the classic interface is now part of this app, with the same e-mail and password. Paste an old address to find its new place.',
        address: 'A classic address',
        find: 'Find',
        movedTo: 'It is now {{screen}}',
        unknown: 'We do not know that address. The areas below list where everything lives now.',
        whereNow: 'Where things are now',
      },
    },
  },
};
