// What every writer of Winsock-AFD traces names, taken from the app's generated tables
// (web/src/generated/, written from schema/) rather than copied: event ids by their manifest names,
// the Locations sources name, address families, socket types, protocols and NTSTATUS values.
import {
	ADDRESS_FAMILIES,
	IP_PROTOCOLS,
	NTSTATUS,
	SOCKET_TYPES,
} from '../../web/src/generated/codes.ts';
import { AFD_LOCATIONS } from '../../web/src/generated/afd-semantics.ts';
import { EVENT_SCHEMAS, PROVIDERS } from '../../web/src/generated/schemas.ts';

/** The value a generated table gives a name; throws when the table has no such name. */
function valueNamed(table: Readonly<Record<number, string>>, name: string): number {
	for (const [value, n] of Object.entries(table)) if (n === name) return Number(value);
	throw new Error(`no generated value is named ${name}`);
}

function ntstatus(name: string): number {
	for (const [value, info] of Object.entries(NTSTATUS))
		if (info.name === name) return Number(value);
	throw new Error(`no NTSTATUS is named ${name}`);
}

export const AF_UNIX = valueNamed(ADDRESS_FAMILIES, 'AF_UNIX');
export const AF_INET = valueNamed(ADDRESS_FAMILIES, 'AF_INET');
export const AF_INET6 = valueNamed(ADDRESS_FAMILIES, 'AF_INET6');
export const SOCK_STREAM = valueNamed(SOCKET_TYPES, 'SOCK_STREAM');
export const SOCK_DGRAM = valueNamed(SOCKET_TYPES, 'SOCK_DGRAM');
export const IPPROTO_TCP = valueNamed(IP_PROTOCOLS, 'IPPROTO_TCP');
export const IPPROTO_UDP = valueNamed(IP_PROTOCOLS, 'IPPROTO_UDP');

export const STATUS_SUCCESS = ntstatus('STATUS_SUCCESS');
export const STATUS_CANCELLED = ntstatus('STATUS_CANCELLED');
export const STATUS_IO_TIMEOUT = ntstatus('STATUS_IO_TIMEOUT');
export const STATUS_TOO_MANY_ADDRESSES = ntstatus('STATUS_TOO_MANY_ADDRESSES');
export const STATUS_ADDRESS_ALREADY_EXISTS = ntstatus('STATUS_ADDRESS_ALREADY_EXISTS');
export const STATUS_CONNECTION_RESET = ntstatus('STATUS_CONNECTION_RESET');
export const STATUS_CONNECTION_REFUSED = ntstatus('STATUS_CONNECTION_REFUSED');
export const STATUS_NETWORK_UNREACHABLE = ntstatus('STATUS_NETWORK_UNREACHABLE');

/** The NTSTATUS name of a value, or undefined when the tables have none. */
export function ntstatusName(status: number): string | undefined {
	return NTSTATUS[status]?.name;
}

const AFD_PROVIDER = PROVIDERS.find((p) => p.name === 'Microsoft-Windows-Winsock-AFD')!.code;

/** Winsock-AFD event ids by their manifest names (AfdCreate → 1000, SocketCreate → 1, …). */
export const AFD: Readonly<Record<string, number>> = Object.fromEntries(
	EVENT_SCHEMAS.filter((e) => e.provider === AFD_PROVIDER).map((e) => [e.name, e.id]),
);

/** AFD event ids whose payload names its process (all but a few RIO events). */
export const AFD_WITH_PROCESS: ReadonlySet<number> = new Set(
	EVENT_SCHEMAS.filter(
		(e) => e.provider === AFD_PROVIDER && e.fields.some((f) => f.name === 'Process'),
	).map((e) => e.id),
);

/** The id of the AFD event with this manifest name; throws for a name the manifest lacks. */
export function afdId(name: string): number {
	const id = AFD[name];
	if (id === undefined) throw new Error(`the Winsock-AFD manifest has no event ${name}`);
	return id;
}

/** Location codes (enter, exit) a writer logs for each event id. */
export type LocationTable = Readonly<Record<number, readonly [number, number]>>;

/** What a writer logs for an event its table leaves out: Locations no source lists. */
export const UNLISTED_LOCATIONS: readonly [number, number] = [1, 2];

/** A Location code a source names (schema/winsock-semantics.json); throws for one it does not. */
export function sourced(code: number): number {
	if (!AFD_LOCATIONS[code]) throw new Error(`no source names Location ${code}`);
	return code;
}
