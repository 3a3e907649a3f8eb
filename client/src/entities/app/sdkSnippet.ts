/** The short SDK snippet of the setup page, per platform. Code, not prose: not translated. */
import type { AppOs } from '@gd/shared/enums';

export const SDK_PLATFORMS = ['ios', 'android', 'web'] as const;
export type SdkPlatform = (typeof SDK_PLATFORMS)[number];

export function platformForOs(os: AppOs): SdkPlatform {
  if (os === 'iOS') return 'ios';
  if (os === 'Android') return 'android';
  return 'web';
}

/** `origin`: where this product is served; the web SDK loads from `${origin}/sdk/growthdeck.js` and sends to `${origin}/api`. */
export function sdkSnippet(platform: SdkPlatform, appKey: string, origin = 'https://growthdeck.example'): string {
  switch (platform) {
    case 'ios':
      return `import Growthdeck\n\nGrowthdeck.start(appKey: "${appKey}")\nGrowthdeck.track("register")`;
    case 'android':
      return `import com.growthdeck.Growthdeck\n\nGrowthdeck.start(applicationContext, appKey = "${appKey}")\nGrowthdeck.track("register")`;
    case 'web':
      return `<script src="${origin}/sdk/growthdeck.js"></script>\n<script>\n  const gd = Growthdeck.createTracker({ appKey: '${appKey}', endpoint: '${origin}/api' });\n  gd.track('register');\n</script>`;
    default: {
      const never: never = platform;
      return never;
    }
  }
}
