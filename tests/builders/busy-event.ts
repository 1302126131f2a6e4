// One event of a busy verbose-level Winsock trace (sends and receives on a few endpoints),
// numbered n: what the larger traces the tests generate are made of.
import type { AfdEventInput } from './etl-writer.ts';
import { afdId } from './afd-vocabulary.ts';

const SEND = afdId('AfdSend');
const RECEIVE = afdId('AfdReceive');

export function busyEvent(n: number, cpu: number, time: bigint, endpoints: number): AfdEventInput {
	return {
		cpu,
		time,
		pid: 4000 + (n % 5),
		tid: 5000 + (n % 9),
		id: n % 2 ? RECEIVE : SEND,
		values: {
			EnterExit: n % 3 === 0 ? 0 : 1,
			Location: 3,
			Process: 0xffffa50c1a000000n + BigInt(n % 5),
			Endpoint: 0xffffa50c1e000000n + BigInt((n % endpoints) * 0x100),
			BufferCount: 1,
			Buffer: 0x1000n,
			BufferLength: 100 + (n % 1400),
			Status: 0,
		},
	};
}
