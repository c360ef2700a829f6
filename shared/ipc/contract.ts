import type { z } from 'zod';
import { auditChannels } from './channels/audit';
import { caseChannels } from './channels/case';
import { claimChannels } from './channels/claims';
import { computationChannels } from './channels/computations';
import { decisionChannels } from './channels/decisions';
import { drillChannels } from './channels/drill';
import { evidenceChannels } from './channels/evidence';
import { gateChannels } from './channels/gate';
import { graphChannels } from './channels/graph';
import { importJobChannels } from './channels/importJobs';
import { interchangeChannels } from './channels/interchange';
import { provenanceChannels } from './channels/provenance';
import { remediationChannels } from './channels/remediation';
import { reviewChannels } from './channels/review';
import { revocationChannels } from './channels/revocation';
import { searchChannels } from './channels/search';
import { sourceChannels } from './channels/sources';
import { stixChannels } from './channels/stix';
import { teamChannels } from './channels/team';
import { timelineChannels } from './channels/timeline';
import { whatIfChannels } from './channels/whatIf';
import type { Envelope } from './envelope';

export interface ChannelSpec {
  request: z.ZodType;
  response: z.ZodType;
}

/** Every channel of the workbench: name → zod request and response schema. Domain first. */
export const contract = {
  ...caseChannels,
  ...evidenceChannels,
  ...claimChannels,
  ...computationChannels,
  ...sourceChannels,
  ...provenanceChannels,
  ...interchangeChannels,
  ...importJobChannels,
  ...stixChannels,
  ...searchChannels,
  ...graphChannels,
  ...timelineChannels,
  ...whatIfChannels,
  ...decisionChannels,
  ...reviewChannels,
  ...gateChannels,
  ...revocationChannels,
  ...remediationChannels,
  ...auditChannels,
  ...drillChannels,
  ...teamChannels,
} as const satisfies Record<string, ChannelSpec>;

export type Contract = typeof contract;
export type Channel = keyof Contract;
/** What a caller sends (defaults may be omitted). */
export type RequestOf<C extends Channel> = z.input<Contract[C]['request']>;
/** What a handler receives, after parsing and defaults. */
export type ParsedRequestOf<C extends Channel> = z.output<Contract[C]['request']>;
export type ResponseOf<C extends Channel> = z.output<Contract[C]['response']>;

export const CHANNELS = Object.keys(contract) as Channel[];

export const isChannel = (name: string): name is Channel =>
  Object.prototype.hasOwnProperty.call(contract, name);

/** One request over a transport (Electron IPC or the loopback host), answered with the handler's envelope. */
export type Invoke = <C extends Channel>(channel: C, request: RequestOf<C>) => Promise<Envelope<ResponseOf<C>>>;

/** window.workbench as the Electron preload exposes it: the contract's channels and one invoke over them. */
export interface PreloadApi {
  readonly transport: 'electron';
  readonly channels: readonly Channel[];
  readonly invoke: Invoke;
  /** The path of a file dropped on or picked in the window (Electron's webUtils.getPathForFile). */
  readonly pathForFile: (file: File) => string;
  /** Menu commands the main process sends (File > Import… carries the chosen path). */
  readonly onMenuCommand: (listener: (command: MenuCommand) => void) => () => void;
}

/** What the native menu asks the window to do. */
export type MenuCommand = { kind: 'import'; path: string } | { kind: 'export' };
export const MENU_COMMAND_CHANNEL = 'workbench:menu-command';
