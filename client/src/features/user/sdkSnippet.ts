/** The short SDK snippet of the setup page, per platform. Code, not prose: not translated. */
import type { AppOs } from '@gd/shared/enums';

export const SDK_PLATFORMS = ['ios', 'android', 'web'] as const;
export type SdkPlatform = (typeof SDK_PLATFORMS)[number];

export function platformForOs(os: AppOs): SdkPlatform {
  if (os === 'iOS') return 'ios';
  if (os === 'Android') return 'android';
  return 'web';
}

export function sdkSnippet(platform: SdkPlatform, appKey: string): string {
  switch (platform) {
    case 'ios':
      return `import Growthdeck\n\nGrowthdeck.start(appKey: "${appKey}")\nGrowthdeck.track("register")`;
    case 'android':
      return `import com.growthdeck.Growthdeck\n\nGrowthdeck.start(applicationContext, appKey = "${appKey}")\nGrowthdeck.track("register")`;
    case 'web':
      return `import { Growthdeck } from '@growthdeck/web';\n\nGrowthdeck.start({ appKey: '${appKey}' });\nGrowthdeck.track('register');`;
    default: {
      const never: never = platform;
      return never;
    }
  }
}
