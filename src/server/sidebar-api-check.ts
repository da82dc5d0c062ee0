/**
 * Compile-time proof that the server's entry (main) exports every function the sidebar calls, with the
 * contract's signature. Renaming or re-typing a global breaks `tsc -p tsconfig.json` here.
 * (setSchedule takes `unknown` on the server because it validates what arrives.)
 */
import type { SidebarServerApi } from '../contract/server-api';
import type * as Main from './main';

type Exported = Pick<typeof Main, keyof SidebarServerApi>;
type Conforms<
  T extends {
    [K in keyof SidebarServerApi]: (...args: Parameters<SidebarServerApi[K]>) => ReturnType<SidebarServerApi[K]>;
  },
> = T;

export type SidebarGlobalsConform = Conforms<Exported>;
