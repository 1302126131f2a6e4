// The owners table's shape lives in columns/event-owners.ts (the query layer joins it too); the
// tracker names it from here.
export type { EndpointOwners, EventOwners, OwnerSource } from '../columns/event-owners.ts';
