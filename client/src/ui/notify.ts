import { notifications } from '@mantine/notifications';
import type { TFunction } from '../i18n/keys.ts';
import { errorText } from './errorText.ts';

export const notifySuccess = (message: string) => notifications.show({ color: 'teal', message, autoClose: 3500 });
export const notifyError = (t: TFunction, error: unknown) => notifications.show({ color: 'red', title: t('common.failed'), message: errorText(t, error), autoClose: 6000 });
