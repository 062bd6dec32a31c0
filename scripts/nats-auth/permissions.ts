import { type BusNames, busNames, inboxPrefixFor, PAYLOAD_STREAM, PAYLOAD_SUBJECT } from '@coin/bus';
import {
  allBroadcasts,
  allOperations,
  type Caller,
  EVENT_CONSUMERS,
  EVENT_SUBJECTS,
  type ServiceName,
} from '@coin/contracts';
import { parkedNames } from '@coin/events';

/** Every NATS user kind: a service, the gateway, and the operator's parked-events command. */
export type Role = Caller | 'operator';

const SERVICES: readonly ServiceName[] = [...new Set(allOperations.map((op) => op.service))];
export const ROLES: readonly Role[] = ['gateway', ...SERVICES, 'operator'];

export interface Permissions {
  publish: string[];
  subscribe: string[];
  /** May answer the requests it received (and nothing else on reply subjects). */
  allowResponses: boolean;
}

const API = '$JS.API';

/** Pulling from and acknowledging one durable the operator created, and reading its state. */
function durableConsumer(stream: string, durable: string): string[] {
  return [
    `${API}.CONSUMER.INFO.${stream}.${durable}`,
    `${API}.CONSUMER.MSG.NEXT.${stream}.${durable}`,
    `$JS.ACK.${stream}.${durable}.>`,
  ];
}

/**
 * Requests or replies over max_payload travel through the payload stream (libs/bus), encrypted: a
 * chunk is stored on its own subject and read back by that subject alone, never by sequence (no
 * `DIRECT.GET.<stream>` with a body, no `STREAM.MSG.GET`), and never purged or deleted.
 */
const largePayloads = [
  `${API}.STREAM.INFO.${PAYLOAD_STREAM}`,
  `${API}.DIRECT.GET.${PAYLOAD_STREAM}.${PAYLOAD_SUBJECT}.>`,
  `${PAYLOAD_SUBJECT}.>`,
];

/**
 * The operator's set-up (`npm run bus:setup`) administers the streams of its namespace and the
 * shared payload stream: it creates and updates them and every durable (the services may not).
 */
function administration(events: string, parked: string): string[] {
  return [
    ...[events, parked, PAYLOAD_STREAM].flatMap((s) => [
      `${API}.STREAM.INFO.${s}`,
      `${API}.STREAM.CREATE.${s}`,
      `${API}.STREAM.UPDATE.${s}`,
    ]),
    // An earlier release's payload stream lived in memory; the storage cannot change in place.
    `${API}.STREAM.DELETE.${PAYLOAD_STREAM}`,
    `${API}.CONSUMER.CREATE.${events}.>`,
    `${API}.CONSUMER.DURABLE.CREATE.${events}.>`,
    `${API}.CONSUMER.INFO.${events}.>`,
    `${API}.STREAM.NAMES`,
  ];
}

function discovery(names: BusNames, service: string): string[] {
  return ['PING', 'INFO', 'STATS'].flatMap((verb) => [
    `$SRV.${verb}`,
    `$SRV.${verb}.${names.micro(service)}`,
    `$SRV.${verb}.${names.micro(service)}.*`,
  ]);
}

/** The service of an `events.<service>.<fact>` or `bcast.<service>.<hint>` subject. */
function ownerOf(subject: string): string {
  return subject.split('.')[1];
}

/**
 * What one role may do, derived from the contracts: the operations it serves (its own subjects,
 * answered only by it) and those whose `callers` name it; reading the events stream's state; the
 * events it publishes (its own `events.<service>.` subjects) and the durables it consumes
 * (EVENT_CONSUMERS), which it may pull from, acknowledge and park from, nothing more; the hints it
 * sends or hears; and its own reply inboxes. No service administers JetStream: the operator does.
 */
function permissionsOf(role: Role, namespace: string, publicKey: string): Permissions {
  const names = busNames(namespace);
  const events = names.stream;
  const parked = parkedNames(names);
  const publish = new Set<string>();
  const subscribe = new Set<string>([`${inboxPrefixFor(publicKey)}.>`]);
  const add = (set: Set<string>, subjects: readonly string[]) => {
    for (const s of subjects) set.add(s);
  };

  if (role === 'operator') {
    // `npm run bus:setup`; `npm run parked -- events`: lists parked events, replays one on its
    // original subject, removes it.
    add(publish, [
      `${API}.INFO`,
      ...administration(events, parked.stream),
      `${API}.DIRECT.GET.${parked.stream}`,
      `${API}.DIRECT.GET.${parked.stream}.>`,
      `${API}.STREAM.MSG.DELETE.${parked.stream}`,
      names.event('events.>'),
    ]);
    return { publish: [...publish], subscribe: [...subscribe], allowResponses: false };
  }

  add(publish, [`${API}.INFO`, ...largePayloads]);
  for (const op of allOperations) if (op.callers.includes(role)) publish.add(names.subject(op.subject));

  if (role === 'gateway') {
    // Readiness asks every service's replicas for a PING.
    for (const s of SERVICES) publish.add(`$SRV.PING.${names.micro(s)}`);
    return { publish: [...publish], subscribe: [...subscribe], allowResponses: false };
  }

  for (const op of allOperations) if (op.service === role) subscribe.add(names.subject(op.subject));
  add(subscribe, discovery(names, role));

  const publishesEvents = Object.values(EVENT_SUBJECTS).some((s) => ownerOf(s) === role);
  const consumers = Object.values(EVENT_CONSUMERS).filter((c) => c.service === role);
  if (publishesEvents) publish.add(names.event(`events.${role}.>`));
  // Every service checks at start that the operator's set-up made the stream (libs/startup).
  publish.add(`${API}.STREAM.INFO.${events}`);
  // Parking stores a copy on the durable's own parked subject; the gauge reads the parked stream's state.
  if (consumers.length > 0) publish.add(`${API}.STREAM.INFO.${parked.stream}`);
  for (const c of consumers)
    add(publish, [...durableConsumer(events, names.durable(c.durable)), parked.subject(c.durable)]);

  for (const b of allBroadcasts) {
    if (ownerOf(b.subject) === role) publish.add(names.subject(b.subject));
    if (b.listeners.includes(role)) subscribe.add(names.subject(b.subject));
  }
  return { publish: [...publish], subscribe: [...subscribe], allowResponses: true };
}

export interface NatsUser {
  role: Role;
  /** The user's public nkey (`U…`); its seed stays with the process. */
  publicKey: string;
}

/**
 * The `authorization` block of nats-server's configuration (included by the main file): one nkey
 * user per credential with its role's permissions. Anything not listed is refused, and so is a
 * connection without credentials.
 */
export function authorizationConfig(users: readonly NatsUser[], namespace: string): string {
  const list = (subjects: readonly string[]) =>
    `[\n${subjects.map((s) => `          ${JSON.stringify(s)}`).join(',\n')}\n        ]`;
  const entries = users.map(({ role, publicKey }) => {
    const p = permissionsOf(role, namespace, publicKey);
    return [
      `    # ${role}`,
      '    {',
      `      nkey: ${JSON.stringify(publicKey)}`,
      '      permissions: {',
      `        publish: { allow: ${list(p.publish)} }`,
      `        subscribe: { allow: ${list(p.subscribe)} }`,
      ...(p.allowResponses ? ['        allow_responses: true'] : []),
      '      }',
      '    }',
    ].join('\n');
  });
  return [
    `# Generated by \`npm run nats:auth\` from libs/contracts (namespace "${namespace}"): do not edit.`,
    'authorization {',
    '  users: [',
    entries.join('\n'),
    '  ]',
    '}',
    '',
  ].join('\n');
}
