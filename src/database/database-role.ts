/**
 * Who opens an embedded database: the service owns its data directory and
 * serves it to other processes; a command connects to the service that owns
 * it, or opens the directory itself when no service runs.
 */
export type DatabaseRole = 'service' | 'command';
