/**
 * The one way this product opens outgoing connections (api-server/CONTEXT.md "Outgoing
 * connections"; the lint rule in eslint.config.js keeps other code from opening any): HTTP(S)
 * through `guardedRequest`, FTP and SFTP through `connectFtp`/`connectSftp`, raw TCP through
 * `guardedConnect`. Every one checks the address it connects to at connect time.
 */
export { allowList, checkedAddresses, embeddedIpv4, isRefusedAddress, systemResolver, type ResolvedAddress, type Resolver } from './addresses.ts';
export { NetError, type NetFailureReason } from './errors.ts';
export { FTPError, connectFtp, connectSftp, type FileServerLogin, type FtpClient, type SftpClient, type SftpConnection } from './fileServers.ts';
export { HostKeyMismatch, hostKeyFingerprint, hostKeyOnSave, type SftpServer } from './hostKeys.ts';
export { REQUEST_DEFAULTS, guardedRequest, readBody, type GuardedRequestOptions, type GuardedResponse } from './http.ts';
export { netPolicy, publicOnly, type NetPolicy } from './policy.ts';
export { guardedConnect, guardedLookup, guardedSocket, limitedStream, type StreamLimits } from './socket.ts';
