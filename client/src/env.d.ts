/// <reference types="vite/client" />

/** Build hash (git commit or a hash of the build time), defined by Vite. Stamps the session memory. */
declare const __BUILD_HASH__: string;

interface ImportMetaEnv {
  /** API base URL override; blank in a production build derives `ws.<host>` from the page host. */
  readonly VITE_API_BASE?: string;
}
interface ImportMeta {
  readonly env: ImportMetaEnv;
}
