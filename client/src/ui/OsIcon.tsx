import { IconBrandAndroid, IconBrandApple, IconBrandWindows, IconDeviceMobile, IconWorld } from '@tabler/icons-react';
import type { AppOs } from '@gd/shared/enums';

/** The icon of an app's operating system or platform. */
export function OsIcon({ os, size = 16 }: { os: AppOs; size?: number }) {
  switch (os) {
    case 'iOS':
      return <IconBrandApple size={size} aria-hidden />;
    case 'Android':
      return <IconBrandAndroid size={size} aria-hidden />;
    case 'Windows Phone':
      return <IconBrandWindows size={size} aria-hidden />;
    case 'Web':
    case 'iOS Web':
    case 'Android Web':
    case 'Windows Phone Web':
      return <IconWorld size={size} aria-hidden />;
    case 'Other':
      return <IconDeviceMobile size={size} aria-hidden />;
    default: {
      const never: never = os;
      return never;
    }
  }
}
